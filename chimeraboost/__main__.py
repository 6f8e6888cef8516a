"""``python -m chimeraboost``: the command line of :mod:`chimeraboost.cli`."""

import sys

from .cli import demo, main

__all__ = ["demo", "main"]

if __name__ == "__main__":
    sys.exit(main())
