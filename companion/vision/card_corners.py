"""Learned index-corner detector: finds the corners of cards that carry a printed index, on any
table, whatever the card's outline shows (a card under another, a card on paper-white cloth).

A small fully convolutional network (ONNX, run by onnxruntime; trained offline by
``tools/train_card_corners.py`` on domain-randomised composites, see docs/vision-cards.md,
"Ninth pass") looks at the frame scaled to :data:`INPUT_LONG` px on its long side and answers, on
a grid of stride :data:`STRIDE`: a heat map of index corners (the paper corner next to a rank and
suit), the corner's sub-cell offset, the unit directions of the card's short and long sides from
that corner, and the card's width and height. Each peak gives a card frame hypothesised from that
one corner (:func:`corner_frames`), read like any partly hidden card's seen corner.
"""

from __future__ import annotations

import functools
from collections import deque
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.vision.card_frames import CardFrame, _any_near, _frame_quads, _norm, _overlap
from companion.vision.card_worker import _beside
from companion.vision.onnxmodel import open_model

MODEL_DIR = Path(__file__).resolve().parent / "models"
MODEL = MODEL_DIR / "card_corners.onnx"
#: The frame's long side at the network's input (px), and the output grid's stride (px).
INPUT_LONG = 512
STRIDE = 4
#: Output channels: heat (logit), offset x, y (cells), short-side direction x, y, long-side
#: direction x, y, log(width / 32 px), log(height / width).
CHANNELS = 9
#: A heat-map peak at or above this probability is an index corner.
PEAK = 0.35
#: At most this many corners a frame.
MAX_CORNERS = 32
#: The card's height over its width must lie in this range (poker 1.40, bridge 1.56).
ASPECT = (1.2, 1.8)
#: A detected corner that reads no card at its answered size is read again as a card of these
#: fractions of it (a size a little off cuts the index badly).
SCALES: tuple[float, ...] = (0.75, 1.3)


@dataclass
class IndexCorner:
    """One detected index corner, in px of the image: the corner point, the unit directions of
    the card's short and long sides from it, the card's width and height, and the peak's
    probability."""
    point: np.ndarray
    short_dir: np.ndarray
    long_dir: np.ndarray
    width: float
    height: float
    score: float

    def quad(self) -> tuple[np.ndarray, int]:
        """The card hypothesised from this corner: (4×2 float32 quad in face order TL, TR, BR,
        BL, the index of this corner in it)."""
        c, u, v = self.point, self.short_dir * self.width, self.long_dir * self.height
        if float(u[0] * v[1] - u[1] * v[0]) >= 0:  # the corner is the face's top left
            return np.float32([c, c + u, c + u + v, c + v]), 0
        return np.float32([c + u, c, c + v, c + u + v]), 1  # its top right (a four-index deck)


def input_size(w: int, h: int) -> tuple[int, int]:
    """The network's input size (width, height) for a w×h frame: the long side
    :data:`INPUT_LONG`, both sides multiples of 16."""
    s = INPUT_LONG / max(w, h)
    return max(16, int(round(w * s / 16)) * 16), max(16, int(round(h * s / 16)) * 16)


def prepare(image: np.ndarray) -> tuple[np.ndarray, float, float]:
    """An H×W×3 BGR uint8 frame as the network's input: 1×3×h×w float32 in −0.5…0.5, and the
    x and y scales (input px per image px)."""
    H, W = image.shape[:2]
    w, h = input_size(W, H)
    small = cv2.resize(image, (w, h), interpolation=cv2.INTER_AREA)
    x = small.astype(np.float32) * (1.0 / 255.0) - 0.5
    return np.ascontiguousarray(x.transpose(2, 0, 1)[None]), w / W, h / H


