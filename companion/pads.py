"""Seat pads: four buttons per seat mapped to that seat's game actions, for every game.

Each seat pad has four buttons (``hardware/``, issue 5): **yes** («Верю» / agree), **no**
(«Не верю» / pass), **plus** (count up) and **ok** (confirm). Games differ in what a seat may
do, so the mapping is computed from the engine's own ``legal_actions(seat)`` every time a button
is pressed — never from a copy of the rules:

* **yes** submits the seat's legal *yes-action* (the game's verb for agreeing/believing, its
  spec's ``pad_verbs.yes``); **no** submits its *no-action* (``pad_verbs.no``).
* The other fully specified legal actions form the seat's **menu**: actions that differ only in
  one whole number (a bid of 1…N, a raise to N, "add N more cards") first, ordered by that
  number, then the rest (e.g. "flip seat 3's stack") in the engine's order.
* **plus** steps through the menu; the **pending count** — the number shown on the dashboard's
  seat card and the pad — is the selected action's number (a bid of 3 shows 3), or its 1-based
  menu position for an action without a number.
* **ok** submits the selected action. With nothing selected, ok submits the menu's only action
  when there is exactly one action without a number (skull: "I placed a note"), or the only menu
  action.
* **no** while a count is pending cancels the count (a player who miscounted), it does not pass.
  A hold of **ok** also cancels. Release events are ignored.
* A pending count belongs to the game version it was counted in: when any action changes the game
  (another seat acted, an undo), the pending count is dropped and reported as 0.

An action whose field the camera fills (``None`` in the engine's template, ``?`` in text) is a
*declaration* on the pad: infinity's ``0 play ?`` — "I played a card", the camera then reads
which. :func:`presses_for` is the inverse mapping the simulated table's bots use: the
presses that make a pad submit a given action.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
import logging
from typing import Callable, Iterable

from companion.games import registry
from companion.games.base import Action, Game

log = logging.getLogger(__name__)

BUTTONS = ("yes", "no", "plus", "ok")
"""The four pad buttons, in pad order (hardware/ pin map)."""

BUTTON_ALIASES = {
    "yes": "yes", "agree": "yes", "veryu": "yes", "believe": "yes", "верю": "yes",
    "no": "no", "pass": "no", "disbelieve": "no", "не верю": "no", "neveryu": "no",
    "plus": "plus", "+": "plus", "up": "plus",
    "ok": "ok", "confirm": "ok", "enter": "ok",
}
"""Names a button box or a dashboard may use for the four buttons."""

def normalize_button(name: str) -> str:
    """The pad button for a name a box or page sends (``"agree"`` → ``"yes"``).

    Raises:
        ValueError: not one of the four buttons.
    """
    key = str(name).strip().lower()
    if key in BUTTON_ALIASES:
        return BUTTON_ALIASES[key]
    raise ValueError(f"unknown pad button {name!r}; one of {', '.join(BUTTONS)}")


def _verbs(game: Game, which: str) -> tuple[str, ...]:
    """The verbs the yes or no button submits in ``game`` (first legal one wins): its spec's
    ``pad_verbs`` (skull ``agree`` / ``pass``, doubt ``believe`` / ``doubt``); none for a game the
    registry does not know."""
    spec = registry.find(game.GAME_ID)
    if spec is None:
        return ()
    return spec.pad_verbs.yes if which == "yes" else spec.pad_verbs.no


def _count_of(action: Action) -> int | None:
    """The action's one whole-number argument, or ``None`` (no int field, or several)."""
    ints = [
        getattr(action, f.name)
        for f in dataclasses.fields(action)[1:]
        if isinstance(getattr(action, f.name), int) and not isinstance(getattr(action, f.name), bool)
    ]
    return ints[0] if len(ints) == 1 else None


@dataclass(frozen=True)
class PadMenu:
    """What one seat's pad can do now.

    Attributes:
        yes, no: the actions the yes/no buttons submit, or ``None``.
        menu: the plus/ok menu (count actions by number, then the rest).
        plain: the menu actions without a number (ok submits the only one).
    """

    yes: Action | None
    no: Action | None
    menu: tuple[Action, ...]
    plain: tuple[Action, ...]

    def count(self, index: int) -> int:
        """The pending count shown for menu position ``index`` (0-based)."""
        n = _count_of(self.menu[index])
        return n if n is not None else index + 1

    def default(self) -> Action | None:
        """What ok submits with nothing selected."""
        if len(self.plain) == 1:
            return self.plain[0]
        if len(self.menu) == 1:
            return self.menu[0]
        return None


