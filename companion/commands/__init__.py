"""Subcommands of ``companion``: one module each, discovered by :mod:`companion.cli`.

A module defines ``register(subparsers)`` that adds its parser and sets ``func``.
"""