def decode(out: np.ndarray, sx: float, sy: float, peak: float = PEAK) -> list[IndexCorner]:
    """The corners of one output map (CHANNELS×h×w), in image px (``sx``, ``sy``: input px per
    image px), strongest first."""
    heat = 1.0 / (1.0 + np.exp(-out[0]))
    local = heat >= cv2.dilate(heat, np.ones((3, 3), np.uint8))
    ys, xs = np.nonzero(local & (heat >= peak))
    order = np.argsort(-heat[ys, xs])[:MAX_CORNERS]
    found = []
    for i in order:
        y, x = int(ys[i]), int(xs[i])
        o = out[:, y, x]
        if float(np.hypot(o[3], o[4])) < 1e-3 or float(np.hypot(o[5], o[6])) < 1e-3:
            continue
        px = (x + 0.5 + o[1]) * STRIDE / sx
        py = (y + 0.5 + o[2]) * STRIDE / sy
        # a card is a rectangle: the two sides as the perpendicular pair nearest the two
        # directions answered (each one's estimate of the other, averaged)
        sign = 1.0 if float(o[3] * o[6] - o[4] * o[5]) >= 0 else -1.0
        a = np.float32([o[3], o[4]]) / max(1e-6, float(np.hypot(o[3], o[4])))
        b = np.float32([o[5], o[6]]) / max(1e-6, float(np.hypot(o[5], o[6])))
        a = a + np.float32([b[1], -b[0]]) * sign
        a /= max(1e-6, float(np.linalg.norm(a)))
        o = o.copy()
        o[3:5] = a
        o[5:7] = np.float32([-a[1], a[0]]) * sign
        w = float(np.exp(o[7]) * 32.0)
        h = float(w * np.exp(o[8]))
        if not ASPECT[0] <= h / w <= ASPECT[1]:
            continue
        u, v = np.float32([o[3] / sx, o[4] / sy]), np.float32([o[5] / sx, o[6] / sy])
        nu, nv = float(np.linalg.norm(u)), float(np.linalg.norm(v))
        # the size is in input px along each side's direction: back to image px
        su = float(np.hypot(o[3] / sx, o[4] / sy) / max(1e-6, np.hypot(o[3], o[4])))
        sv = float(np.hypot(o[5] / sx, o[6] / sy) / max(1e-6, np.hypot(o[5], o[6])))
        found.append(IndexCorner(np.float32([px, py]), u / nu, v / nv, w * su, h * sv, float(heat[y, x])))
    return found


class CornerNet:
    """The ONNX index-corner detector (one session per process, :func:`shared`).

    Raises:
        VisionError: the model file is missing, unreadable or of another version.
    """

    def __init__(self, path: Path | None = None) -> None:
        path = Path(path or MODEL)
        self.session, self.meta = open_model(path, "card corner", "tools/train_card_corners.py")
        if self.meta.get("input_long") != INPUT_LONG or self.meta.get("stride") != STRIDE \
                or self.meta.get("channels") != CHANNELS:
            raise VisionError(f"card corner model {path} does not match this version")
        self.input = self.session.get_inputs()[0].name

    def detect(self, image: np.ndarray, peak: float = PEAK) -> list[IndexCorner]:
        """Index corners in ``image`` (H×W×3 BGR uint8), strongest first."""
        x, sx, sy = prepare(image)
        out = self.session.run(None, {self.input: x})[0][0]
        return decode(out, sx, sy, peak)


@functools.lru_cache(maxsize=1)
def shared() -> CornerNet:
    """The process's one :class:`CornerNet` on the committed model."""
    return CornerNet()


def available() -> bool:
    """Whether the committed model is there (the reader finds cards without it if not)."""
    return MODEL.is_file() and MODEL.with_suffix(".json").is_file()


#: A detected corner within this fraction of a card's short side of a corner of a card already
#: read (:func:`_own`) is that card's corner (the reader found it already).
SAME_CORNER = 0.25
#: A null entry whose frame a card read from a detected corner covers by this fraction (of the
#: smaller frame) stood for that card: it is dropped.
EXPLAINED = 0.5


#: Read a detected corner's frame again through a wider and a sides-swapped patch when the first
#: read is unsure (as a partly hidden card's hypothesis is)
RETRY = True
#: A detected corner inside a read whole card's outline shrunk to this fraction about its centre
#: is that card's pips or picture.
INSIDE = 0.8


def _own(frame, ks) -> set[int]:
    """The corners of a read card's frame that are surely that card's: all four of a whole
    outline; the observed ones of a partly hidden card and, opposite each, its other index."""
    return set(range(4)) if frame.complete else {k for c in ks for k in (c, (c + 2) % 4)}


def _shrunk(quad, f: float) -> np.ndarray:
    q = np.asarray(quad, np.float32)
    c = q.mean(0)
    return (c + (q - c) * f).reshape(-1, 1, 2)


def corner_frames(corners: list[IndexCorner]):
    """Card frames (:class:`companion.vision.cards.CardFrame`, partly seen, ``verify``) from
    detected index corners: one frame per card, its two index corners joined when both are seen
    (the second one's hypothesis becomes a view of the first)."""
    frames: list = []
    for c in corners:
        q, k = c.quad()
        short = min(c.width, c.height)
        for f in frames:
            opposite = f.quad[(f.readable[0] + 2) % 4]
            if len(f.views) == 0 and _norm(opposite - c.point) < SAME_CORNER * short:
                f.views.append((q, (k,)))
                break
        else:
            frames.append(CardFrame(q, False, (k,), verify=True))
    return frames


