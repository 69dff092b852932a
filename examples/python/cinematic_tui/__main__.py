"""``python -m cinematic_tui``: run the terminal movie app."""

import sys

from .app import main

sys.exit(main())
