"""Seat devices: which phones hold each seat, signing one out, and telling a seat's phones when
another phone joins it (issue #23 item 2).

The logins themselves live in :class:`companion.sessions.Sessions` (labels, device ids, last
seen); this module puts them together for the operator's console and tells the pages through the
stream hub: a ``device`` event to the seat's other phones when one joins, a ``devices`` event to
the operator's console when the list changes, and ``signed_out`` to the streams of a phone the
operator signed out (their streams then end). Words are the page's (``web/static/devices.js``);
events carry facts only: a label, a time. Never a token. Rationale: docs/dashboard.md "Seat
devices".
"""

from __future__ import annotations

from companion.dashboard.model import OPERATOR


def listing(table, hub) -> dict:
    """The operator's view of the seat logins: ``{"seats": [{"seat", "name", "devices": [{"id",
    "label", "first", "last", "online"}]}], "now": wall-clock s}`` — ``online``: the phone has a
    stream open now. Empty ``seats`` without a game."""
    sessions = table.sessions
    info = table.game_info()
    if info is None:
        return {"seats": [], "now": int(sessions.clock())}
    online = {sessions.device_id(t) for t in hub.online_tokens()}
    seats = [{"seat": s, "name": name, "devices": []} for s, name in enumerate(info["seats"])]
    for d in sessions.devices():
        if 0 <= d["seat"] < len(seats):
            seats[d["seat"]]["devices"].append({k: d[k] for k in ("id", "label", "first", "last")}
                                               | {"online": d["id"] in online})
    return {"seats": seats, "now": int(sessions.clock())}


def joined(table, hub, seat: int, token: str) -> int:
    """A phone just joined ``seat`` with a new ``token``: tell the seat's other phones (a
    ``device`` event: ``{"event": "joined", "label", "at", "count"}``) and the operator's console
    (``devices``). Returns how many of the seat's other pages were told."""
    mine = table.sessions.devices(seat)
    me = next((d for d in mine if d["id"] == table.sessions.device_id(token)), None)
    told = 0
    if me is not None and len(mine) > 1:
        told = hub.tell(seat, "device", {"event": "joined", "label": me["label"], "at": me["first"],
                                         "count": len(mine)}, skip_token=token)
    changed(hub)
    return told


def changed(hub) -> None:
    """Tell the operator's consoles the seat logins changed (they fetch the list again)."""
    hub.tell(OPERATOR, "devices", {"changed": True})


def sign_out(table, hub, device_id: str) -> int | None:
    """Sign out the phone whose device id is ``device_id``: its token ends at once (ended and
    saved at the table as a «Покинуть место» is) and its streams get ``signed_out`` and end.
    Returns its seat, or ``None`` when no live login has that id."""
    token = table.sessions.token_of_device(device_id)
    seat = table.seat_for_token(token) if token else None
    if seat is None:
        return None
    table.leave_seat(token)
    table.sessions.mark_signed_out(token)
    hub.sign_out(token, {"reason": "operator"})
    changed(hub)
    return seat
