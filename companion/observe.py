"""Camera observations: from an engine's observation template to a filled ``table ...`` action.

An engine asks the table for physical facts through action templates whose observed fields are
``None`` (``legal_actions(None)``, base.py): a serial number, a card face, a tuple of them. This
module decides which reader a field needs, reads a frame with the real reader and fills the
template — or abstains with a reason so that the caller rescans or asks for manual entry. It is
the same code for a real camera and for the simulated table's rendered frames.

The field's kind decides the reader (:mod:`companion.games.fields`): a ``serial`` → the banknote
reader, a ``card`` → the card reader. A tuple field takes every item in the frame, ordered left to
right; a single field needs exactly one item.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Sequence

import numpy as np

from companion.errors import CameraMissing
from companion.games.base import Action
from companion.games.fields import fields_of
from companion.i18n import M

if TYPE_CHECKING:
    from companion.referee import Referee

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

    ``None`` fields of a kind no reader reads (skull's optional face values, the joker game's
    layout slot) are not camera fields: they stay as the template or the caller gives them.
    """
    out = []
    for f in fields_of(type(template)):
        if f.reader is None or not _open(getattr(template, f.name)):
            continue
        out.append(ObservedField(f.name, f.reader, f.many or isinstance(getattr(template, f.name), tuple)))
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
    ``reason`` when abstaining, ``box`` where it lies (``(x, y, w, h)`` px in the frame; ``None``
    when the reader does not say — the camera set-up view draws it)."""

    value: str | None
    confidence: float = 0.0
    x: float = 0.0
    reason: str | None = None
    box: tuple[int, int, int, int] | None = None


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
    return fill_items(template, items)


def fill_items(template: Action, items: Sequence[Item]) -> Reading:
    """Fill the one observed field of ``template`` with the items read (in the order given:
    left to right, frame by frame); see :func:`fill`.

    Raises:
        ValueError: the template needs no camera value, or needs more than one field.
    """
    fields = observed_fields(template)
    if len(fields) != 1:
        raise ValueError(f"{template.text()!r} needs {len(fields)} camera values; one is supported")
    f = fields[0]
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
    changes: dict[str, Any] = {f.name: value}  # the field's type is the reader's, not known here
    return Reading(dataclasses.replace(template, **changes), {f.name: value})


def camera_templates(game) -> list[Action]:
    """The observation templates the game waits for now: table and current seats' actions with a
    field only the camera can fill."""
    out = []
    for seat in [None, *game.current_seats()]:
        out += [t for t in game.legal_actions(seat) if observed_fields(t)]
    return out


@dataclass(frozen=True)
class Wants:
    """What the table waits the camera for, as the consumer thread last saw it.

    Attributes:
        key: ``(table epoch, referee version)`` it was seen at.
        kind: the reader kind to read frames with (``note``, ``card``), or ``None``: read nothing
            (no observation now, several different ones — the operator is asked — or no reader
            of that kind for this game).
    """

    key: tuple
    kind: str | None = None


class CameraDecision:
    """The camera's half on the referee's consumer thread: which observation the game waits for,
    the votes over frames, the prompts, and the filled action it applies (source ``camera``).

    * A single item (a flipped note, a turned card) is applied when ``votes`` consecutive
      frames read the same value.
    * A set-up scan (a tuple of notes, shown one at a time) collects serials: each must be read in
      ``votes`` frames; when the player's count (the game's ``notes_per_player`` option) is
      confirmed, the whole set is applied. Cards lying together (a tuple of cards) are read
      from one frame, voted like a single item.
    * When several seats could be scanned (set-up), seats go in order and a scan prompt says
      whose notes to show. When several *different* observations are possible (the dealer may
      flip any opponent's stack), it does not guess: the operator is prompted.
    * After ``patience`` frames without a decision the operator gets a ``manual`` prompt (the
      reader never guesses).

    Args:
        table: the :class:`companion.table.Table` (prompts, epoch).
        readers: the current game's readers by kind (the watcher's dict, kept in step with the game).
        votes, patience: as :class:`CameraWatcher`.

    Attributes:
        wants: the last :class:`Wants` (read by the watcher's thread: an immutable snapshot).
        submitted: observations applied and accepted.
    """

    def __init__(self, table, readers: dict, votes: int = 3, patience: int = 40) -> None:
        self.table = table
        self.readers = readers
        self.votes = votes
        self.patience = patience
        self.submitted = 0
        self.wants: Wants | None = None
        #: the camera's open prompts: key → (the ids it got, the templates it is about)
        self._open: dict = {}
        self._referee: Referee | None = None
        self._key: tuple | None = None
        self._template: Action | None = None
        self._expected = None
        self._streak: list = []
        self._seen: dict = {}
        self._misses = 0

    # ------------------------------------------------------------------ what the game waits for
    @staticmethod
    def _choose(templates: list[Action]) -> Action | None:
        first = templates[0]
        f = observed_fields(first)[0]
        same_kind = all(type(t) is type(first) and observed_fields(t)[0].many for t in templates)
        if len(templates) == 1 or (same_kind and f.many and f.kind == "note"):
            return first
        return None

    def _prompt(self, key, text, kind: str, template: Action, seat=None, about=None) -> None:
        """Ask once per ``key`` while it applies: a prompt is about ``about`` (the templates it
        asks for, ``(template,)`` by default) and closes when they are no longer what the game
        waits for (:meth:`_close_stale`) — whoever answered (camera, typed entry, a button)."""
        if key not in self._open:
            ids: list = []
            self._open[key] = (ids, tuple(about or (template,)))
            action = template.text()
            # shown once the referee's lock is free (the table's prompts have their own lock)
            assert self._referee is not None  # prompts come from refresh(), which sets it
            self._referee.after(lambda: ids.append(self.table.add_prompt(text, kind=kind, seat=seat,
                                                                         action=action)))

    def _close(self, key) -> None:
        ids, _ = self._open.pop(key)
        assert self._referee is not None
        # after the add (effects run in order): the id is known by then
        def clear() -> None:
            for pid in ids:
                self.table.clear_prompt(pid)

        self._referee.after(clear)

    def _close_stale(self, epoch, templates: list[Action], chosen: Action | None) -> None:
        """Close the prompts that no longer apply: of another game, or about templates the game
        no longer waits for (a "what to scan?" applies while that same choice is open; a seat's
        scan, the camera's doubts, while that template is the one read)."""
        for key in list(self._open):
            _, about = self._open[key]
            if key[0] != epoch:
                self._open.pop(key)  # the table dropped that game's prompts itself
            elif (about != tuple(templates)) if key[1] == "choose" else (chosen not in about):
                self._close(key)

    def refresh(self, referee: Referee) -> Wants:
        """Look at the game (consumer thread): the observation it waits for, a new one's scan
        prompt, and :attr:`wants` for the watcher."""
        self._referee = referee
        game = referee.game
        # a version counts within one game: the table's epoch tells the games apart
        version = (getattr(self.table, "epoch", 0), referee.version)
        templates = camera_templates(game)
        self._template = None
        template = self._choose(templates) if templates else None
        self._close_stale(version[0], templates, template)
        if not templates:
            self._key = None
            self.wants = Wants(version)
            return self.wants
        if template is None:
            self._prompt((version[0], "choose"), M("What to scan? %(options)s",
                                                 options="; ".join(t.text() for t in templates[:6])),
                         "manual", templates[0], about=templates)
            self.wants = Wants(version)
            return self.wants
        f = observed_fields(template)[0]
        if f.kind not in self.readers:
            # the game just taken up has no reader of this kind (yet, or it could not be built:
            # the ocr status says why): its observations are typed on the console or the pages
            self.wants = Wants(version)
            return self.wants
        if self._key != (version, template):
            self._key, self._streak, self._seen, self._misses = (version, template), [], {}, 0
            owner = getattr(template, "owner", None)
            if f.many and f.kind == "note" and isinstance(owner, int):
                name = game.seats[owner]
                self._prompt((version[0], "scan", template), M("Show %(name)s's notes to the camera", name=name),
                             "scan", template, owner)
        self._template = template
        self._expected = getattr(game.options, "notes_per_player", None)
        self.wants = Wants(version, f.kind)
        return self.wants

    # ------------------------------------------------------------------ one read
    def on_read(self, referee, event):
        """Decide one :class:`~companion.inputs.CameraRead` (consumer thread): the
        :class:`Wants` for a look (``kind`` ``None``), else the :class:`~companion.referee.Outcome`
        of the observation it completed, or ``None``."""
        wants = self.refresh(referee)
        if event.kind is None:
            return wants
        template = self._template
        if template is None or wants.kind != event.kind:
            return None  # the game moved on while the frame was read: it waits for something else
        version = wants.key
        if event.problem == "no_camera":
            # no camera now (never found, or unplugged; its status says so and it is looked for
            # again): the operator types what the table waits for, at once
            self._prompt((version[0], "no_camera", template), M("No camera: enter it by hand"),
                         "manual", template)
            return None
        if (version[0], "no_camera", template) in self._open:  # the camera is back
            self._close((version[0], "no_camera", template))
        f = observed_fields(template)[0]
        if f.many and f.kind == "note":
            return self._collect(referee, template, f, event.reads, version)
        reading = fill_items(template, sorted(event.reads, key=lambda it: it.x))
        if reading.action is None:
            self._streak = []
            return self._miss(template, version)
        self._streak.append(reading.action)
        if len(self._streak) >= self.votes and all(a == self._streak[-1] for a in self._streak[-self.votes:]):
            return self._apply(referee, self._streak[-1])
        return None

    def _collect(self, referee, template, f, reads, version):
        items = [it for it in reads if it.value]
        if not items:
            return self._miss(template, version)
        for it in items:
            self._seen[it.value] = self._seen.get(it.value, 0) + 1
        confirmed = [v for v, n in self._seen.items() if n >= self.votes]
        expected = self._expected
        if expected and len(confirmed) == expected:
            return self._apply(referee, dataclasses.replace(template, **{f.name: tuple(confirmed)}))
        if expected and len(confirmed) > expected:
            self._seen = {}
            self._prompt((version[0], "too_many", template), M("Too many notes: rescan"), "scan", template)
        return None

    def _miss(self, template, version):
        self._misses += 1
        if self._misses >= self.patience:
            self._prompt((version[0], "manual", template), M("Camera unsure — enter by hand"), "manual", template)
        return None

    def _apply(self, referee, action: Action):
        import logging

        outcome = referee.apply_now(action, "camera")
        self._streak, self._seen = [], {}
        if not outcome.accepted:
            logging.getLogger(__name__).info("camera observation %s rejected: %s", action.text(), outcome.reason)
            return outcome
        self.submitted += 1
        return outcome


class CameraWatcher:
    """The real table's camera loop: while the game waits for an observation, read frames with
    the current game's reader and put each read on the referee's queue
    (:class:`~companion.inputs.CameraRead`); :class:`CameraDecision` votes and applies the filled
    action (source ``camera``) on the consumer thread. The watcher never reads the game: it asks
    the queue what to read for (a look) whenever the table's version moved.

    Args:
        table: the :class:`companion.table.Table`.
        camera: a source with ``read()`` → frame (H×W×3 BGR uint8).
        readers: ``{"note": reader, "card": reader}``.
        votes: agreeing frames needed (default 3).
        patience: frames before asking for manual entry (default 40).
        interval: seconds between frames (0 in tests).
        start: start the thread (tests call :meth:`step` instead).
    """

    def __init__(self, table, camera, readers: dict, votes: int = 3, patience: int = 40,
                 interval: float = 0.1, start: bool = True) -> None:
        import threading

        self.table = table
        self.camera = camera
        self.readers = readers
        self.interval = interval
        #: the decision on the consumer thread (the table's camera-read handler)
        self.decision = CameraDecision(table, readers, votes, patience)
        table.inputs.camera = self.decision
        self._frames = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="camera", daemon=True)
        if start:
            self._thread.start()

    @property
    def submitted(self) -> int:
        """Observations the camera completed and the referee accepted."""
        return self.decision.submitted

    def _loop(self) -> None:
        import logging

        log = logging.getLogger(__name__)
        last = None
        # the camera's healthy status before the watcher's own error, given back once a step goes
        # through again — unless someone else (the camera source) has said something since
        healthy = mine = None
        while not self._stop.wait(self.interval):
            try:
                self.step()
                last = None
                if mine is not None:
                    if healthy is not None and self.table.status().get("camera") == mine:
                        self.table.set_status("camera", healthy)
                    healthy = mine = None
            except Exception as exc:  # the camera must never stop the table
                if str(exc) != last:  # once per new problem (the status line shows it), not per frame
                    log.warning("camera: %s", exc)
                    last = str(exc)
                if mine is None:
                    before = self.table.status().get("camera") or {}
                    healthy = before if before.get("state") in ("ok", "sim") else None
                mine = {"state": "error", "detail": str(exc)[:200]}
                self.table.set_status("camera", mine)

    def step(self) -> bool:
        """Read one frame if the game waits for an observation; True when an observation was
        completed and accepted."""
        from companion.inputs import CameraRead
        from companion.referee import Outcome

        ref = self.table.current_referee()
        if ref is None:
            return False
        wants = self.decision.wants
        if wants is None or wants.key != (getattr(self.table, "epoch", 0), ref.version):
            wants = ref.put(CameraRead(None, (), self._frames))  # a look: what to read for now
        if wants is None or wants.kind is None or wants.kind not in self.readers:
            return False
        self._frames += 1
        try:
            frame = self.camera.read()
        except CameraMissing:
            ref.put(CameraRead(wants.kind, (), self._frames, "no_camera"))
            return False
        reads = tuple(self.readers[wants.kind](frame))
        reply = ref.put(CameraRead(wants.kind, reads, self._frames))
        return isinstance(reply, Outcome) and reply.accepted

    def stop(self) -> None:
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join(30)  # a camera read in progress finishes first
