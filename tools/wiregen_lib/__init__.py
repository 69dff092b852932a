"""The generator of tools/wiregen.py, one module per target language."""
