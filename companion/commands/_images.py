"""Image arguments of ``companion scan-note`` and ``companion scan-card``.

A file argument is read as given. A folder argument stands for the images directly inside it
(``.jpg .jpeg .png .bmp .tif .tiff .webp``, any letter case, sorted by name, not recursive) — what a
user pointing the command at a folder of photos expects. A folder with no image in it is reported
like a missing file: one error line, and the other arguments are still read.
"""

from __future__ import annotations

from pathlib import Path

from companion.errors import VisionError
from companion.vision.images import IMAGE_SUFFIXES, image_files

#: The ``"error"`` code of a JSON line for an image that could not be read (both commands).
UNREADABLE = "unreadable_file"


def read_image(path: str):
    """The image file ``path`` as H×W×3 BGR uint8 (:func:`companion.vision.images.load_image`,
    which also reads paths with non-ASCII names).

    Raises:
        VisionError: ``"no such file"`` or ``"not a readable image (corrupt or unknown format)"``,
            without the path (the commands print the path once, before the reason).
    """
    from companion.vision.images import load_image

    try:
        return load_image(path)
    except VisionError as exc:
        raise VisionError(getattr(exc, "reason", str(exc))) from None


def expand(arguments: list[str]) -> list[tuple[str, str | None]]:
    """``[(image name, None), ...]`` for the images to read, in order; an argument that gives no
    image becomes ``(argument, reason)`` with the reason to print (``"no such file"`` for a path that
    does not exist, ``"no images in the folder (...)"`` for a folder without images)."""
    out: list[tuple[str, str | None]] = []
    for arg in arguments:
        p = Path(arg)
        if p.is_dir():
            files = image_files(p)
            if not files:
                out.append((arg, f"no images in the folder ({' '.join(IMAGE_SUFFIXES)})"))
            out += [(str(f), None) for f in files]
        else:
            out.append((arg, None))
    return out
