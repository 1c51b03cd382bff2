"""A finished game's result from its public view, and the night's standings across tables.

:func:`result_rows` runs at the table: it reads only ``game.view(None)`` of the finished game (never
``game.result()``, which may list every player's notes), one row per seat::

    {"name": "Аня", "win": true, "points": 6361}            # 6100 (infinity)
    {"name": "Борис", "win": false, "chips": -22}           # the joker game, the lottery: net chips
    {"name": "Вика", "win": true, "bank_notes": 9, "bank_value": 4500, "currency": "RUB"}   # skull

:func:`standings` runs on the board: players are matched by name across tables and games (case,
spaces and ё/е do not matter; :func:`name_key`), and two spellings of one player can be merged
(``aliases``: key → the key of the name it is merged into).

The per-game readers below are the club's view of each game's public result; when games get their
declared presenters (issue #19) they belong there.
"""

from __future__ import annotations

from typing import Callable, Iterable


def _by_name(result: dict, key: str, seats: list[str]) -> dict:
    values = result.get(key)
    return values if isinstance(values, dict) else {}


def _skull(view: dict, seats: list[str]) -> list[dict]:
    winner = view.get("winner")
    bank = view.get("bank") if isinstance(view.get("bank"), dict) else {}
    rows = []
    for s, name in enumerate(seats):
        row = {"name": name, "win": s == winner}
        if s == winner:
            row.update({"bank_notes": int(bank.get("count") or 0), "bank_value": int(bank.get("face_value") or 0),
                        "currency": str(bank.get("currency") or "")})
        rows.append(row)
    return rows


def _winners(result: dict, seats: list[str]) -> set[str]:
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


def _doubt(view: dict, seats: list[str]) -> list[dict]:
    result = view.get("result") if isinstance(view.get("result"), dict) else {}
    winner = result.get("winner")  # the first to be rid of his cards; the loser is the one left
    loser = result.get("loser_name")
    return [{"name": n, "win": n == winner, "lost": n == loser} for n in seats]


def _chips(view: dict, seats: list[str]) -> list[dict]:
    result = view.get("result") if isinstance(view.get("result"), dict) else {}
    net = _by_name(result, "net", seats)
    wins = _winners({k: v for k, v in result.items() if k in ("winners", "winner")}, seats)
    return [{"name": n, "win": n in wins, "chips": int(net.get(n) or 0)} for n in seats]


def _points(view: dict, seats: list[str]) -> list[dict]:
    result = view.get("result") if isinstance(view.get("result"), dict) else {}
    scores = _by_name(result, "scores", seats)
    wins = _winners(result, seats)
    return [{"name": n, "win": n in wins, "points": int(scores.get(n) or 0)} for n in seats]


def _generic(view: dict, seats: list[str]) -> list[dict]:
    result = view.get("result") if isinstance(view.get("result"), dict) else view
    wins = _winners(result, seats)
    return [{"name": n, "win": n in wins} for n in seats]


READERS: dict[str, Callable[[dict, list[str]], list[dict]]] = {
    "skull": _skull,
    "doubt": _doubt,
    "hoggenheimer": _chips,
    "lottery": _chips,
    "infinity": _points,
}
"""How each game's public view at its end reads as rows; any other game: who won (``_generic``)."""


def result_rows(game_id: str, view: dict, seats: Iterable[str]) -> list[dict]:
    """One row per seat of a finished game, from its public view only (see module docstring)."""
    seats = list(seats)
    return READERS.get(game_id, _generic)(view if isinstance(view, dict) else {}, seats)


# ---------------------------------------------------------------------- the board's standings
def name_key(name: str) -> str:
    """The key players are matched by: spaces collapsed, case folded, ё as е («Алёна » = «алена»)."""
    return " ".join(str(name).split()).casefold().replace("ё", "е")


def resolve(key: str, aliases: dict[str, str]) -> str:
    """The key a name is merged into (following merges of merges; a loop stops where it began)."""
    seen = {key}
    while key in aliases and aliases[key] not in seen:
        key = aliases[key]
        seen.add(key)
    return key


def _num(x) -> int:
    return x if isinstance(x, int) and not isinstance(x, bool) else 0


def standings(results: Iterable[dict], aliases: dict[str, str] | None = None) -> list[dict]:
    """The night's standings from the stored results (each a result payload with ``table``).

    Returns one row per player, best first (wins, then chips, then 6100 points, then name)::

        {"name", "spellings": [...], "games", "wins", "banks", "bank_notes", "bank_value":
         {currency: total}, "points", "point_games", "chips", "chip_games", "tables": [...]}

    ``points`` are 6100's, summed over ``point_games`` games; ``chips`` the net chips of the joker
    game and the lottery over ``chip_games``; ``banks`` the skull banks won (notes, face value).
    """
    aliases = aliases or {}
    rows: dict[str, dict] = {}
    for res in results:
        table = res.get("table")
        for r in res.get("rows") or []:
            if not isinstance(r, dict) or not isinstance(r.get("name"), str) or not r["name"].strip():
                continue
            key = resolve(name_key(r["name"]), aliases)
            row = rows.setdefault(key, {"key": key, "name": None, "spellings": [], "games": 0, "wins": 0,
                                        "banks": 0, "bank_notes": 0, "bank_value": {}, "points": 0,
                                        "point_games": 0, "chips": 0, "chip_games": 0, "tables": []})
            spelling = " ".join(r["name"].split())
            if spelling not in row["spellings"]:
                row["spellings"].append(spelling)
            row["games"] += 1
            row["wins"] += 1 if r.get("win") is True else 0
            if _num(r.get("bank_notes")):
                row["banks"] += 1
                row["bank_notes"] += _num(r["bank_notes"])
                cur = str(r.get("currency") or "")
                row["bank_value"][cur] = row["bank_value"].get(cur, 0) + _num(r.get("bank_value"))
            if "points" in r:
                row["points"] += _num(r.get("points"))
                row["point_games"] += 1
            if "chips" in r:
                row["chips"] += _num(r.get("chips"))
                row["chip_games"] += 1
            if table not in row["tables"]:
                row["tables"].append(table)
    for key, row in rows.items():
        # the name shown: the spelling the player was merged into, else the first one seen
        row["name"] = next((s for s in row["spellings"] if name_key(s) == key), row["spellings"][0])
    return sorted(rows.values(), key=lambda r: (-r["wins"], -r["chips"], -r["points"], r["name"].casefold()))
