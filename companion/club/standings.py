"""A finished game's result from its public view, and the night's standings across tables.

:func:`result_rows` runs at the table: it reads only ``game.view(None)`` of the finished game (never
``game.result()``, which may list every player's notes), one row per seat::

    {"name": "Аня", "win": true, "points": 6361}            # 6100 (infinity)
    {"name": "Борис", "win": false, "chips": -22}           # the joker game, the lottery: net chips
    {"name": "Вика", "win": true, "bank_notes": 9, "bank_value": 4500, "currency": "RUB"}   # skull

:func:`standings` runs on the board: players are matched by name across tables and games (case,
spaces and ё/е do not matter; :func:`name_key`), and two spellings of one player can be merged
(``aliases``: key → the key of the name it is merged into).

Each game reads its own public result (its :class:`~companion.games.spec.GameSpec`'s
``result_rows``, the shared readers in :mod:`companion.games.standing`).
"""

from __future__ import annotations

from typing import Iterable


def result_rows(game_id: str, view: dict, seats: Iterable[str]) -> list[dict]:
    """One row per seat of a finished game, from its public view only (see module docstring): the
    game's own reader (its spec's ``result_rows``), else who won."""
    from companion.games import registry
    from companion.games.standing import winner_rows

    spec = registry.find(game_id)
    read = spec.result_rows if spec is not None and spec.result_rows is not None else winner_rows
    return read(view if isinstance(view, dict) else {}, list(seats))


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
