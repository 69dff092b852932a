"""cinematic-tui: a terminal movie app (curses, standard library only) over libcinematic."""

from .app import App, main

__all__ = ["App", "main"]
