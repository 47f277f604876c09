"""The CPU a worker burns with nobody on the site: its background tasks' polls (the turn worker,
the tournaments' clock, the outbox, the reviews' queue and child). Two checkouts in one run:
before → after, as a ratio.

    python -m benchmarks.idle --before PATH [--after PATH] [--rounds 3] [--seconds 30]
                              [--tests-env]

`PATH` is a checkout of this project (a `git worktree add` of the commit to compare with);
`--after` defaults to this one. Each round starts one daphne worker of each checkout in turn
(the two alternating, so the machine's load falls on both alike), on a fresh SQLite database
that checkout migrated, waits for it to settle, then reads the CPU (user + system) of the worker
and its children over `--seconds`. The settings are production's (DEBUG off), each checkout's
defaults; with `--tests-env`, those of the sites the checkout's browser tests start
(`tests/browser/conftest.py`'s TEST_ENV: every such site lives to the end of the suite). Prints
each checkout's median % of a core and after/before.
"""

import argparse
import json
import os
import secrets
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.site import free_port, process_cpu_seconds

ROOT = Path(__file__).resolve().parent.parent
SETTLE_S = 10  # startup work (imports, the review child's start) left out of the reading


def tests_env(checkout: Path) -> dict:
    """The settings the checkout's browser tests give their sites."""
    done = subprocess.run(
        [sys.executable, "-c", "import json; from tests.browser.conftest import TEST_ENV;"
         " print(json.dumps(TEST_ENV))"],
        cwd=checkout, env=_clean(os.environ), check=True, capture_output=True, text=True,
    )  # fmt: skip
    return json.loads(done.stdout.strip().splitlines()[-1])


def _clean(env) -> dict:
    """Without PYTHONDONTWRITEBYTECODE: a worker compiling the project on every start would
    count its compiling."""
    return {key: value for key, value in env.items() if key != "PYTHONDONTWRITEBYTECODE"}


def idle_percent(checkout: Path, extra: dict, seconds: float) -> float:
    """One reading: % of a core a worker of `checkout` and its children burn while idle."""
    folder = Path(tempfile.mkdtemp(prefix="idle-"))
    env = _clean(
        {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "biblios_site.settings",
            "DEBUG": "0",
            "SECRET_KEY": secrets.token_urlsafe(48),
            "ALLOWED_HOSTS": "127.0.0.1",
            "SECURE_SSL_REDIRECT": "0",
            "DATABASE_URL": f"sqlite:///{folder / 'site.sqlite3'}",
            **extra,
        }
    )
    env.pop("REDIS_URL", None)
    env.pop("PYTHONPATH", None)
    run = {"cwd": checkout, "env": env}
    subprocess.run([sys.executable, "manage.py", "migrate", "--noinput", "-v0"], check=True, **run)
    port = free_port()
    with (folder / "daphne.log").open("wb") as log:
        worker = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
             "biblios_site.asgi:application"],
            stdout=log, stderr=subprocess.STDOUT, **run,
        )  # fmt: skip
    try:
        time.sleep(SETTLE_S)
        if worker.poll() is not None:
            raise RuntimeError(f"the worker of {checkout} exited; see {folder / 'daphne.log'}")
        before, started = cpu_seconds(worker.pid), time.monotonic()
        time.sleep(seconds)
        percent = 100 * (cpu_seconds(worker.pid) - before) / (time.monotonic() - started)
    finally:
        worker.terminate()
        worker.wait(timeout=10)
    shutil.rmtree(folder)  # kept, with the worker's log, when the reading failed
    return percent


def cpu_seconds(pid: int) -> float:
    """User + system CPU of `pid` and its live children (Linux /proc)."""
    children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
    return sum(process_cpu_seconds(process) for process in [pid, *map(int, children)])


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", type=Path, required=True)
    parser.add_argument("--after", type=Path, default=ROOT)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--tests-env", action="store_true")
    args = parser.parse_args(argv)
    trees = {"before": args.before.resolve(), "after": args.after.resolve()}
    extra = {name: tests_env(tree) if args.tests_env else {} for name, tree in trees.items()}
    readings = {name: [] for name in trees}
    for round_ in range(args.rounds):
        for name, tree in trees.items():
            readings[name].append(idle_percent(tree, extra[name], args.seconds))
            print(f"round {round_ + 1} {name}: {readings[name][-1]:.1f}% of a core", flush=True)
    medians = {name: statistics.median(values) for name, values in readings.items()}
    for name, tree in trees.items():
        print(f"{name} ({tree}): median {medians[name]:.1f}% of a core while idle")
    print(f"after/before: {medians['after'] / medians['before']:.2f}")


if __name__ == "__main__":
    main()
