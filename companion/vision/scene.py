"""Scene renderer of the simulated table: camera frames of what actually lies on the table.

The simulated table (:mod:`companion.simtable`) asks for a frame whenever the camera must read
something — a note shown for the set-up scan or turned up in a reveal, a card turned in a check.
The frame shows those items face up on a table surface at a random pose, lit and blurred like a
real overhead camera — card frames on any of :data:`companion.vision.table_surfaces.SURFACES`
(felt, wood, carpet, tiles, patterned cloth) under warm, cool or tinted light with soft shadows,
glare and JPEG, as a real table sends; note frames on felt, dark cloth or wood — plus the
face-down items the table's physical truth holds (backs of cards, notes face down) around the
edge, as the camera would see them.

Card faces: a **real photo** from ``../shared/data/real/cards/Vosloo__playing-cards-detection``
(rectified photos of a real 24-card deck, 9–A) when the card's face is in that set, otherwise a
card rendered by :mod:`companion.vision.render_cards` (standard, picture or numbered deck).
Notes: rendered by :mod:`companion.vision.render_notes` with the serial printed on them.

Frames are H×W×3 BGR uint8, 1280×720 by default, deterministic from ``(seed, key, attempt)``.
"""

from __future__ import annotations

import csv
import functools
import hashlib
import os
from pathlib import Path
from typing import Sequence

import cv2
import numpy as np

from companion.parts import need

REAL_SET = "Vosloo__playing-cards-detection"

RENDERED_DECKS = ("picture", "numbered")
"""Deck kinds rendered as their own cards; every other deck (52 or 32 cards) as standard cards."""


def shared_dir() -> Path | None:
    """``$COMPANION_SHARED`` or ``../shared`` beside the repository, if it exists."""
    env = os.environ.get("COMPANION_SHARED")
    cands = [Path(env)] if env else []
    cands.append(Path(__file__).resolve().parents[2].parent / "shared")
    for c in cands:
        if (c / "data" / "real").is_dir():
            return c
    return None


@functools.lru_cache(maxsize=4)
def real_faces(root: str | None) -> dict[str, tuple[str, ...]]:
    """``{card code: (photo path, ...)}`` of the real rectified card photos under ``root``
    (``…/data/real/cards``); empty when the folder is absent."""
    if root is None:
        return {}
    folder = Path(root) / REAL_SET
    manifest = folder / "MANIFEST.tsv"
    if not manifest.is_file():
        return {}
    out: dict[str, list[str]] = {}
    with manifest.open(encoding="utf-8") as fh:
        for row in csv.DictReader(fh, delimiter="\t"):
            path = folder / row["filename"]
            if path.is_file():
                out.setdefault(row["label"].strip(), []).append(str(path))
    return {k: tuple(sorted(v)) for k, v in out.items()}


def _rng(*key) -> np.random.Generator:
    digest = hashlib.sha256(repr(key).encode()).digest()
    return np.random.default_rng(int.from_bytes(digest[:8], "little"))


