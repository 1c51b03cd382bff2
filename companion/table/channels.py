"""The table's side channels and fan-out: part status, pending pad counts, console prompts, listeners.

:class:`ChannelsMixin` is the part of :class:`companion.table.Table` that keeps the hardware
status registry, the pads' pending counts and the console's prompts, and calls the listeners
(dashboard streams, lights, the console) with ``(kind, payload)`` — always the full current value.
"""

from __future__ import annotations

import logging
import secrets
from dataclasses import dataclass
from typing import Any, Callable

from companion.i18n import LANGUAGES
from companion.table.parts import TableParts

log = logging.getLogger(__name__)


STATUS_PARTS = ("buttons", "camera", "ocr")
"""Hardware parts whose status the public view shows (others are accepted too)."""


@dataclass
class Prompt:
    """A request shown on the operator console, e.g. "show player 2's notes to the camera".

    Attributes:
        id: unique id (for :meth:`Table.clear_prompt`).
        kind: ``scan`` (show something to the camera), ``manual`` (OCR abstained: type it in) or
            ``info``.
        text: the prompt in Russian (the default language; an operator's typed prompt as typed).
        seat: the seat concerned, if any.
        action: for ``manual``, the action template to complete (e.g. ``"table deposit 2 ?"``).
        words: the prompt in each language, ``{"ru": …, "en": …}``: each screen shows its own.
    """

    id: str
    kind: str
    text: str
    seat: int | None = None
    action: str | None = None
    words: dict | None = None

    def to_json(self) -> dict:
        return {"id": self.id, "kind": self.kind, "text": self.text, "seat": self.seat, "action": self.action,
                "words": self.words or dict.fromkeys(LANGUAGES, self.text)}  # typed: as typed everywhere


Listener = Callable[[str, Any], None]


class ChannelsMixin(TableParts):
    """Status, pending counts, prompts and listeners of one :class:`~companion.table.Table`."""

    def set_status(self, part: str, status: dict) -> None:
        """Report a hardware part's status, e.g. ``set_status("camera", {"state": "ok",
        "detail": "picamera2 1280×720"})``. ``state`` is one of ``ok``, ``warn``, ``error``,
        ``absent``, ``sim``.

        Raises:
            ValueError: ``part`` is empty or ``status`` is not a dict with a string ``state``.
        """
        if not isinstance(part, str) or not part or not isinstance(status, dict) \
                or not isinstance(status.get("state"), str):
            raise ValueError("set_status(part, {'state': str, ...})")
        with self._lock:
            before = self._status.get(part, {}).get("state")
            self._status[part] = dict(status)
            snapshot = self.status()
            control = dict(self._control)
        self._emit("status", snapshot)
        if part == "buttons" and before != status["state"]:
            # a seat is played on its phone alone while the box is missing or faulty (seat_play)
            self._emit("control", control)

    def status(self) -> dict[str, dict]:
        """``{part: status dict}`` for every part reported (buttons, camera, ocr at least)."""
        with self._lock:
            return {k: dict(v) for k, v in self._status.items()}

    def set_pending(self, seat: int, count: int | None) -> None:
        """Show a seat's pending button-pad count (a bid being counted up with ``+``);
        ``None`` or 0 clears it. Pending counts clear when any action is accepted.

        Raises:
            ValueError: seat not at this table or count negative.
        """
        referee = self.referee
        n = len(referee.game.seats) if referee else 0
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat {seat!r} is not at this table")
        if count is not None and (not isinstance(count, int) or count < 0):
            raise ValueError("pending count must be a non-negative integer")
        with self._lock:
            if count:
                self._pending[seat] = count
            else:
                self._pending.pop(seat, None)
            snapshot = dict(self._pending)
        self._emit("pending", snapshot)

    def pending(self) -> dict[int, int]:
        """``{seat: pending count}``."""
        with self._lock:
            return dict(self._pending)

    def add_prompt(self, text, kind: str = "scan", seat: int | None = None,
                   action: str | None = None) -> str:
        """Show a prompt on the console ("show player 2's notes"); returns its id.

        ``text`` is a :class:`~companion.i18n.Message` (rendered in each language) or a string
        typed by the operator (shown as typed).

        ``kind="manual"`` with ``action`` (a template such as ``"table deposit 2 ?"``) asks the
        operator to type what OCR could not read; :meth:`manual_entry` with the prompt id clears it.

        Raises:
            ValueError: unknown kind or empty text.
        """
        from companion.i18n import Message, both
        from companion.sanitise import clean

        words = both(text) if isinstance(text, Message) else None
        if words is not None:
            text = words["ru"]
        if kind not in ("scan", "manual", "info") or not isinstance(text, str) or not clean(text).strip():
            raise ValueError("prompt kind must be scan, manual or info, with a text")
        # every screen shows the prompts: what no page can show never gets in (companion.sanitise)
        if words is not None:
            words = {lang: clean(w, 500).strip() for lang, w in words.items()}
        prompt = Prompt(secrets.token_hex(4), kind, clean(text, 500).strip(), seat,
                        None if action is None else clean(action, 500), words)
        with self._lock:
            self._prompts.append(prompt)
            snapshot = [p.to_json() for p in self._prompts]
        self._emit("prompts", snapshot)
        return prompt.id

    def clear_prompt(self, prompt_id: str) -> bool:
        """Remove a prompt; returns False when no such prompt."""
        with self._lock:
            before = len(self._prompts)
            self._prompts = [p for p in self._prompts if p.id != prompt_id]
            if len(self._prompts) == before:
                return False
            snapshot = [p.to_json() for p in self._prompts]
        self._emit("prompts", snapshot)
        return True

    def prompts(self) -> list[dict]:
        """Current prompts as JSON dicts, oldest first."""
        with self._lock:
            return [p.to_json() for p in self._prompts]

    def subscribe(self, listener: Listener) -> Callable[[], None]:
        """Call ``listener(kind, payload)`` on every change (see module docstring).

        Listeners survive new games (the table re-binds to each referee). Returns an unsubscribe
        function. A listener that raises is logged and kept.
        """
        with self._lock:
            self._listeners.append(listener)

        def unsubscribe() -> None:
            with self._lock:
                if listener in self._listeners:
                    self._listeners.remove(listener)

        return unsubscribe

    def _emit(self, kind: str, payload: Any) -> None:
        with self._lock:
            listeners = list(self._listeners)
        for listener in listeners:
            try:
                listener(kind, payload)
            except Exception:
                log.exception("table listener %r failed on %s", listener, kind)
