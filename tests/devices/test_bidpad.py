"""Pending counts from + and OK, fed by real events through the virtual box and a pty."""

from __future__ import annotations

from companion.devices.bidpad import HOLD_STEP, BidEntry, PendingBids
from companion.devices.buttonbox import ButtonBox
from companion.devices.protocol import ButtonEvent
from companion.devices.virtualbox import VirtualButtonBox


def ev(seat, button, kind="press", seq=0, t=0):
    return ButtonEvent(seat, button, kind, seq, t)


def test_count_up_confirm_and_clear():
    bids = PendingBids(4)
    for _ in range(3):
        assert bids.feed(ev(1, "plus")) is None
    assert bids.feed(ev(1, "plus", "release")) is None
    assert bids.snapshot() == {"1": 3}
    assert bids.feed(ev(1, "plus", "hold")) is None
    assert bids.snapshot() == {"1": 3 + HOLD_STEP}
    assert bids.feed(ev(1, "yes")) is None and bids.snapshot() == {"1": 3 + HOLD_STEP}
    assert bids.feed(ev(1, "ok", t=99)) == BidEntry(1, 3 + HOLD_STEP, 99)
    assert bids.snapshot() == {}
    assert bids.feed(ev(2, "ok")) is None  # nothing pending: OK alone confirms nothing
    bids.feed(ev(0, "plus"))
    bids.feed(ev(3, "plus"))
    bids.clear(0)
    assert bids.snapshot() == {"3": 1}
    bids.clear()
    assert bids.snapshot() == {}
    assert bids.feed(ev(6, "plus")) is None and bids.ignored == 1


def test_through_the_virtual_box():
    bids = PendingBids(4)
    entries = []
    with VirtualButtonBox(seats=4) as vbox, ButtonBox(vbox.port) as box:
        assert box.wait_connected(3.0)
        for _ in range(4):
            vbox.press(2, "plus")
        vbox.press(2, "ok")
        assert vbox.wait_idle(5.0)
        for e in box.events(timeout=0.2):
            entry = bids.feed(e)
            if entry:
                entries.append(entry)
    assert [(e.seat, e.count) for e in entries] == [(2, 4)]
