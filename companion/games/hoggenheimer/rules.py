"""Hoggenheimer ("English roulette", game id ``hoggenheimer``): the joker banking game of seed ``002_*``.

Rules: ``/work/shared/seeds/002_*`` and ``RULINGS.md`` §0, §3, documented as implemented in
``docs/rules/hoggenheimer.md`` (with the derivation of every bet's probability 1/(k+1)).

The banker deals 32 cards face down in four rows of eight (rows ♠ ♥ ♦ ♣ top to bottom, columns
A K Q J 10 9 8 7 left to right) and lays the 33rd card aside, face down. Players stake chips on a
card, two touching cards, a 2×2 square, a column or a row. The banker then turns the 33rd card;
each non-joker card goes face up onto its own place, and the face-down card that lay there is
turned next — the chain runs until the joker appears. A bet on k cards wins (k:1, stake back) when
all its cards are face up at that moment; the banker takes every other stake. The bank passes left.

The engine never knows a face-down card: the camera reports each turned card and the slot it was
put on (an observation); a card put on the wrong slot is rejected with reason ``wrong_slot``.

Action text forms::

    2 bet 5 QH                 5 chips on the queen of hearts (1:1)
    2 bet 5 7S,7H              two touching cards (2:1)
    2 bet 5 8H,9H,8D,9D        a 2×2 square (4:1)
    2 bet 5 col:10             the column of tens (4:1)   (also written 10S,10H,10D,10C)
    2 bet 5 row:D              the row of diamonds (8:1)  (also written AD,KD,...,7D)
    2 withdraw 3               take back own bet number 3 before the deal starts
    0 close                    the banker: no more bets, the deal starts
    table turn QH QH           camera: the card turned (QH) and the slot it was put on (QH)
    table turn JK ?            camera: the joker — the deal ends
    table void                 operator: void the deal (all stakes back, same banker redeals)

Card codes: rank ``A K Q J 10 9 8 7`` + suit ``S H D C``; the joker is ``JK``.
"""

from __future__ import annotations

import dataclasses

from dataclasses import dataclass
from typing import ClassVar

from companion.errors import IllegalAction
from companion.games.base import HOUSE_MAX, Action, Event, Game, Options
from companion.games.hoggenheimer.actions import Bet, Close, Turn, Void, Withdraw
from companion.games.hoggenheimer.layout import (  # noqa: F401 (also the rules' names)
    AT, CARD_FACTS, CARDS, JOKER, POS, RANKS, SHAPES, SUIT_SYMBOL, SUITS, _targets, all_bet_targets,
    parse_bet, win_probability,
)


# --------------------------------------------------------------------------- options
@dataclass(frozen=True)
class HoggenheimerOptions(Options):
    """House-rule options (``docs/rules/hoggenheimer.md``).

    Attributes:
        starting_chips: chips each seat starts with (fishки). Default 100.
        min_stake: table minimum per bet, chips (seed "Пределы ставок: согласовываются заранее").
            Default 1.
        max_stake: table maximum per bet, chips. Default 20.
        first_banker: seat of the first banker (seed: chosen by cutting the deck). Default 0.
        rounds: times each seat holds the bank; the game lasts ``rounds × seats`` deals. Default 1.
        bank_must_cover: reject a bet whose worst-case payout the banker's chips cannot cover
            (reason ``bank_exposure``). Default True.
        joker_first_same_banker: after "joker first" the same banker redeals and the deal does not
            count (False: it counts and the bank passes as after any deal). Default False.
    """

    #: whole-number ranges; the seed leaves chips and stakes to the table (house limit: HOUSE_MAX)
    LIMITS: ClassVar[dict[str, tuple[int, int]]] = {"starting_chips": (0, HOUSE_MAX), "min_stake": (1, HOUSE_MAX),
                                                    "max_stake": (1, HOUSE_MAX), "rounds": (1, 10_000)}
    starting_chips: int = 100
    min_stake: int = 1
    max_stake: int = 20
    SEATS: ClassVar[tuple[str, ...]] = ('first_banker',)  # seat indexes (shown 1-based on forms)

    first_banker: int = 0
    rounds: int = 1
    bank_must_cover: bool = True
    joker_first_same_banker: bool = False

    def validate(self) -> None:
        for name in ("starting_chips", "min_stake", "max_stake", "first_banker", "rounds"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool):
                raise IllegalAction("bad_option", f"{name} must be an integer")
        for name in ("bank_must_cover", "joker_first_same_banker"):
            if not isinstance(getattr(self, name), bool):
                raise IllegalAction("bad_option", f"{name} must be true or false")
        # (starting_chips, min_stake and rounds one by one: LIMITS, checked before this)
        if self.max_stake < self.min_stake:
            # two options bound by one rule: the facts name both (companion.games.optionwords)
            raise IllegalAction("bad_option", f"min_stake ({self.min_stake}) may not be larger than max_stake "
                                f"({self.max_stake})",
                                facts={"options": ["min_stake", "max_stake"], "rule": "not_above",
                                       "low": self.min_stake, "high": self.max_stake})
        if self.first_banker < 0:
            raise IllegalAction("bad_option", "first_banker must be a seat number")


