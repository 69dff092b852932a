"""States rebuilt from patched deliveries (``cinematic_store_observe_patches``).

The library delivers a store's whole state once (``{"seq": 1, "state": {...}}``), then an
RFC 6902 JSON Patch per change (``{"seq": n, "patch": [...]}``). :class:`PatchedState`
applies each patch to the previous state *by copying only the containers on the patched
paths*: every delivery is a new state object that shares everything that did not change
with the one before. A state handed to a subscriber is therefore never mutated afterwards
(keep it as long as you like), and a page of 20 films appended to a list of 2,000 costs a
copy of one list of references, not a parse of the whole state.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Set, Tuple

__all__ = ["PatchError", "PatchedState", "apply_patch"]


class PatchError(ValueError):
    """A patch that does not apply: a path that does not exist, an index out of range, an
    unknown operation. The library never sends one; a binding that sees one resubscribes."""


def _tokens(pointer: str) -> List[str]:
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise PatchError(f"not a JSON Pointer: {pointer!r}")
    return [token.replace("~1", "/").replace("~0", "~") for token in pointer[1:].split("/")]


def _index(token: str, size: int, *, end_allowed: bool) -> int:
    if token == "-" and end_allowed:
        return size
    if not token.isdigit() or (len(token) > 1 and token[0] == "0"):
        raise PatchError(f"not an array index: {token!r}")
    index = int(token)
    if index > size or (index == size and not end_allowed):
        raise PatchError(f"index {index} out of range (size {size})")
    return index


def apply_patch(state: Any, patch: List[Dict[str, Any]]) -> Any:
    """The state ``patch`` turns ``state`` into; ``state`` itself is left untouched (only the
    containers on the patched paths are copied). Raises :class:`PatchError`."""
    copied: Set[int] = set()

    def own(container: Any) -> Any:
        """A copy of ``container`` made for this patch (copied once per patch)."""
        fresh = list(container) if isinstance(container, list) else dict(container)
        copied.add(id(fresh))
        return fresh

    root = state
    for operation in patch:
        if not isinstance(operation, dict):
            raise PatchError(f"an operation is not an object: {operation!r}")
        op, path = operation.get("op"), operation.get("path")
        if op not in ("add", "remove", "replace") or not isinstance(path, str):
            raise PatchError(f"unsupported operation {operation!r}")
        if op != "remove" and "value" not in operation:
            raise PatchError(f"{op} at {path!r} has no value")
        tokens = _tokens(path)
        if not tokens:
            if op == "remove":
                raise PatchError("cannot remove the whole state")
            root = operation["value"]
            continue
        if id(root) not in copied:
            root = own(root)
        parent = root
        for token in tokens[:-1]:
            if isinstance(parent, dict):
                if token not in parent:
                    raise PatchError(f"no member {token!r} on the path {path!r}")
                key: Any = token
            elif isinstance(parent, list):
                key = _index(token, len(parent), end_allowed=False)
            else:
                raise PatchError(f"the path {path!r} goes through a value")
            child = parent[key]
            if not isinstance(child, (dict, list)):
                raise PatchError(f"the path {path!r} goes through a value")
            if id(child) not in copied:
                child = own(child)
                parent[key] = child
            parent = child
        last = tokens[-1]
        if isinstance(parent, dict):
            if op == "remove" or op == "replace":
                if last not in parent:
                    raise PatchError(f"no member at {path!r}")
            if op == "remove":
                del parent[last]
            else:
                parent[last] = operation["value"]
        elif isinstance(parent, list):
            if op == "add":
                parent.insert(_index(last, len(parent), end_allowed=True), operation["value"])
            elif op == "remove":
                del parent[_index(last, len(parent), end_allowed=False)]
            else:
                parent[_index(last, len(parent), end_allowed=False)] = operation["value"]
        else:
            raise PatchError(f"the path {path!r} goes through a value")
    return root


class PatchedState:
    """The state of one patch-mode observation, rebuilt delivery by delivery.

    :meth:`receive` takes each delivery as the library sends it and returns the state it
    describes (a new object whenever something changed), or raises :class:`PatchError` on a
    gap in ``seq`` or a patch that does not apply (then observe again: the library starts
    over with the whole state).
    """

    def __init__(self) -> None:
        #: The state (a JSON object; a child handle's part may be null), None before the first.
        self.state: Any = None
        #: The last delivery's seq, 0 before the first.
        self.seq = 0

    def receive(self, raw: bytes) -> Tuple[int, Any]:
        """(seq, state) after the delivery ``raw``."""
        envelope = json.loads(raw)
        seq = envelope.get("seq")
        if "state" in envelope:
            self.state, self.seq = envelope["state"], 1
            return 1, self.state
        if self.seq == 0 or seq != self.seq + 1:
            raise PatchError(f"delivery {seq} after {self.seq}: a delivery is missing")
        self.state = apply_patch(self.state, envelope["patch"])
        self.seq = seq
        return seq, self.state
