"""The site a benchmark measures, on this machine: daphne workers on free localhost ports with
production settings (DEBUG off), their database set up, and players and tables written to it
directly (`open_tables` goes through the services, for any installed kind). Used by the load and
render benchmarks and by the reliability and deployment tests that run real workers.
"""

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def site_env(database_url: str, redis_url: str = "", **extra) -> dict:
    """Production settings (DEBUG off) for local daphne workers, plus the echo socket."""
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "biblios_site.settings",
        "DEBUG": "0",
        "SECRET_KEY": os.environ.get("BENCHMARK_SECRET_KEY") or secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SECURE_SSL_REDIRECT": "0",  # plain HTTP on localhost, no proxy in front
        # Every simulated browser logs in from 127.0.0.1: the per-address limit would refuse
        # them, while a real site's visitors come from many addresses. So would the pages' limit
        # and the shedder's share per client (a player's first request, before the worker has
        # seen their token or session, counts as the address).
        "RATE_LIMIT_LOGINS": "100000/1",
        "RATE_LIMIT_PAGES": "100000/1",
        "MAX_INFLIGHT_PER_CLIENT": "100000",
        "DATABASE_URL": database_url,
        "PYTHONPATH": str(ROOT),
        **extra,
    }
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    return env


# No access log: it costs the worker CPU; errors are still logged.
QUIET = ("--verbosity", "0")


def process_cpu_seconds(pid: int) -> float:
    """CPU time (user + system) process `pid` has used so far, 0 once it is gone (Linux /proc)."""
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():
        return 0.0
    # Fields 14 and 15 (utime, stime), counted after the parenthesised name.
    fields = stat.read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Workers:
    """Daphne worker processes on free localhost ports, each logging to its own file; `options`
    are daphne's (tests/deploy runs them as docs/deploy.md does, behind its proxy)."""

    def __init__(self, count: int, env: dict, log_dir: Path, options: tuple = QUIET):
        self.env, self.log_dir, self.options = env, log_dir, options
        self.ports = [free_port() for _ in range(count)]
        self.processes: list[subprocess.Popen | None] = [None] * count
        self.starts = 0

    def start(self, index: int | None = None) -> None:
        """Start one worker (or all) and wait until it answers HTTP."""
        for i in range(len(self.ports)) if index is None else [index]:
            self.starts += 1
            log = open(self.log_dir / f"worker-{i}-{self.starts}.log", "wb")  # noqa: SIM115
            self.processes[i] = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "daphne",
                    *self.options,
                    "-b",
                    "127.0.0.1",
                    "-p",
                    str(self.ports[i]),
                    "benchmarks.asgi:application",  # the site and the echo floor
                ],
                cwd=ROOT,
                env=self.env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        for i in range(len(self.ports)) if index is None else [index]:
            self._wait_ready(i)

    def _wait_ready(self, index: int, timeout: float = 60.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.processes[index].poll() is not None:
                raise RuntimeError(f"worker {index} exited; see {self.log_dir}")
            try:
                with socket.create_connection(("127.0.0.1", self.ports[index]), timeout=1):
                    return
            except OSError:
                time.sleep(0.1)
        raise RuntimeError(f"worker {index} did not start within {timeout:.0f} s")

    def kill(self, index: int) -> None:
        """SIGKILL: the process gets no chance to finish anything."""
        self.processes[index].kill()
        self.processes[index].wait()

    def stop(self) -> None:
        for process in self.processes:
            if process is not None and process.poll() is None:
                process.terminate()
        for process in self.processes:
            if process is not None:
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()

    def rss_kib(self) -> list[int]:
        """Resident memory of each live worker (Linux /proc), KiB."""
        sizes = []
        for process in self.processes:
            status = Path(f"/proc/{process.pid}/status")
            for line in status.read_text().splitlines() if status.exists() else []:
                if line.startswith("VmRSS:"):
                    sizes.append(int(line.split()[1]))
        return sizes

    def cpu_seconds(self) -> float:
        """CPU time (user + system) the live workers have used so far (Linux /proc)."""
        return sum(process_cpu_seconds(process.pid) for process in self.processes)

    def log_errors(self) -> list[str]:
        """Tracebacks and error lines the workers logged."""
        found = []
        for path in sorted(self.log_dir.glob("worker-*.log")):
            for line in path.read_text(errors="replace").splitlines():
                if "Traceback" in line or " ERROR " in line or line.startswith("ERROR"):
                    found.append(f"{path.name}: {line.strip()}")
        return found

    @property
    def urls(self) -> list[str]:
        return [f"http://127.0.0.1:{port}" for port in self.ports]


def setup_database(env: dict) -> None:
    """Point Django at the site's database (in this process) and migrate it; collect the
    static files into the workers' STATIC_ROOT if they have their own (DEBUG off, pages name
    them through collectstatic's manifest, as in production)."""
    for name in ("DJANGO_SETTINGS_MODULE", "DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DATABASE_URL"):
        os.environ[name] = env[name]
    for name in ("REDIS_URL", "STATIC_ROOT", "RATE_LIMIT_ACTIONS"):  # this process may move
        if name in env:
            os.environ[name] = env[name]
    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0, interactive=False)
    if "STATIC_ROOT" in env:
        call_command("collectstatic", verbosity=0, interactive=False)


def create_players(count: int, prefix: str, password: str = "") -> list[str]:
    """`count` users with one API token each (and `password`, if given, to log in with);
    returns the raw tokens. Their usernames are `prefix` and their number."""
    from django.contrib.auth.hashers import make_password

    from accounts.models import ApiToken, User

    # One hash for all: hashing is deliberately slow (~0.3 s), and the site checks each anyway.
    hashed = make_password(password) if password else ""
    users = User.objects.bulk_create(
        User(username=f"{prefix}{i}", display_name=f"{prefix}{i}", password=hashed)
        for i in range(count)
    )
    if users and users[0].pk is None:  # backends that do not return ids from bulk inserts
        users = list(User.objects.filter(username__startswith=prefix).order_by("pk"))
    return [ApiToken.issue(user, "load benchmark")[1] for user in users]


def open_tables(slug: str, players: int, prefix: str, count: int, seed=None) -> list[int]:
    """`count` started games of the kind `slug`, table i seating the players `prefix` i *
    `players` … (host first), opened, filled and started through the services; their ids.
    With `seed`, table i deals from seed + i (else from the site's random seed)."""
    from accounts.models import User
    from games.models import Game
    from games.tables import services

    users = list(User.objects.filter(username__startswith=prefix).order_by("pk"))
    game_ids = []
    for table in range(count):
        seated = users[table * players : (table + 1) * players]
        game = services.create_table(seated[0], services.TableSettings(players, kind=slug))
        for user in seated[1:]:
            services.join_table(game.pk, user)
        if seed is not None:
            Game.objects.filter(pk=game.pk).update(seed=seed + table)
        game_ids.append(services.start_game(game.pk, seated[0]).pk)
    return game_ids
