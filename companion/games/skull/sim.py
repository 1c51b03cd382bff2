"""Simulated skull table: the physical notes, bot players and the camera (seed 000, RULINGS §1).

The sim owns the physical truth — which note is in whose hand, which notes lie in each stack
(bottom to top, face down or up) and which are in the bank — and proposes the next action the
table would produce:

* the camera (source ``camera``): set-up scans (``table register``), notes put down (``N place``),
  flips (``table flip``) and private bank deposits (``table deposit``);
* the players' buttons (source ``button``): ``N bid K``, ``N agree``, ``N pass``;
* the operator (source ``operator``): the first dealer, occasionally a player leaving, a voided
  round, and a void after a rare camera misread (a foreign note).

Bots: each has a bluffing rate (how often it puts its skull down) and a boldness. A bot bids about
as many roses as it knows lie on top of its own stack plus a little; in the auction it passes more
when its own stack holds a skull or the bid is high compared with the notes on the table, and
raises sometimes when its own stack is all roses. The dealer flips his own stack first, then the
stacks of players who agreed (more likely roses) before the others.
"""

from __future__ import annotations

from companion.games.simulator import TableSim
from companion.games.skull.actions import Deposit, Flip, Leave, Place, Void
from companion.games.skull.rules import ROSE, SKULL, SkullGame, note_role
from companion.vision.render_notes import random_serial

CYRILLIC = "АБВГДЕЖИКЛМНОПРСТУФХЦЧШЭЮЯ"
#: Currencies whose notes the bots draw in that currency's own serial format
#: (:func:`companion.vision.render_notes.random_serial`); RUB and unknown codes stay RUB-style.
OTHER_FORMATS = ("EUR", "USD", "INR", "KRW", "JPY")
DENOMINATIONS = (50, 100, 200, 500, 1000, 2000, 5000)


