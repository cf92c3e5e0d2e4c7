"""``python -m ecs``: the same command line as ``tcg-counters``."""
import sys


def _run() -> int:
    try:
        from .cli import main
    except KeyboardInterrupt:  # Ctrl-C while the command's modules load
        print("tcg-counters: interrupted", file=sys.stderr)
        return 130
    return main()


sys.exit(_run())
