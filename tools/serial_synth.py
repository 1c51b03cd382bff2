"""Synthetic serial strips and strip augmentation for ``tools/train_serials.py`` (training only).

The real training crops (``shared/data/train/serials``: EUR, KRW, JPY sorter scans) lack what a
table also shows: Bank of Russia serials (Cyrillic letters, the lower-case second letter, the red
print, the vertical copy whose glyphs grow from 0.7 to 1.3 × height), US dollars, Indian rupees,
and photos rather than sorter scans. :func:`synth_strip` draws such strips from the fonts
installed on the training machine (:func:`training_fonts`) on procedural guilloche;
:func:`augment` degrades any strip (real or synthetic) the way a camera, a conversion or a
compression does.

The fonts deliberately exclude the families the project's renderer prints serials with
(``companion/vision/render_notes.py``: DejaVu Sans Mono, Liberation Mono), so the rendered
photos of ``bench/notes.py`` and the tests show the recogniser fonts it never saw.

All images are H×W grey uint8; every random choice comes from the ``random.Random`` passed in.
"""

from __future__ import annotations

import io
import math
import random
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from companion.vision import serials as S

#: Font folders searched, and the families left out (the renderer's serial fonts).
FONT_DIRS = ("/usr/share/fonts/truetype", "/usr/share/fonts/opentype")
EXCLUDED_FAMILIES = ("DejaVuSansMono", "LiberationMono")
RUB_LETTERS = "АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯ"
LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def _has_glyphs(f: ImageFont.FreeTypeFont, chars: str) -> bool:
    """Whether the font draws each of ``chars`` as something other than its missing-glyph box."""
    try:
        def ink(c):
            m = f.getmask(c)
            return bytes(m), m.size
        missing = ink("\U0010fffd")
        return all(ink(c) != missing and f.getbbox(c)[2] > 0 for c in chars)
    except (OSError, ValueError):
        return False


@lru_cache(maxsize=1)
def training_fonts() -> dict[str, list[str]]:
    """Font files usable for serials: ``{"latin": [...], "cyrillic": [...]}`` (upright faces,
    no italic or oblique, none of :data:`EXCLUDED_FAMILIES`)."""
    latin, cyr = [], []
    for d in FONT_DIRS:
        for p in sorted(Path(d).rglob("*")):
            if p.suffix.lower() not in (".ttf", ".otf"):
                continue
            name = p.name
            if any(x in name for x in EXCLUDED_FAMILIES) or any(
                    x in name.lower() for x in ("italic", "oblique", "ita.", "symbol", "dingbat",
                                                "math", "bdit", "z003", "d050000", "56f.", "76f.")):
                continue
            try:
                f = ImageFont.truetype(str(p), 32)
            except OSError:
                continue
            if not _has_glyphs(f, "0123456789" + LATIN):
                continue
            latin.append(str(p))
            if _has_glyphs(f, RUB_LETTERS + RUB_LETTERS.lower()):
                cyr.append(str(p))
    return {"latin": latin, "cyrillic": cyr}


def random_serial(currency: str, rng: random.Random) -> str:
    """A canonical serial of ``currency``'s real format (EUR with its check digit; JPY without
    I and O, one or two leading letters; USD with a district letter A–L and sometimes a star)."""
    d = lambda n: "".join(rng.choice(S.DIGITS) for _ in range(n))
    L = lambda: rng.choice(LATIN)
    if currency == "RUB":
        return rng.choice(RUB_LETTERS) + rng.choice(RUB_LETTERS) + d(7)
    if currency == "EUR":
        head = (L() + L() + d(9)) if rng.random() < 0.75 else (L() + d(10))
        return head + S.last_characters("EUR", head)[0]
    if currency == "USD":
        suffix = "*" if rng.random() < 0.08 else rng.choice(LATIN.replace("O", ""))
        pre = rng.choice("ABCDEFGHIJKL") if rng.random() < 0.6 else L() + rng.choice("ABCDEFGHIJKL")
        return pre + d(8) + suffix
    if currency == "INR":
        second = rng.choice(LATIN) if rng.random() < 0.6 else rng.choice(S.DIGITS)
        return rng.choice("123456789") + second + L() + d(6)
    if currency == "KRW":
        return L() + L() + d(7) + L()
    if currency == "JPY":
        J = LATIN.replace("I", "").replace("O", "")
        pre = rng.choice(J) if rng.random() < 0.35 else rng.choice(J) + rng.choice(J)
        return pre + d(6) + rng.choice(J)
    raise ValueError(currency)


