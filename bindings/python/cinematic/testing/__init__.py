"""Exhaustive, deterministic tests of any store: :class:`TestStore` (docs/testing.md).

A :class:`TestStore` opens one feature's store on a runtime built for tests: a manual clock
that only :meth:`TestStore.advance` moves, a host catalog whose answers the test scripts
(:class:`TestCatalog`: canned answers, failures, answers delayed on the manual clock, or
held until the test answers), in-memory favorites, and the debug history on. Every step
asserts exactly what changed::

    from cinematic.testing import TestStore, movie

    with TestStore("search") as store:
        store.catalog.search("dune", [movie(15249, "Dune", 1984)])
        store.send({"type": "queryChanged", "query": "dune"}, {"query": "dune"})
        store.advance(250)
        store.receive("searchNow", {"results": {"phase": "loading", "query": "dune"}})
        store.receive("resultsLoaded", lambda s: s.update(
            results={"phase": "loaded", "query": "dune", "source": "live",
                     "value": [movie(15249, "Dune", 1984, full=True)]},
            pagesLoaded=1, isExhausted=True))
    # leaving the block calls finish(): no effect may still run, every effect result was received

- :meth:`TestStore.send` sends a host intent and asserts the state after it: the expected
  state is the previous one with ``changes`` applied (a partial dict of top-level members, or
  a function that mutates a copy of the expected state); any other difference fails with a
  diff naming members and list positions.
- :meth:`TestStore.receive` asserts the next intent an effect fed back (an internal intent
  such as ``resultsLoaded``, read from the store's history) and the state after it.
- :meth:`TestStore.finish` fails while effects still run or fed-back intents were not
  received.

Exhaustive by default. ``TestStore(..., exhaustive=False)`` checks only what a step names:
``send``/``receive`` compare only the members in ``changes`` (the expected state then
follows the actual one), ``receive`` skips fed-back intents of other types, and ``finish``
neither requires every intent received nor every effect finished.

Several stores sharing one runtime (so one clock, one catalog and one favorites database):
``rt = TestRuntime(); search = rt.store("search"); detail = rt.store("detail", {"movieId": 1})``.
"""

from __future__ import annotations

from ._catalog import CatalogRequest, TestCatalog  # (CatalogRequest, HISTORY, State: importable here as before)
from ._diff import ANY, diff, format_diff
from ._failure import TestStoreFailure
from ._movies import movie, movie_detail
from ._runtime import HISTORY, TestRuntime
from ._store import Changes, State, TestStore

__all__ = [
    "TestStore",
    "TestRuntime",
    "TestCatalog",
    "TestStoreFailure",
    "ANY",
    "Changes",
    "movie",
    "movie_detail",
    "diff",
    "format_diff",
]
