"""The store classes of child handles (``store.scope(name)``) that no feature class is.

A child of scope ``"search"``, ``"discover"`` or ``"favorites"`` is that feature's generated
store class (:class:`~cinematic.SearchStore`...): its state is exactly that store's state and
it takes that store's intents. The shown Detail (``"detail"``) is a
:class:`ShownDetailStore`: a Detail's intents, and a state that is None while no Detail is
open (each open Detail also carries its ``listing``, the row it was opened from)::

    with runtime.app() as app:
        shown = app.scope("detail", cinematic.ShownDetailStore)
        app.opened(15249)
        shown.favorite_toggled()          # {"type": "detail", "intent": {"type": "favoriteToggled"}}
"""

from __future__ import annotations

from typing import Optional, Tuple, cast

from . import wire
from .features import DetailStore
from .store import Store

__all__ = ["ShownDetailStore"]


class ShownDetailStore(Store["Optional[wire.AppDetailState]"]):
    """The app's shown Detail (a child handle of scope ``"detail"``): its ``state`` is the
    last of the app state's ``details``, or None when none is open; its helpers are the
    detail feature's (sent through the app to the shown Detail)."""

    SCOPE = "detail"
    FEATURE = "detail"
    #: The wire types of the host intents (the detail feature's).
    INTENTS: Tuple[str, ...] = DetailStore.INTENTS

    def task(self) -> None:
        """The shown Detail appeared (the app sends it itself when it opens one)."""
        DetailStore.task(cast(DetailStore, self))  # the generated helper: it calls self.send

    def favorite_toggled(self) -> None:
        """The person tapped the shown Detail's heart (it works from the film's row even when
        the detail cannot load)."""
        DetailStore.favorite_toggled(cast(DetailStore, self))
