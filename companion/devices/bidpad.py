"""Pending bid counts from the pads' + and OK buttons, for the dashboard and the referee.

A player builds a bid by pressing **+** (each press adds one; a *hold* of + adds
``HOLD_STEP`` more, for big counts) and confirms with **OK**. Until OK the number is *pending*:
the dashboard shows it for every seat at all times (docs/hardware.md: no display on the pads),
and :meth:`PendingBids.feed` returns a :class:`BidEntry` when OK confirms it. What a confirmed
count means (a bid, a raise, a stake) is the game's business; this class only counts.

Pure and single-threaded: feed it events from ``ButtonBox.events()`` or the referee's queue.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion.devices.protocol import ButtonEvent

HOLD_STEP = 5  #: extra count added by holding + for 600 ms (a house convenience, not a rule)


@dataclass(frozen=True)
class BidEntry:
    """A count confirmed with OK at ``seat``: ``count`` (>= 1), box time ``t_ms``."""

    seat: int
    count: int
    t_ms: int


class PendingBids:
    """Per-seat pending counts.

    Args:
        seats: number of seats (events from other seats are ignored and counted in ``ignored``).
    """

    def __init__(self, seats: int) -> None:
        self.seats = seats
        self.pending: dict[int, int] = {}
        self.ignored = 0

    def feed(self, event: ButtonEvent) -> BidEntry | None:
        """Apply one button event; returns a :class:`BidEntry` when OK confirms a count > 0.

        ``plus`` press: +1; ``plus`` hold: +HOLD_STEP; ``ok`` press: confirm and clear. Other
        buttons and kinds leave the counts alone (``yes``/``no`` are game answers, not edits).
        """
        if not 0 <= event.seat < self.seats:
            self.ignored += 1
            return None
        if event.button == "plus" and event.kind in ("press", "hold"):
            step = 1 if event.kind == "press" else HOLD_STEP
            self.pending[event.seat] = self.pending.get(event.seat, 0) + step
        elif event.button == "ok" and event.kind == "press":
            count = self.pending.pop(event.seat, 0)
            if count > 0:
                return BidEntry(event.seat, count, event.t_ms)
        return None

    def clear(self, seat: int | None = None) -> None:
        """Drop the pending count of ``seat`` (or of every seat): the referee rejected the
        bid, the turn passed, or a new round began."""
        if seat is None:
            self.pending.clear()
        else:
            self.pending.pop(seat, None)

    def snapshot(self) -> dict[str, int]:
        """JSON-safe ``{"<seat>": count}`` of the non-zero pending counts, for the dashboard."""
        return {str(s): c for s, c in sorted(self.pending.items()) if c}
