"""Synthetic banknotes and table scenes for tests, benchmarks and the simulated table.

No real banknote with a readable Russian serial is in the real photo set, so the tests render
their own: a note-sized card with guilloche-like line patterns, a denomination, and the serial
printed twice — once horizontal and once vertical (for RUB the vertical copy's glyphs grow in
height, as on the Bank of Russia notes since 1997). Notes are placed on felt, wood or cloth at any
angle and perspective, then blurred, given glare and JPEG-compressed. Hard negatives: the back of a
note (no serial), a note whose serial is covered, and serial-like text that fits no format.

API:

* :func:`random_serial` — a valid serial for a currency (optionally with a given parity).
* :func:`render_note` — one note image (BGR) for a serial.
* :func:`make_background` — a table surface.
* :func:`place_note` / :func:`render_scene` — notes placed into a scene, with the quadrilateral
  each note covers.
* :func:`degrade` — blur, glare, noise and JPEG.

All images are H×W×3 BGR uint8; sizes are (width, height) in px; every random choice comes from a
``random.Random`` or seed, so the same seed gives the same picture.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.vision import serials as S

_FONT_DIRS = ("/usr/share/fonts/truetype/dejavu", "/usr/share/fonts/truetype/liberation",
              "/usr/share/fonts/TTF", "/usr/share/fonts/dejavu")
_FONT_NAMES = ("DejaVuSansMono-Bold.ttf", "DejaVuSans-Bold.ttf", "DejaVuSansMono.ttf",
               "LiberationMono-Bold.ttf", "DejaVuSans.ttf")

#: Cyrillic letters used in rendered RUB serials (Bank of Russia prefixes use these).
RUB_LETTERS = "АБВГЕИКЛМНОПСТХЧЭЯ"

NOTE_SIZE = (600, 270)  # px, about 157×69 mm at ~3.8 px/mm (a 1000-rouble note)


def font(size: int, index: int = 0) -> ImageFont.FreeTypeFont:
    """A TrueType font with Cyrillic glyphs (DejaVu / Liberation), ``size`` px.

    Raises:
        FileNotFoundError: no suitable font is installed (install fonts-dejavu-core).
    """
    names = _FONT_NAMES[index % len(_FONT_NAMES):] + _FONT_NAMES[: index % len(_FONT_NAMES)]
    for name in names:
        for d in _FONT_DIRS:
            p = Path(d) / name
            if p.is_file():
                return ImageFont.truetype(str(p), size)
    raise FileNotFoundError("no DejaVu/Liberation TrueType font found (apt install fonts-dejavu-core)")


def random_serial(currency: str = "RUB", rng: random.Random | None = None,
                  parity: str | None = None) -> str:
    """A serial that fits ``currency``'s format (EUR with a valid check digit).

    Args:
        parity: ``"even"`` / ``"odd"`` to force the last digit's parity, or ``None``.

    Raises:
        ValueError: unknown currency or parity.
    """
    rng = rng or random.Random()
    if parity not in (None, "even", "odd"):
        raise ValueError(f"parity must be even, odd or None, not {parity!r}")
    L = "ABCDEFGHIJKLMNPQRSTUVWXYZ"
    d = lambda n: "".join(rng.choice("0123456789") for _ in range(n))
    for _ in range(1000):
        if currency == "RUB":
            s = rng.choice(RUB_LETTERS) + rng.choice(RUB_LETTERS) + d(7)
        elif currency == "EUR":
            head = rng.choice(L) + rng.choice(L) + d(9)
            for last in "0123456789":
                if S.eur_check(head + last):
                    s = head + last
                    break
        elif currency == "USD":
            s = rng.choice("ABCDEFGHIJKL") + d(8) + rng.choice(L.replace("O", ""))
        elif currency == "INR":
            s = rng.choice("123456789") + rng.choice(L) + rng.choice(L) + d(6)
        elif currency == "KRW":
            s = rng.choice(L) + rng.choice(L) + d(7) + rng.choice(L)
        elif currency == "JPY":
            J = L.replace("I", "")  # the Bank of Japan prints no I and no O (serials.EXCLUDED_LETTERS)
            s = rng.choice(J) + rng.choice(J) + d(6) + rng.choice(J)
        else:
            raise ValueError(f"unknown currency {currency!r}")
        if parity is None or S.parity(s) == parity:
            return s
    raise AssertionError("unreachable")  # pragma: no cover


def display_serial(serial: str, currency: str) -> str:
    """How the serial is printed: RUB ``"АК 2444841"`` (second letter lower case), INR
    ``"5HA 852592"``, others as is."""
    if currency == "RUB":
        return serial[0] + serial[1].lower() + " " + serial[2:]
    if currency == "INR":
        return serial[:3] + " " + serial[3:]
    return serial


_PALETTES = [((176, 196, 214), (60, 80, 120)), ((190, 210, 190), (40, 90, 60)),
             ((200, 190, 225), (110, 50, 90)), ((170, 205, 225), (40, 70, 140)),
             ((215, 215, 200), (90, 90, 50))]


def _paper(size: tuple[int, int], rng: random.Random) -> tuple[np.ndarray, tuple]:
    w, h = size
    base, ink = rng.choice(_PALETTES)
    img = np.empty((h, w, 3), np.uint8)
    img[:] = base
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # guilloche-like soft waves
    for _ in range(3):
        f1, f2, ph = rng.uniform(0.01, 0.05), rng.uniform(0.01, 0.05), rng.uniform(0, 6.28)
        wave = (np.sin(xx * f1 + np.sin(yy * f2) * 3 + ph) * 0.5 + 0.5)
        img = (img.astype(np.float32) * (1 - 0.12 * wave[..., None])).astype(np.uint8)
    for _ in range(40):
        cx, cy, r = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(20, 120)
        col = tuple(int(c * 0.8 + b * 0.2) for c, b in zip(base, ink))
        cv2.circle(img, (int(cx), int(cy)), int(r), col, 1, cv2.LINE_AA)
    cv2.rectangle(img, (6, 6), (w - 7, h - 7), ink, 2)
    return img, ink


def _text_layer(text: str, px: int, heights: list[float] | None = None,
                font_index: int = 0) -> np.ndarray:
    """A grey alpha image (H×W uint8, 255 = ink) of ``text`` set at ``px``; ``heights`` scales
    each glyph's height (the growing RUB vertical copy)."""
    f = font(px, font_index)
    glyphs = []
    for i, ch in enumerate(text):
        if ch == " ":
            glyphs.append(np.zeros((px, px // 3), np.uint8))
            continue
        box = f.getbbox(ch)
        gw, gh = box[2] - box[0] + 2, box[3] - box[1] + 2
        im = Image.new("L", (gw, gh), 0)
        ImageDraw.Draw(im).text((-box[0] + 1, -box[1] + 1), ch, font=f, fill=255)
        g = np.array(im)
        if heights is not None:
            g = cv2.resize(g, (gw, max(2, int(gh * heights[i]))), interpolation=cv2.INTER_LINEAR)
        glyphs.append(g)
    H = max(g.shape[0] for g in glyphs)
    gap = max(1, px // 10)
    W = sum(g.shape[1] for g in glyphs) + gap * (len(glyphs) - 1)
    out = np.zeros((H, W), np.uint8)
    x = 0
    for g in glyphs:
        out[H - g.shape[0]:, x:x + g.shape[1]] = np.maximum(out[H - g.shape[0]:, x:x + g.shape[1]], g)
        x += g.shape[1] + gap
    return out


def _stamp(img: np.ndarray, alpha: np.ndarray, x: int, y: int, color) -> None:
    h, w = alpha.shape
    H, W = img.shape[:2]
    x0, y0, x1, y1 = max(0, x), max(0, y), min(W, x + w), min(H, y + h)
    if x1 <= x0 or y1 <= y0:
        return
    a = alpha[y0 - y:y1 - y, x0 - x:x1 - x].astype(np.float32)[..., None] / 255.0
    roi = img[y0:y1, x0:x1].astype(np.float32)
    img[y0:y1, x0:x1] = (roi * (1 - a) + np.array(color, np.float32) * a).astype(np.uint8)


@dataclass
class RenderedNote:
    """A rendered note: ``image`` (H×W×3 BGR uint8), its ``serial`` (canonical, or ``None`` for a
    hard negative) and ``currency``."""

    image: np.ndarray
    serial: str | None
    currency: str


def render_note(serial: str | None, currency: str = "RUB", size: tuple[int, int] = NOTE_SIZE,
                seed: int = 0, side: str = "front", fake_text: str | None = None,
                vertical_serial: str | None = None, serial_font: int = 0) -> RenderedNote:
    """Render one note with its serial printed twice (horizontal, bottom-left; vertical, right).

    Args:
        serial: canonical serial, or ``None`` for no serial.
        currency: which format's print style (RUB: red vertical copy with growing glyphs).
        size: (width, height) px of the note.
        seed: random seed for colours and pattern.
        side: ``"front"`` (serials) or ``"back"`` (no serial: a hard negative).
        fake_text: serial-like text that fits no format, printed where the serial would be
            (a hard negative).
        vertical_serial: print this serial as the vertical copy instead (copies that disagree:
            a hard negative; the returned ``serial`` is then ``None``).
        serial_font: the serial's font (an index into the renderer's fonts: 0 DejaVu Sans Mono
            Bold, 2 DejaVu Sans Mono, 3 Liberation Mono Bold — faces the serial recogniser was
            never trained on).
    """
    rng = random.Random(seed)
    img, ink = _paper(size, rng)
    w, h = size
    denom = rng.choice(["100", "500", "1000", "5000", "50", "20"])
    big = _text_layer(denom, int(h * 0.22), font_index=1)
    _stamp(img, big, int(w * 0.06), int(h * 0.08), ink)
    title = {"RUB": "БИЛЕТ БАНКА РОССИИ", "EUR": "EURO", "USD": "FEDERAL RESERVE NOTE",
             "INR": "RESERVE BANK OF INDIA", "KRW": "BANK OF KOREA", "JPY": "NIPPON GINKO"}
    _stamp(img, _text_layer(title.get(currency, "BANK"), int(h * 0.07), font_index=3),
           int(w * 0.35), int(h * 0.12), ink)
    text = None
    if side == "front" and (serial or fake_text):
        text = fake_text if fake_text else display_serial(serial, currency)
    if text:
        color_h = (30, 30, 40) if currency != "RUB" else (40, 40, 170)
        px = int(h * 0.11)
        hor = _text_layer(text, px, font_index=serial_font)
        _stamp(img, hor, int(w * 0.08), int(h * 0.78), color_h)
        if currency == "RUB":
            n = len(text)
            heights = [0.7 + 0.6 * i / max(1, n - 1) for i in range(n)]
            color_v = (40, 40, 170)
        else:
            heights = None
            color_v = (30, 30, 40)
        vtext = display_serial(vertical_serial, currency) if vertical_serial else text
        vert = _text_layer(vtext, int(px * 0.95), heights, font_index=serial_font)
        vert = cv2.rotate(vert, cv2.ROTATE_90_COUNTERCLOCKWISE)  # reads bottom to top
        vh, vw = vert.shape
        _stamp(img, vert, int(w * 0.86), max(4, (h - vh) // 2), color_v)
    ok = side == "front" and serial and not fake_text and vertical_serial in (None, serial)
    return RenderedNote(img, serial if ok else None, currency)


def make_background(kind: str = "felt", size: tuple[int, int] = (1280, 960),
                    seed: int = 0) -> np.ndarray:
    """A table surface: ``felt`` (green, fine noise), ``wood`` (grain), or ``cloth`` (woven).

    Raises:
        ValueError: unknown kind.
    """
    rng = np.random.default_rng(seed)
    w, h = size
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    if kind == "felt":
        base = np.array([40, 110, 35], np.float32) * rng.uniform(0.8, 1.2)
        noise = cv2.GaussianBlur(rng.normal(0, 12, (h, w)).astype(np.float32), (0, 0), 1.2)
        img = base[None, None, :] + noise[..., None]
    elif kind == "wood":
        base = np.array([60, 105, 150], np.float32) * rng.uniform(0.8, 1.2)
        f = rng.uniform(0.02, 0.05)
        grain = np.sin(yy * f + np.sin(xx * 0.004) * 6 + rng.normal(0, 0.3, (h, w))) * 22
        img = base[None, None, :] + grain[..., None]
    elif kind == "cloth":
        base = np.array(rng.uniform(60, 200, 3), np.float32)
        weave = (np.sin(xx * 0.9) * np.sin(yy * 0.9)) * 14
        img = base[None, None, :] + weave[..., None] + rng.normal(0, 5, (h, w, 1))
    else:
        raise ValueError(f"unknown background {kind!r}: felt, wood or cloth")
    return np.clip(img, 0, 255).astype(np.uint8)


def place_note(scene: np.ndarray, note: np.ndarray, center: tuple[float, float],
               angle: float = 0.0, scale: float = 1.0, tilt: float = 0.0,
               shadow: bool = True) -> np.ndarray:
    """Paste ``note`` into ``scene`` in place (and return the 4×2 float32 quadrilateral it covers).

    Args:
        center: (x, y) px of the note's centre in the scene.
        angle: rotation in degrees (counter-clockwise).
        scale: note width in the scene / note image width.
        tilt: perspective strength 0..0.4 (the far edge shrinks, as seen by a camera at an angle).
    """
    h, w = note.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    c = np.float32([w / 2, h / 2])
    pts = (src - c) * scale
    if tilt:
        pts[0, 0] *= 1 - tilt
        pts[1, 0] *= 1 - tilt
    a = math.radians(angle)
    R = np.float32([[math.cos(a), math.sin(a)], [-math.sin(a), math.cos(a)]])
    dst = pts @ R.T + np.float32(center)
    M = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
    H, W = scene.shape[:2]
    warped = cv2.warpPerspective(note, M, (W, H), flags=cv2.INTER_LINEAR)
    mask = cv2.warpPerspective(np.full((h, w), 255, np.uint8), M, (W, H))
    if shadow:
        sh = cv2.GaussianBlur(np.roll(mask, (6, 6), (0, 1)), (0, 0), 6).astype(np.float32) / 255
        scene[:] = (scene.astype(np.float32) * (1 - 0.35 * sh[..., None])).astype(np.uint8)
    m = mask.astype(np.float32)[..., None] / 255.0
    scene[:] = (scene.astype(np.float32) * (1 - m) + warped.astype(np.float32) * m).astype(np.uint8)
    return dst.astype(np.float32)


def degrade(image: np.ndarray, rng: random.Random, blur: float = 0.0, glare: float = 0.0,
            noise: float = 0.0, jpeg: int | None = None) -> np.ndarray:
    """A degraded copy: Gaussian ``blur`` (sigma px), a ``glare`` spot (0..1 strength), Gaussian
    ``noise`` (sigma grey levels) and JPEG at quality ``jpeg``."""
    out = image.astype(np.float32)
    h, w = image.shape[:2]
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if glare > 0:
        yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
        cx, cy = rng.uniform(0, w), rng.uniform(0, h)
        r = rng.uniform(0.1, 0.3) * max(w, h)
        spot = np.exp(-(((xx - cx) ** 2 + (yy - cy) ** 2) / (2 * r * r)))
        out = out + glare * 200 * spot[..., None]
    if noise > 0:
        out = out + np.random.default_rng(rng.randrange(2**32)).normal(0, noise, out.shape)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


@dataclass
class Scene:
    """A rendered frame and its truth: ``image`` (H×W×3 BGR uint8), ``serials`` (canonical, in
    placement order; ``None`` for hard negatives), ``quads`` (4×2 px each)."""

    image: np.ndarray
    serials: list[str | None]
    quads: list[np.ndarray]


def render_scene(notes: list[RenderedNote], background: str = "felt",
                 size: tuple[int, int] = (1280, 960), seed: int = 0,
                 angle: float | None = None, scale: float | None = None,
                 tilt: float | None = None, blur: float = 0.0, glare: float = 0.0,
                 noise: float = 2.0, jpeg: int | None = 85) -> Scene:
    """Place ``notes`` on a table surface and photograph them.

    Unset ``angle`` (degrees), ``scale`` and ``tilt`` are drawn at random from ``seed``; several
    notes are laid side by side without overlapping.
    """
    rng = random.Random(seed)
    img = make_background(background, size, seed)
    W, H = size
    quads = []
    n = max(1, len(notes))
    for i, note in enumerate(notes):
        a = rng.uniform(0, 360) if angle is None else angle
        nw = note.image.shape[1]
        s = (rng.uniform(0.75, 1.1) if scale is None else scale) * min(1.0, 1.6 / n) * (W * 0.7) / nw
        t = rng.uniform(0.0, 0.25) if tilt is None else tilt
        cx = W * (i + 0.5) / n
        cy = H * 0.5 + rng.uniform(-0.05, 0.05) * H
        quads.append(place_note(img, note.image, (cx, cy), a, s, t))
    img = degrade(img, rng, blur=blur, glare=glare, noise=noise, jpeg=jpeg)
    return Scene(img, [note.serial for note in notes], quads)