def printed_form(serial: str, currency: str, rng: random.Random) -> str:
    """How a serial is printed: RUB second letter lower case (mostly) and a gap before the
    digits; INR a gap after the prefix; others mostly as one run."""
    if currency == "RUB":
        second = serial[1].lower() if rng.random() < 0.75 else serial[1]
        return serial[0] + second + (" " if rng.random() < 0.85 else "") + serial[2:]
    if currency == "INR" and rng.random() < 0.8:
        return serial[:3] + " " + serial[3:]
    if currency == "KRW" and rng.random() < 0.3:
        return serial[:2] + " " + serial[2:]
    if currency == "USD" and rng.random() < 0.6:  # Federal Reserve notes: "F 51573816 F"
        k = len(serial) - 9
        return serial[:k] + " " + serial[k:-1] + " " + serial[-1]
    return serial


@lru_cache(maxsize=256)
def _font(path: str, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size)


def _glyph(ch: str, f: ImageFont.FreeTypeFont) -> np.ndarray:
    box = f.getbbox(ch)
    gw, gh = max(1, box[2] - box[0] + 2), max(1, box[3] - box[1] + 2)
    im = Image.new("L", (gw, gh), 0)
    ImageDraw.Draw(im).text((-box[0] + 1, -box[1] + 1), ch, font=f, fill=255)
    return np.array(im)


def text_mask(text: str, font_path: str, px: int, rng: random.Random,
              grow: bool = False) -> np.ndarray:
    """Ink mask (H×W uint8, 255 = ink) of ``text``: glyphs bottom-aligned with jittered gaps;
    ``grow`` scales glyph heights from 0.7 to 1.3 (the vertical RUB copy)."""
    f = _font(font_path, px)
    n = len(text)
    gap = rng.uniform(0.02, 0.16) * px
    glyphs = []
    for i, ch in enumerate(text):
        if ch == " ":
            glyphs.append(np.zeros((2, max(1, int(px * rng.uniform(0.2, 0.6)))), np.uint8))
            continue
        g = _glyph(ch, f)
        if grow:
            k = 0.7 + 0.6 * i / max(1, n - 1)
            g = cv2.resize(g, (g.shape[1], max(2, int(g.shape[0] * k))), interpolation=cv2.INTER_LINEAR)
        glyphs.append(g)
    H = max(g.shape[0] for g in glyphs) + 2
    W = int(sum(g.shape[1] for g in glyphs) + gap * (n - 1)) + 4
    out = np.zeros((H, W), np.uint8)
    x = 2.0
    base = H - 1
    for g in glyphs:
        gh, gw = g.shape
        y0 = base - gh + (rng.randint(-1, 1) if rng.random() < 0.2 else 0)
        y0 = max(0, min(H - gh, y0))
        xi = int(x)
        out[y0:y0 + gh, xi:xi + gw] = np.maximum(out[y0:y0 + gh, xi:xi + gw], g[:, :W - xi])
        x += gw + gap * rng.uniform(0.7, 1.3)
    return out


