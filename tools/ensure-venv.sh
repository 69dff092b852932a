#!/usr/bin/env bash
# Creates (once) the test venv at build/venv with what the suites need from PyPI: pytest,
# jsonschema (every suite validates what it receives against schema/), hypothesis and
# hypothesis-jsonschema (schema-driven property tests), mypy (typed hosts, --strict).
# Prints the venv's python. Reinstalls nothing that is already there.
set -euo pipefail
repo="$(cd "$(dirname "$0")/.." && pwd)"
venv="$repo/build/venv"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
    echo "ensure-venv: creating $venv" >&2
    "$python" -m venv "$venv"
fi
vpy="$venv/bin/python"
# hypothesis-jsonschema 0.23.1 needs a hypothesis from before 6.13x's internal changes.
if ! "$vpy" -c 'import pytest, setuptools, wheel, jsonschema, hypothesis_jsonschema, mypy, hypothesis; assert hypothesis.__version__ == "6.112.0"' 2>/dev/null; then
    echo "ensure-venv: installing pytest, jsonschema, hypothesis, hypothesis-jsonschema, mypy into $venv" >&2
    "$vpy" -m pip install -q --disable-pip-version-check pytest "setuptools>=61" wheel jsonschema \
        "hypothesis==6.112.0" "hypothesis-jsonschema==0.23.1" mypy >&2
fi
echo "$vpy"
