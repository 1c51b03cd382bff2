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


def seat_range(game_id: str, options: dict | None = None) -> tuple[int, int]:
    """``(fewest, most)`` players game ``game_id`` starts with under ``options`` (a dict as typed:
    ``--option``, the new-game form; the defaults when ``None``): the engine's own
    :meth:`~companion.games.base.Game.seat_range`, the range its ``bad_seats`` refusals state. The
    lottery's class allows 2–20, but with its default options the banker and the dealer hold no
    cards, so it needs 4 (RULINGS §5). Options that do not parse give the class's range (their
    own refusal comes first).

    Raises:
        IllegalAction: ``unknown_game``.
    """
    cls = get_game_class(game_id)
    parsed = cls.options_if_good(options)
    return cls.seat_range(parsed) if parsed is not None else (cls.MIN_SEATS, cls.MAX_SEATS)


__all__ = ["available_games", "seat_range", "get_game_class", "ids", "new_game", "registry", "get_spec"]
