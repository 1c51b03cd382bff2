""""Верю — не верю" (game id ``doubt``): the bluffing shedding game of seed ``001_*``.

Rules: ``/work/shared/seeds/001_*`` (the Russian leaflet), product rulings ``RULINGS.md`` §0 and §2,
documented as implemented in ``docs/rules/doubt.md``.

The engine never sees a card face except when the camera (or an operator's manual entry) reads
the cards of a placement turned over for a check. It knows hand *sizes* from the deal and from
every placement and pile taken; it knows the claimed kind of every placement.

Flow of one game::

    deal ──> lead ──> answer ──┬─ add ──> answer ...
     ^         ^               └─ believe / doubt ──> check (table reveal) ──> lead | game end
     └─ loser deals the next game (option ``games``)

Action text forms (seat numbers 0-based, clockwise)::

    0 deal                     the dealer has dealt all cards (hand sizes follow the split rule)
    0 place 3 mushroom         lead a pile: 3 cards face down, claimed "3 гриба"
    1 add 5                    option 3: "ещё 5 грибов — от меня" (same claimed kind)
    1 believe                  "Верю"
    1 doubt                    "Не верю"
    table reveal mushroom,fox  the last placement turned over: the kinds read (camera or manual)
    table void                 operator: void the round (each placement back to its placer)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.errors import IllegalAction
from companion.games.base import Action, Event, Game, Options
from companion.games.doubt.actions import Add, Believe, Deal, Doubt, Place, Reveal, Void

# --------------------------------------------------------------------------- deck profiles
DEFAULT_DECK: dict = {
    "name": "forest104",
    "title": "Верю — не верю, 104 карты",
    "kinds": [
        {"id": "mushroom", "name": "гриб", "name_en": "mushroom", "count": 13},
        {"id": "berry", "name": "ягода", "name_en": "berry", "count": 13},
        {"id": "acorn", "name": "жёлудь", "name_en": "acorn", "count": 13},
        {"id": "leaf", "name": "лист", "name_en": "leaf", "count": 13},
        {"id": "hedgehog", "name": "ёж", "name_en": "hedgehog", "count": 13},
        {"id": "squirrel", "name": "белка", "name_en": "squirrel", "count": 13},
        {"id": "hare", "name": "заяц", "name_en": "hare", "count": 13},
        {"id": "owl", "name": "сова", "name_en": "owl", "count": 13},
    ],
}
"""The default deck profile: 104 cards, 8 kinds × 13, no wild cards (RULINGS §2; the leaflet's
"104 (8 видов по 8)" cannot both hold). The leaflet names only the mushroom ("3 гриба"); the other
seven picture names are this project's choice. A table replaces the profile with its own deck
(option ``deck``), e.g. the kinds and counts the card reader learned."""

DECK_PROFILES: dict[str, dict] = {
    "forest104": DEFAULT_DECK,
    "forest64": {
        "name": "forest64",
        "title": "Верю — не верю, 64 карты (8 видов по 8)",
        "kinds": [dict(k, count=8) for k in DEFAULT_DECK["kinds"]],
    },
}
"""Built-in deck profiles by name (option ``deck`` may name one). ``forest64`` is the other reading
of the leaflet's "8 видов по 8" for tables whose deck really has 64 cards."""

_KIND_ID = re.compile(r"^[a-z0-9_]{1,32}$")


