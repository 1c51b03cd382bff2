"""Image arguments of ``companion scan-note`` and ``companion scan-card``.

A file argument is read as given. A folder argument stands for the images directly inside it
(``.jpg .jpeg .png .bmp .tif .tiff .webp``, any letter case, sorted by name, not recursive) — what a
user pointing the command at a folder of photos expects. A folder with no image in it is reported
like a missing file: one error line, and the other arguments are still read.
"""

from __future__ import annotations

from pathlib import Path

from companion.errors import VisionError
from companion.vision.images import IMAGE_SUFFIXES, LOAD_REASONS_RU, image_files

#: The ``"error"`` code of a JSON line for an image that could not be read (both commands).
UNREADABLE = "unreadable_file"

#: Why an argument gave no image (:func:`read_image`, :func:`expand`; the English words stay in
#: the JSON's ``reason``) in Russian, for the text lines of ``--lang ru``.
PROBLEMS_RU = {**LOAD_REASONS_RU, "no images in the folder": "в папке нет снимков"}


def problem_words(problem: str, lang: str = "ru") -> str:
    """A file problem (:data:`PROBLEMS_RU`'s English words, a :class:`VisionError`'s message) in
    ``lang``; a problem without Russian words (a reader's own error) as it is."""
    if lang != "ru":
        return problem
    head, sep, tail = problem.partition(" (")
    if problem not in PROBLEMS_RU and head in PROBLEMS_RU:  # "no images in the folder (.jpg …)"
        return PROBLEMS_RU[head] + sep + tail
    return PROBLEMS_RU.get(problem, problem)


def error_line(path: str, exc: Exception | str, lang: str = "ru") -> str:
    """The stderr line for an argument that gave no image: ``IMAGE: error: REASON`` /
    ``IMAGE: ошибка: ПРИЧИНА`` (an error's own Russian words when its raiser gave them,
    :meth:`companion.errors.CompanionError.words`)."""
    words = getattr(exc, "words", None)
    if lang == "ru" and callable(words) and getattr(exc, "ru", None):
        text = words(lang)
    else:
        text = problem_words(str(exc), lang)
    return f"{path}: {'ошибка' if lang == 'ru' else 'error'}: {text}"


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
        plain = VisionError(getattr(exc, "reason", str(exc)), ru=getattr(exc, "reason_ru", None))
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
