"""Image input shared by every reader and camera source: one check of an image array, one
loader of image files and **one input-size gate** (:func:`check_size`) in front of both, so a
frame, a photo and a crop are accepted (and refused) alike — and an image bomb is refused before
a byte of it is decoded.

The gate (limits :data:`MAX_PIXELS`, :data:`MAX_SIDE`, :data:`MAX_ASPECT`,
:data:`MAX_DECODED_BYTES`, :data:`MAX_FILE_BYTES`) sees a file's size from its header (Pillow's
lazy ``Image.open`` reads the header only; a PNG's bit depth from its IHDR) before OpenCV decodes
it, and an array's shape before anything converts it. Every path in goes through it:
``scan-note``, ``scan-card``, ``deck learn`` (:func:`load_image`), the ``folder:`` and ``image:``
camera sources (:func:`load_image`), and every frame from a camera or pushed in from outside
(:func:`to_bgr`). Rationale and figures: docs/architecture.md "Input sizes", ``bench/images.py``.
"""

from __future__ import annotations

import io
import threading
from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError
from companion.i18n import DecimalNumber, M, Message, N_, decimal, render

MAX_PIXELS = 50_331_648
"""The most pixels taken: 8192×6144, a 48-megapixel phone photo (a Pi HQ camera gives 12.3 MP)."""

MAX_SIDE = 16384
"""The longest side taken, in px."""

MAX_ASPECT = 20
"""The longest side at most this many times the shortest: a photo is about 1:1.5, a serial strip
crop 1:3–1:12; a 1×20000 "strip" is no image of a note (the bomb of issue #20)."""

MAX_DECODED_BYTES = 256 * 2**20
"""The most bytes the decoded image may take as the file stores it (width × height × channels ×
bytes per sample): 50 MP of 8-bit RGB is 150 MB, 16-bit RGBA of the same size is refused."""

MAX_FILE_BYTES = 128 * 2**20
"""The largest image file read."""

#: The gate's refusals by code: ``{code: message id}`` (:mod:`companion.i18n`), with the facts
#: (``w``, ``h``, ``mp``, ``limit``, ``mb``, ``depth``, ``channels``).
SIZE_REASONS: dict[str, str] = {
    "too_many_pixels": N_("the image is too large: %(w)s×%(h)s px (%(mp)s MP); at most %(limit)s MP"),
    "too_long_side": N_("the image is too large: %(w)s×%(h)s px; a side of at most %(limit)s px"),
    "too_thin": N_("the image is too long and thin for a photo or a serial strip: %(w)s×%(h)s px; "
                   "the long side at most %(limit)s times the short one"),
    "too_many_bytes": N_("the image would take %(mb)s MB decoded (%(w)s×%(h)s px, %(channels)s channel(s) of "
                         "%(depth)s bits); at most %(limit)s MB"),
    "file_too_big": N_("the file is %(mb)s MB; an image file of at most %(limit)s MB is read"),
    "empty_image": N_("the image is empty: %(w)s×%(h)s px"),
    "too_small": N_("image too small: %(w)s×%(h)s px"),
}


def _words(exc: Exception, reason: Message, what: str | None) -> Exception:
    """Give ``exc`` its words (set, not passed: ``error`` may be any exception class): ``reason``
    the English words without the name, ``reason_message`` them as a message, ``message`` the
    whole (:meth:`companion.errors.CompanionError.words`)."""
    exc.reason, exc.reason_message = render(reason, "en"), reason
    exc.message = M("%(what)s: %(reason)s", what=what, reason=reason) if what else reason
    return exc


def _refuse(code: str, error: type[Exception], what: str | None, **facts) -> Exception:
    reason = M(SIZE_REASONS[code], **facts)
    en = render(reason, "en")
    exc = _words(error(f"{what}: {en}" if what else en), reason, what)
    # (the facts kept JSON-safe: a decimal as its number)
    exc.code, exc.facts = code, {k: v.value if isinstance(v, DecimalNumber) else v for k, v in facts.items()}
    return exc


