"""Camera observations: from an engine's observation template to a filled ``table ...`` action.

An engine asks the table for physical facts through action templates whose observed fields are
``None`` (``legal_actions(None)``, base.py): a serial number, a card face, a tuple of them. This
module decides which reader a field needs, reads a frame with the real reader and fills the
template — or abstains with a reason so that the caller rescans or asks for manual entry. It is
the same code for a real camera and for the simulated table's rendered frames.

Field names decide the reader: a name containing ``serial`` or ``note`` → the banknote reader;
``card``, ``face``, ``kind``, ``value`` or ``rank`` → the card reader. A tuple field takes every item
in the frame, ordered left to right; a single field needs exactly one item.
"""

from __future__ import annotations

import dataclasses
import typing
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from companion.games.base import Action

NOTE_WORDS = ("serial", "note")
CARD_WORDS = ("card", "face", "kind", "value", "rank")


@dataclass(frozen=True)
class ObservedField:
    """One field of a template the camera must fill.

    Attributes:
        name: the dataclass field name.
        kind: ``note`` or ``card``.
        many: True for a tuple field (all items in the frame, left to right).
    """

    name: str
    kind: str
    many: bool


def observed_fields(template: Action) -> list[ObservedField]:
    """The ``None`` fields of ``template`` and the reader each needs.

    ``None`` fields whose name says neither note nor card (skull's optional denominations) are
    not camera fields: they stay as the template or the caller gives them.
    """
    hints = typing.get_type_hints(type(template))
    out = []
    for f in dataclasses.fields(template)[1:]:
        if not _open(getattr(template, f.name)):
            continue
        low = f.name.lower()
        if any(w in low for w in NOTE_WORDS):
            kind = "note"
        elif any(w in low for w in CARD_WORDS):
            kind = "card"
        else:
            continue
        hint = hints[f.name]
        many = "tuple" in str(hint).lower() or isinstance(getattr(template, f.name), tuple)
        out.append(ObservedField(f.name, kind, many))
    return out


def _open(value) -> bool:
    """A template value the camera fills: ``None``, or a tuple of ``None`` (a known number of
    items, e.g. doubt's ``(None, None, None)`` for a placement of three cards)."""
    return value is None or (isinstance(value, tuple) and bool(value) and all(v is None for v in value))


def matches(template: Action, action: Action) -> bool:
    """True when ``action`` is ``template`` with its open fields filled."""
    if type(template) is not type(action) or template.seat != action.seat:
        return False
    for f in dataclasses.fields(template):
        t, a = getattr(template, f.name), getattr(action, f.name)
        if t is None:
            continue
        if _open(t):
            if not isinstance(a, tuple) or len(a) != len(t):
                return False
            continue
        if t != a:
            return False
    return True


@dataclass(frozen=True)
class Item:
    """One thing a reader found in a frame: ``value`` (serial or card code; ``None`` when it saw
    the item but abstained), ``confidence`` 0…1, ``x`` its centre's column in px (for ordering),
    ``reason`` when abstaining."""

    value: str | None
    confidence: float = 0.0
    x: float = 0.0
    reason: str | None = None


Reader = Callable[[np.ndarray], Sequence[Item]]
"""A reader: frame (H×W×3 BGR uint8) → the items it found, any order."""


@dataclass(frozen=True)
class Reading:
    """The result of one observation attempt.

    Attributes:
        action: the filled action, or ``None`` when the reader abstained.
        values: field name → value read.
        reason: why it abstained (``no_item``, ``too_many``, a reader's reason).
    """

    action: Action | None
    values: dict
    reason: str | None = None


