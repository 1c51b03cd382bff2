"""The camera set-up view: the latest camera frame, downscaled, with what the camera sees drawn on
it and set-up advice measured from the frame (issue #23 item 4), for the operator only
(``GET /operator/camera.jpg``, ``GET /api/operator/camera``).

Where frames come from: the table's camera adapter (:class:`companion.parts.CameraAdapter`)
registers itself here (:func:`register`) and offers every frame it reads (:func:`offer`) — the
frames the camera watcher reads for the game. When the latest one is older than :data:`FRESH_S`
and the camera is a live one (Pi camera, OpenCV, a still image), the view reads a frame itself; a
simulated or folder camera is never read here (that would take a frame from the game's reader),
its latest frame is shown.

What is drawn: the paper-shaped things on the table (cards, notes: bright four-sided shapes,
:func:`paper_boxes`) with their size in pixels — green when the readers get enough pixels
(:data:`MIN_SIDE_PX`), orange when too small; the items the readers last read
(:func:`offer_items`) at the boxes the readers give (``Item.box``: the card's region, the
serial's line), with value and confidence, the ones the reader was not sure of (it abstained)
in red «? не уверен»; and the frame's focus, brightness and glare along the top. Advice
(:func:`advice`): focus (variance of the Laplacian), exposure (mean brightness), glare (share of
blown-out pixels), object size.

**A face-down card may be in view**: this module's output is never for a public or seat page
(docs/dashboard.md "Camera set-up view"; tests/dashboard/test_camera_view.py checks it).
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass

import numpy as np

from companion.i18n import M, N_, decimal, fact, render

FRESH_S = 1.0
"""A frame younger than this is shown as it is; an older one is replaced by a fresh read (live cameras)."""

MAX_WIDTH = 640
"""The set-up view's width at most, px (the phone's console; the JPEG stays a few tens of KB)."""

MIN_SIDE_PX = 90
"""A card's or note's shorter side, px in the full frame, below which the readers lose digits
(a serial's glyphs get under ~8 px tall): the set-up view marks such a box «мало»."""

BLUR_MIN = 60.0
"""Variance of the Laplacian (grey, full frame) under which a frame counts as out of focus."""

DARK, BRIGHT = 60.0, 200.0
"""Mean grey level (0-255) outside which a frame is under- or over-exposed."""

GLARE_MAX = 0.02
"""Share of blown-out pixels (grey ≥ 250) above which glare hides ink."""


@dataclass
class _Latest:
    frame: np.ndarray | None = None
    at: float = 0.0
    items: tuple = ()
    items_at: float = 0.0


_lock = threading.Lock()
_latest = _Latest()
_camera: "weakref.ref | None" = None


def register(camera) -> None:
    """The table's camera adapter (it calls this when made): the view may read a live camera."""
    global _camera, _latest
    with _lock:
        _camera = weakref.ref(camera)
        _latest = _Latest()


def offer(frame) -> None:
    """A frame the table's camera just gave (H×W×3 BGR uint8; kept by reference, not copied)."""
    if isinstance(frame, np.ndarray) and frame.ndim == 3 and frame.shape[2] == 3:
        with _lock:
            _latest.frame, _latest.at = frame, time.monotonic()


def offer_items(items) -> None:
    """What a reader read in the latest frame (:class:`companion.observe.Item` s: value,
    confidence, x): drawn on the view until the next reads."""
    with _lock:
        _latest.items, _latest.items_at = tuple(items), time.monotonic()


def tapped(read):
    """``read`` (a :data:`companion.observe.Reader`) that also offers what it read to the
    set-up view (:func:`offer_items`); its attributes (``describe``) are kept."""
    def tap(frame):
        items = read(frame)
        try:
            offer_items(items)
        except Exception:  # the view is a courtesy: the reader's answer goes on
            pass
        return items

    tap.__dict__.update(getattr(read, "__dict__", {}))
    tap.__doc__ = read.__doc__
    return tap


def _live(camera) -> bool:
    """True for a camera whose frames the view may read itself (taking one takes nothing from
    the game's reader): the Pi camera, OpenCV, a still image — never a simulated or folder one."""
    from companion.vision import camera as C

    source = getattr(camera, "source", camera)
    if isinstance(source, C.RetryingSource):
        return source.kind in ("picamera2", "opencv", "image")
    return isinstance(source, (C.PiCamera, C.OpenCVCamera, C.ImageSource))


def latest(now: float | None = None) -> tuple[np.ndarray | None, float | None]:
    """``(frame, age in s)`` of the newest frame, reading a live camera when the newest is
    older than :data:`FRESH_S`; ``(None, None)`` when there is none (no camera, nothing read yet,
    or the camera is missing)."""
    now = time.monotonic() if now is None else now
    with _lock:
        frame, at = _latest.frame, _latest.at
        camera = _camera() if _camera is not None else None
    if (frame is None or now - at > FRESH_S) and camera is not None and _live(camera):
        try:
            fresh = camera.read()  # the adapter offers it too
            offer(fresh)
            frame, at = fresh, time.monotonic()
        except Exception:  # missing, unplugged: the view says so; the table goes on
            pass
    if frame is None:
        return None, None
    return frame, max(0.0, time.monotonic() - at)


def paper_boxes(gray: np.ndarray) -> list[np.ndarray]:
    """Bright four-sided shapes (cards, notes) in a grey frame: ``[4×2 float32 corners]`` in the
    frame's pixels. A set-up aid only (Otsu threshold, outer contours, minimum-area rectangles
    of the larger ones), not a reader."""
    import cv2

    h, w = gray.shape[:2]
    blur = cv2.GaussianBlur(gray, (5, 5), 0)
    _, mask = cv2.threshold(blur, 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    if mask.mean() > 160:  # a bright table: the paper is the darker side
        return []
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    out = []
    for c in contours:
        area = cv2.contourArea(c)
        if area < 0.002 * h * w or area > 0.6 * h * w:
            continue
        rect = cv2.minAreaRect(c)
        (rw, rh) = rect[1]
        if rw * rh <= 0 or area / (rw * rh) < 0.75:  # not four-sided enough
            continue
        out.append(cv2.boxPoints(rect).astype(np.float32))
    return sorted(out, key=lambda q: float(q[:, 0].min()))[:20]


def _side(quad: np.ndarray) -> float:
    d = [float(np.linalg.norm(quad[i] - quad[(i + 1) % 4])) for i in range(4)]
    return min(d)


def advice(frame: np.ndarray, boxes: list[np.ndarray] | None = None) -> dict:
    """Set-up figures of one frame and what to do about them.

    Returns ``{"size": [w, h], "focus": float, "brightness": float, "glare": float, "objects":
    [{"side": px, "ok": bool}], "advice": [code, ...]}`` — codes: ``blurred``, ``dark``,
    ``bright``, ``glare``, ``small`` (an object's shorter side under :data:`MIN_SIDE_PX`),
    ``nothing`` (no card or note in view), or ``good``.
    """
    import cv2

    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    boxes = paper_boxes(gray) if boxes is None else boxes
    focus = float(cv2.Laplacian(gray, cv2.CV_64F).var())
    brightness = float(gray.mean())
    glare = float((gray >= 250).mean())
    objects = [{"side": round(_side(q)), "ok": _side(q) >= MIN_SIDE_PX} for q in boxes]
    codes = []
    if focus < BLUR_MIN:
        codes.append("blurred")
    if brightness < DARK:
        codes.append("dark")
    elif brightness > BRIGHT:
        codes.append("bright")
    if glare > GLARE_MAX:
        codes.append("glare")
    if not objects:
        codes.append("nothing")
    elif not all(o["ok"] for o in objects):
        codes.append("small")
    return {"size": [int(frame.shape[1]), int(frame.shape[0])], "focus": round(focus, 1),
            "brightness": round(brightness, 1), "glare": round(glare, 4), "objects": objects,
            "advice": codes or ["good"], "min_side": MIN_SIDE_PX}


#: The figures line drawn on the view (the console's own words for them, web/static/setup.js)
FIGURES = N_("Focus %(f)s, brightness %(b)s, glare %(g)s")
#: The mark of a read the reader was not sure of (it abstained: nothing is taken from it)
NOT_SURE = N_("not sure")

SURE_BGR, UNSURE_BGR = (255, 200, 0), (60, 60, 235)
"""A read's colour on the view: the reader decided (blue-cyan), it abstained — not sure (red)."""
GOOD_BGR, BAD_BGR = (60, 200, 60), (0, 150, 255)
"""A paper box or figure that is fine (green), one to fix (orange)."""


def fresh_reads() -> tuple:
    """The items the readers gave in the last 10 s (:func:`offer_items`), else ``()``."""
    with _lock:
        items, items_at = _latest.items, _latest.items_at
    return items if items and time.monotonic() - items_at < 10 else ()


def read_label(item, lang: str = "ru") -> str:
    """What the view writes by a read: «7H 0,93» when the reader decided, «? не уверен 0,41»
    when it abstained (its value is never guessed); the confidence with the language's decimal
    sign ("7H 0.93" in English)."""
    conf = fact(decimal(float(getattr(item, "confidence", 0.0) or 0.0), 2), lang)
    value = getattr(item, "value", None)
    if value:
        return f"{value} {conf}"
    return f"? {render(M(NOT_SURE), lang)} {conf}"


def figures_words(facts: dict, lang: str = "ru") -> str:
    """The frame's figures (:func:`advice`'s ``focus``, ``brightness``, ``glare``) as the view
    writes them along its top: «Резкость 412, яркость 128, блики 1,5 %» — the glare's share with
    the language's decimal sign ("glare 1.5 %" in English)."""
    return render(M(FIGURES, f=f"{facts['focus']:.0f}", b=f"{facts['brightness']:.0f}",
                    g=f"{fact(decimal(100 * facts['glare'], 1), lang)} %"), lang)


def view(frame: np.ndarray, max_width: int = MAX_WIDTH, lang: str = "ru") -> tuple[bytes, dict]:
    """The set-up view of ``frame``: ``(JPEG bytes, advice dict)`` — the frame downscaled to
    ``max_width`` with, drawn on it: the paper boxes (their shorter side in px; green enough,
    orange too small); the readers' last reads at their boxes (value and confidence; a read the
    reader abstained on in red, «? не уверен»; a reader that gives no box: a line at its column);
    and the frame's focus, brightness and glare along the top (orange when one is off)."""
    import cv2

    boxes = paper_boxes(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    facts = advice(frame, boxes)
    scale = min(1.0, max_width / frame.shape[1])
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame.copy()
    labels: list[tuple[int, int, str, tuple]] = []  # (x, y, text, BGR): written last, in one pass
    for q in boxes:
        side = _side(q)
        colour = GOOD_BGR if side >= MIN_SIDE_PX else BAD_BGR
        pts = (q * scale).astype(np.int32)
        cv2.polylines(small, [pts], True, colour, 2)
        labels.append((int(pts[:, 0].min()) + 2, int(pts[:, 1].min()) - 18, f"{round(side)}px", colour))
    for it in fresh_reads():
        colour = SURE_BGR if getattr(it, "value", None) else UNSURE_BGR
        box = getattr(it, "box", None)
        if box:
            x, y, w, h = (int(round(v * scale)) for v in box)
            cv2.rectangle(small, (x, y), (x + w, y + h), colour, 2)
            labels.append((x + 3, y + h + 2 if y + h + 20 < small.shape[0] else max(0, y - 18),
                           read_label(it, lang), colour))
        else:
            x = int(float(getattr(it, "x", 0.0)) * scale)
            cv2.line(small, (x, 0), (x, small.shape[0]), colour, 1)
            labels.append((x + 3, small.shape[0] - 22, read_label(it, lang), colour))
    figures = figures_words(facts, lang)
    off = set(facts["advice"]) & {"blurred", "dark", "bright", "glare"}
    cv2.rectangle(small, (0, 0), (small.shape[1], 22), (30, 30, 30), -1)
    labels.append((6, 2, figures, BAD_BGR if off else GOOD_BGR))
    small = _write(small, labels)
    ok, jpg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 75])
    if not ok:
        raise ValueError("could not encode the camera view as JPEG")
    return jpg.tobytes(), facts


def _write(img: np.ndarray, labels) -> np.ndarray:
    """``img`` with each ``(x, y, text, BGR)`` written at its top-left corner on a dark backing,
    in a TrueType font with Cyrillic (OpenCV's own fonts have none); OpenCV's font when no
    TrueType font is installed (Latin letters only)."""
    import cv2

    if not labels:
        return img
    try:
        from PIL import Image, ImageDraw

        from companion.vision.render_notes import font

        face = font(15, index=4)  # DejaVu Sans, bold
    except (ImportError, FileNotFoundError):
        for x, y, text, colour in labels:
            cv2.putText(img, text.encode("ascii", "replace").decode(), (x, y + 14), cv2.FONT_HERSHEY_SIMPLEX, 0.45,
                        colour, 1, cv2.LINE_AA)
        return img
    pil = Image.fromarray(cv2.cvtColor(img, cv2.COLOR_BGR2RGB))
    draw = ImageDraw.Draw(pil)
    for x, y, text, (b, g, r) in labels:
        x, y = max(0, x), max(0, y)
        x0, y0, x1, y1 = draw.textbbox((x, y), text, font=face)
        draw.rectangle((x0 - 2, y0 - 1, x1 + 2, y1 + 1), fill=(20, 20, 20))
        draw.text((x, y), text, font=face, fill=(r, g, b))
    return cv2.cvtColor(np.asarray(pil), cv2.COLOR_RGB2BGR)


def facts(frame: np.ndarray) -> dict:
    """:func:`advice` of ``frame`` with the latest reads (``"reads": [{"value", "confidence"}]``,
    for 10 s after they were made): the figures under the set-up view, without drawing it."""
    out = advice(frame)
    out["reads"] = [read_fact(it) for it in fresh_reads()]
    return out


def read_fact(item) -> dict:
    """One read as :func:`facts` lists it: ``{"value", "confidence", "sure", "reason", "box"}`` —
    ``sure`` False when the reader abstained (``value`` ``None``, ``reason`` its code); ``box``
    ``[x, y, w, h]`` px in the full frame, or ``None`` when the reader gives none."""
    box = getattr(item, "box", None)
    value = getattr(item, "value", None)
    return {"value": value, "confidence": round(float(getattr(item, "confidence", 0.0) or 0.0), 2),
            "sure": value is not None, "reason": getattr(item, "reason", None),
            "box": [int(v) for v in box] if box else None}