def guilloche(h: int, w: int, rng: random.Random) -> np.ndarray:
    """A paper background with guilloche-like line patterns and shading (H×W float32 0..255)."""
    base = rng.uniform(150, 245)
    img = np.full((h, w), base, np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    # shading and a soft wave
    img += rng.uniform(-25, 25) * (xx / max(1, w) - 0.5) + rng.uniform(-15, 15) * (yy / max(1, h) - 0.5)
    for _ in range(rng.randint(0, 3)):
        f1, f2, ph = rng.uniform(0.02, 0.2), rng.uniform(0.02, 0.3), rng.uniform(0, 6.3)
        img -= rng.uniform(5, 30) * (0.5 + 0.5 * np.sin(xx * f1 + np.sin(yy * f2) * rng.uniform(1, 4) + ph))
    # fine line patterns (the printed guilloche)
    canvas = np.zeros((h, w), np.uint8)
    for _ in range(rng.randint(0, 14)):
        amp, per, ph = rng.uniform(1, h * 0.6), rng.uniform(6, 80), rng.uniform(0, 6.3)
        y0 = rng.uniform(-0.2, 1.2) * h
        pts = np.array([[x, y0 + amp * math.sin(x / per * 6.28 + ph)] for x in range(0, w + 4, 3)], np.int32)
        cv2.polylines(canvas, [pts], False, 255, 1, cv2.LINE_AA)
    for _ in range(rng.randint(0, 6)):
        c = (rng.uniform(0, w), rng.uniform(-h, 2 * h))
        cv2.circle(canvas, (int(c[0]), int(c[1])), int(rng.uniform(h * 0.3, 3 * h)), 255, 1, cv2.LINE_AA)
    img -= canvas.astype(np.float32) / 255.0 * rng.uniform(10, 80)
    return img


def synth_strip(rng: random.Random, currency: str | None = None) -> tuple[np.ndarray, str, str]:
    """One synthetic serial strip: ``(grey image, canonical serial, currency)``."""
    currency = currency or rng.choices(S.CURRENCIES, weights=(40, 10, 18, 14, 9, 9))[0]
    serial = random_serial(currency, rng)
    fonts = training_fonts()
    pool = fonts["cyrillic"] if currency == "RUB" else fonts["latin"]
    font_path = rng.choice(pool)
    px = rng.randint(26, 44)
    text = printed_form(serial, currency, rng)
    grow = currency == "RUB" and rng.random() < 0.35
    mask = text_mask(text, font_path, px, rng, grow=grow)
    if grow and rng.random() < 0.5:
        mask = _even(mask)
    if rng.random() < 0.3:  # bold / thin print
        k = np.ones((2, 2), np.uint8)
        mask = cv2.dilate(mask, k) if rng.random() < 0.6 else cv2.erode(mask, k)
    mh, mw = mask.shape
    top, bot = int(mh * rng.uniform(0.08, 0.5)), int(mh * rng.uniform(0.08, 0.5))
    left, right = int(mh * rng.uniform(0.05, 0.45)), int(mh * rng.uniform(0.05, 0.45))
    H, W = mh + top + bot, mw + left + right
    paper = guilloche(H, W, rng)
    ink = np.zeros((H, W), np.float32)
    ink[top:top + mh, left:left + mw] = mask.astype(np.float32) / 255.0
    # stray marks at the edges: a neighbour's glyph cut by the crop, a border line
    if rng.random() < 0.3:
        g = _glyph(rng.choice(LATIN + "0123456789"), _font(font_path, px)).astype(np.float32) / 255
        gh, gw = g.shape
        cut = rng.randint(2, max(3, gw // 2))
        y0 = max(0, min(H - gh, top + rng.randint(-3, 3)))
        gh = min(gh, H - y0)
        if rng.random() < 0.5:
            ink[y0:y0 + gh, :cut] = np.maximum(ink[y0:y0 + gh, :cut], g[:gh, gw - cut:])
        else:
            ink[y0:y0 + gh, W - cut:] = np.maximum(ink[y0:y0 + gh, W - cut:], g[:gh, :cut])
    if rng.random() < 0.15:
        y = rng.choice((rng.randint(0, max(0, top - 1)), rng.randint(min(H - 1, top + mh), H - 1)))
        y1 = y + rng.randint(1, 3)
        ink[y:y1, :] = np.maximum(ink[y:y1, :], 0.8)
    ink = cv2.GaussianBlur(ink, (0, 0), rng.uniform(0.3, 0.9))
    level = rng.uniform(0, 90) if currency != "RUB" or rng.random() < 0.5 else rng.uniform(60, 120)
    img = paper * (1 - ink) + level * ink
    if rng.random() < 0.06:
        img = 255 - img  # light print on dark
    return np.clip(img, 0, 255).astype(np.uint8), serial, currency


def _even(mask: np.ndarray) -> np.ndarray:
    """The runtime's glyph-height evening on an ink mask (the reader evens vertical RUB lines)."""
    from companion.vision.note_lines import even_glyph_heights

    bgr = cv2.cvtColor(255 - mask, cv2.COLOR_GRAY2BGR)
    out = even_glyph_heights(bgr)
    return 255 - cv2.cvtColor(out, cv2.COLOR_BGR2GRAY)


def augment(img: np.ndarray, rng: random.Random, strength: float = 1.0) -> np.ndarray:
    """A degraded copy of a grey strip: margins, condensed or widened (0.55–1.35 × the width),
    small rotation / shear / perspective, lower resolution, blur, light, noise, palette quantisation (GIF), JPEG. ``strength`` 0..1 scales
    how often each happens."""
    p = lambda x: rng.random() < x * strength
    h, w = img.shape
    out = img
    if p(0.5):  # margins: pad with the edge or crop a little (never into the glyphs much)
        t, b = rng.randint(0, h // 4), rng.randint(0, h // 4)
        l, r = rng.randint(0, h // 2), rng.randint(0, h // 2)
        out = cv2.copyMakeBorder(out, t, b, l, r, cv2.BORDER_REPLICATE)
    if p(0.35):  # condensed or widened print (and photos resized to another aspect ratio)
        hh, ww = out.shape
        k = math.exp(rng.uniform(math.log(0.55), math.log(1.35)))
        out = cv2.resize(out, (max(8, int(round(ww * k))), hh),
                         interpolation=cv2.INTER_AREA if k < 1 else cv2.INTER_LINEAR)
    if p(0.3):
        hh, ww = out.shape
        c = [rng.randint(0, max(0, hh // 10)), rng.randint(0, max(0, hh // 10)),
             rng.randint(0, 2), rng.randint(0, 2)]
        out = out[c[0]:hh - c[1], c[2]:ww - c[3]]
    if p(0.5):  # geometry
        hh, ww = out.shape
        a = math.radians(rng.uniform(-2.5, 2.5))
        sh = rng.uniform(-0.2, 0.2)
        src = np.float32([[0, 0], [ww, 0], [ww, hh], [0, hh]])
        j = lambda s: rng.uniform(-s, s)
        dst = src + np.float32([[j(0.04 * ww), j(0.08 * hh)] for _ in range(4)])
        dst[:, 0] += sh * (dst[:, 1] - hh / 2)
        cx, cy = ww / 2, hh / 2
        R = np.float32([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        dst = (dst - [cx, cy]) @ R.T + [cx, cy]
        M = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        out = cv2.warpPerspective(out, M, (ww, hh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    if p(0.35):  # lower resolution
        hh, ww = out.shape
        k = rng.uniform(0.35, 0.8)
        small = cv2.resize(out, (max(4, int(ww * k)), max(4, int(hh * k))), interpolation=cv2.INTER_AREA)
        out = cv2.resize(small, (ww, hh), interpolation=rng.choice((cv2.INTER_LINEAR, cv2.INTER_CUBIC)))
    if p(0.35):
        out = cv2.GaussianBlur(out, (0, 0), rng.uniform(0.4, 1.4))
    if p(0.08):  # motion blur
        k = rng.randint(3, 5)
        ker = np.zeros((k, k), np.float32)
        ker[k // 2, :] = 1.0 / k
        out = cv2.filter2D(out, -1, ker)
    f = out.astype(np.float32)
    if p(0.5):  # light: contrast, brightness, gamma, a gradient
        f = (f - 128) * rng.uniform(0.45, 1.3) + 128 + rng.uniform(-50, 50)
        hh, ww = f.shape
        f += rng.uniform(-40, 40) * (np.arange(ww, dtype=np.float32)[None, :] / ww - 0.5)
        f = 255 * (np.clip(f, 0, 255) / 255) ** rng.uniform(0.6, 1.6)
    if p(0.4):
        f += np.random.default_rng(rng.randrange(2**32)).normal(0, rng.uniform(2, 14), f.shape)
    out = np.clip(f, 0, 255).astype(np.uint8)
    if p(0.12):  # a palette: a 256-colour GIF, or far fewer grey levels, dithered or not
        n = rng.choice((4, 8, 16, 32, 64))
        dither = Image.Dither.FLOYDSTEINBERG if rng.random() < 0.6 else Image.Dither.NONE
        pim = Image.fromarray(out).convert("RGB").quantize(colors=n, dither=dither)
        out = np.array(pim.convert("L"))
    if p(0.45):
        q = rng.randint(12, 95)
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, q])
        out = cv2.imdecode(buf, cv2.IMREAD_GRAYSCALE)
    if p(0.03):
        out = 255 - out
    return out


def gif_copy(bgr: np.ndarray) -> np.ndarray:
    """``bgr`` (H×W×3 uint8) saved as a 256-colour GIF (PIL's adaptive palette, dithered) and
    read back as BGR: the conversion of issue 20's confident misread."""
    buf = io.BytesIO()
    Image.fromarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB)).save(buf, format="GIF")
    buf.seek(0)
    return cv2.cvtColor(np.array(Image.open(buf).convert("RGB")), cv2.COLOR_RGB2BGR)


def converted_copies(img: np.ndarray) -> dict[str, np.ndarray]:
    """``img`` (H×W×3 BGR uint8) as the converted copies of issue 20 — 256-colour GIF, 16-bit
    PNG, grey PNG, JPEG quality 8 — each written to its format's bytes and decoded again (BGR)."""
    out = {"gif256": gif_copy(img)}
    ok, buf = cv2.imencode(".png", img.astype(np.uint16) * 257)
    out["png16"] = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".png", cv2.cvtColor(img, cv2.COLOR_BGR2GRAY))
    out["grey"] = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 8])
    out["jpeg8"] = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out
