"""Rule engines, one module per game; the module name is the game id of ``../shared/RULINGS.md``.

``get_game_class("skull")`` imports ``companion.games.skull`` and returns its ``GAME`` attribute,
a :class:`companion.games.base.Game` subclass.
"""

from __future__ import annotations

import importlib

from companion.errors import IllegalAction

GAME_IDS = ("skull", "doubt", "hoggenheimer", "infinity", "lottery")
"""All game ids, RULINGS §0."""


def available_games() -> list[str]:
    """Game ids whose engine module is installed, in RULINGS order."""
    out = []
    for gid in GAME_IDS:
        try:
            importlib.import_module(f"companion.games.{gid}")
        except ModuleNotFoundError:
            continue
        out.append(gid)
    return out


def game_module(game_id: str | None):
    """The engine module ``companion.games.<game_id>`` (for its optional hooks such as
    ``describe_event`` or ``reason_message``), or ``None`` when ``game_id`` is not a game id of
    :data:`GAME_IDS` or its module is not installed."""
    if game_id not in GAME_IDS:
        return None
    try:
        return importlib.import_module(f"companion.games.{game_id}")
    except ModuleNotFoundError:
        return None


def get_game_class(game_id: str):
    """Return the Game subclass for ``game_id``.

    Raises:
        IllegalAction: ``unknown_game`` when no such game is installed.
    """
    if game_id not in GAME_IDS:
        raise IllegalAction("unknown_game", f"no game {game_id!r}; games: {', '.join(GAME_IDS)}",
                            {"game": str(game_id), "games": list(GAME_IDS)})
    try:
        module = importlib.import_module(f"companion.games.{game_id}")
    except ModuleNotFoundError:
        raise IllegalAction("unknown_game", f"game {game_id!r} is not installed") from None
    return module.GAME


def new_game(game_id: str, seats, options=None):
    """Create a new game: ``new_game("skull", ["Аня", "Борис"], {"notes_per_player": 4})``."""
    return get_game_class(game_id)(seats, options)