REASONS = {
    "game_over": "the game has ended",
    "wrong_phase": "this action is not allowed in the current phase",
    "table_only": "only the table (camera/operator) may do this",
    "seat_only": "a seat must do this, not the table",
    "not_banker": "only the banker closes the bets",
    "banker_cannot_bet": "the banker does not bet against his own bank",
    "stake_below_min": "the stake is under the table minimum",
    "stake_above_max": "the stake is over the table maximum",
    "insufficient_chips": "the seat has fewer chips than the stake",
    "bank_exposure": "the banker's chips cannot cover this bet's payout on top of the others",
    "unreadable_card": "the card is '?' (reader not sure): rescan or enter it manually",
    "bad_card": "not a layout card code (or repeated, or the joker)",
    "bad_bet_shape": "not a card, two touching cards, a 2×2 square, a column or a row",
    "no_such_bet": "no open bet with that number",
    "not_your_bet": "the bet belongs to another seat",
    "card_already_turned": "that card is already face up",
    "slot_missing": "a turned card (not the joker) needs the slot it was put on",
    "bad_slot": "not a slot code",
    "joker_has_no_slot": "the joker ends the deal; it is not put on the layout",
    "wrong_slot": "the card was put on another card's place",
    "nothing_to_void": "no stakes and no turned cards to void",
}
"""Reason codes of this game (plus the common ones of ``companion.errors.COMMON_REASONS``)."""