def check_size(width: int, height: int, channels: int = 3, bytes_per_sample: int = 1, *,
               what: str | None = None, error: type[Exception] = VisionError) -> None:
    """The one input-size gate: refuse an image before it is decoded or converted.

    Args:
        width, height: in px (from a file's header or an array's shape).
        channels, bytes_per_sample: as the file or array holds them (for the decoded size).
        what: how the message names the image (a path, ``"frame"``); ``None``: not named.
        error: the exception class to raise (a camera source raises ``CameraError``).

    Raises:
        VisionError (or ``error``): more than :data:`MAX_PIXELS` pixels, a side over
            :data:`MAX_SIDE`, an aspect over :data:`MAX_ASPECT`, over :data:`MAX_DECODED_BYTES`
            decoded, or no pixel at all. The exception's ``code`` and ``facts`` say which and
            by how much, ``reason`` / ``reason_message`` the words without the name.
    """
    w, h = int(width), int(height)
    if w <= 0 or h <= 0:
        raise _refuse("empty_image", error, what, w=w, h=h)
    if w * h > MAX_PIXELS:
        raise _refuse("too_many_pixels", error, what, w=w, h=h, mp=decimal(w * h / 1e6),
                      limit=f"{MAX_PIXELS / 1e6:.0f}")
    if max(w, h) > MAX_ASPECT * min(w, h):
        raise _refuse("too_thin", error, what, w=w, h=h, limit=MAX_ASPECT)
    if max(w, h) > MAX_SIDE:
        raise _refuse("too_long_side", error, what, w=w, h=h, limit=MAX_SIDE)
    decoded = w * h * max(1, int(channels)) * max(1, int(bytes_per_sample))
    if decoded > MAX_DECODED_BYTES:
        raise _refuse("too_many_bytes", error, what, w=w, h=h, mb=f"{decoded / 2**20:.0f}",
                      channels=int(channels), depth=8 * int(bytes_per_sample),
                      limit=f"{MAX_DECODED_BYTES / 2**20:.0f}")


def check_min_side(image: np.ndarray, least: int, *, what: str | None = None,
                   error: type[Exception] = VisionError) -> None:
    """The one "too small to read" refusal every reader shares (``scan-card``'s and
    ``scan-note``'s alike): ``image`` (an array past :func:`to_bgr`) with a short side under
    ``least`` px is refused, code ``too_small`` with facts ``w``, ``h`` («снимок слишком мал:
    1×1 пикс.»), rather than read as "no decision".

    Raises:
        VisionError (or ``error``): the short side is under ``least`` px.
    """
    h, w = image.shape[:2]
    if min(h, w) < least:
        raise _refuse("too_small", error, what, w=int(w), h=int(h))


_PIL_LOCK = threading.Lock()


def _header(data: bytes) -> tuple[int, int, int, int] | None:
    """``(width, height, channels, bytes per sample)`` from an encoded image's header, without
    decoding it (Pillow's lazy open); ``None`` when no format is recognised."""
    from PIL import Image

    try:
        with _PIL_LOCK:
            # Pillow's own bomb check refuses without saying the size; this gate says it
            limit, Image.MAX_IMAGE_PIXELS = Image.MAX_IMAGE_PIXELS, None
            try:
                im = Image.open(io.BytesIO(data))
            finally:
                Image.MAX_IMAGE_PIXELS = limit
        with im:
            w, h = im.size
            channels = len(im.getbands())
            depth = 4 if im.mode in ("I", "F") else 2 if im.mode.startswith("I;16") else 1
            if im.format == "PNG" and data[12:16] == b"IHDR" and data[24] == 16:
                depth = 2  # Pillow opens 48/64-bit PNGs as 8-bit modes; OpenCV decodes them at 16
            elif im.format == "TIFF":
                bits = im.tag_v2.get(258)
                bits = max(bits) if isinstance(bits, tuple) and bits else bits
                if isinstance(bits, int) and bits > 8:
                    depth = (bits + 7) // 8
                spp = im.tag_v2.get(277)
                channels = max(channels, spp) if isinstance(spp, int) else channels
            return w, h, channels, depth
    except Exception:  # noqa: BLE001 - any header Pillow cannot make sense of: not an image we read
        return None

