"""The 36-card "6100" trick game with the Infinity card and "ХОЙ!" (seed ``003_*``, RULINGS §4).

Game id ``infinity``. Rules as implemented, with every option and reason code, are in
``docs/rules/infinity.md``; the tests in ``tests/games/infinity/`` cite the seed paragraph each proves.

What the engine knows. Hands are held in the players' hands, so the engine never knows which
cards a seat holds — only how many (the deal is physical, RULINGS §0). It learns a card's face
when the card lands face up on the table: the camera reads it. It keeps the multiset of cards not
yet seen this deal, so a face that cannot exist any more (a fifth "500") is rejected.

A play honours both the seat's decision and the camera's read:

* ``0 play 500`` — one action: the camera saw seat 0 put down a 500 (source ``camera``), or the
  operator typed it (source ``manual``).
* ``0 play ?`` then ``table face 500`` — the seat declared its play (button box) before the face was
  read; the engine then waits for the camera's read of that card, and accepts nothing else but
  ``table face`` (or ``table void``) meanwhile.

Card tokens: the card's value in decimal (``10``, ``36``, ``500``) or ``INF`` for Infinity
("Бесконечность"). Cards of equal value are interchangeable.
"""

from __future__ import annotations

import marshal
import functools
from dataclasses import dataclass
from typing import Any, ClassVar

from companion.errors import IllegalAction
from companion.games.base import HOUSE_MAX, Action, Event, Game, Options
from companion.games.words import TABLE_DOES
from companion.games.infinity.actions import DealCards, Face, Kept, Play, Void


def _clone(obj):
    """A deep copy of JSON-like state (dicts, lists, str, int, None): marshal is ~10x faster than
    copy.deepcopy, which dominated the simulated games' time."""
    return marshal.loads(marshal.dumps(obj))

INF = "INF"
"""Token of the Infinity card (beats every card, RULINGS §4)."""

DEFAULT_DECK: dict[str, int] = {
    "10": 6, "40": 1, "36": 4, "100": 4, "106": 4, "200": 4, "225": 4, "333": 4, "500": 4, INF: 1,
}
"""The default deck profile, RULINGS §4 (an assumption; the seed does not list the deck):
36 cards, 6100 points without Infinity."""

DECK_CARDS = 36
DECK_POINTS = 6100
"""Seed ``003_*`` ¶1: "В колоде 36 карт с общим количеством 6100 игровых очков"."""

DEAL_LEADER_RULES = ("rotate", "free")

REASONS = {
    "bad_option": "an option is unknown or has an impossible value (e.g. a deck that is not 36 cards/6100 points)",
    "bad_seats": "fewer than 2 or more than 8 players, or more players than the deck can serve",
    "game_over": "all agreed deals are played",
    "wrong_phase": "this action is not possible now (e.g. a play while the deck is being dealt)",
    "not_your_turn": "another seat must play now",
    "face_pending": "a declared card's face has not been read yet; the camera (or operator) must read it first",
    "no_pending_play": "'table face' without a declared play waiting for its face",
    "bad_card": "the card token is missing or malformed",
    "unknown_card": "no card of that value in this deck",
    "card_exhausted": "every card of that value has already been seen this deal",
    "wrong_leader": "the named leader is not the one the rules (option deal_leader) give",
    "wrong_seat": "'table kept' names a seat other than the last one holding cards",
    "wrong_count": "'table kept' lists a different number of cards than the seat holds",
    "nothing_to_void": "no deal is in progress",
}


# ---------------------------------------------------------------------- cards
@functools.lru_cache(maxsize=256)
def card_rank(card: str) -> float:
    """Strength of a card token: its value; Infinity is above every value."""
    return float("inf") if card == INF else int(card)


def canonical_card(token: Any) -> str | None:
    """The canonical token (``"500"``, ``"INF"``) for a written card, or ``None`` if malformed."""
    if not isinstance(token, str):
        return None
    return _canonical_card(token)


