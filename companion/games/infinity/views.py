"""What a "6100" table shows (:class:`InfinityViews`): the legal actions, whose turn it is, the
winners and result, the view and the snapshot (never a card in a hand)."""

from __future__ import annotations

from companion.games.base import Action, clone_state
from companion.games.infinity.actions import DealCards, Face, Kept, Play, Void
from companion.games.infinity.state import InfinityState


class InfinityViews(InfinityState):
    """The queries and views of :class:`companion.games.infinity.rules.InfinityGame`."""

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
        return {"s": clone_state(self.s), "deal_start": clone_state(self._deal_start),
                "options": self.options.to_dict()}