def pad_menu(game: Game, seat: int) -> PadMenu:
    """The pad mapping of ``seat`` in ``game``'s current state (reads only)."""
    legal = [a for a in game.legal_actions(seat) if a.seat == seat]
    yes = no = None
    for verb in _verbs(game, "yes"):
        yes = next((a for a in legal if a.VERB == verb), None)
        if yes:
            break
    for verb in _verbs(game, "no"):
        no = next((a for a in legal if a.VERB == verb), None)
        if no:
            break
    rest = [a for a in legal if a is not yes and a is not no]
    counted = [a for a in rest if _count_of(a) is not None]
    plain = [a for a in rest if _count_of(a) is None]
    verb_order = {v: i for i, v in enumerate(dict.fromkeys(a.VERB for a in counted))}
    counted.sort(key=lambda a: (verb_order[a.VERB], _count_of(a)))
    return PadMenu(yes, no, tuple(counted + plain), tuple(plain))


def presses_for(game: Game, action: Action | str) -> list[str]:
    """The pad presses (button names) that make ``action``'s seat submit it now.

    Raises:
        ValueError: the action is not a seat action, or is not reachable from the pad now
            (not legal, or needs a camera/operator value).
    """
    if isinstance(action, str):
        action = game.parse_action(action)
    if action.seat is None:
        raise ValueError(f"{action.text()!r} is a table action, not a pad action")
    m = pad_menu(game, action.seat)
    if m.yes == action:
        return ["yes"]
    if m.no == action:
        return ["no"]
    if m.default() == action:
        return ["ok"]
    for i, a in enumerate(m.menu):
        if a == action:
            return ["plus"] * (i + 1) + ["ok"]
    raise ValueError(f"{action.text()!r} is not on seat {action.seat}'s pad now")


@dataclass(frozen=True)
class PadResult:
    """What one press did.

    Attributes:
        kind: ``submit`` (``move`` is the action to submit, ``action`` its text), ``pending`` (the count changed),
            ``cancel`` (the count was dropped) or ``ignored`` (``reason`` says why).
        seat: the pad's seat.
        action: action text for ``submit``.
        count: the pending count after the press (0: none).
        label: the selected action's text for ``pending`` (for the seat view).
        reason: why a press was ignored, e.g. ``no_yes_action``.
        move: the typed action for ``submit`` (the engine's own legal action).
    """

    kind: str
    seat: int
    action: str | None = None
    count: int = 0
    label: str | None = None
    reason: str | None = None
    move: Action | None = None


