"""A deterministic firmware scenario in the MicroPython subset; prints one hex line per step.

Run by tests/devices/test_micropython.py under CPython and under real MicroPython (the
WebAssembly port, via node): both must print the same bytes. Needs firmware/ on sys.path.
"""

import boxfw
import wire

box = boxfw.Box(8, 0, 0x3F2A)
host = wire.Parser()
lines = []


def step(t, raw):
    box.tick(t, raw)
    out = box.take_output()
    for ftype, seq, body in host.feed(out):
        if ftype == wire.T_EVENT and t % 3 == 0:  # the host acknowledges some steps late
            box.feed(wire.encode(wire.T_HOST_ACK, seq), t)
    lines.append("%d %s" % (t, "".join("%02x" % b for b in out)))


masks = [0] * 8
for t in range(1, 1400):
    if t == 10:
        masks[2] = 1          # seat 2 presses yes (with bounce below)
    if t == 11:
        masks[2] = 0
    if t == 12:
        masks[2] = 1
    if t == 100:
        masks[7] = 4 | 8      # seat 7 chord plus+ok, held into a hold event
    if t == 900:
        masks[7] = 0
    if t == 300:
        masks[2] = 0
    if t == 50:
        box.feed(b"junk\xa5\x30" + wire.encode(wire.T_LIGHT, 1, bytes((3, 2))), t)
    if t == 60:
        box.idle(t)
    if t == 70:
        box.feed(wire.encode(wire.T_LIGHT, 2, bytes((9, 1))), t)   # bad seat -> ERROR
    if t == 400:
        box.feed(wire.encode(wire.T_HELLO_REQ, 0), t)
    step(t, masks)
    if t % 250 == 0:
        lines.append("lights %d %s" % (t, box.light_outputs(t)))
lines.append("dropped %d outbox %d host frames %d bad %d" % (
    box.dropped, len(box.outbox), host.frames, box.parser.bad_crc))
for line in lines:
    print(line)
