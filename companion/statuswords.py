"""The table's hardware status in words, Russian and English: the status chips of the dashboard
pages and the lines of the ``companion run`` console say the same.

A part's status is the dict :meth:`companion.table.Table.set_status` holds: ``{"state": "ok" |
"sim" | "warn" | "error" | "absent" | "unused", "detail": str?, "error": str?, "why": str?, "detail_ru": str?}`` (``detail_ru``: the detail's own Russian, when the
part words it in both languages).

* ``absent``: the part is part of this table but has not answered (the button box is not
  connected yet) — a fault to look at;
* ``unused``: the table runs without the part on purpose (``companion dashboard``: no button box,
  no camera; observations are entered by hand) — nothing is wrong;
* ``why``: an optional code for a fixed detail sentence (:data:`WHY`);
* ``missing``: the camera is not connected and is being looked for (the table goes on by hand).

The English ``detail`` stays as it is for logs; :func:`words` gives what a person reads.
"""

from __future__ import annotations

import re

LANGS = ("ru", "en")

#: Part names: ``{part: (Russian, English)}`` (the dashboard's words for the chips are the same).
PARTS: dict[str, tuple[str, str]] = {
    "buttons": ("Кнопки", "Button box"),
    "camera": ("Камера", "Camera"),
    "ocr": ("Распознавание", "OCR"),
    "lights": ("Подсветка", "Lights"),
    "club": ("Клуб", "Club"),
    "voice": ("Голос", "Voice"),
}

#: State words: ``{state: {part or "*": (Russian, English)}}`` — Russian agrees with the part's
#: name («Кнопки: не используются», «Камера: не используется»).
STATES: dict[str, dict[str, tuple[str, str]]] = {
    "ok": {"*": ("работает", "working"), "buttons": ("работают", "working")},
    "sim": {"*": ("симуляция", "simulated")},
    "warn": {"*": ("проверьте", "check")},
    "error": {"*": ("неисправность", "fault")},
    "absent": {"*": ("нет связи", "not connected")},
    "unused": {"*": ("не используется", "not used"), "buttons": ("не используются", "not used")},
}

#: Fixed detail sentences by the status's ``why`` code: ``{why: (Russian, English)}``.
WHY: dict[str, tuple[str, str]] = {
    "dashboard_only": ("стол без оборудования: наблюдения оператор вводит вручную на табло",
                       "table without hardware: the operator enters observations by hand on the dashboard"),
}

_READ = re.compile(r"^(notes|cards) \((.+)\)$")


def part_name(part: str, lang: str = "ru") -> str:
    """``part``'s name in ``lang`` (``"ru"`` or ``"en"``); an unknown part as it is."""
    pair = PARTS.get(part)
    return (pair[0] if lang == "ru" else pair[1]) if pair else part


def state_word(part: str, state: str | None, lang: str = "ru") -> str:
    """The word for ``part`` in ``state`` in ``lang``; an unknown state as it is."""
    forms = STATES.get(state or "")
    if not forms:
        return str(state or "")
    pair = forms.get(part) or forms["*"]
    return pair[0] if lang == "ru" else pair[1]


def _camera(detail: str, ru: bool) -> str:
    kind, _, where = detail.partition(":")
    if detail == "scene":
        return "отрисованный стол (симуляция)" if ru else "rendered table (simulation)"
    if detail == "picamera2":
        return "камера Raspberry Pi" if ru else "Raspberry Pi camera"
    if kind == "opencv":
        return (f"USB-камера {where}" if ru else f"USB camera {where}") if where.isdigit() else (
            f"видеопоток {where}" if ru else f"video stream {where}")
    if kind == "folder":
        return f"снимки из папки {where}" if ru else f"images from the folder {where}"
    if kind == "image":
        return f"снимок {where}" if ru else f"image {where}"
    return detail


def _ocr(detail: str, ru: bool) -> str:
    out = []
    for item in detail.split(", "):
        m = _READ.match(item)
        if m is None:
            out.append(item)
        elif m.group(1) == "notes":
            out.append(f"купюры ({m.group(2)})" if ru else f"notes ({m.group(2)})")
        else:
            out.append(f"карты (колода {m.group(2)})" if ru else f"cards (deck {m.group(2)})")
    return ", ".join(out)


def detail_words(part: str, status: dict, lang: str = "ru") -> str:
    """The status's detail in ``lang``: a ``why`` sentence, the button box's port, the camera and
    readers in words; ``""`` when there is none. Names of ports, files and decks stay as they are."""
    ru = lang == "ru"
    why = WHY.get(status.get("why") or "")
    if why:
        return why[0] if ru else why[1]
    if ru and isinstance(status.get("detail_ru"), str) and status["detail_ru"]:
        return status["detail_ru"]  # a sentence the part gave in both languages
    detail = status.get("detail")
    if not isinstance(detail, str) or not detail:
        return ""
    if part == "buttons":
        text = f"порт {detail}" if ru else f"port {detail}"
        if status.get("state") == "warn":
            text += ": коробка не отвечает" if ru else ": the box does not answer"
        elif status.get("state") in ("error", "absent"):
            text += ": нет соединения" if ru else ": not connected"
        return text
    if part == "camera":
        text = _camera(detail, ru)
        if status.get("missing"):
            # a missing camera never stops the table (companion.vision.camera.RetryingSource)
            text += (": не подключена — наблюдения вводит оператор вручную, камера подключится сама, когда появится"
                     if ru else ": not connected — the operator enters observations by hand; the camera is picked "
                     "up when it appears")
        return text
    if part == "ocr":
        return _ocr(detail, ru)
    return detail


def words(part: str, status: dict) -> dict[str, dict[str, str]]:
    """``{"ru": {"part", "state", "detail"}, "en": {…}}`` for one part's status."""
    return {lang: {"part": part_name(part, lang), "state": state_word(part, status.get("state"), lang),
                   "detail": detail_words(part, status, lang)} for lang in LANGS}


def with_words(statuses: dict[str, dict]) -> dict[str, dict]:
    """``{part: status}`` with each status's ``words`` (:func:`words`) added, for the pages."""
    return {part: {**st, "words": words(part, st)} for part, st in statuses.items() if isinstance(st, dict)}


def line(part: str, status: dict, lang: str = "ru") -> str:
    """One console line for a part: «Кнопки: работают — порт /dev/buttonbox»."""
    text = f"{part_name(part, lang)}: {state_word(part, status.get('state'), lang)}"
    detail = detail_words(part, status, lang)
    return f"{text} — {detail}" if detail else text