def _checked_card(token: Any) -> str:
    """The canonical card of an accepted action (its check refused a malformed one)."""
    card = canonical_card(token)
    assert card is not None, f"an unchecked card {token!r}"
    return card


@functools.lru_cache(maxsize=1024)
def _canonical_card(token: str) -> str | None:
    t = token.strip()
    if t.upper() in (INF, "INFINITY") or t == "∞":
        return INF
    if t.isdigit() and int(t) > 0:
        return str(int(t))
    return None


# ---------------------------------------------------------------------- options
@dataclass(frozen=True)
class InfinityOptions(Options):
    """House rules of ``infinity`` (defaults from RULINGS §4; see ``docs/rules/infinity.md``).

    Attributes:
        deals: number of deals (партии) whose points are summed; seed ¶1 "(3-6-10)". 1–100.
        simplified_scoring: seed's last paragraph: values rounded down to hundreds, so the 10s,
            the 36s and the 40 count 0.
        infinity_points: what the Infinity card scores (RULINGS §4: 0).
        deck: the table's own deck as ``{value: count}`` (``"INF"`` for Infinity), e.g. learned
            with the card reader's ``deck learn``; ``None`` = the default profile.
        deck_check: require the deck to hold 36 cards and 6100 points (seed ¶1) and one or more
            Infinity cards.
        deal_leader: who leads a new deal — ``rotate`` (the seat left of the previous deal's first
            leader; the table's usual "deal passes left") or ``free`` (the table names any seat).
    """

    #: the values a text option may take (the operator's new-game form offers them as a list)
    CHOICES: ClassVar[dict[str, tuple[str, ...]]] = {"deal_leader": DEAL_LEADER_RULES}

    #: whole-number ranges (seed ¶1: 3, 6 or 10 deals; at most 100: house limit)
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {"deals": (1, 100), "infinity_points": (0, HOUSE_MAX)}
    deals: int = 3
    simplified_scoring: bool = False
    infinity_points: int = 0
    deck: dict | None = None
    deck_check: bool = True
    deal_leader: str = "rotate"

    def validate(self) -> None:
        if not isinstance(self.deals, int) or isinstance(self.deals, bool) or not 1 <= self.deals <= 100:
            raise IllegalAction("bad_option", "deals must be an integer 1-100 (usually 3, 6 or 10)")
        if not isinstance(self.simplified_scoring, bool) or not isinstance(self.deck_check, bool):
            raise IllegalAction("bad_option", "simplified_scoring and deck_check are true/false")
        if not isinstance(self.infinity_points, int) or isinstance(self.infinity_points, bool) \
                or self.infinity_points < 0:
            raise IllegalAction("bad_option", "infinity_points must be a non-negative integer")
        if self.deal_leader not in DEAL_LEADER_RULES:
            raise IllegalAction("bad_option", f"deal_leader must be one of {', '.join(DEAL_LEADER_RULES)}")
        self.deck_profile()

    def deck_profile(self) -> dict[str, int]:
        """The deck as ``{card token: count}``, validated.

        Raises:
            IllegalAction: ``bad_option`` for a malformed deck, or one that fails the 36-card /
                6100-point check while ``deck_check`` is on.
        """
        if self.deck is None:
            return dict(DEFAULT_DECK)
        if not isinstance(self.deck, dict) or not self.deck:
            raise IllegalAction("bad_option", "deck must be an object {value: count}")
        out: dict[str, int] = {}
        for key, count in self.deck.items():
            card = canonical_card(str(key))
            if card is None:
                raise IllegalAction("bad_option", f"deck: {key!r} is not a card value (a positive number or INF)")
            if not isinstance(count, int) or isinstance(count, bool) or count < 1:
                raise IllegalAction("bad_option", f"deck: count of {key!r} must be a positive integer")
            if card in out:
                raise IllegalAction("bad_option", f"deck: value {card} listed twice")
            out[card] = count
        total = sum(out.values())
        points = sum(int(c) * n for c, n in out.items() if c != INF)
        if self.deck_check:
            if total != DECK_CARDS or points != DECK_POINTS:
                raise IllegalAction(
                    "bad_option",
                    f"deck has {total} cards and {points} points; the game needs {DECK_CARDS} and "
                    f"{DECK_POINTS} (set deck_check false for a home-made deck)")
            if INF not in out:
                raise IllegalAction("bad_option", "deck has no Infinity card")
        elif total < 4:
            raise IllegalAction("bad_option", "deck needs at least 4 cards")
        return dict(sorted(out.items(), key=lambda kv: card_rank(kv[0])))


