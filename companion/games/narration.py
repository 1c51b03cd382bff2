"""What every game's event words share (its presenter's ``event`` and its ``describe_event``): a
private event has no public words and the seats are named from the event's facts; the words are a
message, rendered at the edge in the reader's language.

A game writes only its own part, ``words(kind, data, name, seats)``::

    @public_event
    def _event(k, d, name, seats):
        if k == "bid":
            return M("%(name)s bids %(n)s", name=name(), n=d["count"])
        return None

    describe_event = describer(_event, "One line of words for a public event of ...")
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

from companion.games.action import Event
from companion.games.seats import seat_namer

#: ``words(kind, data, name, seats)``: a public event's words (a message, a text, ``""`` or ``None``);
#: ``name(key="seat")`` is :func:`companion.games.seats.seat_namer` over the event's data
EventWords = Callable[[str, dict, Callable[..., str], Sequence[str]], Any]


def public_event(words: EventWords) -> Callable[[Event, Sequence[str]], Any]:
    """``words`` as a presenter's ``event(event, seats)``: ``None`` for an event private to one
    seat, else ``words(event.kind, event.data, name, seats)``."""

    def event(event: Event, seats: Sequence[str]) -> Any:
        if event.private_to is not None:
            return None
        d = event.data
        return words(event.kind, d, seat_namer(d, seats), seats)

    event.__name__, event.__qualname__, event.__doc__ = words.__name__, words.__qualname__, words.__doc__
    return event


def describer(event: Callable[[Event, Sequence[str]], Any], doc: str) -> Callable[[Event, Sequence[str]], Any]:
    """A game's ``describe_event(event, seats)``: ``event``'s words (its presenter's ``event``, a
    message the caller renders), ``None`` where it has none; ``doc`` is its docstring."""

    def describe_event(event_: Event, seats: Sequence[str]) -> Any:
        return event(event_, seats)

    describe_event.__doc__ = doc
    return describe_event
