"""Image input shared by every reader and camera source: one check of an image array and one
loader of image files, so a frame, a photo and a crop are accepted (and refused) alike."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from companion.errors import VisionError

try:  # OpenCV's own log lines ("[ERROR:0@0.03] … readHeader …") would repeat, badly, what the
    # readers say in words; errors reach the user as VisionError / CameraError messages
    cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)
except AttributeError:  # pragma: no cover - an OpenCV build without the logging module
    pass


def to_bgr(image, what: str = "image", error: type[Exception] = VisionError) -> np.ndarray:
    """``image`` as H×W×3 BGR uint8: grey (H×W) is expanded, BGRA (H×W×4) loses its alpha, an
    H×W×3 array is returned as it is.

    Args:
        what: how the messages name the array (``"frame"``, ``"/dev/video0: frame"`` …).
        error: the exception class to raise (a camera source raises ``CameraError``).

    Raises:
        VisionError (or ``error``): not a numpy array, empty, not uint8, or another shape.
    """
    if not isinstance(image, np.ndarray) or image.size == 0:
        raise error(f"{what} is empty or not an image array")
    if image.dtype != np.uint8:
        raise error(f"{what} dtype must be uint8, got {image.dtype}")
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


#: :func:`load_image`'s reasons in Russian (the error's ``ru`` words,
#: :meth:`companion.errors.CompanionError.words`).
LOAD_REASONS_RU = {
    "no such file": "нет такого файла",
    "not an image file (a folder or a device)": "это не файл снимка (папка или устройство)",
    "not a readable image (corrupt or unknown format)": "снимок не читается (файл повреждён или формат неизвестен)",
}


def load_image(path: str | Path, error: type[Exception] = VisionError) -> np.ndarray:
    """Read an image file as H×W×3 BGR uint8 (any format OpenCV decodes; the bytes are read by
    numpy, so a path in any script works on every platform).

    Raises:
        VisionError (or ``error``): ``"PATH: no such file"``, ``"PATH: not an image file (a folder
            or a device)"`` or ``"PATH: not a readable image (corrupt or unknown format)"``; the
            exception's ``reason`` attribute holds the words without the path, its ``ru`` the
            message in Russian (:data:`LOAD_REASONS_RU`).
    """
    p = Path(path)
    if not p.is_file():
        reason = "no such file" if not p.exists() else "not an image file (a folder or a device)"
    else:
        data = np.fromfile(str(p), dtype=np.uint8)
        img = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
        if img is not None:
            return img
        reason = "not a readable image (corrupt or unknown format)"
    exc = error(f"{p}: {reason}")
    exc.reason = reason
    exc.ru = f"{p}: {LOAD_REASONS_RU[reason]}"  # set, not passed: ``error`` may be any exception class
    raise exc