class SceneRenderer:
    """Renders the simulated table's camera frames.

    Args:
        game_id: the game whose table is rendered.
        seed: scene seed (poses, light, surface).
        size: frame size (width, height) in px.
        real_photos: use real card photos where a face is available.
        context: draw the face-down items of the table's truth around the edge.
        currency: the notes' currency for the note renderer (``RUB`` default).
        deck: the game's deck kind (``GameSpec.deck.kind``): a picture or numbered deck is rendered
            as its own cards (:data:`RENDERED_DECKS`), any other as standard cards.
        varied: card frames of play on every procedural table and light
            (:mod:`companion.vision.table_surfaces`, :mod:`companion.vision.scene_light`); False:
            felt, cloth or wood as before.

    Attributes:
        real_used, rendered_used: how many card faces came from real photos / were rendered.
    """

    def __init__(self, game_id: str, seed: int = 0, size: tuple[int, int] = (1280, 720),
                 real_photos: bool = True, context: bool = True, currency: str = "RUB",
                 deck: str = "standard", varied: bool = True) -> None:
        self.game_id = game_id
        self.seed = seed
        self.size = size
        self.deck_kind = deck if deck in RENDERED_DECKS else "standard"
        self.varied = varied
        shared = shared_dir()
        self.faces = real_faces(str(shared / "data" / "real" / "cards") if shared else None) if real_photos else {}
        self.context = context
        self.currency = currency
        self.real_used = 0
        self.rendered_used = 0
        self._rc = need("companion.vision.render_cards", part="card renderer (branch cards)")
        self._rs = need("companion.vision.render_scenes", part="card renderer (branch cards)")
        self._counter = 0

    # ------------------------------------------------------------------ faces
    def card_face(self, code: str, rng: np.random.Generator) -> np.ndarray:
        """A CARD_H×CARD_W×3 face for ``code``: a real photo when available, else rendered."""
        rc = self._rc
        photos = self.faces.get(code)
        if photos:
            img = cv2.imread(photos[int(rng.integers(len(photos)))])
            if img is not None:
                self.real_used += 1
                return cv2.resize(img, (rc.CARD_W, rc.CARD_H), interpolation=cv2.INTER_AREA)
        self.rendered_used += 1
        return rc.face_for(code, self.deck_kind, "en", int(rng.integers(3)), 0)

    def note_image(self, serial: str, rng: np.random.Generator) -> np.ndarray:
        """A banknote image (H×W×3 BGR) with ``serial`` printed, from the note renderer.

        Raises:
            MissingPart: the note renderer (branch notes) is not installed.
        """
        render_note = need("companion.vision.render_notes", "render_note", part="note renderer (branch notes)")
        return render_note(serial, currency=self.currency, seed=int(rng.integers(1 << 31))).image

    # ------------------------------------------------------------------ frames
    def render(self, items: Sequence[tuple[str, str]], attempt: int = 0, truth: dict | None = None,
               game=None) -> np.ndarray:
        """A frame showing ``items`` — ``(kind, value)`` with kind ``note`` or ``card`` — face up,
        left to right in the given order, on a table surface.

        Args:
            attempt: the read attempt (a retry gets a new pose and light).
            truth: the sim's physical truth (for the face-down context).
            game: the shadow game (unused by the renderer itself; kept for game-specific context).

        Raises:
            MissingPart: a renderer the items need is not installed.
        """
        self._counter += 1
        key = (self.seed, tuple(items), attempt, self._counter)
        rng = _rng(*key)
        rs = self._rs
        W, H = self.size
        n = max(1, len(items))
        notes = [v for k, v in items if k == "note"]
        cards = [v for k, v in items if k == "card"]
        # card frames of play: the variety of a real table (issue 17) — felt, wood, carpet, tiles
        # or patterned cloth in either style, coloured light and shadows, cards of many sizes. A
        # deck-learning shot (attempt < 0: one photo per face, as a person takes it to teach the
        # deck) stays on a plain table.
        vary = self.varied and bool(cards) and not notes and attempt >= 0
        if vary:
            from companion.vision import table_surfaces as ts
            surface = str(rng.choice(ts.SURFACES))
            frame = ts.surface(surface, (W, H), rng, str(rng.choice(["a", "b"])))
        else:
            surface = str(rng.choice(["felt", "cloth", "wood"]))
            frame = rs.background(surface, (W, H), rng)
        if self.context and truth and cards and not notes:
            # card games: the backs of what lies face down, along the edge. A note shown for a
            # scan is held up alone (the note reader reads one note per frame).
            self._context(frame, truth, rng)
        if cards:
            h = float(rng.uniform(0.3 if vary else 0.42, 0.55)) * H * min(1.0, 4.0 / max(4, n))
            for i, code in enumerate(cards):
                cx = W * (i + 0.5) / len(cards) + rng.uniform(-0.03, 0.03) * W / len(cards)
                cy = H * 0.55 + rng.uniform(-0.05, 0.05) * H
                angle = float(rng.uniform(-20, 20)) + (180 if rng.random() < 0.2 else 0)
                quad = rs.pose_quad((cx, cy), angle, h, 0.02, rng)
                rs.paste_card(frame, self.card_face(code, rng), quad)
        if notes:
            self._paste_notes(frame, notes, rng)
        elif vary:
            from companion.vision import scene_light
            return scene_light.photometric(frame, rng, scene_light.random_light(rng, harsh=False))
        light = float(rng.uniform(0.8, 1.1))
        blur = float(rng.choice([0.0, 0.0, 0.5, 0.8]))
        return rs.photometric(frame, rng, light=light, blur=blur, tint=float(rng.uniform(0, 0.3)))

    def _paste_notes(self, frame: np.ndarray, serials: list[str], rng: np.random.Generator) -> None:
        """Notes shown to the camera, side by side (one per frame in the set-up scan), at a small
        random angle and tilt, through the note renderer's own :func:`place_note`."""
        place_note = need("companion.vision.render_notes", "place_note", part="note renderer (branch notes)")
        H, W = frame.shape[:2]
        k = len(serials)
        for i, serial in enumerate(serials):
            img = self.note_image(serial, rng)
            nh, nw = img.shape[:2]
            scale = min(W / k * 0.8 / nw, H * 0.7 / nh)
            cx = W * (i + 0.5) / k + rng.uniform(-0.03, 0.03) * W / k
            cy = H * 0.55 + rng.uniform(-0.05, 0.05) * H
            angle = float(rng.uniform(-12, 12)) + (180 if rng.random() < 0.15 else 0)
            place_note(frame, img, (cx, cy), angle=angle, scale=scale, tilt=float(rng.uniform(0, 0.1)))

    def _context(self, frame: np.ndarray, truth: dict, rng: np.random.Generator) -> None:
        """Face-down items along the top edge: one back per face-down thing the truth lists
        (at most 12), so the frame shows how much lies on the table without showing any face."""
        count = _face_down_count(truth)
        if not count:
            return
        rc, rs = self._rc, self._rs
        H, W = frame.shape[:2]
        h = H * 0.16
        for i in range(min(count, 12)):
            cx = W * (i + 0.5) / 12
            quad = rs.pose_quad((cx, h * 0.45), 90 + float(rng.uniform(-6, 6)), h, 0.0, rng)
            quad[:, 1] -= h * 0.25  # half off the frame's edge: the camera sees their backs only
            rs.paste_card(frame, rc.render_back(i % 2), quad, shadow=False)


def _face_down_count(truth: dict) -> int:
    """Face-down items lying on the table in a sim's truth (never their faces): skull's stacks
    (``seats[].stack`` with ``face_up``), doubt's pile (``pile[].cards``), won-trick piles
    (``piles``: lists). Hands are held by the players, not lying in view."""
    n = 0
    for seat in truth.get("seats") or []:
        if isinstance(seat, dict):
            n += sum(1 for x in seat.get("stack") or [] if isinstance(x, dict) and not x.get("face_up"))
    for x in truth.get("pile") or []:
        if isinstance(x, dict) and not x.get("face_up", False):
            n += len(x.get("cards") or [])
    for x in truth.get("piles") or []:
        if isinstance(x, list):
            n += len(x)
    return n
