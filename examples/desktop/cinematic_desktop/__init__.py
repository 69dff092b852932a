"""A desktop movie app (PySide6) over libcinematic: Search, Discover, Favorites, Detail."""

from .app import main
from .window import MainWindow

__all__ = ["MainWindow", "main"]
