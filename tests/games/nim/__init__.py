"""Nim, a toy game in one package: the proof that a game is one package and nothing else.

A pile of chips; in turn each player takes 1 to ``most`` of them; who takes the last one wins.
Registering :data:`SPEC` (``companion.games.registry.register``) is all it takes for the
dashboard, the console (``companion run --sim --game nim``) and the simulated table to serve it,
its board (``static/board.js``) included (``tests/games/test_toy_game.py``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

from companion.errors import IllegalAction
from companion.games.base import Action, Event, Game, Options
from companion.games.fields import Count
from companion.games.simulator import TableSim
from companion.games.spec import GameSpec, PadVerbs, PlainPresenter


@dataclass(frozen=True)
class Take(Action):
    """``SEAT take N`` — the seat takes ``count`` chips from the pile."""

    VERB: ClassVar[str] = "take"
    count: Count


@dataclass(frozen=True)
class NimOptions(Options):
    """``pile``: chips at the start; ``most``: the most one player takes at a time."""

    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {"pile": (1, 100), "most": (1, 10)}
    pile: int = 9
    most: int = 3


class NimGame(Game):
    """The rules: pure, like every engine."""

    GAME_ID = "nim"
    ACTIONS = (Take,)
    OPTIONS = NimOptions
    MIN_SEATS = 2
    MAX_SEATS = 6
    REASONS = {"bad_count": "a player takes 1 to `most` chips, at most the pile"}

    def __init__(self, seats, options=None) -> None:
        super().__init__(seats, options)
        self.pile = self.options.pile
        self.turn = 0
        self.winner: int | None = None
        self.taken = [0] * len(self.seats)

    def _check(self, a: Action) -> None:
        if self.is_over():
            raise IllegalAction("game_over")
        if a.seat != self.turn:
            raise IllegalAction("not_your_turn", facts={"player": self.seats[self.turn]})
        if not 1 <= a.count <= min(self.options.most, self.pile):
            raise IllegalAction("bad_count", f"take 1 to {min(self.options.most, self.pile)}")

    def _do(self, a: Action) -> list[Event]:
        self.pile -= a.count
        self.taken[a.seat] += a.count
        events = [Event("took", {"seat": a.seat, "count": a.count, "pile": self.pile})]
        if self.pile == 0:
            self.winner = a.seat
            events.append(Event("game_over", {"winner": a.seat}))
        else:
            self.turn = self.next_seat(self.turn)
        return events

    def legal_actions(self, seat):
        if self.is_over() or seat != self.turn:
            return []
        return [Take(seat, k) for k in range(1, min(self.options.most, self.pile) + 1)]

    def current_seats(self):
        return [] if self.is_over() else [self.turn]

    def is_over(self):
        return self.winner is not None

    def result(self):
        return {"winner": self.winner, "taken": list(self.taken)} if self.is_over() else None

    def view(self, seat):
        return {"pile": self.pile, "turn": None if self.is_over() else self.turn, "winner": self.winner,
                "over": self.is_over(), "options": {"most": self.options.most}}

    def snapshot(self):
        return {"pile": self.pile, "turn": self.turn, "winner": self.winner, "taken": list(self.taken)}

    def conserved(self):
        return {"chips": self.pile + sum(self.taken)}


class NimSim(TableSim):
    """The bots: each takes a random number of chips on its pad."""

    def next_action(self):
        if self.game.is_over():
            return None
        seat = self.game.current_seats()[0]
        return self.rng.choice(self.game.legal_actions(seat)).text(), "button"

    def applied(self, action_text: str) -> None:
        self.truth["pile"] = self.game.pile


class NimPresenter(PlainPresenter):
    """Its words: one line per take, and the winner. A game outside the package has no entries in
    the catalogue: it says its words in both languages itself (``{"ru": …, "en": …}``)."""

    narrates = True
    notable = ("took", "game_over")

    def event(self, event, seats):
        d = event.data
        if event.kind == "took":
            return {"ru": f"{seats[d['seat']]} берёт {d['count']}, в куче {d['pile']}",
                    "en": f"{seats[d['seat']]} takes {d['count']}, {d['pile']} left"}
        if event.kind == "game_over":
            return {"ru": f"Победитель: {seats[d['winner']]}", "en": f"Winner: {seats[d['winner']]}"}
        return None

    def standings(self, view, seats):
        if view.get("winner") is None:
            return {"ru": f"В куче {view['pile']}", "en": f"{view['pile']} chips left"}
        return {"ru": f"Победитель: {seats[view['winner']]}", "en": f"Winner: {seats[view['winner']]}"}


#: Its words on the pages and its options' labels, in both languages (the catalogue has none of
#: them). ``pile`` is also a view key of doubt, worded «Стопка»: Nim's «Куча» is its own, served as
#: ``nim:pile``, and doubt's page keeps its word.
PAGE_WORDS = {"pile": {"ru": "Куча", "en": "Heap"}}
OPTION_LABELS = {"pile": {"ru": "Фишек в куче", "en": "Chips in the heap"},
                 "most": {"ru": "Больше всего за ход", "en": "Most chips in one take"}}

#: Its board on the pages: an ES module of its own (``/games/nim/board.js``), drawing the heap.
BOARD = Path(__file__).parent / "static" / "board.js"

SPEC = GameSpec(id="nim", title="Nim", engine=NimGame, simulator=NimSim, presenter=NimPresenter(),
                pad_verbs=PadVerbs(), page_words=PAGE_WORDS, option_labels=OPTION_LABELS,
                board_script=BOARD)
