"""The table's hardware status in words, Russian and English: the status chips of the dashboard
pages and the lines of the ``companion run`` console say the same.

A part's status is the dict :meth:`companion.table.Table.set_status` holds: ``{"state": "ok" |
"sim" | "warn" | "error" | "absent" | "unused", "detail": str?, "error": str?, "why": str?, "said": Message?}``.

* ``absent``: the part is part of this table but has not answered (the button box is not
  connected yet) — a fault to look at;
* ``unused``: the table runs without the part on purpose (``companion dashboard``: no button box,
  no camera; observations are entered by hand) — nothing is wrong;
* ``why``: an optional code for a fixed detail sentence (:data:`WHY`);
* ``said``: the detail in words, a :class:`~companion.i18n.Message` the part gives when its
  ``detail`` is not one of the forms this module words (the voice: «голос выключен»); never in
  the JSON a page gets (:func:`public`);
* ``missing``: the camera is not connected and is being looked for (the table goes on by hand).

The English ``detail`` stays as it is for logs; :func:`words` gives what a person reads.
"""

from __future__ import annotations

import re

from companion.i18n import LANGUAGES, M, MP, Message, N_, NC_, fact, render

LANGS = LANGUAGES

#: Part names (message ids; the dashboard's words for the chips are the same).
PARTS: dict[str, str] = {
    "buttons": N_("Button box"),
    "camera": N_("Camera"),
    "ocr": N_("OCR"),
    "lights": N_("Lights"),
    "club": N_("Club"),
    "voice": N_("Voice"),
}

#: State words: ``{state: {part or "*": message id}}`` — Russian agrees with the part's name
#: («Кнопки: не используются», «Камера: не используется»): a part of its own is a context.
STATES: dict[str, dict[str, str]] = {
    "ok": {"*": N_("working"), "buttons": NC_("buttons", "working")},
    "sim": {"*": N_("simulated")},
    "warn": {"*": N_("check")},
    "error": {"*": N_("fault")},
    "absent": {"*": N_("not connected")},
    "unused": {"*": N_("not used"), "buttons": NC_("buttons", "not used")},
}

#: Fixed detail sentences by the status's ``why`` code (message ids).
WHY: dict[str, str] = {
    "dashboard_only": N_("table without hardware: the operator enters observations by hand on the dashboard"),
}

_READ = re.compile(r"^(notes|cards) \((.+)\)$")


def part_name(part: str, lang: str = "ru") -> str:
    """``part``'s name in ``lang`` (``"ru"`` or ``"en"``); an unknown part as it is."""
    word = PARTS.get(part)
    return render(M(word), lang) if word else part


def state_word(part: str, state: str | None, lang: str = "ru") -> str:
    """The word for ``part`` in ``state`` in ``lang``; an unknown state as it is."""
    forms = STATES.get(state or "")
    if not forms:
        return str(state or "")
    if part in forms:
        return render(MP(part, forms[part]), lang)
    return render(M(forms["*"]), lang)


def _camera(detail: str) -> Message | str:
    kind, _, where = detail.partition(":")
    if detail == "scene":
        return M("rendered table (simulation)")
    if detail == "picamera2":
        return M("Raspberry Pi camera")
    if kind == "opencv":
        return M("USB camera %(where)s", where=where) if where.isdigit() else M("video stream %(where)s", where=where)
    if kind == "folder":
        return M("images from the folder %(where)s", where=where)
    if kind == "image":
        return M("image %(where)s", where=where)
    return detail


def _ocr(detail: str) -> list:
    out: list = []
    for item in detail.split(", "):
        m = _READ.match(item)
        if m is None:
            out.append(item)
        elif m.group(1) == "notes":
            out.append(M("notes (%(currency)s)", currency=m.group(2)))
        else:
            out.append(M("cards (deck %(deck)s)", deck=m.group(2)))
    return out


def detail_message(part: str, status: dict):
    """The status's detail as a message: a ``why`` sentence, the button box's port, the camera
    and readers in words; ``""`` when there is none. Names of ports, files and decks stay as they
    are (the readers: a list). A part that gave its detail as a message (``said``) gives that."""
    why = WHY.get(status.get("why") or "")
    if why:
        return M(why)
    said = status.get("said")
    if isinstance(said, Message):
        return said
    return _detail(part, status)


def _detail(part: str, status: dict):
    detail = status.get("detail")
    if not isinstance(detail, str) or not detail:
        return ""
    if part == "buttons":
        if status.get("state") == "warn":
            return M("port %(port)s: the box does not answer", port=detail)
        if status.get("state") in ("error", "absent"):
            return M("port %(port)s: not connected", port=detail)
        return M("port %(port)s", port=detail)
    if part == "camera":
        text = _camera(detail)
        if status.get("missing"):
            # a missing camera never stops the table (companion.vision.camera.RetryingSource)
            return M("%(camera)s: not connected — the operator enters observations by hand; the camera is picked "
                     "up when it appears", camera=text)
        return text
    if part == "ocr":
        return _ocr(detail)
    return detail


def detail_words(part: str, status: dict, lang: str = "ru") -> str:
    """:func:`detail_message` in ``lang``."""
    return str(fact(detail_message(part, status), lang) or "")


def words(part: str, status: dict) -> dict[str, dict[str, str]]:
    """``{"ru": {"part", "state", "detail"}, "en": {…}}`` for one part's status."""
    return {lang: {"part": part_name(part, lang), "state": state_word(part, status.get("state"), lang),
                   "detail": detail_words(part, status, lang)} for lang in LANGS}


def public(part: str, status: dict) -> dict:
    """One part's status as a page gets it (JSON): its ``words`` (:func:`words`) added, the
    message it was said with (``said``) left out."""
    return {**{k: v for k, v in status.items() if k != "said"}, "words": words(part, status)}


def with_words(statuses: dict[str, dict]) -> dict[str, dict]:
    """``{part: status}`` as the pages get them (:func:`public`)."""
    return {part: public(part, st) for part, st in statuses.items() if isinstance(st, dict)}


def line(part: str, status: dict, lang: str = "ru") -> str:
    """One console line for a part: «Кнопки: работают — порт /dev/buttonbox»."""
    text = f"{part_name(part, lang)}: {state_word(part, status.get('state'), lang)}"
    detail = detail_words(part, status, lang)
    return f"{text} — {detail}" if detail else text


def system_words(error: str, lang: str = "ru") -> str | None:
    """A part's error as the system gave it (``cannot open /dev/buttonbox: [Errno 2] …``), for a
    console line in ``lang``: in English as it is; otherwise its ``[Errno N]`` in words
    (:func:`companion.commands.results.os_reason`), or ``None`` — the system's English stays in the
    log (``-v``), never on a Russian line."""
    if lang == "en":
        return error
    from companion.commands.results import os_reason

    m = re.search(r"\[Errno (\d+)\]", error)
    return render(os_reason(OSError(int(m.group(1)), "")), lang) if m else None
