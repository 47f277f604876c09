"""The analysis worker's own process, started by each daphne process (`worker.start_child`):
`python -m games.analysis.child --parent <daphne's pid>`, in daphne's environment."""

import argparse

import django


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parent", type=int, required=True, help="the daphne process's pid")
    args = parser.parse_args()
    django.setup()
    from games.analysis import worker

    worker.drain_forever(args.parent)


if __name__ == "__main__":
    main()
