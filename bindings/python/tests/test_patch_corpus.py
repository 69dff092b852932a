"""The binding's RFC 6902 applier (``cinematic._patch.apply_patch``) passes every case of the
corpus all four hosts' appliers share (schema/golden/patches.json): the document each good
patch gives, a ``PatchError`` for each bad one, and the input left untouched either way."""

from __future__ import annotations

import copy
import json
from typing import Any, Dict, List

import pytest

from cinematic._patch import PatchError, apply_patch
from conftest import REPO

CASES: List[Dict[str, Any]] = json.loads((REPO / "schema/golden/patches.json").read_text(encoding="utf-8"))["cases"]


def test_the_corpus_has_good_and_bad_cases():
    assert sum("result" in case for case in CASES) >= 15 and sum("error" in case for case in CASES) >= 15


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_each_case_of_the_shared_corpus(case):
    before = copy.deepcopy(case["doc"])
    if "result" in case:
        assert apply_patch(case["doc"], case["patch"]) == case["result"]
    else:
        with pytest.raises(PatchError):
            apply_patch(case["doc"], case["patch"])
    assert case["doc"] == before   # never written to
