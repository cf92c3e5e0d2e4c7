"""``python -m ecs``: the same command line as ``tcg-counters``."""
import sys

from .cli import main

sys.exit(main())