class SkullSim(TableSim):
    """Physical truth and bots for :class:`companion.games.skull.SkullGame`.

    Args:
        game: a fresh SkullGame (set-up phase).
        seed: random seed; same seed and game, same actions.

    Attributes:
        truth: (property) ``{"seats": [{"name", "status", "hand": [serials], "stack":
            [{"serial", "face_up"}] bottom→top}], "bank": [serials], "dealer", "phase",
            "denominations": {serial: value}, "roles": {serial: "rose"|"skull"}}`` — hidden facts
            included: for the scene renderer and tests, never for a screen.
    """

    def __init__(self, game: SkullGame, seed: int) -> None:
        super().__init__(game, seed)
        rng = self.rng
        opts = game.options
        n = len(game.seats)
        self.parity = opts.skull_parity
        taken: set[str] = set()
        self.notes: list[list[str]] = []
        self.values: dict[str, int] = {}
        r = rng.random
        nl = len(CYRILLIC)
        skull_digits = "13579" if self.parity == "odd" else "02468"
        rose_digits = "02468" if self.parity == "odd" else "13579"
        for _ in range(n):
            serials = []
            for k in range(opts.notes_per_player):
                digits = skull_digits if k < opts.skulls_per_player else rose_digits
                while True:
                    if opts.currency in OTHER_FORMATS:
                        # the table's own currency (its setting / option): notes of that format
                        want = self.parity if k < opts.skulls_per_player else (
                            "even" if self.parity == "odd" else "odd")
                        serial = random_serial(opts.currency, rng, want)
                    else:  # RUB-style: two Cyrillic letters and seven digits, e.g. АК2444841
                        serial = (CYRILLIC[int(r() * nl)] + CYRILLIC[int(r() * nl)]
                                  + str(100000 + int(r() * 899999)) + digits[int(r() * 5)])
                    if serial not in taken:
                        break
                taken.add(serial)
                serials.append(serial)
            rng.shuffle(serials)
            value = DENOMINATIONS[int(r() * len(DENOMINATIONS))]
            for x in serials:
                self.values[x] = value
            self.notes.append(serials)
        self.roles = {x: note_role(x, self.parity) for notes in self.notes for x in notes}
        self.hands: list[list[str]] = [list(s) for s in self.notes]
        self.stacks: list[list[str]] = [[] for _ in range(n)]  # bottom → top
        self.up: set[str] = set()
        self.down: list[int] = [0] * n  # face-down notes at the bottom of each stack
        self.bank: list[str] = []
        self.bluff = [rng.uniform(0.15, 0.6) for _ in range(n)]
        self.bold = [rng.uniform(0.0, 1.0) for _ in range(n)]
        self.denoms_known = rng.random() < 0.8
        # Rare table events, at a random action index.
        self.leave_at = rng.randrange(30, 200) if rng.random() < 0.12 else -1
        self.void_at = rng.randrange(30, 300) if rng.random() < 0.06 else -1
        self.misread_at = rng.randrange(30, 300) if rng.random() < 0.03 else -1
        self.incident_at = min([x for x in (self.leave_at, self.void_at) if x > 0], default=-1)
        self.count = 0
        self._round = 0
        self._plan: dict[int, str] = {}

    # ------------------------------------------------------------------ truth
    @property
    def truth(self) -> dict:
        g = self.game
        return {
            "seats": [{"name": g.seats[s], "status": g.status[s], "hand": list(self.hands[s]),
                       "stack": [{"serial": x, "face_up": x in self.up} for x in self.stacks[s]]}
                      for s in range(len(g.seats))],
            "bank": list(self.bank),
            "dealer": g.dealer,
            "phase": g.phase,
            "denominations": dict(self.values),
            "roles": {x: note_role(x, self.parity) for notes in self.notes for x in notes},
        }

    @truth.setter
    def truth(self, value) -> None:  # the base class assigns {}; truth is derived here
        pass

    def role(self, serial: str) -> str:
        return self.roles[serial]

    def _pick(self, seq):
        """A uniformly random item of ``seq`` (faster than ``Random.choice``)."""
        return seq[int(self.rng.random() * len(seq))]

    # ------------------------------------------------------------------ proposing
    def next_action(self) -> tuple[str, str] | None:
        g = self.game
        phase = g.phase
        if phase == "over":
            return None
        self.count += 1
        if self.count >= self.incident_at > 0 and phase not in ("setup", "halted"):
            return self._incident()
        if phase == "stage1":
            st = g.stack
            return self._place(self._pick([x for x in g._remaining() if not st[x]]))
        if phase == "stage2":
            s = g.turn
            if g.hand(s) > 0 and not self._wants_to_bid(s):
                return self._place(s)
            return f"{s} bid {self._opening_bid(s)}", "button"
        if phase == "auction":
            return self._answer(g.to_act[0])
        if phase == "reveal":
            return self._flip()
        if phase == "settlement":
            o = g.owed[0]
            return f"table deposit {o} {self._pick(self.hands[o] + self.stacks[o])}", "camera"
        if phase == "halted":
            return "table void", "operator"
        if phase == "setup":
            for s in g._remaining():
                if g.registered[s] is None:
                    vals = ",".join(str(self.values[x]) for x in self.notes[s]) if self.denoms_known else "?"
                    return f"table register {s} {','.join(self.notes[s])} {vals}", "camera"
            return f"table dealer {self._pick(g._remaining())}", "operator"
        raise AssertionError(phase)  # pragma: no cover

    def _incident(self) -> tuple[str, str]:
        """A player leaves or the operator voids the round (rare, seeded)."""
        if self.count >= self.leave_at > 0:
            self.leave_at = -1
            out = f"table leave {self._pick(self.game._remaining())}", "operator"
        else:
            self.void_at = -1
            out = "table void", "operator"
        self.incident_at = min([x for x in (self.leave_at, self.void_at) if x > 0], default=-1)
        return out

    def _place(self, s: int) -> tuple[str, str]:
        hand = self.hands[s]
        roles = self.roles
        skulls = [x for x in hand if roles[x] == SKULL]
        if skulls and (len(skulls) == len(hand) or self.rng.random() < self.bluff[s] / (1 + len(self.stacks[s]))):
            note = self._pick(skulls)
        else:
            note = self._pick([x for x in hand if roles[x] == ROSE])
        self._plan[s] = note
        return f"{s} place", "camera"

    def _safe_own(self, s: int) -> int:
        """Roses on top of ``s``'s own stack above its first skull (what it can surely flip)."""
        n = 0
        roles = self.roles
        for x in reversed(self.stacks[s]):
            if roles[x] == SKULL:
                break
            n += 1
        return n

    def _has_skull_down(self, s: int) -> bool:
        roles = self.roles
        for x in self.stacks[s]:
            if roles[x] == SKULL:
                return True
        return False

    def _wants_to_bid(self, s: int) -> bool:
        g = self.game
        p = 0.12 + 0.12 * len(self.stacks[s]) + 0.1 * self.bold[s]
        if self._has_skull_down(s):
            p *= 0.6  # a bluff bid: hope someone raises over it
        return self.rng.random() < p or g.table_total() >= 2 * len(g._remaining()) + 3

    def _opening_bid(self, s: int) -> int:
        total = self.game.table_total()
        extra = int(self.rng.random() * (2 + int(self.bold[s] * 2)))
        return max(1, min(total, self._safe_own(s) + extra))

    def _answer(self, s: int) -> tuple[str, str]:
        g = self.game
        if g.forced == s:
            return f"{s} bid {g.bid + 1}", "button"
        total = g.table_total()
        ratio = g.bid / total
        r = self.rng.random
        if self._has_skull_down(s):
            return (f"{s} pass", "button") if r() < 0.55 + 0.4 * ratio else (f"{s} agree", "button")
        if g.bid < total and self._safe_own(s) >= g.bid and r() < 0.15 + 0.3 * self.bold[s]:
            step = 1 + (r() < self.bold[s] / 2)
            return f"{s} bid {min(total, g.bid + step)}", "button"
        return (f"{s} pass", "button") if r() < 0.15 + 0.7 * ratio else (f"{s} agree", "button")

    def _flip(self) -> tuple[str, str]:
        g = self.game
        d = g.dealer
        down = self.down
        if down[d]:
            o = d
        else:
            cands = [o for o in range(len(g.seats)) if o != d and down[o]]
            agreed = [o for o in cands if o in g.agreed]
            o = self._pick(agreed if agreed and self.rng.random() < 0.7 else cands)
        top = self.stacks[o][down[o] - 1]
        if self.count >= self.misread_at > 0:
            self.misread_at = -1
            others = [x for s in range(len(g.seats)) if s != o for x in g.owned[s] if x not in self.up]
            if others:
                top = self._pick(others)  # the camera misread a known note of another seat
        return f"table flip {o} {top}", "camera"

    def _face_down(self, s: int) -> list[str]:
        """Seat ``s``'s face-down notes, bottom to top (flips go top down)."""
        return self.stacks[s][:self.down[s]]

    # ------------------------------------------------------------------ following the table
    def applied(self, action_text: str) -> None:
        g = self.game
        a = g.parse_action(action_text)
        t = type(a)
        if t is Place:
            s = a.seat
            note = self._plan.pop(s, None)
            if note is None or note not in self.hands[s]:
                note = self.hands[s][0]
            self.hands[s].remove(note)
            self.stacks[s].append(note)
            self.down[s] += 1
        elif t is Flip:
            o = a.owner
            if self.down[o]:
                self.down[o] -= 1
                self.up.add(self.stacks[o][self.down[o]])
        elif t is Deposit:
            o = a.owner
            self.hands[o].extend(self.stacks[o])
            for x in self.stacks[o]:
                self.up.discard(x)
            self.stacks[o] = []
            self.down[o] = 0
            self.hands[o].remove(a.serial)
            self.bank.append(a.serial)
        if g.round != self._round or g.phase == "over" or t is Void or t is Leave:
            self._sync_round()

    def _sync_round(self) -> None:
        """After a round ended (or was void): stacks back to hands, bank as the engine has it."""
        g = self.game
        self._round = g.round
        if g.phase not in ("stage1", "over") and not any(g.stack[s] == 0 and self.stacks[s] for s in range(len(g.seats))):
            return
        for s in range(len(g.seats)):
            if g.stack[s] == 0 and self.stacks[s]:
                self.hands[s].extend(self.stacks[s])
                for x in self.stacks[s]:
                    self.up.discard(x)
                self.stacks[s] = []
                self.down[s] = 0
        engine_bank = [b["serial"] for b in g.bank]
        if engine_bank != self.bank:
            in_engine = set(engine_bank)
            for x in self.bank:  # a void round returned deposits
                if x not in in_engine:
                    self.hands[g.owner_of[x]].append(x)
            mine = set(self.bank)
            for x in engine_bank:  # automatic deposits (last note a skull)
                if x not in mine:
                    self.hands[g.owner_of[x]].remove(x)
            self.bank = engine_bank


SIM = SkullSim