def normalize_deck(deck: Any) -> dict:
    """Validate a deck profile and return it in canonical form.

    Accepted shapes: ``None`` (the default profile), a name in :data:`DECK_PROFILES`,
    ``{"kinds": [{"id", "name", "count"}, ...]}``
    (``name``/``name_en`` optional, ``count`` default 1) or ``{"kinds": {"id": count, ...}}``.
    Kind ids are ``[a-z0-9_]{1,32}`` (they appear in action text).

    Returns:
        ``{"name": str, "title": str, "kinds": [{"id", "name", "name_en", "count"}, ...]}``.

    Raises:
        IllegalAction: ``bad_option`` — malformed profile, duplicate or bad kind id, count < 1,
            fewer than 2 kinds.
    """
    if deck is None:
        deck = DEFAULT_DECK
    if isinstance(deck, str):
        if deck not in DECK_PROFILES:
            raise IllegalAction("bad_option", f"no deck profile {deck!r}; built in: {', '.join(DECK_PROFILES)}")
        deck = DECK_PROFILES[deck]
    if not isinstance(deck, dict) or "kinds" not in deck:
        raise IllegalAction("bad_option", "deck must be an object with 'kinds'")
    raw = deck["kinds"]
    if isinstance(raw, dict):
        raw = [{"id": k, "count": v} for k, v in raw.items()]
    if not isinstance(raw, list):
        raise IllegalAction("bad_option", "deck 'kinds' must be a list or an object id -> count")
    kinds = []
    seen = set()
    for item in raw:
        if not isinstance(item, dict) or not isinstance(item.get("id"), str):
            raise IllegalAction("bad_option", f"deck kind {item!r} needs a string 'id'")
        kid = item["id"]
        if not _KIND_ID.match(kid) or kid in seen:
            raise IllegalAction("bad_option", f"deck kind id {kid!r} is invalid or repeated")
        count = item.get("count", 1)
        if not isinstance(count, int) or isinstance(count, bool) or count < 1:
            raise IllegalAction("bad_option", f"deck kind {kid!r}: count must be a positive integer")
        seen.add(kid)
        kinds.append({"id": kid, "name": str(item.get("name", kid)),
                      "name_en": str(item.get("name_en", item.get("name", kid))), "count": count})
    if len(kinds) < 2:
        raise IllegalAction("bad_option", "a deck needs at least 2 kinds")
    return {"name": str(deck.get("name", "custom")), "title": str(deck.get("title", deck.get("name", "custom"))),
            "kinds": kinds}


def _fold(text: str) -> str:
    """A kind name for comparison: stripped, lower case, ``ё`` as ``е``."""
    return str(text).strip().lower().replace("ё", "е")


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class DoubtOptions(Options):
    """House-rule options of "Верю — не верю" (``docs/rules/doubt.md`` lists each with its source).

    Attributes:
        deck: deck profile (see :func:`normalize_deck`): ``None`` = :data:`DEFAULT_DECK`
            (104 = 8 kinds × 13, RULINGS §2), a built-in profile name, or a table's own profile.
        max_cards: most cards in one placement or addition (seed: "от 1 до 8"). Default 8.
        first_dealer: seat that deals the first game (seed: "игрок раздает"). Default 0.
        games: games in the match; the loser of each deals the next (seed: "В следующий раз
            проигравший поделится"). Default 1.
    """

    deck: dict | str | None = None
    #: whole-number ranges (seed "от 1 до 8" cards; a match of at most 1000 games: house limit)
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {"max_cards": (1, 52), "games": (1, 1000)}
    max_cards: int = 8
    SEATS: ClassVar[tuple[str, ...]] = ('first_dealer',)  # seat indexes (shown 1-based on forms)

    first_dealer: int = 0
    games: int = 1

    def validate(self) -> None:
        normalize_deck(self.deck)
        for name in ("max_cards", "first_dealer", "games"):
            if isinstance(getattr(self, name), bool):
                raise IllegalAction("bad_option", f"{name} must be an integer")
        if not isinstance(self.max_cards, int) or not 1 <= self.max_cards <= 52:
            raise IllegalAction("bad_option", "max_cards must be 1..52")
        if not isinstance(self.first_dealer, int) or self.first_dealer < 0:
            raise IllegalAction("bad_option", "first_dealer must be a seat number")
        if not isinstance(self.games, int) or not 1 <= self.games <= 1000:
            raise IllegalAction("bad_option", "games must be 1..1000")