def scaled(frame, f: float):
    """``frame`` (from :func:`corner_frames`) with each hypothesis ``f`` times its size about its
    observed corner."""
    def one(q, ks):
        q = np.asarray(q, np.float32)
        o = q[ks[0]]
        return (o + (q - o) * f).astype(np.float32)

    return CardFrame(one(frame.quad, frame.readable), False, frame.readable,
                     [(one(q, ks), ks) for q, ks in frame.views], verify=True)


def _read_corner(reader, image: np.ndarray, f):
    """The learned read of a detected corner's frame, retried at :data:`SCALES` of its size
    until one names a card: (read, the frame read)."""
    from companion.vision.learned_read import read_frame_learned

    r = read_frame_learned(reader, image, f, RETRY)
    base = f
    for k in SCALES:
        if r.card is not None:
            break
        f = scaled(base, k)
        r = read_frame_learned(reader, image, f, RETRY)
    return r, f


def _read_both_threads(reader, image: np.ndarray, frames: list) -> list:
    """:func:`_read_corner` of each frame, the reader's worker thread and the caller taking
    frames in turn (the same reads as one after the other: each is a read of its own)."""
    todo = deque(range(len(frames)))
    done: dict = {}

    def work():
        while True:
            try:
                i = todo.popleft()
            except IndexError:
                return
            done[i] = _read_corner(reader, image, frames[i])

    helper = _beside(work) if len(frames) > 1 else None
    work()
    if helper is not None:
        helper.result()
    return [done[i] for i in range(len(frames))]


def add_corner_reads(reader, image: np.ndarray, reads: list, net: CornerNet | None = None,
                     corners: list[IndexCorner] | None = None) -> list:
    """``reads`` (the reader's answers for ``image``) with the cards read at index corners the
    detector finds (``corners``, when it has run already) and no read card explains; null entries such a card explains are dropped
    (its frame covers half of theirs, or a card region with no corner holds its corner). Only
    named cards are added: a detected corner that does not read surely adds nothing.

    Such a frame is read by the learned classifier alone (:func:`read_frame_learned`; the glyph
    templates, fitted to the real decks, confuse ♠ and ♣ of other fonts and would veto it: on
    the validation scenes 193 against 186 read, no wrong card either way), with the suit-colour
    check; with ``reader.calibrate`` by the reader's whole calibrated decision."""
    from companion.vision.card_calib import COLOUR_VETO, colour_agreement

    frames = corner_frames(corners if corners is not None else (net or shared()).detect(image))
    if not frames:
        return reads
    named = [r for r in reads if r.card is not None]
    seen = [(q[k], min(r.frame.size)) for r in named for q, ks in _frame_quads(r.frame) for k in _own(r.frame, ks)]
    faces = [_shrunk(r.frame.quad, INSIDE) for r in named if r.frame.complete]

    def corners_of(f):
        return [q[k] for q, ks in _frame_quads(f) for k in ks]

    # inside a card already read: its pips or picture, not another card's corner
    frames = [f for f in frames if not any(cv2.pointPolygonTest(q, (float(c[0]), float(c[1])), False) >= 0
                                           for c in corners_of(f) for q in faces)]
    frames = [f for f in frames if not _any_near(corners_of(f), seen, SAME_CORNER)]
    first = _read_both_threads(reader, image, frames)
    added = []
    for f, (r, f_read) in zip(frames, first):
        # a card added just before may explain this corner (read for nothing, beside the others)
        if _any_near(corners_of(f), seen, SAME_CORNER):
            continue
        f = f_read
        if r.card is not None and (reader.calibrate or reader.collect):
            # the calibrated decision, templates and all (and its facts, for tools/calibrate_cards.py)
            r = reader.read_frame(image, f, retry=RETRY)
        if r.card is None or (reader.colour_veto and colour_agreement(r.card, r.detail.get("red")) <= COLOUR_VETO):
            continue
        r.detail["corner_net"] = True
        added.append(r)
        seen += [(q[k], min(f.size)) for q, ks in _frame_quads(f) for k in _own(f, ks)]
    if not added:
        return reads
    points = [q[k] for a in added for q, ks in _frame_quads(a.frame) for k in ks]

    def explained(r) -> bool:
        if any(_overlap(r.frame.quad, a.frame.quad) >= EXPLAINED for a in added):
            return True
        # card paper with no corner found, around a corner that read: that card's paper
        q = np.asarray(r.frame.quad, np.float32)
        c = q.mean(0)
        grown = (c + (q - c) * 1.1).reshape(-1, 1, 2)
        return r.reason == "no_corner_visible" and any(
            cv2.pointPolygonTest(grown, (float(p[0]), float(p[1])), False) >= 0 for p in points)

    return [r for r in reads if r.card is not None or not explained(r)] + added
