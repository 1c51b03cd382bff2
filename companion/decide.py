"""The table's decisions on its typed inputs, taken on the referee's consumer thread.

:class:`TableInputs` installs one handler per input type (:mod:`companion.inputs`) on each
referee the table binds (:meth:`companion.referee.Referee.handle`). Each runs on the consumer
thread with the referee's lock held once, so the pad's menu, a seat's rights and the camera's
vote are judged on the same state the action is then applied to — nothing outside the queue
reads the game.

* :class:`~companion.inputs.ButtonPressed` → the pads (:class:`companion.pads.Pads`): a press
  that completes an action applies it as the seat's (source ``button``);
* :class:`~companion.inputs.SeatAction` → the seat's own move, or a refusal without reaching the
  engine (``not_your_seat``, ``bad_syntax``, ``read_by_table``);
* :class:`~companion.inputs.OperatorEntry` → the operator's action or manual entry;
* :class:`~companion.inputs.CameraRead` → the camera watcher's decision
  (:class:`companion.observe.CameraDecision`), when the table has a camera.
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass

from companion.errors import IllegalAction
from companion.games.base import Action
from companion.inputs import ButtonPressed, CameraRead, OperatorEntry, SeatAction
from companion.pads import PadResult, Pads
from companion.referee import Outcome

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class PadReply:
    """What one button event did: the pads' :class:`~companion.pads.PadResult` (``None`` when the
    event was ignored as invalid, ``error`` says why) and the referee's outcome of the action it
    completed (``None`` when it completed none)."""

    result: PadResult | None
    outcome: Outcome | None = None
    error: str | None = None


def observed_by_seat(game, seat: int, text: str) -> str | None:
    """The field names ``text`` fills where the seat's own legal action of that verb has an
    observation (``?``: a card face, a serial — the camera's or the operator's to give), or
    ``None``. A seat declares (``0 play ?``); a phone or pad must not set the face itself.
    Judged on the legal templates, not on the field's type: a lottery player's card is a
    decision (his cards lie face up and the templates name them), though its field may be
    ``?`` for the table. Call on the consumer thread (or under the referee's lock)."""
    tokens = text.split()
    if len(tokens) < 2:
        return None
    templates = [a for a in game.legal_actions(seat) if getattr(a, "VERB", None) == tokens[1]]
    filled: list[str] = []
    for a in templates:
        args = a.text().split()[2:]
        fields = [f.name for f in dataclasses.fields(a)][1:]
        given = tokens[2:]
        if len(given) != len(args):
            continue
        bad = [fields[i] if i < len(fields) else str(i) for i, (want, got) in enumerate(zip(args, given))
               if want == "?" and got != "?"]
        if not bad:
            return None  # fits a template as it is
        filled = bad
    return ", ".join(filled) if filled else None


class TableInputs:
    """The handlers of one table's typed inputs (see module docstring).

    Args:
        table: the :class:`companion.table.Table` (its pending counts and prompts).

    Attributes:
        pads: the seat pads of the current game (new for each game the table binds).
        camera: the camera decision of the table's watcher (``None``: no camera watcher; camera
            reads are then ignored).
    """

    def __init__(self, table) -> None:
        self.table = table
        self.pads = Pads()
        self.camera = None

    def install(self, referee) -> None:
        """Make ``referee`` decide this table's inputs (called when the table binds it)."""
        # a count belongs to one game; the dashboard hears of it once the referee's lock is free
        self.pads = Pads(on_pending=lambda seat, count: referee.after(lambda: self._pending(seat, count)))
        referee.handle(ButtonPressed, lambda event: self.button(referee, event))
        referee.handle(SeatAction, lambda event: self.seat(referee, event.seat, event.action, event.source,
                                                          event.seen))
        referee.handle(OperatorEntry, lambda event: self.operator(referee, event))
        referee.handle(CameraRead, lambda event: self.camera.on_read(referee, event)
                       if self.camera is not None else None)

    def _pending(self, seat: int, count: int) -> None:
        try:
            self.table.set_pending(seat, count or None)
        except ValueError:
            log.warning("pending count for seat %s not shown", seat)

    # ------------------------------------------------------------------ the handlers
    def button(self, referee, event: ButtonPressed) -> PadReply:
        """One pad button: the pads map it on the current state; a completed action is the
        seat's, applied at once (source ``button``)."""
        try:
            result = self.pads.press(referee.game, event.seat, event.key, event.kind)
        except ValueError as exc:
            log.warning("button event %s ignored: %s", event, exc)
            return PadReply(None, None, str(exc))
        if result.kind != "submit":
            return PadReply(result)
        outcome = self.seat(referee, event.seat, result.move, "button", None)
        if not outcome.accepted:
            log.info("seat %d pad: %s rejected (%s)", event.seat, result.action, outcome.reason)
        return PadReply(result, outcome)

    def seat(self, referee, seat: int, action, source: str, seen: int | None) -> Outcome:
        """A seat's own move (a typed action or the text a page sent): its actor must be that
        seat and it must not set what the camera reads, else it is refused without reaching the
        game (``not_your_seat``, ``bad_syntax``, ``read_by_table``)."""
        game = referee.game
        if isinstance(action, Action):
            if action.seat != seat:
                return Outcome(False, action.text(), source, "not_your_seat",
                               f"seat {seat} may only submit its own actions", (), referee.version)
            if action in game.legal_actions(seat):  # a pad's action: the engine's own template
                return referee.apply_now(action, source, seen)
            action = action.text()
        text = " ".join(str(action).split())
        actor = text.split(" ", 1)[0] if text else ""
        if actor != str(seat):
            if not (actor.isdigit() or actor == "table"):  # not someone else's action: no action
                return Outcome(False, text, source, "bad_syntax",
                               f"an action starts with the acting seat ({seat}), got {text!r}", (),
                               referee.version)
            return Outcome(False, text, source, "not_your_seat",
                           f"seat {seat} may only submit its own actions", (), referee.version)
        observed = observed_by_seat(game, seat, text)
        if observed:
            return Outcome(False, text, source, "read_by_table",
                           f"a seat declares its move; what it shows ({observed}) is read by the camera "
                           "or entered by the operator", (), referee.version)
        return referee.apply_now(text, source, seen)

    def operator(self, referee, event: OperatorEntry) -> Outcome:
        """The operator's action, undo, void or manual entry; ``facts`` fill the open fields of
        a template; an accepted entry clears the prompt it answered."""
        action = event.action
        if event.facts:
            try:
                template = referee.game.parse_action(" ".join(action.split())) if isinstance(action, str) \
                    else action
                action = dataclasses.replace(template, **dict(event.facts))
            except IllegalAction as exc:  # the template is not understood
                return Outcome(False, str(action), event.source, exc.reason, exc.detail, (), referee.version)
            except TypeError as exc:  # a fact the action has no field for
                return Outcome(False, template.text(), event.source, "bad_syntax", str(exc), (), referee.version)
        outcome = referee.apply_now(action, event.source, event.seen)
        if outcome.accepted and event.prompt:
            prompt = event.prompt
            referee.after(lambda: self.table.clear_prompt(prompt))
        return outcome
