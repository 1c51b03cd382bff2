"""The firmware logic (firmware/boxfw.py) on CPython with a simulated clock: debounce, hold,
acks, bounded retransmission, outbox overflow, light commands."""

from __future__ import annotations

from companion.devices import protocol
from companion.devices.firmware import boxfw, wire

YES, NO, PLUS, OK = 1, 2, 4, 8  # column bit masks


class Rig:
    """A Box with a ms clock; ``run(ms, raw)`` scans once per ms and collects decoded frames."""

    def __init__(self, seats=8, auto_ack=True):
        self.auto_ack = auto_ack
        self.t = 0
        self.box = boxfw.Box(seats, 0, 0x1234)
        self.parser = wire.Parser()
        self.frames = []

    def run(self, ms, raw=(), seat=0):
        masks = [0] * self.box.seats
        if raw:
            masks[seat] = raw
        for _ in range(ms):
            self.t += 1
            self.box.tick(self.t, masks)
            self.collect()

    def collect(self):
        """Read the box's output; with auto_ack, acknowledge each event as a host would."""
        todo = self.parser.feed(self.box.take_output())
        while todo:
            f = todo.pop(0)
            self.frames.append(f)
            if self.auto_ack and f[0] == wire.T_EVENT:
                self.box.feed(protocol.ack(f[1]), self.t)
                todo += self.parser.feed(self.box.take_output())

    def pattern(self, seat, levels):
        """Play ``levels`` (one bit mask per ms) at ``seat``."""
        for lv in levels:
            self.run(1, lv, seat)

    def events(self):
        return [protocol.decode(f) for f in self.frames if f[0] == wire.T_EVENT]

    def ack_all(self):
        for ev in self.events():
            self.box.feed(protocol.ack(ev.seq), self.t)

    def take(self):
        out, self.frames = self.frames, []
        return out


def kinds(events):
    return [(e.seat, e.button, e.kind) for e in events]


def test_boot_sends_hello_line_then_heartbeat():
    r = Rig()
    r.run(1)
    hello = protocol.decode(r.frames[0])
    assert hello.text == "fw=1.0.0 proto=1 seats=8 boot=1234" and hello.seats == 8
    assert isinstance(protocol.decode(r.frames[1]), protocol.Heartbeat)
    r.take()
    r.run(boxfw.HEARTBEAT_MS)
    assert [f[0] for f in r.frames] == [wire.T_HEARTBEAT]


def test_press_needs_5ms_stable_and_bounce_is_ignored():
    r = Rig()
    r.run(10)
    r.take()
    # a 4 ms glitch: no event
    r.pattern(3, [YES] * (boxfw.DEBOUNCE_MS - 1) + [0] * 10)
    assert r.events() == []
    # bouncing contact then stable: exactly one press, 5 ms after the last bounce
    r.pattern(3, [YES, 0, YES, 0, YES] + [YES] * 20)
    evs = r.events()
    assert kinds(evs) == [(3, "yes", "press")]
    # release with bounce: exactly one release
    r.pattern(3, [0, YES, 0] + [0] * 20)
    assert kinds(r.events()) == [(3, "yes", "press"), (3, "yes", "release")]


def test_event_time_is_the_debounced_edge():
    r = Rig()
    r.run(99)
    r.pattern(0, [OK] * 10)
    (ev,) = r.events()
    assert ev.t_ms == 100 + boxfw.DEBOUNCE_MS  # first closed sample at t=100, still closed 5 ms later


def test_hold_is_sent_once_after_600ms():
    r = Rig()
    r.pattern(5, [PLUS] * (boxfw.HOLD_MS + 400))
    r.pattern(5, [0] * 10)
    assert kinds(r.events()) == [(5, "plus", "press"), (5, "plus", "hold"), (5, "plus", "release")]
    press, hold, _ = r.events()
    assert hold.t_ms - press.t_ms == boxfw.HOLD_MS


def test_chord_of_several_seats_and_buttons():
    r = Rig()
    masks = [YES, NO | PLUS, 0, OK, 0, 0, 0, YES | NO | PLUS | OK]
    for _ in range(20):
        r.t += 1
        r.box.tick(r.t, masks)
        r.collect()
    evs = r.events()
    assert len({e.seq for e in evs}) == len(evs) == 8
    assert {(e.seat, e.button) for e in evs} == {(0, "yes"), (1, "no"), (1, "plus"), (3, "ok"),
                   (7, "yes"), (7, "no"), (7, "plus"), (7, "ok")}


