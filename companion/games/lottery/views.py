"""What a lottery table shows (:class:`LotteryViews`): the legal actions, whose turn it is, the
result, the view and the snapshot."""

from __future__ import annotations

from companion.games.base import Action, clone_state
from companion.games.lottery.actions import Cards, Cover, Lead, PlayCard, PrizeCard, Spread, Take, Void
from companion.games.lottery.cards import PRIZE_SLOTS
from companion.games.lottery.spread import find_spread
from companion.games.lottery.state import LotteryState


class LotteryViews(LotteryState):
    """The queries and views of :class:`companion.games.lottery.rules.LotteryGame`."""

    # ------------------------------------------------------------------ queries
    def legal_actions(self, seat: int | None) -> list[Action]:
        s = self.s
        o = self.options
        ph = s["phase"]
        if ph == "over":
            return []
        out: list[Action] = []
        if seat is None:
            if ph == "deal":
                out += [Cards(None, int(k), None) for k, v in s["expect"].items()
                        if v > 0 and k not in s["current"]]
            elif ph == "draw":
                out += [PrizeCard(None, i, None) for i, sl in enumerate(s["slots"])
                        if sl is not None and not sl["face_up"]]
            if self._mark is not None and ph != "spread":
                out.append(Void(None))
            return out
        if ph == "spread" and seat == o.banker:
            minimum = 1 if s["pool_from_box"] else 0
            bases = self.spread_bases()
            sp = find_spread(bases, self.spread_pool(), minimum)
            if sp is None:  # no spread keeps all amounts different: any one is accepted
                first = next(i for i, b in enumerate(bases) if b is not None)
                sp = tuple(self.spread_pool() if i == first else 0 for i in range(PRIZE_SLOTS))
            out.append(Spread(seat, sp))
            return out
        if ph == "playoff":
            po = s["po"]
            if o.playoff == 2:
                if seat == po["turn"]:
                    out += [PlayCard(seat, c) for c in self._hand(seat) if self.is_legal(PlayCard(seat, c))]
            elif po["attack"] is None and seat == po["leader"]:
                out += [Lead(seat, c) for c in self._hand(seat)]
            elif po["attack"] is not None and seat == po["defender"]:
                out += [Cover(seat, c) for c in self._hand(seat) if self.is_legal(Cover(seat, c))]
                out.append(Take(seat))
        return out

    def current_seats(self) -> list[int]:
        s = self.s
        ph = s["phase"]
        if ph == "spread":
            return [self.options.banker]
        if ph == "playoff":
            po = s["po"]
            if self.options.playoff == 2:
                return [po["turn"]] if po["turn"] is not None else []
            if po["attack"] is not None:
                return [po["defender"]]
            return [po["leader"]] if po["leader"] is not None else []
        return []

    def is_over(self) -> bool:
        return self.s["phase"] == "over"

    def result(self) -> dict | None:
        if not self.is_over():
            return None
        s = self.s
        o = self.options
        net = [b - o.chips for b in s["balances"]]
        best = max(net[p] for p in self.players)
        winners = [p for p in self.players if net[p] == best]
        return {
            "game": self.GAME_ID,
            "balances": {self.seats[i]: b for i, b in enumerate(s["balances"])},
            "net": {self.seats[i]: v for i, v in enumerate(net)},
            "box": s["box"],
            "box_carried_in": o.box,
            "prizes_won": [dict(w, name=self.seats[w["seat"]]) for w in s["won"]],
            "stakes_paid": {self.seats[i]: v for i, v in enumerate(s["stakes_paid"]) if i in self.players},
            "fines": {self.seats[i]: v for i, v in enumerate(s["fines"]) if i in self.players},
            "playoff_variant": o.playoff,
            "playoff_stalled": bool(s["po"] and s["po"].get("stalled")),
            "winners": winners,
            "winner": self.seats[winners[0]] if len(winners) == 1 else None,
            "draws": s["draw"],
            "rounds": s["draw"],
            "voids": s["voids"],
            "chips_total": self.chips_total(),
            # the roles' names: their net is in ``net`` too, beside the card-holding players'
            "banker": self.seats[o.banker] if o.banker is not None else None,
            "dealer": self.seats[o.dealer] if o.dealer is not None else None,
        }

    def replay_summary(self) -> dict:
        """Summary for ``companion replay --json``: ``{"game", "over", "winner", "rounds", "box",
        "result", "seats": [{"name", "role", "balance", "net"}]}`` (rounds = draws finished)."""
        s = self.s
        o = self.options
        result = self.result()

        def role(i: int) -> str:
            return "banker" if i == o.banker else "dealer" if i == o.dealer else "player"

        return {
            "game": self.GAME_ID, "over": self.is_over(),
            "winner": result["winner"] if result else None,
            "rounds": s["draw"], "box": s["box"], "result": result,
            "seats": [{"name": n, "role": role(i), "balance": s["balances"][i],
                       "net": s["balances"][i] - o.chips} for i, n in enumerate(self.seats)],
        }

    def view(self, seat: int | None) -> dict:
        """Everything the engine knows is public (players' cards are dealt face up, seed ¶6);
        face-down prize cards are unknown to the engine and shown as face down."""
        s = self.s
        po = s["po"]
        v = {
            "game": self.GAME_ID,
            "seats": list(self.seats),
            "banker": self.options.banker,
            "dealer": self.options.dealer,
            "players": list(self.players),
            "phase": s["phase"],
            "draw": s["draw"] + (0 if s["phase"] in ("playoff", "over") else 1),
            "balances": list(s["balances"]),
            "box": s["box"],
            "stakes": s["stakes"],
            "to_spread": self.spread_pool() if s["phase"] == "spread" else 0,
            "prizes": [None if sl is None else {"slot": i, "face_up": sl["face_up"],
                                                "card": sl["card"] if sl["face_up"] else None,
                                                "chips": sl["chips"]}
                       for i, sl in enumerate(s["slots"])],
            "banker_deck": s["banker_left"],
            "dealer_deck": 52 - len(s["dealt"]),
            "expect": dict(s["expect"]),
            "current": {k: list(v) for k, v in s["current"].items()},
            "aside": {k: list(v) for k, v in s["aside"].items()},
            "won": [dict(w) for w in s["won"]],
            # each seat's chips at the start and after each draw (the result screen's chart)
            "balances_by_draw": [list(b) for b in s.get("by_draw", [])],
            "last_winner": s["last_winner"],
            "current_seats": self.current_seats(),
            "chips_total": self.chips_total(),
            "version": self.version,
        }
        if po is not None:
            v["playoff"] = {"variant": self.options.playoff,
                            "hands": {k: list(h) for k, h in po["hands"].items()},
                            "leader": po["leader"], "attack": po["attack"], "defender": po["defender"],
                            "trick": [{"seat": p, "card": c} for p, c in po["trick"]],
                            "turn": po["turn"], "stall": po["stall"]}
        if self.is_over():
            v["result"] = self.result()  # public: the end of the game is told to everyone
        if seat is not None:
            v["you"] = seat
        return v

    def snapshot(self) -> dict:
        return {"s": clone_state(self.s), "mark": clone_state(self._mark),
                "options": self.options.to_dict()}
