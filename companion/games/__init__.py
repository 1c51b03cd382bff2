"""Rule engines, one package per game (``companion/games/<id>/``: rules, actions, presenter, sim),
served by id through the registry (:mod:`companion.games.registry`); the ids are those of
``../shared/RULINGS.md``.

``get_game_class("skull")`` returns the game's :class:`companion.games.base.Game` subclass,
``get_spec("skull")`` everything else the table knows about it (:class:`companion.games.spec.GameSpec`).
"""

from __future__ import annotations

from companion.games import registry
from companion.games.registry import get as get_spec
from companion.games.registry import ids


def available_games() -> list[str]:
    """Every registered game id, built-in ones first in RULINGS order."""
    return list(ids())


def get_game_class(game_id: str):
    """Return the Game subclass for ``game_id``.

    Raises:
        IllegalAction: ``unknown_game`` when no such game is registered.
    """
    return registry.get(game_id).engine


def new_game(game_id: str, seats, options=None):
    """Create a new game: ``new_game("skull", ["Аня", "Борис"], {"notes_per_player": 4})``.

    Raises:
        IllegalAction: ``unknown_game``, ``bad_seats`` or ``bad_option``.
    """
    return get_game_class(game_id)(seats, options)


__all__ = ["available_games", "get_game_class", "ids", "new_game", "registry", "get_spec"]
