"""Simulated tables: the physical truth of a table plus bot players; each game's bots are its
package's ``sim`` module (``companion/games/<id>/sim.py``), declared as ``GameSpec.simulator``.

Random play exists only here and in tests, always from a seed (RULINGS §0); the engines stay pure.

A sim never changes the game itself. The driver (a test, the engine bench, the simulated table of
``companion run --sim``) asks :meth:`TableSim.next_action` for the next action, applies it through
the real path (engine, referee, button box, camera) and then tells the sim with
:meth:`TableSim.applied`, so the sim's physical truth follows what the referee accepted.
"""

from __future__ import annotations

import random
from typing import Sequence

from companion.errors import IllegalAction


class TableSim:
    """Physical truth of one table (who holds which note/card, what lies where, face up or down)
    and the bots that play every seat.

    Args:
        game: the engine instance this sim plays (read only for the sim).
        seed: the random seed; the same seed and game give the same actions.

    Attributes:
        truth: JSON-safe physical facts for the scene renderer (face-down items included — never
            send this to a screen).
    """

    def __init__(self, game, seed: int) -> None:
        self.game = game
        self.rng = random.Random(seed)
        self.truth: dict = {}

    def next_action(self) -> tuple[str, str] | None:
        """The next action's text form and its source (``button``, ``camera``, ``operator``…),
        or ``None`` when the game is over."""
        raise NotImplementedError

    def applied(self, action_text: str) -> None:
        """Update the physical truth after the game accepted ``action_text``."""
        raise NotImplementedError


def get_sim_class(game_id: str):
    """The TableSim subclass for ``game_id``.

    Raises:
        IllegalAction: ``unknown_game`` when no sim exists for that game.
    """
    from companion.games import registry

    sim = registry.get(game_id).simulator
    if sim is None:
        raise IllegalAction("unknown_game", f"no simulated table for {game_id!r}")
    return sim


def play_random_game(game_id: str, seats: Sequence[str] | int = 4, options: dict | None = None,
                     seed: int = 0, max_actions: int = 100_000):
    """Play one whole game with bots; returns ``(game, [(action_text, source), ...])``.

    Raises:
        RuntimeError: the game did not end within ``max_actions`` (a termination bug).
        IllegalAction: the bots proposed an illegal action (a sim or engine bug).
    """
    from companion.games import new_game

    if isinstance(seats, int):
        seats = [f"P{i + 1}" for i in range(seats)]
    game = new_game(game_id, seats, options)
    sim = get_sim_class(game_id)(game, seed)
    actions: list[tuple[str, str]] = []
    while not game.is_over():
        if len(actions) >= max_actions:
            raise RuntimeError(f"{game_id} did not end within {max_actions} actions (seed {seed})")
        nxt = sim.next_action()
        if nxt is None:
            break
        game.apply(nxt[0])
        sim.applied(nxt[0])
        actions.append(nxt)
    return game, actions
