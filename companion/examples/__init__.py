"""Bundled example table logs (package data), e.g. ``skull-game.jsonl`` for ``companion demo``."""
