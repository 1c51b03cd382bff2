"""The Hoggenheimer layout (game ``hoggenheimer``, RULINGS §3): a 4×8 grid plus the 33rd card.

Rows top to bottom ♠ ♥ ♦ ♣, columns left to right A K Q J 10 9 8 7 (RULINGS §3). Every slot holds
one card, dealt face down; a turned card belongs on the slot of its own rank and suit, and the
camera checks that it was put there ("The camera checks that each turned card is put on its own
place", RULINGS §3).

:func:`read_layout` finds the grid as a lattice fitted to the detected cards (so the layout may be
rotated and any slot may be face down), reads each slot through a
:class:`companion.vision.cards.CardReader`, and flags a face-up card lying on another card's slot.
The 33rd card is the detected card that is not on the lattice.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from companion.vision.cards import CardRead, CardReader, check_image, detect_cards

ROWS = ["S", "H", "D", "C"]
COLS = ["A", "K", "Q", "J", "10", "9", "8", "7"]
#: A card counts as on the lattice when its centre is within this fraction of the pitch.
LATTICE_TOLERANCE = 0.25


def slot_card(row: int, col: int) -> str:
    """The card code that belongs on slot (row 0–3, col 0–7), e.g. (0, 0) → ``AS``."""
    return COLS[col] + ROWS[row]


@dataclass
class SlotRead:
    """One slot of the layout.

    Attributes:
        row, col: 0-based (row 0 = ♠, col 0 = A).
        expected: the card that belongs here (``AS``…).
        state: ``face_down``, ``face_up``, ``empty`` (no card found) or ``unknown`` (a card that
            could not be read: rescan).
        card: the face-up card read there, else None.
        misplaced: a face-up card that is not ``expected``.
        confidence: the reader's confidence (0–1).
        box: [x, y, w, h] px, or None when empty.
    """
    row: int
    col: int
    expected: str
    state: str
    card: str | None = None
    misplaced: bool = False
    confidence: float = 0.0
    box: list[int] | None = None
    reason: str | None = None

    def to_json(self) -> dict:
        d = {"slot": self.expected, "row": self.row, "col": self.col, "state": self.state,
             "card": self.card, "misplaced": self.misplaced, "confidence": round(self.confidence, 3),
             "box": self.box}
        if self.reason:
            d["reason"] = self.reason
        return d


@dataclass
class LayoutRead:
    """The whole layout: 32 :class:`SlotRead` (row-major) and the 33rd card.

    Attributes:
        extra_state: ``face_down``, ``face_up``, ``missing`` or ``unknown``; ``extra_card`` the
            33rd card when face up (the joker, if the deal went as it should).
        reason: None when the grid was found, else why not (then ``slots`` is empty).
    """
    slots: list[SlotRead]
    extra_state: str
    extra_card: str | None = None
    extra_box: list[int] | None = None
    reason: str | None = None
    detail: dict = field(default_factory=dict)

    @property
    def misplaced(self) -> list[SlotRead]:
        return [s for s in self.slots if s.misplaced]

    def slot(self, row: int, col: int) -> SlotRead:
        return self.slots[row * 8 + col]

    def to_json(self) -> dict:
        return {"slots": [s.to_json() for s in self.slots],
                "extra": {"state": self.extra_state, "card": self.extra_card, "box": self.extra_box},
                "misplaced": [s.expected for s in self.misplaced], "reason": self.reason}


def _state(read: CardRead) -> tuple[str, str | None]:
    if read.card:
        return "face_up", read.card
    if read.face_up is False or read.reason == "face_down":
        return "face_down", None
    return "unknown", None


def _fit_lattice(frames, theta, S, L):
    """Lattice coordinates of the card centres after undoing a rotation by ``theta`` (rad):
    (fx, fy fractional col/row, cols, rows rounded, on-lattice mask), or None."""
    R = np.array([[math.cos(theta), -math.sin(theta)], [math.sin(theta), math.cos(theta)]])
    centres = np.array([f.center for f in frames]) @ R.T
    dxs, dys = [], []
    for p in centres:
        d = centres - p
        h = d[(np.abs(d[:, 1]) < 0.5 * L) & (d[:, 0] > 0.5 * S)]
        v = d[(np.abs(d[:, 0]) < 0.5 * S) & (d[:, 1] > 0.5 * L)]
        if len(h):
            dxs.append(h[:, 0].min())
        if len(v):
            dys.append(v[:, 1].min())
    if len(dxs) < 8 or len(dys) < 8:
        return None
    gx, gy = float(np.median(dxs)), float(np.median(dys))
    # lattice phase: circular mean of positions modulo the pitch
    phx = np.angle(np.mean(np.exp(2j * np.pi * centres[:, 0] / gx))) / (2 * np.pi) * gx
    phy = np.angle(np.mean(np.exp(2j * np.pi * centres[:, 1] / gy))) / (2 * np.pi) * gy
    fx = (centres[:, 0] - phx) / gx
    fy = (centres[:, 1] - phy) / gy
    cols, rows = np.round(fx).astype(int), np.round(fy).astype(int)
    on = (np.abs(fx - cols) < LATTICE_TOLERANCE) & (np.abs(fy - rows) < LATTICE_TOLERANCE)
    return fx, fy, cols, rows, on


def read_layout(image: np.ndarray, reader: CardReader | None = None) -> LayoutRead:
    """Read the Hoggenheimer layout in ``image`` (H×W×3 BGR uint8).

    Args:
        reader: the card reader (default: a 32-card standard deck, alphabet ``auto``).

    Returns:
        A :class:`LayoutRead`; when fewer than 16 cards or no lattice is found, ``reason`` says
        why and ``slots`` is empty.

    Raises:
        VisionError: unusable image.
    """
    image = check_image(image)
    reader = reader or CardReader("standard32")
    frames = [f for f in detect_cards(image) if f.complete and not f.verify]
    if len(frames) < 16:
        return LayoutRead([], "unknown", reason=f"layout_not_found: {len(frames)} whole cards seen")
    sizes = np.array([f.size for f in frames])
    S, L = np.median(sizes[:, 0]), np.median(sizes[:, 1])
    frames = [f for f in frames if abs(f.size[0] / S - 1) < 0.3 and abs(f.size[1] / L - 1) < 0.3]
    # grid rotation: the long side's direction against the vertical, folded into (-45°, 45°]
    angs = []
    for f in frames:
        d = f.quad[3] - f.quad[0]
        a = math.degrees(math.atan2(d[0], d[1]))
        a = (a + 45) % 90 - 45
        angs.append(a)
    theta = math.radians(float(np.median(angs)))
    best = None
    for th in (theta, -theta):  # whichever sign undoes the rotation fits the lattice better
        fit = _fit_lattice(frames, th, S, L)
        if fit is not None and (best is None or fit[-1].sum() > best[-1].sum()):
            best = fit
    if best is None:
        return LayoutRead([], "unknown", reason="layout_not_found: no 4×8 lattice")
    fx, fy, cols, rows, on = best
    if on.sum() < 16:
        return LayoutRead([], "unknown", reason="layout_not_found: cards are not on a lattice")
    # the 4 consecutive rows and 8 consecutive columns holding the most cards
    def best_window(vals, n):
        lo, hi = vals.min(), vals.max()
        best = max(range(lo, max(lo, hi - n + 1) + 1), key=lambda s: int(((vals >= s) & (vals < s + n)).sum()))
        return best
    r0 = best_window(rows[on], 4)
    c0 = best_window(cols[on], 8)
    grid: dict[tuple[int, int], int] = {}
    extras = []
    for i in range(len(frames)):
        r, c = rows[i] - r0, cols[i] - c0
        if on[i] and 0 <= r < 4 and 0 <= c < 8 and (r, c) not in grid:
            grid[(r, c)] = i
        else:
            extras.append(i)
    slots = []
    for r in range(4):
        for c in range(8):
            exp = slot_card(r, c)
            if (r, c) not in grid:
                slots.append(SlotRead(r, c, exp, "empty"))
                continue
            f = frames[grid[(r, c)]]
            rd = reader.read_frame(image, f)
            state, card = _state(rd)
            slots.append(SlotRead(r, c, exp, state, card, bool(card and card != exp), rd.confidence,
                                  f.box, rd.reason if state == "unknown" else None))
    if extras:
        # the 33rd card: the off-lattice card nearest to the grid's centre
        gc = np.array([c0 + 3.5, r0 + 1.5])
        i = min(extras, key=lambda k: float(np.hypot(fx[k] - gc[0], fy[k] - gc[1])))
        rd = reader.read_frame(image, frames[i])
        state, card = _state(rd)
        return LayoutRead(slots, state, card, frames[i].box)
    return LayoutRead(slots, "missing")
