"""Checks of what a club received against the tables' own logs: nothing hidden, nothing lost or
doubled. Used by ``tests/club/`` and ``bench/club.py``; it knows nothing of the publisher's code.

**Hidden facts** (:func:`hidden_facts`): the table log is replayed with the engine; after each
record ``k`` the *candidates* are the serials and card codes in the records' arguments so far and in
every seat's private view; the *public* tokens are those of the public view and the public events
so far. Hidden at ``k`` = candidates − public, plus every serial deposited into a bank (the game's
full result lists the bank) that was not public before the game ended: a deposit's serial never goes
out, even when the table's own page lists the bank at the end. Bare numbers (amounts, 6100's card
values) are not facts here: they are everywhere.

A message about record ``k`` (an event, a snapshot at ``k``, a result) **leaks** when one of its
tokens is hidden at ``k``; a status or online message when it holds any fact hidden at any time.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from companion.games.cardnames import card_code
from companion.log import UNDO, TableLog

if TYPE_CHECKING:
    from companion.games.base import Event

SUITS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_WORD = re.compile(r"[0-9A-Za-zА-Яа-яЁё]+")
_CARD = re.compile(r"^(?:10|[2-9JQKA])[SHDC]$|^JK$")


def tokens(text: str) -> set[str]:
    """The word-like tokens of ``text``, a card as a page writes it read as its code (``Q♥`` and
    ``Д♥`` → ``QH``; :func:`~companion.games.cardnames.card_code`, upper case only: "as" is a word)."""
    for sign, letter in SUITS.items():
        text = text.replace(sign, letter)
    return {(card_code(t) or t) if t == t.upper() else t for t in _WORD.findall(text)}


def is_fact(token: str) -> bool:
    """A serial (letters and digits) or a card code; not a bare number or a word."""
    has_digit = any(c.isdigit() for c in token)
    has_alpha = any(c.isalpha() for c in token)
    return bool(_CARD.match(token)) or (has_digit and has_alpha and len(token) >= 5)


def _dump(obj) -> str:
    return json.dumps(obj, ensure_ascii=False)


@dataclass
class HiddenFacts:
    """The hidden facts of one game: ``at[seq]`` after each record, ``ever`` their union."""

    game_id: str
    at: dict[int, frozenset[str]] = field(default_factory=dict)
    ever: set[str] = field(default_factory=set)

    def hidden(self, seq: int) -> frozenset[str]:
        if seq in self.at:
            return self.at[seq]
        before = [s for s in self.at if s <= seq]
        return self.at[max(before)] if before else frozenset()


def hidden_facts(log_path: str | Path) -> HiddenFacts:
    """Replay a table log and list what is hidden after each record (see module docstring)."""
    from companion.games import new_game

    with TableLog.open(log_path) as tlog:
        header, records = tlog.header, tlog.records()

    def fresh():
        return new_game(header.game, header.seats, header.options)

    game = fresh()
    applied: list[str] = []
    public: set[str] = set()
    candidates: set[str] = set()
    out = HiddenFacts(header.game)
    states = []
    for rec in records:
        events: tuple[Event, ...] = ()
        if rec.action.split() == UNDO.split():
            if applied:
                applied.pop()
                game = fresh()
                for a in applied:
                    game.apply(a)
        else:
            events = tuple(game.apply(rec.action) or ())
            applied.append(rec.action)
            candidates |= {t for t in tokens(" ".join(rec.action.split()[2:]).replace(",", " ")) if is_fact(t)}
        for s in range(len(header.seats)):
            candidates |= {t for t in tokens(_dump(game.view(s))) if is_fact(t)}
        over = game.is_over()
        view_tokens = tokens(_dump(game.view(None)))
        event_tokens = tokens(_dump([e.data for e in events if e.private_to is None]))
        states.append((rec.seq, over, view_tokens | event_tokens))
        public |= view_tokens | event_tokens
        out.at[rec.seq] = frozenset(candidates - public)
    # a deposit's serial: in the bank of the full result, public before the end only if it was
    # turned face up during play
    result = game.result() if game.is_over() else {}
    bank = {t for s in (result.get("bank") or []) if isinstance(s, str) for t in tokens(s) if is_fact(t)}
    if bank:
        during_play: set[str] = set()
        for seq, over, pub in states:
            if over:
                break
            during_play |= pub
        deposited = frozenset(bank - during_play)
        out.at = {seq: hidden | deposited for seq, hidden in out.at.items()}
    for hidden in out.at.values():
        out.ever |= hidden
    return out


def leaks(payload: bytes | str, hidden: frozenset[str] | set[str]) -> set[str]:
    """The hidden facts ``payload`` holds (an empty set: no leak)."""
    text = payload.decode("utf-8", "replace") if isinstance(payload, bytes) else payload
    return tokens(text) & set(hidden)


def message_leaks(topic: str, payload: bytes, facts: dict[tuple[str, str], HiddenFacts]) -> set[str]:
    """Check one received club message against the tables' hidden facts (``{(table, game key):
    HiddenFacts}``): see module docstring."""
    if not payload:
        return set()
    try:
        p = json.loads(payload.decode("utf-8"))
    except ValueError:
        return set()
    table = p.get("table") if isinstance(p, dict) else None
    game, seq = (p.get("game"), p.get("seq")) if isinstance(p, dict) else (None, None)
    hf = facts.get((table, game)) if isinstance(table, str) and isinstance(game, str) else None
    if hf is not None and isinstance(seq, int):
        return leaks(payload, hf.hidden(seq))
    every = set().union(*(f.ever for (t, _g), f in facts.items() if t == table)) if facts else set()
    return leaks(payload, every)


def log_seqs(log_path: str | Path) -> list[int]:
    """The sequence numbers of a table log's records."""
    with TableLog.open(log_path) as tlog:
        return [r.seq for r in tlog.records()]


def compare(board: dict[tuple[str, str], list[int]], logs: dict[tuple[str, str], list[int]]) -> dict:
    """The board's record against the tables' logs (both ``{(table, game): [seq, ...]}``):
    ``{"lost": n, "doubled": n, "extra": n, "games": n}`` — records missing from the board, kept
    twice, or kept but not in any log."""
    lost = doubled = extra = 0
    for key, seqs in logs.items():
        got = board.get(key, [])
        lost += len(set(seqs) - set(got))
        doubled += len(got) - len(set(got))
        extra += len(set(got) - set(seqs))
    for key, got in board.items():
        if key not in logs:
            extra += len(got)
    return {"lost": lost, "doubled": doubled, "extra": extra, "games": len(logs)}
