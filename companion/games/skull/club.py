"""What a club hears of a skull game (:mod:`companion.club`): the rows of its result, and what its
public page shows but the club never carries."""

from __future__ import annotations


def result_rows(view: dict, seats: list[str]) -> list[dict]:
    """The winner with their bank (how many notes, their face value), from the public view."""
    winner = view.get("winner")
    told = view.get("bank")
    bank: dict = told if isinstance(told, dict) else {}
    rows = []
    for s, name in enumerate(seats):
        row = {"name": name, "win": s == winner}
        if s == winner:
            row.update({"bank_notes": int(bank.get("count") or 0), "bank_value": int(bank.get("face_value") or 0),
                        "currency": str(bank.get("currency") or "")})
        rows.append(row)
    return rows


def redact(obj: dict) -> None:
    """The bank's serials (the public view lists them once the game is over, and its
    ``game_over`` event carries them): a club hears how many notes and how much, never which."""
    view = obj.get("view")
    if isinstance(view, dict) and isinstance(view.get("bank"), dict):
        view["bank"] = {k: v for k, v in view["bank"].items() if k != "serials"}
    history = obj.get("history")
    entries: list = list(history) if isinstance(history, list) else []
    entry = obj.get("entry")
    if isinstance(entry, dict):
        entries.append(entry)
    for entry in entries:
        for item in entry.get("items") or []:
            data = item.get("data")
            if isinstance(data, dict) and isinstance(data.get("bank"), list):
                item["data"] = {**data, "bank": len(data["bank"])}