class HoggenheimerGame(Game):
    """The referee of the joker banking game. See the module docstring.

    Args:
        seats: 2–8 player names, clockwise (seed "Играть могут двое и более человек"; the box's
            button box has 8 seats).
        options: :class:`HoggenheimerOptions` or a dict.

    Raises:
        IllegalAction: ``bad_seats``, ``bad_option`` (also ``first_banker`` not a seat).
    """

    GAME_ID = "hoggenheimer"
    REASONS = REASONS
    ACTIONS = (Bet, Withdraw, Close, Turn, Void)
    OPTIONS = HoggenheimerOptions
    options: HoggenheimerOptions
    MIN_SEATS = 2
    MAX_SEATS = 8

    def __init__(self, seats, options=None) -> None:
        super().__init__(seats, options)
        n = len(self.seats)
        if self.options.first_banker >= n:
            raise IllegalAction("bad_option", f"first_banker {self.options.first_banker} is not a seat")
        self.phase = "betting"
        self.banker = self.options.first_banker
        self.deals_total = self.options.rounds * n
        self.deal_no = 0  # deals completed (counted)
        self.balances = [self.options.starting_chips] * n
        self.bets: list[dict] = []
        self.next_bet_id = 1
        self.face_up: dict[str, str] = {}
        self.chain: list[str] = []
        self.source: str | None = None  # slot whose face-down card is turned next (None: the 33rd)
        self.deals_log: list[dict] = []
        self.last_settlement: dict | None = None

    # ------------------------------------------------------------------ helpers
    def exposure(self) -> int:
        """The banker's worst case, chips: what he pays if every open bet wins (Σ k × stake)."""
        return sum(b["k"] * b["stake"] for b in self.bets)

    def conserved(self) -> dict[str, int]:
        """Chips: balances plus stakes on the layout (seats × starting chips)."""
        return {"chips": self.chips_in_play()}

    def chips_in_play(self) -> int:
        """Balances plus stakes on the layout (constant: seats × starting_chips)."""
        return sum(self.balances) + sum(b["stake"] for b in self.bets)

    # ------------------------------------------------------------------ checks
    def _check(self, a: Action) -> None:
        if self.phase == "over":
            raise IllegalAction("game_over", "the game has ended")
        if type(a) is Turn or type(a) is Void:
            if a.seat is not None:
                raise IllegalAction("table_only", f"'{a.VERB}' is an observation/operator action of the table")
            if type(a) is Void:
                if not self.bets and not self.chain:
                    raise IllegalAction("nothing_to_void", "no stakes and no turned cards")
                return
            if type(a) is Turn:
                self._check_turn(a)
            return
        if a.seat is None:
            raise IllegalAction("seat_only", f"'{a.VERB}' is a seat's action")
        if self.phase != "betting":
            raise IllegalAction("wrong_phase", "the bets are closed; the deal is running")
        seat = a.seat
        if type(a) is Close:
            if seat != self.banker:
                raise IllegalAction("not_banker", f"seat {self.banker} holds the bank",
                                    {"player": self.seats[self.banker]})
            return
        if type(a) is Withdraw:
            for b in self.bets:
                if b["id"] == a.bet_id:
                    if b["seat"] != seat:
                        raise IllegalAction("not_your_bet", f"bet {a.bet_id} is seat {b['seat']}'s",
                                            {"bet": a.bet_id, "player": self.seats[b["seat"]]})
                    return
            raise IllegalAction("no_such_bet", f"no open bet number {a.bet_id}", {"bet": a.bet_id})
        assert type(a) is Bet, type(a)  # the seat's actions left: a bet
        if seat == self.banker:
            raise IllegalAction("banker_cannot_bet", f"seat {seat} holds the bank")
        o = self.options
        if a.stake < o.min_stake:
            raise IllegalAction("stake_below_min", f"the table minimum is {o.min_stake}", {"min_stake": o.min_stake})
        if a.stake > o.max_stake:
            raise IllegalAction("stake_above_max", f"the table maximum is {o.max_stake}", {"max_stake": o.max_stake})
        if a.stake > self.balances[seat]:
            raise IllegalAction("insufficient_chips", f"seat {seat} has {self.balances[seat]} chip(s)",
                                {"player": self.seats[seat], "chips": self.balances[seat], "stake": a.stake})
        shape, _cards = parse_bet(a.cards)
        if o.bank_must_cover:
            need = self.exposure() + SHAPES[shape] * a.stake
            if need > self.balances[self.banker]:
                room = self.balances[self.banker] - self.exposure()
                raise IllegalAction("bank_exposure", f"the bank would owe up to {need} but holds "
                                                     f"{self.balances[self.banker]}",
                                    {"most": max(0, room // SHAPES[shape]), "min_stake": o.min_stake,
                                     "banker_chips": self.balances[self.banker], "exposure": self.exposure()})

    def _check_turn(self, a: Turn) -> None:
        if self.phase != "chain":
            raise IllegalAction("wrong_phase", "cards are turned after the banker closes the bets")
        card, slot = a.card, a.slot
        if card is None or card == "?":
            raise IllegalAction("unreadable_card", "the reader is not sure of the card: rescan it or enter it manually")
        if card != JOKER and card not in POS:
            raise IllegalAction("bad_card", f"{card!r} is not a card of this deck", {"card": card, **CARD_FACTS})
        if card in self.chain:
            raise IllegalAction("card_already_turned", f"{card} is already face up")
        if card == JOKER:
            if slot is not None:
                raise IllegalAction("joker_has_no_slot", "the joker ends the deal; report it with slot '?'")
            return
        if slot is None:
            raise IllegalAction("slot_missing", f"where was {card} put? (slot code)")
        if slot not in POS:
            raise IllegalAction("bad_slot", f"{slot!r} is not a slot (rank + suit)")
        if slot != card:
            raise IllegalAction("wrong_slot", f"{card} was put on {slot}'s place; its place is row "
                                              f"{SUIT_SYMBOL[card[-1]]}, column {card[:-1]}",
                                {"card": card, "slot": slot})

    @staticmethod
    def manual_fill(action: Action) -> Action:
        """What an operator's manual entry implies (companion/dashboard/manualentry.py
        ``prepare_manual``): a turned layout card typed without its slot lies on its own place
        (``table turn AS ?`` → ``table turn AS AS``); the camera still reports where it saw it."""
        if isinstance(action, Turn) and action.slot is None and action.card not in (None, "?", JOKER):
            return dataclasses.replace(action, slot=action.card)
        return action

    # ------------------------------------------------------------------ transitions
    def _do(self, a: Action) -> list[Event]:
        if type(a) is Bet:
            shape, cards = parse_bet(a.cards)
            k = SHAPES[shape]
            bet: dict = {"id": self.next_bet_id, "seat": a.seat, "shape": shape, "cards": list(cards), "k": k,
                   "stake": a.stake}
            self.next_bet_id += 1
            self.balances[a.seat] -= a.stake
            self.bets.append(bet)
            return [Event("bet", {**bet, "cards": list(cards), "exposure": self.exposure()})]
        if type(a) is Withdraw:
            bet = next(b for b in self.bets if b["id"] == a.bet_id)
            self.bets.remove(bet)
            self.balances[a.seat] += bet["stake"]
            return [Event("bet_withdrawn", {"id": bet["id"], "seat": a.seat, "shape": bet["shape"],
                                            "cards": list(bet["cards"]), "stake": bet["stake"],
                                            "exposure": self.exposure()})]
        if type(a) is Close:
            self.phase = "chain"
            return [Event("bets_closed", {"banker": self.banker, "exposure": self.exposure(),
                                          "bets": len(self.bets)})]
        if type(a) is Turn:
            self.chain.append(a.card)
            if a.card == JOKER:
                return self._settle()
            self.face_up[a.card] = a.card
            self.source = a.card
            return [Event("card_turned", {"card": a.card, "slot": a.slot, "turned": len(self.chain)})]
        return self._void()

    def _settle(self) -> list[Event]:
        """Seed "Расчет по ставкам": a bet wins when all its cards are face up; k:1 + stake back."""
        banker = self.banker
        joker_first = len(self.chain) == 1
        paid = []
        banker_net = 0
        for b in self.bets:
            won = all(c in self.face_up for c in b["cards"])
            if won:
                win = b["k"] * b["stake"]
                self.balances[b["seat"]] += b["stake"] + win
                self.balances[banker] -= win
                banker_net -= win
            else:
                self.balances[banker] += b["stake"]
                banker_net += b["stake"]
            paid.append({"id": b["id"], "seat": b["seat"], "shape": b["shape"], "cards": b["cards"],
                         "stake": b["stake"], "k": b["k"], "won": won,
                         "net": b["k"] * b["stake"] if won else -b["stake"]})
        counted = not (joker_first and self.options.joker_first_same_banker)
        summary = {"deal": len(self.deals_log) + 1, "banker": banker, "joker_first": joker_first,
                   "turned": len(self.chain) - 1, "chain": list(self.chain), "bets": paid,
                   "banker_net": banker_net, "counted": counted}
        self.deals_log.append(summary)
        self.last_settlement = summary
        events = [Event("joker", {"turned": len(self.chain) - 1, "joker_first": joker_first}),
                  Event("settled", summary)]
        self.bets = []
        self.face_up = {}
        self.chain = []
        self.source = None
        if counted:
            self.deal_no += 1
            if self.deal_no >= self.deals_total:
                self.phase = "over"
                events.append(Event("game_over", self._final_result()))
                return events
            self.banker = self.next_seat(banker)  # seed "Продолжение игры": the bank passes left
        self.phase = "betting"
        events.append(Event("new_deal", {"banker": self.banker, "deal": self.deal_no + 1}))
        return events

    def _void(self) -> list[Event]:
        returned = [{"id": b["id"], "seat": b["seat"], "stake": b["stake"]} for b in self.bets]
        for b in self.bets:
            self.balances[b["seat"]] += b["stake"]
        self.bets = []
        self.face_up = {}
        self.chain = []
        self.source = None
        self.phase = "betting"
        return [Event("deal_void", {"returned": returned, "banker": self.banker})]

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int | None) -> list[Action]:
        """Legal actions now. Bets are listed once per target at the table minimum stake (any
        stake up to the limits is legal too); the table's ``Turn`` template has ``card``/``slot``
        ``None`` (filled by the camera)."""
        if self.phase == "over":
            return []
        if seat is None:
            out: list[Action] = []
            if self.phase == "chain":
                out.append(Turn(None, None, None))  # type: ignore[arg-type]
            if self.bets or self.chain:
                out.append(Void(None))
            return out
        if self.phase != "betting":
            return []
        if seat == self.banker:
            return [Close(seat)]
        out = [Withdraw(seat, b["id"]) for b in self.bets if b["seat"] == seat]
        stake = self.options.min_stake
        if stake <= self.balances[seat]:
            room = self.balances[self.banker] - self.exposure()
            for shape, cards in _targets():
                if not self.options.bank_must_cover or SHAPES[shape] * stake <= room:
                    out.append(Bet(seat, stake, cards))
        return out

    def current_seats(self) -> list[int]:
        """Betting: the banker (his ``close`` moves the game on) and every seat that may bet.
        During the chain the game waits for the table (empty list)."""
        if self.phase != "betting":
            return []
        return [s for s in range(len(self.seats))
                if s == self.banker or self.balances[s] >= self.options.min_stake]

    def is_over(self) -> bool:
        return self.phase == "over"

    def result(self) -> dict | None:
        """Once over: ``{"game", "deals", "rounds" (= deals), "balances" and "net" (by name),
        "winners" (most chips), "winner" (the name when unique, else None), "joker_first_deals",
        "banker_results" (net chips won by each seat as banker)}``."""
        if self.phase != "over":
            return None
        start = self.options.starting_chips
        best = max(self.balances)
        return {
            "game": self.GAME_ID,
            "deals": len(self.deals_log),
            "balances": {name: self.balances[i] for i, name in enumerate(self.seats)},
            "net": {name: self.balances[i] - start for i, name in enumerate(self.seats)},
            "winners": [name for i, name in enumerate(self.seats) if self.balances[i] == best],
            "winner": (self.seats[self.balances.index(best)] if self.balances.count(best) == 1 else None),
            "rounds": len(self.deals_log),
            "joker_first_deals": sum(1 for d in self.deals_log if d["joker_first"]),
            "banker_results": {name: sum(d["banker_net"] for d in self.deals_log if d["banker"] == i)
                               for i, name in enumerate(self.seats)},
        }

    def replay_summary(self) -> dict:
        """Summary for ``companion replay --json``: ``{"game", "over", "winner", "rounds", "result",
        "seats": [{"name", "chips", "banker"}]}``."""
        result = self.result()
        return {
            "game": self.GAME_ID, "over": self.is_over(),
            "winner": result["winner"] if result else None,
            "rounds": len(self.deals_log), "result": result,
            "seats": [{"name": n, "chips": self.balances[i], "banker": i == self.banker}
                      for i, n in enumerate(self.seats)],
        }

    def view(self, seat: int | None) -> dict:
        """Public (``None``) or one seat's view: layout (face-up cards only — the engine never
        knows a face-down one), bets with payout k:1 and probability 1/(k+1), balances, and the
        banker's exposure (worst-case payout) against his chips."""
        bets_at: dict[str, list[int]] = {}
        for b in self.bets:
            for c in b["cards"]:
                bets_at.setdefault(c, []).append(b["id"])
        layout = [[{"slot": AT[r, c], "card": self.face_up.get(AT[r, c]), "bets": bets_at.get(AT[r, c], [])}
                   for c in range(8)] for r in range(4)]
        exposure = self.exposure()
        v = {
            "game": self.GAME_ID,
            "phase": self.phase,
            "banker": self.banker,
            "deal": min(self.deal_no + 1, self.deals_total),
            "deals_total": self.deals_total,
            "rows": [SUIT_SYMBOL[s] for s in SUITS],
            "columns": list(RANKS),
            "layout": layout,
            "aside": "face_down" if not self.chain and self.phase != "over" else "turned",
            "chain": list(self.chain),
            "bets": [self._bet_view(b) for b in self.bets],
            "seats": [{"seat": i, "name": name, "chips": self.balances[i], "banker": i == self.banker,
                       "staked": sum(b["stake"] for b in self.bets if b["seat"] == i)}
                      for i, name in enumerate(self.seats)],
            "exposure": {"max_payout": exposure, "banker_chips": self.balances[self.banker],
                         "covered": exposure <= self.balances[self.banker],
                         "stakes": sum(b["stake"] for b in self.bets)},
            # bank_room: what the bank can still pay out (chips) when it must cover every bet, else
            # None — a stake on a k:1 target is covered up to bank_room // k (the seat page's grid)
            "limits": {"min_stake": self.options.min_stake, "max_stake": self.options.max_stake,
                       "bank_room": max(0, self.balances[self.banker] - exposure)
                       if self.options.bank_must_cover else None},
            "odds": [{"shape": sh, "k": k, "payout": f"{k}:1",
                      "probability": f"1/{k + 1}", "p": 1 / (k + 1)} for sh, k in SHAPES.items()],
            "last_settlement": self.last_settlement,
            "version": self.version,
        }
        if self.phase == "over":
            v["result"] = self.result()
        if seat is not None:
            v["you"] = {"seat": seat, "chips": self.balances[seat], "banker": seat == self.banker,
                        "bets": [b["id"] for b in self.bets if b["seat"] == seat],
                        "verbs": sorted({x.VERB for x in self.legal_actions(seat)})}
        return v

    def _bet_view(self, b: dict) -> dict:
        p = win_probability(b["k"])
        return {"id": b["id"], "seat": b["seat"], "shape": b["shape"], "cards": list(b["cards"]),
                "stake": b["stake"], "payout": f"{b['k']}:1", "probability": f"{p.numerator}/{p.denominator}",
                "p": float(p), "up": sum(1 for c in b["cards"] if c in self.face_up)}

    def snapshot(self) -> dict:
        return {
            "phase": self.phase, "banker": self.banker, "deal_no": self.deal_no,
            "balances": list(self.balances), "bets": [dict(b, cards=list(b["cards"])) for b in self.bets],
            "next_bet_id": self.next_bet_id, "face_up": dict(self.face_up), "chain": list(self.chain),
            "source": self.source, "deals_log": self.deals_log, "last_settlement": self.last_settlement,
        }


GAME = HoggenheimerGame