try:  # OpenCV's own log lines ("[ERROR:0@0.03] … readHeader …") would repeat, badly, what the
    # readers say in words; errors reach the user as VisionError / CameraError messages
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
except AttributeError:  # pragma: no cover - an OpenCV build without the logging module
    pass


def to_bgr(image, what: str = "image", error: type[Exception] = VisionError) -> np.ndarray:
    """``image`` as H×W×3 BGR uint8: grey (H×W) is expanded, BGRA (H×W×4) loses its alpha, an
    H×W×3 array is returned as it is. The size gate (:func:`check_size`) sees its shape first.

    Args:
        what: how the messages name the array (``"frame"``, ``"/dev/video0: frame"`` …).
        error: the exception class to raise (a camera source raises ``CameraError``).

    Raises:
        VisionError (or ``error``): not a numpy array, empty, not uint8, another shape, or
            refused by the size gate.
    """
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise error(f"{what} is empty or not an image array")
    if image.dtype != np.uint8:
        raise error(f"{what} dtype must be uint8, got {image.dtype}")
    if image.ndim in (2, 3):  # the size gate, before any conversion or copy
        check_size(image.shape[1], image.shape[0], image.shape[2] if image.ndim == 3 else 1, 1,
                   what=what, error=error)
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.ndim == 3 and image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.ndim != 3 or image.shape[2] != 3:
        raise error(f"{what} must be H×W×3 BGR, got shape {image.shape}")
    return image


#: File name suffixes read as images (any letter case): folders of photos, camera folders, decks.
IMAGE_SUFFIXES = (".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp")


def image_files(folder: str | Path) -> list[Path]:
    """The image files directly in ``folder`` (:data:`IMAGE_SUFFIXES`, any letter case), sorted
    by name, not recursive."""
    return sorted((p for p in Path(folder).iterdir() if p.is_file() and p.suffix.lower() in IMAGE_SUFFIXES),
                  key=lambda p: p.name)


#: :func:`load_image`'s reasons (message ids; the error's words,
#: :meth:`companion.errors.CompanionError.words`).
LOAD_REASONS = (N_("no such file"), N_("not an image file (a folder or a device)"),
                N_("not a readable image (corrupt or unknown format)"))


def load_image(path: str | Path, error: type[Exception] = VisionError) -> np.ndarray:
    """Read an image file as H×W×3 BGR uint8 (a format Pillow recognises and OpenCV decodes;
    the bytes are read by numpy, so a path in any script works on every platform). The file's
    size and its header's image size pass the size gate (:func:`check_size`) before OpenCV
    decodes anything.

    Raises:
        VisionError (or ``error``): ``"PATH: no such file"``, ``"PATH: not an image file (a folder
            or a device)"``, ``"PATH: not a readable image (corrupt or unknown format)"`` or a
            size gate refusal; the exception's ``reason`` attribute holds the words without the
            path (:data:`LOAD_REASONS`, :data:`SIZE_REASONS`), ``reason_message`` them as a
            message, ``message`` the whole message.
    """
    p = Path(path)
    if not p.is_file():
        reason = "no such file" if not p.exists() else "not an image file (a folder or a device)"
    else:
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise _refuse("file_too_big", error, str(p), mb=f"{size / 2**20:.0f}", limit=f"{MAX_FILE_BYTES / 2**20:.0f}")
        data = np.fromfile(str(p), dtype=np.uint8)
        head = _header(data.tobytes()) if data.size else None
        if head is not None:
            check_size(*head, what=str(p), error=error)
            img = cv2.imdecode(data, cv2.IMREAD_COLOR)
            if img is not None:
                return img
        reason = "not a readable image (corrupt or unknown format)"
    raise _words(error(f"{p}: {reason}"), M(reason), str(p))
