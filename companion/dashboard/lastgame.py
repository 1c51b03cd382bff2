"""The new-game form remembers the last game (#22 item 3): the game, its players in seat order and
its house rules come pre-filled, so the next game at the same table is one tap.

"Last" is, in this order: the form the operator just sent and the table refused (what he typed
stays, to be corrected), the current game, else the newest table log in the data folder (which
survives a restart of the table and a reload of the page on any phone, unlike the browser's own
storage). Options carried from a finished game (the lottery's box, ``Options.CARRIED``) are
filled in after this, by ``newgame._carried``: the box the last game left beats the box it began
with.
"""

from __future__ import annotations

import logging

log = logging.getLogger(__name__)


def last_game(table) -> dict | None:
    """``{"id", "seats", "options"}`` of the table's current game, else of its newest table log;
    ``None`` when the table has played none (or the newest log cannot be read)."""
    info = table.game_info()
    if info:
        return {"id": info["id"], "seats": list(info["seats"]), "options": dict(info.get("options") or {})}
    from companion.log import TableLog

    logs = sorted((table.data_dir / "games").glob("*.sqlite"))  # named <time stamp>-<game>: oldest first
    for path in reversed(logs[-3:]):
        try:
            with TableLog.open(path, readonly=True) as tlog:
                header = tlog.header
        except Exception as exc:  # a damaged log is skipped: the form then starts empty
            log.warning("could not read %s for the new-game form: %s", path, exc)
            continue
        return {"id": header.game, "seats": list(header.seats), "options": dict(header.options or {})}
    return None


def from_form(game_id: str, names: list[str], form) -> dict:
    """What the operator typed in a refused new-game form, to show it again: the game, the
    names, and each option's value as typed (``opt_<game>_<name>``; a bool as its box)."""
    prefix = f"opt_{game_id}_"
    options = {k[len(prefix):]: v for k, v in form.items() if k.startswith(prefix)}
    return {"id": game_id, "seats": list(names), "options": options, "typed": True}


def fill_in(specs: list[dict], last: dict | None) -> list[dict]:
    """``specs`` (``newgame.game_specs()``) with the last game's options as the defaults of its
    game's form. A log's seat option is 0-based and shown from 1; a typed value is shown as typed.
    A bool typed is its box: ticked when the form sent it."""
    if not last:
        return specs
    for spec in specs:
        if spec["id"] != last["id"]:
            continue
        given = last.get("options") or {}
        typed = last.get("typed")
        for opt in spec["options"]:
            if typed and opt["type"] == "bool":
                opt["default"] = opt["name"] in given
                continue
            if opt["name"] not in given:
                continue
            value = given[opt["name"]]
            if typed:
                opt["default"] = _as_choice(value, opt)
            elif isinstance(value, type(opt["default"])) or (opt["type"] == "float" and isinstance(value, int)):
                opt["default"] = value + 1 if opt.get("seat") and isinstance(value, int) else value
    return specs


def _as_choice(raw: str, opt: dict):
    """A typed value as the option's choice it names (a select's values are the choices' own)."""
    for c in opt.get("choices") or ():
        if str(c) == raw:
            return c
    return raw
