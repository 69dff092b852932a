"""The relevance sets' generator, in parts (tools/relevance-sets.py, docs/relevance.md)."""
