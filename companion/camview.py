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
(:data:`MIN_SIDE_PX`), orange when too small — and the items the readers last read (value and
confidence, :func:`offer_items`). Advice (:func:`advice`): focus (variance of the Laplacian),
exposure (mean brightness), glare (share of blown-out pixels), object size.

**A face-down card may be in view**: this module's output is never for a public or seat page
(docs/dashboard.md "Camera set-up view"; tests/dashboard/test_camera_view.py checks it).
"""

from __future__ import annotations

import threading
import time
import weakref
from dataclasses import dataclass

import numpy as np

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


def view(frame: np.ndarray, max_width: int = MAX_WIDTH) -> tuple[bytes, dict]:
    """The set-up view of ``frame``: ``(JPEG bytes, advice dict)`` — the frame downscaled to
    ``max_width`` with the paper boxes (their shorter side in px; green enough, orange too small)
    and the latest reads drawn on it."""
    import cv2

    boxes = paper_boxes(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    facts = advice(frame, boxes)
    scale = min(1.0, max_width / frame.shape[1])
    small = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA) if scale < 1 else frame.copy()
    for q in boxes:
        side = _side(q)
        colour = (60, 200, 60) if side >= MIN_SIDE_PX else (0, 150, 255)
        pts = (q * scale).astype(np.int32)
        cv2.polylines(small, [pts], True, colour, 2)
        x, y = int(pts[:, 0].min()), int(pts[:, 1].min())
        cv2.putText(small, f"{round(side)}px", (x + 2, max(12, y - 4)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, colour, 1,
                    cv2.LINE_AA)
    with _lock:
        items, items_at = _latest.items, _latest.items_at
    if items and time.monotonic() - items_at < 10:
        for it in items:
            x = int(float(getattr(it, "x", 0.0)) * scale)
            value = getattr(it, "value", None)
            text = f"{value} {getattr(it, 'confidence', 0.0):.2f}" if value else "?"
            cv2.line(small, (x, 0), (x, small.shape[0]), (255, 200, 0), 1)
            cv2.putText(small, text, (x + 3, small.shape[0] - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 200, 0), 1,
                        cv2.LINE_AA)
    ok, jpg = cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 75])
    if not ok:
        raise ValueError("could not encode the camera view as JPEG")
    return jpg.tobytes(), facts


def facts(frame: np.ndarray) -> dict:
    """:func:`advice` of ``frame`` with the latest reads (``"reads": [{"value", "confidence"}]``,
    for 10 s after they were made): the figures under the set-up view, without drawing it."""
    out = advice(frame)
    with _lock:
        items, items_at = _latest.items, _latest.items_at
    fresh = items and time.monotonic() - items_at < 10
    out["reads"] = [{"value": getattr(it, "value", None), "confidence": round(float(getattr(it, "confidence", 0.0)), 2)}
                    for it in items] if fresh else []
    return out
