"""``python -m ecs``: the same command line as ``tcg-counters``."""
import sys


def run() -> int:
    """The ``tcg-counters`` command: ``ecs.cli.main``, and Ctrl-C while it loads is one line."""
    try:
        from .cli import main
    except KeyboardInterrupt:  # Ctrl-C while the command's modules load
        print("tcg-counters: interrupted", file=sys.stderr)
        return 130
    return main()


if __name__ == "__main__":
    sys.exit(run())