class Pads:
    """The pads of one table: button presses in, action texts and pending counts out.

    Not thread-safe by itself: :meth:`press` runs on the referee's consumer thread (the table's
    :class:`~companion.inputs.ButtonPressed` handler, :mod:`companion.decide`), so the menu is
    computed on the state the action is then applied to.

    Args:
        on_pending: called with ``(seat, count)`` whenever a seat's pending count changes
            (the dashboard's ``Table.set_pending``).
    """

    def __init__(self, on_pending: Callable[[int, int], None] | None = None) -> None:
        self._pending: dict[int, tuple[int, int]] = {}  # seat -> (menu index, game version)
        self.on_pending = on_pending

    def pending(self, seat: int) -> int:
        """The index+1 of the selected menu entry of ``seat`` (0: nothing pending)."""
        p = self._pending.get(seat)
        return p[0] + 1 if p else 0

    def _set(self, seat: int, value: tuple[int, int] | None, count: int) -> None:
        old = self._pending.get(seat)
        if value is None:
            self._pending.pop(seat, None)
        else:
            self._pending[seat] = value
        if self.on_pending is not None and old != value:
            self.on_pending(seat, count)

    def expire(self, game: Game) -> None:
        """Drop pending counts counted in an older game version (call after every change)."""
        for seat, (_i, version) in list(self._pending.items()):
            if version != game.version:
                self._set(seat, None, 0)

    def press(self, game: Game, seat: int, button: str, kind: str = "press") -> PadResult:
        """Apply one button event of ``seat``'s pad to ``game``'s current state (reads only).

        Args:
            button: one of :data:`BUTTONS` or an alias.
            kind: ``press``, ``release`` or ``hold`` (from the box).

        Raises:
            ValueError: unknown button or a seat not at the table.
        """
        button = normalize_button(button)
        if not 0 <= seat < len(game.seats):
            raise ValueError(f"seat {seat} is not at this table ({len(game.seats)} seats)")
        self.expire(game)
        held = self._pending.get(seat)
        if kind == "release":
            return PadResult("ignored", seat, count=self.pending_count(game, seat), reason="release")
        if kind == "hold":
            if button == "ok" and held:
                self._set(seat, None, 0)
                return PadResult("cancel", seat)
            return PadResult("ignored", seat, count=self.pending_count(game, seat), reason="hold")
        if game.is_over():
            return PadResult("ignored", seat, reason="game_over")
        m = pad_menu(game, seat)
        if button == "plus":
            if not m.menu:
                return PadResult("ignored", seat, reason="nothing_to_count")
            i = 0 if held is None else (held[0] + 1) % len(m.menu)
            count = m.count(i)
            self._set(seat, (i, game.version), count)
            return PadResult("pending", seat, count=count, label=m.menu[i].text())
        if button == "no" and held:
            self._set(seat, None, 0)
            return PadResult("cancel", seat)
        if button == "ok":
            if held:
                action = m.menu[held[0]] if held[0] < len(m.menu) else None
                self._set(seat, None, 0)
                if action is None:
                    return PadResult("ignored", seat, reason="stale_count")
                return PadResult("submit", seat, action=action.text(), move=action)
            action = m.default()
            if action is None:
                return PadResult("ignored", seat, reason="choose_first" if m.menu else "nothing_to_confirm")
            return PadResult("submit", seat, action=action.text(), move=action)
        if held:
            return PadResult("ignored", seat, count=self.pending_count(game, seat), reason="count_pending")
        action = m.yes if button == "yes" else m.no
        if action is None:
            return PadResult("ignored", seat, reason=f"no_{button}_action")
        return PadResult("submit", seat, action=action.text(), move=action)

    def pending_count(self, game: Game, seat: int) -> int:
        """The pending count of ``seat`` as shown (0: none)."""
        held = self._pending.get(seat)
        if not held or held[1] != game.version:
            return 0
        m = pad_menu(game, seat)
        return m.count(held[0]) if held[0] < len(m.menu) else 0


def describe(game: Game, seats: Iterable[int] | None = None) -> dict[int, dict]:
    """For each seat: what its four buttons do now (for the seat view and ``companion doctor``).

    Returns ``{seat: {"yes": text|None, "no": text|None, "menu": [text...], "ok": text|None}}``.
    """
    out = {}
    for seat in seats if seats is not None else range(len(game.seats)):
        m = pad_menu(game, seat)
        d = m.default()
        out[seat] = {
            "yes": m.yes.text() if m.yes else None,
            "no": m.no.text() if m.no else None,
            "menu": [a.text() for a in m.menu],
            "ok": d.text() if d else None,
        }
    return out


class PadRouter:
    """Button events from the box's driver thread → the referee's queue as
    :class:`~companion.inputs.ButtonPressed`; the pads decide on the consumer thread
    (:class:`companion.decide.TableInputs`) and set the dashboard's pending counts.

    Args:
        table: the :class:`companion.table.Table`.
        on_result: optional ``(event, PadResult, Outcome|None)`` callback (console, tests).
    """

    def __init__(self, table, on_result: Callable | None = None) -> None:
        self.table = table
        self.on_result = on_result
        self.rejected = 0

    def on_event(self, event) -> None:
        """Handle one :class:`companion.devices.protocol.ButtonEvent` (driver thread)."""
        from companion.table import NoGame

        try:
            reply = self.table.press(event.seat, event.button, event.kind)
        except NoGame:
            return
        if reply.result is None:
            return
        if reply.outcome is not None and not reply.outcome.accepted:
            self.rejected += 1
        if self.on_result:
            self.on_result(event, reply.result, reply.outcome)
