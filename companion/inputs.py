"""Typed inputs: what happens at the table, as it goes onto the referee's one queue.

Every input becomes one of these events and is put on the referee's queue
(:meth:`companion.referee.Referee.put`); its decision — which action a press means, whether a
camera read settles an observation, whether a seat may make a move — is taken on the referee's
consumer thread by the handler the table installed for its type (:mod:`companion.table`), on the
one consistent state, under the referee's lock taken once. Text is parsed only at the edges: a
text a person or a page typed is parsed once, by the handler, into the game's typed action; the
log stores the action's text form.

* :class:`ButtonPressed` — a seat pad's button (the button box's driver thread);
* :class:`CameraRead` — what a reader found in one camera frame (the camera watcher's thread);
* :class:`OperatorEntry` — the operator's action or manual entry (console, operator page);
* :class:`SeatAction` — a seat's move from its phone (the seat page) or a pad action the four
  buttons cannot express.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from companion.games.base import Action


@dataclass(frozen=True)
class ButtonPressed:
    """One button event of one seat's pad.

    Attributes:
        seat: the pad's seat (0-based).
        key: ``yes``, ``no``, ``plus``, ``ok`` or an alias (:data:`companion.pads.BUTTON_ALIASES`).
        kind: ``press``, ``release`` or ``hold`` (the box's event kind).
    """

    seat: int
    key: str
    kind: str = "press"


@dataclass(frozen=True)
class CameraRead:
    """What the current game's reader of ``kind`` found in one frame.

    Attributes:
        kind: the reader kind (``note``, ``card``); ``None`` asks only what the table waits for
            now (the watcher's look before it reads any frame).
        reads: the :class:`companion.observe.Item` list the reader returned (any order).
        frame_id: the watcher's frame counter (for the log line of a rejected read).
        problem: ``no_camera`` when there was no frame (the camera is missing), else ``None``.
    """

    kind: str | None
    reads: tuple = ()
    frame_id: int = 0
    problem: str | None = None


@dataclass(frozen=True)
class OperatorEntry:
    """An operator's action: a game action, ``table undo`` or ``table void``, or a manual entry.

    Attributes:
        action: the game's typed :class:`~companion.games.base.Action`, or its text as typed
            (parsed once, on the consumer thread).
        facts: values for the action's open (``?``) fields by field name, e.g. ``{"serial":
            "АА1234567"}`` for the template ``table deposit 2 ?``; empty when the action is whole.
        source: ``operator`` or ``manual`` (an entry made because the camera could not read).
        seen: the table version the operator's page showed (:meth:`Referee.submit`), or ``None``.
        prompt: the console prompt the entry answers (cleared when the entry is accepted).
    """

    action: Action | str
    facts: Mapping[str, Any] = field(default_factory=dict)
    source: str = "operator"
    seen: int | None = None
    prompt: str | None = None


@dataclass(frozen=True)
class SeatAction:
    """A seat's own move (its phone's seat page, or a bot at the seat view).

    Attributes:
        seat: the seat acting; the action's actor must be that seat.
        action: the typed action, or its text as the page sent it.
        source: ``dashboard`` (the seat page) or ``button`` (a pad).
        seen: the table version the seat's page showed, or ``None``.
    """

    seat: int
    action: Action | str
    source: str = "dashboard"
    seen: int | None = None


Input = ButtonPressed | CameraRead | OperatorEntry | SeatAction
"""Any typed input."""
