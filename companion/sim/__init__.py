"""The old home of the simulated tables, kept so that code written against it keeps working.

Each game's bots are its package's ``sim`` module (``companion/games/<id>/sim.py``); the shared
base and the helpers are :mod:`companion.games.simulator` — import from there.
"""

from companion.games.simulator import TableSim, get_sim_class, play_random_game

__all__ = ["TableSim", "get_sim_class", "play_random_game"]
