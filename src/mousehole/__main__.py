"""``python -m mousehole``: the same command line as the ``mousehole`` script
(:mod:`mousehole.cli`); ``python -m mousehole --help`` lists the subcommands."""

from __future__ import annotations

import sys

from .cli import main

if __name__ == "__main__":
    sys.exit(main())