def test_retransmission_is_bounded_then_probes_then_resumes_on_hello_req():
    r = Rig(auto_ack=False)
    r.run(5)
    r.take()
    r.pattern(0, [YES] * 6)
    sends = lambda: [f for f in r.frames if f[0] == wire.T_EVENT]
    assert len(sends()) == 1
    r.run(boxfw.RTO_MS * (boxfw.MAX_RETRIES + 3))
    assert len(sends()) == 1 + boxfw.MAX_RETRIES  # original + 5 retries, then silence
    assert r.box.link_down
    r.run(boxfw.PROBE_MS)
    assert len(sends()) == 2 + boxfw.MAX_RETRIES  # one probe a second
    # a host (re)connects: HELLO, then the same event again at once, same seq
    r.box.feed(protocol.hello_request(), r.t)
    r.run(1)
    types = [f[0] for f in r.frames[-3:]]
    assert wire.T_HELLO in types and types[-1] in (wire.T_EVENT, wire.T_HEARTBEAT)
    assert {e.seq for e in r.events()} == {0}
    r.ack_all()
    r.run(2)  # the release (the key went up meanwhile) follows at once, seq 1
    assert [(e.seq, e.kind) for e in r.events()][-1] == (1, "release")
    r.ack_all()
    r.run(2)
    assert r.box.outbox == [] and not r.box.link_down


def test_stop_and_wait_and_ack_of_wrong_seq_is_ignored():
    r = Rig(auto_ack=False)
    r.pattern(1, [NO] * 10 + [0] * 10)  # press + release queued
    evs = r.events()
    assert [e.kind for e in evs] == ["press"]  # release waits for the press's ACK
    r.box.feed(protocol.ack(99), r.t)
    r.run(2)
    assert [e.kind for e in r.events()] == ["press"]
    r.box.feed(protocol.ack(evs[0].seq), r.t)
    r.run(1)
    assert [e.kind for e in r.events()] == ["press", "release"]
    assert r.events()[1].seq == (evs[0].seq + 1) & 0xFF


def test_outbox_overflow_drops_oldest_and_reports_it():
    r = Rig(auto_ack=False)
    n = boxfw.OUTBOX_MAX + 6  # presses+releases never acknowledged
    for _ in range(n // 2):
        r.pattern(2, [OK] * 8 + [0] * 8)
    assert len(r.box.outbox) == boxfw.OUTBOX_MAX
    assert r.box.dropped == n - boxfw.OUTBOX_MAX
    r.run(boxfw.HEARTBEAT_MS)
    hb = [protocol.decode(f) for f in r.frames if f[0] == wire.T_HEARTBEAT][-1]
    assert hb.dropped == n - boxfw.OUTBOX_MAX and hb.outbox == boxfw.OUTBOX_MAX


def test_light_commands_ack_apply_dedupe_and_errors():
    r = Rig(seats=4)
    r.run(1)
    r.take()
    r.box.feed(protocol.light(10, 2, "on"), r.t)
    r.box.feed(protocol.light(10, 2, "off"), r.t)  # same seq: a retransmission, not re-applied
    r.run(1)
    assert [(f[0], f[1]) for f in r.frames] == [(wire.T_ACK, 10), (wire.T_ACK, 10)]
    assert r.box.lights == [0, 0, 1, 0]
    r.take()
    r.box.feed(protocol.light(11, 0xFF, "blink"), r.t)
    assert r.box.lights == [2, 2, 2, 2]
    r.box.feed(protocol.light(12, 7, "on"), r.t)  # no seat 7 on a 4-seat box
    r.box.feed(wire.encode(wire.T_LIGHT, 13, bytes((1, 9))), r.t)  # unknown state
    r.box.feed(wire.encode(0x99, 14, b""), r.t)  # unknown type
    r.run(1)
    errs = [protocol.decode(f) for f in r.frames if f[0] == wire.T_ERROR]
    assert errs == [protocol.BoxError("bad_seat", wire.T_LIGHT, 12),
                    protocol.BoxError("bad_state", wire.T_LIGHT, 13),
                    protocol.BoxError("unknown_type", 0x99, 14)]
    assert r.box.lights == [2, 2, 2, 2]


def test_light_outputs_blink_fast_and_press_blip():
    r = Rig(seats=3)
    r.box.feed(protocol.light(1, 0, "on"), 0)
    r.box.feed(protocol.light(2, 1, "blink"), 0)
    r.box.feed(protocol.light(3, 2, "fast"), 0)
    assert r.box.light_outputs(0) == [True, True, True]
    assert r.box.light_outputs(boxfw.BLINK_HALF_MS) == [True, False, True]
    assert r.box.light_outputs(boxfw.FAST_HALF_MS) == [True, True, False]
    r.run(1000)
    r.pattern(0, [YES] * 10)  # local feedback: the seat light inverts for 80 ms
    assert r.box.light_outputs(r.t)[0] is False
    assert r.box.light_outputs(r.t + boxfw.BLIP_MS)[0] is True


def test_host_frames_split_and_with_junk_still_apply():
    r = Rig(seats=2)
    data = b"\x00\xa5junk" + protocol.light(4, 1, "on")
    for i in range(len(data)):
        r.box.feed(data[i:i + 1], 0)
    assert r.box.lights == [0, 1]
