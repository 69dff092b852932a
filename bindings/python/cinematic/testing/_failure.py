"""How a TestStore expectation fails: the exception it raises and the compact JSON its
messages quote."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["TestStoreFailure", "compact"]


class TestStoreFailure(AssertionError):
    """A TestStore expectation that did not hold; the message says what and shows the diff."""

    __test__ = False  # not a pytest test class



def compact(value: Any) -> str:
    """``value`` as one line of JSON for a failure message, cut to 160 characters."""
    text = json.dumps(value, separators=(",", ":"), ensure_ascii=False)
    return text if len(text) <= 160 else text[:159] + "…"