# ---------------------------------------------------------------------- the game
class InfinityGame(Game):
    """One game of "6100" at one table (seed ``003_*``, RULINGS §4).

    Args:
        seats: 2-8 player names, clockwise.
        options: :class:`InfinityOptions` or a dict.

    Raises:
        IllegalAction: ``bad_seats`` or ``bad_option``.
    """

    GAME_ID: ClassVar[str] = "infinity"
    ACTIONS: ClassVar[tuple[type[Action], ...]] = (DealCards, Play, Face, Kept, Void)
    OPTIONS: ClassVar[type[Options]] = InfinityOptions
    options: InfinityOptions
    MIN_SEATS: ClassVar[int] = 2
    MAX_SEATS: ClassVar[int] = 8
    REASONS: ClassVar[dict[str, str]] = REASONS

    def __init__(self, seats, options=None) -> None:
        super().__init__(seats, options)
        self.deck = self.options.deck_profile()
        self.deck_size = sum(self.deck.values())
        n = len(self.seats)
        if (n == 2 and self.deck_size < 4) or self.deck_size < n:
            raise IllegalAction("bad_seats", f"a {self.deck_size}-card deck cannot serve {n} players")
        # All mutable state lives in self.s (JSON-safe), so snapshot and void are a copy.
        self.s: dict[str, Any] = {
            "phase": "deal",          # deal | play | kept | over
            "deal": 0,                # index of the current deal (партия), 0-based
            "half": 0,                # two players: 0 = first 9+9, 1 = second 9+9
            "hands": [0] * n,         # cards held, per seat (faces unknown to the engine)
            "unseen": {},             # card -> count not yet seen face up this deal
            "aside": 0,               # cards set aside face down, unscored (3+ players' remainder)
            "stock": 0,               # two players: cards of the second half not yet dealt
            "trick": [],              # [[seat, card], ...] face up, in play order
            "leader": None, "token": None, "turn": None,
            "pending": None,          # seat that declared a play whose face is not read yet
            "kept_seat": None,
            "tricks": [0] * n,        # tricks won this deal
            "points": [0] * n,        # points this deal
            "totals": [0] * n,
            "deal_scores": [],        # [[points per seat], ...] per finished deal
            "first_leaders": [],      # first leader of each deal
            "last_winner": None,
            "hoys": 0,                # ХОЙ! calls this game
            "voids": 0,
        }
        self._deal_start: dict | None = None
        self._points: dict[str, int] = {}

    # ------------------------------------------------------------------ helpers
    def conserved(self) -> dict[str, int]:
        """While a deal is played every card is in a hand, aside, in the stock or seen (``cards``),
        and the points scored plus those on the table are the seen cards' points (``points``):
        both differences are always 0."""
        s = self.s
        if s["phase"] not in ("play", "kept"):
            return {"cards": 0, "points": 0}
        seen = [c for c, k in self.deck.items() for _ in range(k - s["unseen"].get(c, 0))]
        on_table = sum(self.points_of(c) for _, c in s["trick"])
        return {"cards": sum(s["hands"]) + s["aside"] + s["stock"] - sum(s["unseen"].values()),
                "points": sum(s["points"]) + on_table - sum(self.points_of(c) for c in seen)}

    def points_of(self, card: str) -> int:
        """Points a card scores under the options (seed last ¶ for the simplified scoring)."""
        pts = self._points.get(card)
        if pts is None:
            pts = self._points[card] = self._points_uncached(card)
        return pts

    def _points_uncached(self, card: str) -> int:
        value = self.options.infinity_points if card == INF else int(card)
        if self.options.simplified_scoring:
            value = value // 100 * 100
        return value

    def holders(self) -> list[int]:
        return [i for i, c in enumerate(self.s["hands"]) if c > 0]

    def _prev_holder(self, seat: int) -> int:
        """The nearest seat to ``seat``'s right (counter-clockwise) that holds cards."""
        n = len(self.seats)
        for step in range(1, n):
            s = (seat - step) % n
            if self.s["hands"][s] > 0:
                return s
        return seat

    def expected_leader(self) -> int:
        """The leader the rules give for the deal about to be dealt (option ``deal_leader``)."""
        s = self.s
        if s["half"] == 1:
            return s["last_winner"] if s["last_winner"] is not None else s["first_leaders"][-1]
        if not s["first_leaders"]:
            return 0
        return (s["first_leaders"][-1] + 1) % len(self.seats)

    def deck_cards(self) -> list[str]:
        """This table's card values as the operator types them, weakest first (``["10", "36", …,
        "INF"]``): a refusal of a card written wrong names them (the table's own deck profile,
        not another game's card codes)."""
        return sorted(self.deck, key=card_rank)

    def _check_card(self, token: str | None, *, need: int = 1) -> str:
        card = canonical_card(token) if token is not None else None
        if card is None:
            raise IllegalAction("bad_card", f"{token!r} is not a card (a value such as 500, or INF)",
                                {"card": token, "deck": self.deck_cards()})
        if card not in self.deck:
            raise IllegalAction("unknown_card", f"this deck has no {card}", {"card": card, "deck": self.deck_cards()})
        if self.s["unseen"].get(card, 0) < need:
            raise IllegalAction("card_exhausted", f"every {card} of the deck has already been seen this deal")
        return card

    # ------------------------------------------------------------------ checking
    def _check(self, a: Action) -> None:
        s = self.s
        if s["phase"] == "over":
            raise IllegalAction("game_over", "all agreed deals are played")
        if isinstance(a, Void):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "only the table (operator) voids a deal", TABLE_DOES)
            if s["phase"] == "deal" and s["half"] == 0:
                raise IllegalAction("nothing_to_void", "no deal is in progress")
            return
        if isinstance(a, DealCards):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "the deal is reported by the table", TABLE_DOES)
            if s["phase"] != "deal":
                raise IllegalAction("wrong_phase", "the cards are already dealt")
            if a.leader is not None:
                if not 0 <= a.leader < len(self.seats):
                    raise IllegalAction("unknown_seat", f"seat {a.leader} is not at this table")
                first = s["deal"] == 0 and s["half"] == 0
                if not first and self.options.deal_leader != "free" and a.leader != self.expected_leader():
                    raise IllegalAction(
                        "wrong_leader", f"seat {self.expected_leader()} leads this deal, not seat {a.leader}",
                        {"player": self.seats[self.expected_leader()]})
            return
        if isinstance(a, Play):
            if a.seat is None:
                raise IllegalAction("not_your_turn", "a card is played by a seat")
            if s["phase"] != "play":
                raise IllegalAction("wrong_phase", f"no trick in play (phase {s['phase']})")
            if s["pending"] is not None:
                raise IllegalAction("face_pending", f"seat {s['pending']}'s card must be read first")
            if a.seat != s["turn"]:
                raise IllegalAction("not_your_turn", f"seat {s['turn']} plays now", {"player": self.seats[s["turn"]]})
            if a.card is not None:
                self._check_card(a.card)
            return
        if isinstance(a, Face):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "a face is read by the table (camera or operator)", TABLE_DOES)
            if s["phase"] != "play" or s["pending"] is None:
                raise IllegalAction("no_pending_play", "no declared card is waiting for its face")
            self._check_card(a.card)
            return
        if isinstance(a, Kept):
            if a.seat is not None:
                raise IllegalAction("not_your_turn", "kept cards are read by the table", TABLE_DOES)
            if s["phase"] != "kept":
                raise IllegalAction("wrong_phase", "more than one seat still holds cards")
            if a.owner != s["kept_seat"]:
                raise IllegalAction("wrong_seat", f"seat {s['kept_seat']} is the one still holding cards",
                                    {"player": self.seats[s["kept_seat"]]})
            cards = a.cards or ()
            if len(cards) != s["hands"][a.owner]:
                raise IllegalAction(
                    "wrong_count", f"seat {a.owner} holds {s['hands'][a.owner]} card(s), {len(cards)} read",
                    {"player": self.seats[a.owner], "held": s["hands"][a.owner], "entered": len(cards)})
            need: dict[str, int] = {}
            for t in cards:
                c = canonical_card(t)
                if c is None:
                    raise IllegalAction("bad_card", f"{t!r} is not a card", {"card": t, "deck": self.deck_cards()})
                need[c] = need.get(c, 0) + 1
            for c, k in need.items():
                self._check_card(c, need=k)
            return
        raise IllegalAction("unknown_action", type(a).__name__)  # pragma: no cover

    # ------------------------------------------------------------------ applying
    def _do(self, a: Action) -> list[Event]:
        if isinstance(a, DealCards):
            return self._do_deal(a)
        if isinstance(a, Play):
            if a.card is None:
                self.s["pending"] = a.seat
                return [Event("play_declared", {"seat": a.seat})]
            return self._play_card(a.seat, _checked_card(a.card))
        if isinstance(a, Face):
            seat = self.s["pending"]
            self.s["pending"] = None
            return self._play_card(seat, _checked_card(a.card))
        if isinstance(a, Kept):
            return self._do_kept(a)
        if isinstance(a, Void):
            return self._do_void()
        raise AssertionError(a)  # pragma: no cover

    def _do_deal(self, a: DealCards) -> list[Event]:
        s = self.s
        n = len(self.seats)
        if s["half"] == 0:
            self._deal_start = _clone(s)
            s["unseen"] = dict(self.deck)
            s["points"] = [0] * n
            s["tricks"] = [0] * n
            s["last_winner"] = None
        leader = a.leader if a.leader is not None else self.expected_leader()
        if n == 2:
            share = self.deck_size // 4
            if s["half"] == 0:
                s["aside"] = self.deck_size % 4
                s["stock"] = self.deck_size - s["aside"] - 2 * share
            else:
                s["stock"] -= 2 * share
        else:
            share = self.deck_size // n
            s["aside"] = self.deck_size % n
            s["stock"] = 0
        s["hands"] = [share] * n
        if s["half"] == 0:
            s["first_leaders"].append(leader)
        s["trick"] = []
        s["phase"] = "play"
        events = [Event("dealt", {"deal": s["deal"] + 1, "half": s["half"] + 1 if n == 2 else None,
                                  "cards_each": share, "aside": s["aside"], "leader": leader})]
        events += self._start_trick(leader)
        return events

    def _start_trick(self, leader: int) -> list[Event]:
        s = self.s
        if s["hands"][leader] == 0:
            leader = self.next_seat(leader, skip=[i for i, c in enumerate(s["hands"]) if c == 0])
        s["leader"] = leader
        s["token"] = self._prev_holder(leader)
        s["turn"] = leader
        s["trick"] = []
        return [Event("trick_started", {"leader": leader, "token": s["token"]})]

    def _play_card(self, seat: int, card: str) -> list[Event]:
        s = self.s
        prev = s["trick"][-1][1] if s["trick"] else None
        s["trick"].append([seat, card])
        s["hands"][seat] -= 1
        s["unseen"][card] -= 1
        events = [Event("card_played", {"seat": seat, "card": card})]
        if prev is not None and card_rank(prev) == card_rank(card):
            s["token"] = seat
            s["hoys"] += 1
            events.append(Event("hoy", {"seat": seat, "card": card}))
            return events + self._advance(seat)
        if seat == s["token"]:
            return events + self._end_trick()
        return events + self._advance(seat)

    def _advance(self, seat: int) -> list[Event]:
        """Pass the turn clockwise, skipping seats without cards; the token owner closes."""
        s = self.s
        n = len(self.seats)
        cur = seat
        for _ in range(n):
            cur = (cur + 1) % n
            if cur == s["token"]:
                if s["hands"][cur] > 0:
                    s["turn"] = cur
                    return []
                return self._end_trick()
            if s["hands"][cur] > 0:
                s["turn"] = cur
                return []
        return self._end_trick()  # pragma: no cover - the token owner is always reached

    def _end_trick(self) -> list[Event]:
        s = self.s
        best, winner = -1.0, None
        for seat, card in s["trick"]:
            r = card_rank(card)
            if r >= best:  # the later of equal highest cards wins (seed ¶"Если старшие карты...")
                best, winner = r, seat
        assert winner is not None, "a trick has cards"
        pts = sum(self.points_of(c) for _, c in s["trick"])
        s["points"][winner] += pts
        s["tricks"][winner] += 1
        s["last_winner"] = winner
        events = [Event("trick_won", {"seat": winner, "cards": [c for _, c in s["trick"]], "points": pts})]
        s["trick"] = []
        s["turn"] = None
        s["token"] = None
        holders = self.holders()
        if len(holders) >= 2:
            return events + self._start_trick(winner)
        if len(holders) == 1:
            s["phase"] = "kept"
            s["kept_seat"] = holders[0]
            return events + [Event("cards_left", {"seat": holders[0], "count": s["hands"][holders[0]]})]
        return events + self._end_half()

    def _do_kept(self, a: Kept) -> list[Event]:
        s = self.s
        cards = [_checked_card(t) for t in (a.cards or ())]
        pts = sum(self.points_of(c) for c in cards)
        for c in cards:
            s["unseen"][c] -= 1
        s["points"][a.owner] += pts
        s["hands"][a.owner] = 0
        s["kept_seat"] = None
        return [Event("cards_kept", {"seat": a.owner, "cards": cards, "points": pts})] + self._end_half()

    def _end_half(self) -> list[Event]:
        s = self.s
        s["leader"] = s["turn"] = s["token"] = None
        if len(self.seats) == 2 and s["half"] == 0:
            s["half"] = 1
            s["phase"] = "deal"
            return [Event("half_over", {"deal": s["deal"] + 1, "points": list(s["points"])})]
        s["deal_scores"].append(list(s["points"]))
        for i, p in enumerate(s["points"]):
            s["totals"][i] += p
        events = [Event("deal_over", {"deal": s["deal"] + 1, "points": list(s["points"]),
                                      "totals": list(s["totals"])})]
        s["deal"] += 1
        s["half"] = 0
        s["aside"] = 0
        s["stock"] = 0
        self._deal_start = None
        if s["deal"] >= self.options.deals:
            s["phase"] = "over"
            events.append(Event("game_over", self._final_result()))
        else:
            s["phase"] = "deal"
        return events

    def _do_void(self) -> list[Event]:
        deal = self.s["deal"]
        voids = self.s["voids"] + 1
        self.s = _clone(self._deal_start)
        self.s["voids"] = voids
        self._deal_start = None
        return [Event("deal_voided", {"deal": deal + 1})]

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int | None) -> list[Action]:
        s = self.s
        if s["phase"] == "over":
            return []
        if seat is None:
            out: list[Action] = []
            if s["phase"] == "deal":
                out.append(DealCards(None, None))
                first = s["deal"] == 0 and s["half"] == 0
                if first or self.options.deal_leader == "free":
                    out += [DealCards(None, i) for i in range(len(self.seats))]
                else:
                    out.append(DealCards(None, self.expected_leader()))
            elif s["phase"] == "play" and s["pending"] is not None:
                out.append(Face(None, None))
            elif s["phase"] == "kept":
                out.append(Kept(None, s["kept_seat"], None))
            if not (s["phase"] == "deal" and s["half"] == 0):
                out.append(Void(None))
            return out
        if s["phase"] == "play" and s["pending"] is None and seat == s["turn"]:
            return [Play(seat, None)]
        return []

    def current_seats(self) -> list[int]:
        s = self.s
        if s["phase"] == "play" and s["pending"] is None and s["turn"] is not None:
            return [s["turn"]]
        return []

    def is_over(self) -> bool:
        return self.s["phase"] == "over"

    def winners(self) -> list[int]:
        """Seats with the highest total (several on a tie)."""
        top = max(self.s["totals"])
        return [i for i, t in enumerate(self.s["totals"]) if t == top]

    def result(self) -> dict | None:
        if not self.is_over():
            return None
        s = self.s
        w = self.winners()
        return {
            "game": self.GAME_ID,
            "deals": self.options.deals,
            "rounds": len(s["deal_scores"]),
            "scores": {self.seats[i]: t for i, t in enumerate(s["totals"])},
            "totals": list(s["totals"]),
            "deal_scores": [list(d) for d in s["deal_scores"]],
            "winners": w,
            "winner": self.seats[w[0]] if len(w) == 1 else None,
            "winner_names": [self.seats[i] for i in w],
            "hoys": s["hoys"],
            "voided_deals": s["voids"],
            "simplified_scoring": self.options.simplified_scoring,
        }

    def replay_summary(self) -> dict:
        """Summary for ``companion replay --json``: ``{"game", "over", "winner", "rounds",
        "result", "seats": [{"name", "points", "deal_scores"}]}`` (rounds = deals finished)."""
        s = self.s
        result = self.result()
        return {
            "game": self.GAME_ID, "over": self.is_over(),
            "winner": result["winner"] if result else None,
            "rounds": len(s["deal_scores"]), "result": result,
            "seats": [{"name": n, "points": s["totals"][i], "deal_scores": [d[i] for d in s["deal_scores"]]}
                      for i, n in enumerate(self.seats)],
        }

    def view(self, seat: int | None) -> dict:
        """Public facts only: the engine never knows a hand's faces, and set-aside cards are
        shown as a count. Cards in won tricks were all seen face up, so their points are shown."""
        s = self.s
        v = {
            "game": self.GAME_ID,
            "seats": list(self.seats),
            "phase": s["phase"],
            "deal": s["deal"] + 1 if s["phase"] != "over" else s["deal"],
            "deals": self.options.deals,
            "half": (s["half"] + 1) if len(self.seats) == 2 else None,
            "hand_counts": list(s["hands"]),
            "aside": s["aside"],
            "stock": s["stock"],
            "trick": [{"seat": p, "card": c} for p, c in s["trick"]],
            "leader": s["leader"],
            "token": s["token"],
            "turn": s["turn"],
            "pending": s["pending"],
            "kept_seat": s["kept_seat"],
            "tricks": list(s["tricks"]),
            "points": list(s["points"]),
            "totals": list(s["totals"]),
            "deal_scores": [list(d) for d in s["deal_scores"]],
            "unseen": {c: k for c, k in s["unseen"].items() if k},
            "deck": dict(self.deck),
            "version": self.version,
        }
        if self.is_over():
            v["result"] = self.result()  # public: the end of the game is told to everyone
        if seat is not None:
            v["you"] = seat
            v["your_turn"] = seat in self.current_seats()
        return v

    def snapshot(self) -> dict:
        return {"s": _clone(self.s), "deal_start": _clone(self._deal_start),
                "options": self.options.to_dict()}


GAME = InfinityGame


