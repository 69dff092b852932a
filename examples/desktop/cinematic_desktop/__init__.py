"""A desktop movie app (PySide6) over libcinematic: Search, Discover, Favorites, Detail."""

from .app import MainWindow, main

__all__ = ["MainWindow", "main"]
