"""A finished game's result as the club reads it: one row per seat from the game's **public view**
at its end (never ``game.result()``, which may list every player's notes). A game declares its
reader in its :class:`~companion.games.spec.GameSpec` (``result_rows``); the readers most games
share are here:

* :func:`winner_rows` — who won (any game: ``{"name", "win"}``);
* :func:`chips_rows` — net chips (the joker game, the lottery): ``{"name", "win", "chips"}``;
* :func:`points_rows` — points (6100): ``{"name", "win", "points"}``.

(``companion.club.standings`` matches the rows' names across tables into the night's standings.)
"""

from __future__ import annotations


def _by_name(result: dict, key: str) -> dict:
    values = result.get(key)
    return values if isinstance(values, dict) else {}


def winners(result: dict, seats: list[str]) -> set[str]:
    """Names the public result calls winners: ``winner_names``, ``winners`` (names or seats) or
    ``winner`` (a name or a seat)."""
    out: set[str] = set()
    for key in ("winner_names", "winners"):
        for w in result.get(key) or []:
            if isinstance(w, str):
                out.add(w)
            elif isinstance(w, int) and 0 <= w < len(seats):
                out.add(seats[w])
        if out:
            return out
    w = result.get("winner")
    if isinstance(w, str):
        out.add(w)
    elif isinstance(w, int) and not isinstance(w, bool) and 0 <= w < len(seats):
        out.add(seats[w])
    return out


def _result(view: dict) -> dict:
    result = view.get("result")
    return result if isinstance(result, dict) else {}


def chips_rows(view: dict, seats: list[str]) -> list[dict]:
    """Net chips by name (``result["net"]``) and who won."""
    result = _result(view)
    net = _by_name(result, "net")
    wins = winners({k: v for k, v in result.items() if k in ("winners", "winner")}, seats)
    return [{"name": n, "win": n in wins, "chips": int(net.get(n) or 0)} for n in seats]


def points_rows(view: dict, seats: list[str]) -> list[dict]:
    """Points by name (``result["scores"]``) and who won."""
    result = _result(view)
    scores = _by_name(result, "scores")
    wins = winners(result, seats)
    return [{"name": n, "win": n in wins, "points": int(scores.get(n) or 0)} for n in seats]


def winner_rows(view: dict, seats: list[str]) -> list[dict]:
    """Who won, for a game without a reader of its own."""
    result = view.get("result")
    wins = winners(result if isinstance(result, dict) else view, seats)
    return [{"name": n, "win": n in wins} for n in seats]