REASONS = {
    "game_over": "the match has ended",
    "wrong_phase": "this action is not allowed in the current phase",
    "not_your_turn": "another seat must act now",
    "not_dealer": "only the dealer reports the deal",
    "table_only": "only the table (camera/operator) may do this",
    "seat_only": "a seat must do this, not the table",
    "player_out": "this seat has left the game (no cards)",
    "bad_count": "a placement is 1..max_cards cards",
    "not_enough_cards": "the seat holds fewer cards than that",
    "no_cards": "a seat without cards cannot add; it must believe or doubt",
    "unknown_kind": "no such kind in the deck profile",
    "unreadable_card": "a card of the reveal is '?' (reader not sure): rescan or enter it manually",
    "reveal_count_mismatch": "the reveal must list exactly the cards of the last placement",
    "impossible_cards": "more cards of a kind than the deck holds (with the ones already discarded)",
    "nothing_to_void": "no pile on the table",
}
"""Reason codes of this game (plus the common ones of ``companion.errors.COMMON_REASONS``)."""


class DoubtGame(Game):
    """The referee of "Верю — не верю". See the module docstring for the flow and text forms.

    Args:
        seats: 2–8 player names, clockwise (seed: "от 2 до 8 человек").
        options: :class:`DoubtOptions` or a dict.

    Raises:
        IllegalAction: ``bad_seats``, ``bad_option`` (also when the deck has fewer cards than
            players or ``first_dealer`` is not a seat).
    """

    GAME_ID = "doubt"
    REASONS = REASONS
    ACTIONS = (Deal, Place, Add, Believe, Doubt, Reveal, Void)
    OPTIONS = DoubtOptions
    options: DoubtOptions
    MIN_SEATS = 2
    MAX_SEATS = 8

    def __init__(self, seats, options=None) -> None:
        super().__init__(seats, options)
        self.deck = normalize_deck(self.options.deck)
        self.kind_count = {k["id"]: k["count"] for k in self.deck["kinds"]}
        self.deck_size = sum(self.kind_count.values())
        n = len(self.seats)
        if self.options.first_dealer >= n:
            raise IllegalAction("bad_option", f"first_dealer {self.options.first_dealer} is not a seat")
        if self.deck_size < n:
            raise IllegalAction("bad_option", f"{self.deck_size} cards cannot be dealt to {n} players")
        self.phase = "deal"
        self.dealer = self.options.first_dealer
        self.game_no = 1
        self.turn: int | None = self.dealer
        self.hands = [0] * n
        self.in_game = [True] * n
        self.pile: list[list] = []  # [seat, count] per placement, in order
        self.pile_cards = 0
        self.claim: str | None = None
        self.answer: list | None = None  # [seat, "believe"|"doubt"] awaiting the check
        self.discard = 0
        self.discard_known = {k: 0 for k in self.kind_count}
        self.out_order: list[int] = []
        self.last_check: dict | None = None
        self.games_log: list[dict] = []  # per finished game: {"game", "loser", "out_order", "dealer"}
        self.checks = 0  # piles resolved by a check, whole match

    # ------------------------------------------------------------------ helpers
    def _next_in(self, seat: int) -> int:
        """Next seat clockwise that is still in the game (RULINGS §0 "left")."""
        n = len(self.seats)
        for step in range(1, n + 1):
            s = (seat + step) % n
            if self.in_game[s]:
                return s
        return seat

    def deal_sizes(self, dealer: int) -> list[int]:
        """Cards per seat when ``dealer`` deals the whole deck: equal shares, the remainder one each
        to the seats nearest the dealer's left (RULINGS §2)."""
        n = len(self.seats)
        base, extra = divmod(self.deck_size, n)
        sizes = [base] * n
        for i in range(extra):
            sizes[(dealer + 1 + i) % n] += 1
        return sizes

    def conserved(self) -> dict[str, int]:
        """Once dealt, every card is in a hand, the pile or the discard: ``cards`` is their sum
        minus the deck, always 0."""
        if self.phase == "deal":
            return {"cards": 0}
        return {"cards": sum(self.hands) + self.pile_size() + self.discard - self.deck_size}

    def pile_size(self) -> int:
        """Cards in the pile on the table (all placements of the current round)."""
        return self.pile_cards

    # ------------------------------------------------------------------ checks
    def _check(self, a: Action) -> None:
        if self.phase == "over":
            raise IllegalAction("game_over", "the match has ended")
        if type(a) is Reveal or type(a) is Void:
            if a.seat is not None:
                raise IllegalAction("table_only", f"'{a.VERB}' is an observation/operator action of the table")
            if type(a) is Void:
                if not self.pile:
                    raise IllegalAction("nothing_to_void", "no pile on the table")
                return
            assert type(a) is Reveal, type(a)
            if self.phase != "check":
                raise IllegalAction("wrong_phase", "no check is pending; reveal comes after believe/doubt")
            count = self.pile[-1][1]
            if len(a.kinds) != count:
                raise IllegalAction("reveal_count_mismatch",
                                    f"the last placement has {count} card(s), the reveal lists {len(a.kinds)}",
                                    {"expected": count, "given": len(a.kinds)})
            if any(k is None or k == "?" for k in a.kinds):
                raise IllegalAction("unreadable_card", "the reader is not sure of a card: rescan it or "
                                                       "enter the kinds manually")
            seen: dict[str, int] = {}
            for k in a.kinds:
                if k not in self.kind_count:
                    raise IllegalAction("unknown_kind", f"{k!r} is not a kind of deck {self.deck['name']}",
                                        self._unknown_kind_facts(k))
                seen[k] = seen.get(k, 0) + 1
            for k, c in seen.items():
                if self.discard_known[k] + c > self.kind_count[k]:
                    raise IllegalAction("impossible_cards",
                                        f"{c} × {k} plus {self.discard_known[k]} discarded exceeds the deck's "
                                        f"{self.kind_count[k]}",
                                        {"kind": self._kind_words(k), "in_deck": self.kind_count[k],
                                         "discarded": self.discard_known[k]})
            return
        if a.seat is None:
            raise IllegalAction("seat_only", f"'{a.VERB}' is a seat's action")
        seat = a.seat
        if type(a) is Deal:
            if self.phase != "deal":
                raise IllegalAction("wrong_phase", "the cards are already dealt")
            if seat != self.dealer:
                raise IllegalAction("not_dealer", f"seat {self.dealer} deals this game",
                                    {"player": self.seats[self.dealer]})
            return
        if not self.in_game[seat]:
            raise IllegalAction("player_out", f"seat {seat} has left the game")
        if type(a) is Place:
            if self.phase != "lead":
                raise IllegalAction("wrong_phase", "a pile is already in play; answer it")
            if seat != self.turn:
                raise self._out_of_turn("leads")
            if a.kind not in self.kind_count:
                raise IllegalAction("unknown_kind", f"{a.kind!r} is not a kind of deck {self.deck['name']}",
                                    self._unknown_kind_facts(a.kind))
            self._check_count(seat, a.count)
            return
        if self.phase != "answer":
            raise IllegalAction("wrong_phase", f"'{a.VERB}' answers a placement; phase is {self.phase}")
        if seat != self.turn:
            raise self._out_of_turn("answers")
        if type(a) is Add:
            if self.hands[seat] == 0:
                raise IllegalAction("no_cards", f"seat {seat} holds no cards; believe or doubt")
            self._check_count(seat, a.count)

    def _out_of_turn(self, does: str) -> IllegalAction:
        """The ``not_your_turn`` refusal: the lead and the answer always have a seat to play."""
        turn = self.turn
        assert turn is not None, "a lead or an answer without a turn"
        return IllegalAction("not_your_turn", f"seat {turn} {does}", {"player": self.seats[turn]})

    def _check_count(self, seat: int, count: int) -> None:
        if not 1 <= count <= self.options.max_cards:
            raise IllegalAction("bad_count", f"place 1..{self.options.max_cards} cards, not {count}",
                                {"max": self.options.max_cards})
        if count > self.hands[seat]:
            raise IllegalAction("not_enough_cards", f"seat {seat} holds {self.hands[seat]} card(s)",
                                {"player": self.seats[seat], "held": self.hands[seat]})

    # ------------------------------------------------------------------ transitions
    def _do(self, a: Action) -> list[Event]:
        if type(a) is Deal:
            return self._do_deal()
        if type(a) is Place or type(a) is Add:
            seat = a.seat
            if type(a) is Place:
                self.claim = a.kind
            self.hands[seat] -= a.count
            self.pile.append([seat, a.count])
            self.pile_cards += a.count
            self.turn = self._next_in(seat)
            self.phase = "answer"
            events = [Event("placed" if type(a) is Place else "added",
                            {"seat": seat, "count": a.count, "kind": self.claim, "pile": self.pile_size()})]
            if self.hands[seat] == 0:
                events.append(Event("last_cards", {"seat": seat}))
            return events
        if type(a) is Believe or type(a) is Doubt:
            self.answer = [a.seat, a.VERB]
            self.phase = "check"
            self.turn = None
            return [Event("answered", {"seat": a.seat, "answer": a.VERB, "placer": self.pile[-1][0],
                                       "count": self.pile[-1][1], "kind": self.claim})]
        if type(a) is Reveal:
            return self._do_reveal(a.kinds)
        return self._do_void()

    def _do_deal(self) -> list[Event]:
        self.hands = self.deal_sizes(self.dealer)
        n = len(self.seats)
        self.in_game = [True] * n
        self.pile = []
        self.pile_cards = 0
        self.claim = None
        self.answer = None
        self.discard = 0
        self.discard_known = {k: 0 for k in self.kind_count}
        self.out_order = []
        self.last_check = None
        self.phase = "lead"
        self.turn = self.dealer
        return [Event("dealt", {"dealer": self.dealer, "hands": list(self.hands), "game": self.game_no})]

    def _do_reveal(self, kinds: tuple[str, ...]) -> list[Event]:
        assert self.answer is not None, "the check follows an answer"
        answerer, answer = self.answer
        placer, count = self.pile[-1]
        claim = self.claim
        true_claim = all(k == claim for k in kinds)
        self.checks += 1
        total = self.pile_size()
        taker: int | None
        if answer == "believe":
            if true_claim:   # seed ¶7: бита, the right guesser leads
                taker, leader, outcome = None, answerer, "believe_right"
            else:            # seed ¶8: the naive believer takes the pile; his left leads
                taker, leader, outcome = answerer, None, "believe_wrong"
        else:
            if not true_claim:  # seed ¶9: the liar takes the pile; the right guesser leads
                taker, leader, outcome = placer, answerer, "doubt_right"
            else:               # seed ¶10: the suspicious one takes the pile; his left leads
                taker, leader, outcome = answerer, None, "doubt_wrong"
        if taker is None:
            self.discard += total
            for k in kinds:
                self.discard_known[k] += 1
        else:
            self.hands[taker] += total
        self.last_check = {"placer": placer, "answerer": answerer, "answer": answer, "claim": claim,
                           "count": count, "kinds": list(kinds), "true": true_claim, "taker": taker,
                           "pile": total, "outcome": outcome}
        events = [Event("checked", dict(self.last_check))]
        # RULINGS §2 / seed ¶11: a seat whose cards are all on the pile leaves once the pile is
        # resolved and he did not take it.
        for s in range(len(self.seats)):
            if self.in_game[s] and self.hands[s] == 0 and s != taker:
                self.in_game[s] = False
                self.out_order.append(s)
                events.append(Event("player_out", {"seat": s}))
        self.pile = []
        self.pile_cards = 0
        self.claim = None
        self.answer = None
        remaining = [s for s in range(len(self.seats)) if self.in_game[s]]
        if len(remaining) <= 1:
            events.extend(self._end_game(remaining[0] if remaining else None))
            return events
        if leader is None:
            leader = self._next_in(answerer)
        elif not self.in_game[leader]:
            leader = self._next_in(leader)
        self.turn = leader
        self.phase = "lead"
        events.append(Event("lead", {"seat": leader}))
        return events

    def _end_game(self, loser: int | None) -> list[Event]:
        """Seed ¶12: the last seat still in the game loses; he deals the next game (seed ¶2)."""
        self.games_log.append({"game": self.game_no, "dealer": self.dealer, "loser": loser,
                               "out_order": list(self.out_order)})
        events = [Event("game_over", {"game": self.game_no, "loser": loser,
                                      "loser_name": None if loser is None else self.seats[loser]})]
        self.turn = None
        if self.game_no >= self.options.games:
            self.phase = "over"
            events.append(Event("match_over", self._final_result()))
            return events
        self.game_no += 1
        self.dealer = loser if loser is not None else self.next_seat(self.dealer)
        self.turn = self.dealer
        self.phase = "deal"
        return events

    def _do_void(self) -> list[Event]:
        returned = [{"seat": s, "count": c} for s, c in self.pile]
        for s, c in self.pile:
            self.hands[s] += c
        leader = self.pile[0][0]
        self.pile = []
        self.pile_cards = 0
        self.claim = None
        self.answer = None
        self.turn = leader
        self.phase = "lead"
        return [Event("round_void", {"returned": returned, "lead": leader})]

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int | None) -> list[Action]:
        """Legal actions of ``seat`` now. For the table: a ``Reveal`` template with ``kinds`` of
        ``None`` per card (filled by the camera) and ``Void`` when a pile lies on the table."""
        if self.phase == "over":
            return []
        if seat is None:
            out: list[Action] = []
            if self.phase == "check":
                out.append(Reveal(None, (None,) * self.pile[-1][1]))  # a template: the kinds are the camera's to read
            if self.pile:
                out.append(Void(None))
            return out
        if self.phase == "deal":
            return [Deal(seat)] if seat == self.dealer else []
        if seat != self.turn or not self.in_game[seat]:
            return []
        top = min(self.options.max_cards, self.hands[seat])
        if self.phase == "lead":
            return [Place(seat, c, k) for k in self.kind_count for c in range(1, top + 1)]
        if self.phase == "answer":
            return [Believe(seat), Doubt(seat), *(Add(seat, c) for c in range(1, top + 1))]
        return []

    def current_seats(self) -> list[int]:
        if self.phase in ("over", "check") or self.turn is None:
            return []
        return [self.turn]

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> dict | None:
        """Once over: ``{"game", "games", "loser", "loser_name", "winner" (name of the first seat to
        get rid of its cards in the last game), "winners" (names in that order), "order" (their
        seats), "losses" (per seat, whole match), "rounds" (piles checked), "per_game": [...],
        "next_dealer"}``."""
        if self.phase != "over":
            return None
        losses = [0] * len(self.seats)
        for g in self.games_log:
            if g["loser"] is not None:
                losses[g["loser"]] += 1
        last = self.games_log[-1]
        return {
            "game": self.GAME_ID,
            "games": len(self.games_log),
            "loser": last["loser"],
            "loser_name": None if last["loser"] is None else self.seats[last["loser"]],
            "winner": self.seats[last["out_order"][0]] if last["out_order"] else None,
            "winners": [self.seats[s] for s in last["out_order"]],
            "order": list(last["out_order"]),
            "losses": losses,
            "per_game": [dict(g) for g in self.games_log],
            "next_dealer": last["loser"] if last["loser"] is not None else self.next_seat(last["dealer"]),
            "rounds": self.checks,
        }

    def replay_summary(self) -> dict:
        """Summary for ``companion replay --json``: ``{"game", "over", "winner", "loser", "rounds",
        "result", "seats": [{"name", "cards", "in_game", "losses"}]}``."""
        result = self.result()
        losses = result["losses"] if result else [0] * len(self.seats)
        return {
            "game": self.GAME_ID, "over": self.is_over(),
            "winner": result["winner"] if result else None,
            "loser": result["loser_name"] if result else None,
            "rounds": self.checks, "result": result,
            "seats": [{"name": n, "cards": self.hands[i], "in_game": self.in_game[i], "losses": losses[i]}
                      for i, n in enumerate(self.seats)],
        }

    def view(self, seat: int | None) -> dict:
        """Public (``None``) or one seat's view. The engine holds no face-down card face at all:
        only claims, counts and the faces of the last check (which the table saw)."""
        v = {
            "game": self.GAME_ID,
            "phase": self.phase,
            "game_no": self.game_no,
            "games": self.options.games,
            "dealer": self.dealer,
            "turn": self.turn,
            "seats": [
                {"seat": i, "name": name, "cards": self.hands[i], "in_game": self.in_game[i],
                 "last_cards": self.in_game[i] and self.hands[i] == 0 and self.phase != "deal"}
                for i, name in enumerate(self.seats)
            ],
            "pile": {"claim": self.claim,
                     "claim_name": self._kind_name(self.claim),
                     "placements": [{"seat": s, "count": c} for s, c in self.pile],
                     "cards": self.pile_size()},
            "answer": None if self.answer is None else {"seat": self.answer[0], "answer": self.answer[1]},
            "discard": self.discard,
            "last_check": self.last_check,
            "out_order": list(self.out_order),
            "deck": {"name": self.deck["name"], "size": self.deck_size,
                     "kinds": [{"id": k["id"], "name": k["name"], "name_en": k["name_en"], "count": k["count"]}
                               for k in self.deck["kinds"]]},
            "version": self.version,
        }
        if self.phase == "over":
            v["result"] = self.result()
        if seat is not None:
            v["you"] = {"seat": seat, "cards": self.hands[seat], "in_game": self.in_game[seat],
                        "to_act": seat in self.current_seats(),
                        "verbs": sorted({x.VERB for x in self.legal_actions(seat)})}
        return v

    def kind_for_name(self, text: str) -> str | None:
        """The kind id a written name stands for, or ``None``: the id itself or the deck's
        Russian or English name of a kind (the names the dashboard shows), in any letter case,
        with е for ё («ЁЖ», «еж», ``Hedgehog`` → ``hedgehog``). The deck profile is the one source
        of the names (a table's own deck brings its own)."""
        key = _fold(text)
        for k in self.deck["kinds"]:
            if key in (_fold(k["id"]), _fold(k["name"]), _fold(k["name_en"])):
                return k["id"]
        return None

    def kind_names(self) -> list[dict[str, str]]:
        """The deck's kind names, deck order, as the deck profile carries them: ``{"ru": name,
        "en": name_en}`` each (:func:`companion.i18n.render` picks the language)."""
        return [{"ru": k["name"], "en": k["name_en"]} for k in self.deck["kinds"]]

    def _kind_words(self, kind: str) -> dict[str, str]:
        """A kind's names for a refusal's facts: ``{"ru": «Гриб», "en": "Mushroom"}`` (the id
        when the deck has no such kind)."""
        for k in self.deck["kinds"]:
            if k["id"] == kind:
                return {"ru": k["name"], "en": k["name_en"]}
        return {"ru": kind, "en": kind}

    def _unknown_kind_facts(self, kind) -> dict:
        """The facts of an ``unknown_kind`` refusal: the kind typed and this deck's kinds by name
        in both languages (the dashboard names them: the deck's own cards, not another game's)."""
        return {"card": kind, "kinds": [{"ru": k["name"], "en": k["name_en"]} for k in self.deck["kinds"]]}

    def _kind_name(self, kind: str | None) -> str | None:
        for k in self.deck["kinds"]:
            if k["id"] == kind:
                return k["name"]
        return None

    def snapshot(self) -> dict:
        return {
            "phase": self.phase, "dealer": self.dealer, "game_no": self.game_no, "turn": self.turn,
            "hands": list(self.hands), "in_game": list(self.in_game),
            "pile": [list(p) for p in self.pile], "claim": self.claim,
            "answer": None if self.answer is None else list(self.answer),
            "discard": self.discard, "discard_known": dict(self.discard_known),
            "out_order": list(self.out_order), "last_check": self.last_check,
            "games_log": [dict(g) for g in self.games_log], "deck": self.deck, "checks": self.checks,
        }


GAME = DoubtGame


