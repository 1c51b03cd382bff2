"""What a "Верю — не верю" table shows (:class:`DoubtViews`): the legal actions, whose turn it is,
the result, the view (never a face-down card) and the snapshot."""

from __future__ import annotations

from companion.games.base import Action
from companion.games.doubt.actions import Add, Believe, Deal, Doubt, Place, Reveal, Void
from companion.games.doubt.state import DoubtState


class DoubtViews(DoubtState):
    """The queries and views of :class:`companion.games.doubt.rules.DoubtGame`."""

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
