"""Image arguments of ``companion scan-note`` and ``companion scan-card``.

A file argument is read as given. A folder argument stands for the images directly inside it
(``.jpg .jpeg .png .bmp .tif .tiff .webp``, any letter case, sorted by name, not recursive) — what a
user pointing the command at a folder of photos expects. A folder with no image in it is reported
like a missing file: one error line, and the other arguments are still read.
"""

from __future__ import annotations

from pathlib import Path

from companion.errors import VisionError
from companion.i18n import M, N_, render
from companion.vision.images import IMAGE_SUFFIXES, LOAD_REASONS, image_files

#: The ``"error"`` code of a JSON line for an image that could not be read (both commands).
UNREADABLE = "unreadable_file"

#: Why an argument gave no image (:func:`read_image`, :func:`expand`; the English words stay in
#: the JSON's ``reason``), message ids for the text lines.
PROBLEMS = (*LOAD_REASONS, N_("no images in the folder"))


def problem_words(problem: str, lang: str = "ru") -> str:
    """A file problem (one of :data:`PROBLEMS`, a :class:`VisionError`'s message) in ``lang``; a
    problem without words in the catalogue (a reader's own error) as it is."""
    head, sep, tail = problem.partition(" (")
    if problem not in PROBLEMS and head in PROBLEMS:  # "no images in the folder (.jpg …)"
        return render(M(head), lang) + sep + tail
    return render(M(problem), lang) if problem in PROBLEMS else problem


def error_line(path: str, exc: Exception | str, lang: str = "ru") -> str:
    """The stderr line for an argument that gave no image: ``IMAGE: error: REASON`` /
    ``IMAGE: ошибка: ПРИЧИНА`` (an error's own words when its raiser gave them,
    :meth:`companion.errors.CompanionError.words`)."""
    words = getattr(exc, "words", None)
    if callable(words) and getattr(exc, "message", None) is not None:
        text = words(lang)
    else:
        text = problem_words(str(exc), lang)
    return render(M("%(image)s: error: %(why)s", image=path, why=text), lang)


def read_image(path: str):
    """The image file ``path`` as H×W×3 BGR uint8 (:func:`companion.vision.images.load_image`,
    which also reads paths with non-ASCII names).

    Raises:
        VisionError: ``"no such file"``, ``"not a readable image (corrupt or unknown format)"`` or
            the size gate's refusal (too many pixels, too thin …, in Russian too), without the
            path (the commands print the path once, before the reason).
    """
    from companion.vision.images import load_image

    try:
        return load_image(path)
    except VisionError as exc:
        plain = VisionError(getattr(exc, "reason_message", None) or getattr(exc, "reason", str(exc)))
        plain.code, plain.facts = getattr(exc, "code", None), getattr(exc, "facts", None)
        raise plain from None


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
