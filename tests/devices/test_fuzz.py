"""100 000 random byte streams through the parser: no exception, and a good frame sent after
the garbage always comes out (after at most a line-idle)."""

from __future__ import annotations

import random

from companion.devices import protocol
from companion.devices.firmware import wire
from companion.errors import ProtocolError

GOOD = wire.encode(wire.T_EVENT, 7, bytes((2, 0, 1, 0, 0, 4, 210)))
SOF = bytes((wire.SOF,))


def test_random_streams_never_crash_and_never_hide_a_good_frame():
    rng = random.Random(20261130)
    parser = wire.Parser()
    recovered = 0
    for i in range(100_000):
        kind = i % 4
        n = rng.randrange(1, 40)
        junk = rng.randbytes(n)
        if kind == 1:  # SOF-heavy garbage, the hard case for resync
            junk = bytes(b if rng.random() > 0.3 else wire.SOF for b in junk)
        elif kind == 2:  # a valid frame with one corrupted byte
            frame = bytearray(wire.encode(rng.randrange(256), rng.randrange(256), rng.randbytes(rng.randrange(8))))
            frame[rng.randrange(1, len(frame))] ^= 1 << rng.randrange(8)
            junk = bytes(frame)
        elif kind == 3:  # random valid frames with random bodies
            junk = wire.encode(rng.randrange(256), rng.randrange(256), rng.randbytes(rng.randrange(49)))
        # the stream arrives in random pieces
        data = junk + GOOD
        frames = []
        pos = 0
        while pos < len(data):
            step = rng.randrange(1, 24)
            frames += parser.feed(data[pos:pos + step])
            pos += step
        while parser.pending():
            frames += parser.idle()
        for f in frames:  # the typed layer never raises anything but ProtocolError
            try:
                protocol.decode(f)
            except ProtocolError:
                pass
        assert frames and frames[-1] == (wire.T_EVENT, 7, GOOD[4:-2]), (i, junk.hex())
        recovered += 1
    assert recovered == 100_000
    assert parser.bad_crc > 0 and parser.oversize > 0 and parser.junk > 0
