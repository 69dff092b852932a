"""``python -m cinematic``: the ``cinematic`` command line (see :mod:`cinematic.cli`)."""

import sys

from .cli import main

sys.exit(main())