def fill(template: Action, frames, readers: dict[str, Reader]) -> Reading:
    """Read ``frames`` for the observed field of ``template`` and fill it.

    Args:
        frames: one frame, or a list of frames shown one after another (a set-up scan shows a
            player's notes one at a time); items are taken frame by frame, left to right.
        readers: ``{"note": reader, "card": reader}``; only the kind the template needs is used.

    Raises:
        ValueError: the template needs no camera value, or needs more than one field (unsupported).
        KeyError: no reader for a needed kind.
    """
    fields = observed_fields(template)
    if not fields:
        raise ValueError(f"{template.text()!r} needs no camera value")
    if len(fields) > 1:
        raise ValueError(f"{type(template).__name__}: more than one camera field is not supported")
    f = fields[0]
    if isinstance(frames, np.ndarray):
        frames = [frames]
    items: list[Item] = []
    for frame in frames:
        items += sorted(readers[f.kind](frame), key=lambda it: it.x)
    if not items:
        return Reading(None, {}, f"no_{f.kind}")
    unsure = [it for it in items if it.value is None]
    if unsure:
        return Reading(None, {}, unsure[0].reason or "unsure")
    if f.many:
        value: object = tuple(it.value for it in items)
    else:
        if len(items) != 1:
            return Reading(None, {}, f"too_many_{f.kind}s")
        value = items[0].value
    return Reading(dataclasses.replace(template, **{f.name: value}), {f.name: value})


def camera_templates(game) -> list[Action]:
    """The observation templates the game waits for now: table and current seats' actions with a
    field only the camera can fill."""
    out = []
    for seat in [None, *game.current_seats()]:
        out += [t for t in game.legal_actions(seat) if observed_fields(t)]
    return out


class CameraWatcher:
    """The real table's camera loop: when the game waits for an observation, read frames, vote,
    and submit the filled action with source ``camera``.

    A value is submitted when ``votes`` consecutive frames read the same; after ``patience``
    frames without agreement the operator gets a ``manual`` prompt on the dashboard (the reader
    never guesses). When several observations are possible at once (the dealer may flip any
    opponent's stack), the watcher does not guess which was meant: it prompts the operator.

    Args:
        table: the :class:`companion.table.Table`.
        camera: a source with ``read()`` → frame (H×W×3 BGR uint8).
        readers: ``{"note": reader, "card": reader}``.
        votes: agreeing frames needed (default 3).
        patience: frames before asking for manual entry (default 40).
        interval: seconds between frames.
    """

    def __init__(self, table, camera, readers: dict, votes: int = 3, patience: int = 40,
                 interval: float = 0.1) -> None:
        import threading

        self.table = table
        self.camera = camera
        self.readers = readers
        self.votes = votes
        self.patience = patience
        self.interval = interval
        self._stop = threading.Event()
        self._prompted: set = set()
        self._thread = threading.Thread(target=self._loop, name="camera", daemon=True)
        self._thread.start()

    def _loop(self) -> None:
        import logging

        log = logging.getLogger(__name__)
        streak: list = []
        misses = 0
        key = None
        while not self._stop.wait(self.interval):
            ref = self.table.referee
            if ref is None:
                continue
            with ref.lock:
                version = ref.version
                templates = camera_templates(ref.game)
            if not templates:
                streak, misses = [], 0
                continue
            if len(templates) > 1:
                k = ("choose", version)
                if k not in self._prompted:
                    self._prompted.add(k)
                    self.table.add_prompt("Что показать камере? / What to scan? " + "; ".join(
                        t.text() for t in templates[:6]), kind="manual", action=templates[0].text())
                continue
            template = templates[0]
            if key != (version, template):
                key, streak, misses = (version, template), [], 0
            try:
                reading = fill(template, self.camera.read(), self.readers)
            except Exception as exc:
                log.warning("camera read failed: %s", exc)
                self.table.set_status("camera", {"state": "error", "detail": str(exc)})
                continue
            if reading.action is None:
                streak, misses = [], misses + 1
                if misses >= self.patience and ("manual", version) not in self._prompted:
                    self._prompted.add(("manual", version))
                    self.table.add_prompt("Камера не уверена — введите вручную / Camera unsure — enter by hand",
                                          kind="manual", action=template.text())
                continue
            streak.append(reading.action)
            if len(streak) >= self.votes and all(a == streak[-1] for a in streak[-self.votes:]):
                outcome = self.table.submit(streak[-1].text(), "camera")
                if not outcome.accepted:
                    log.info("camera observation %s rejected: %s", streak[-1].text(), outcome.reason)
                streak = []

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(2)
