"""Framing and parser fixtures in hex (docs/protocol.md): each damaged input is followed by a good
frame that must come out intact."""

from __future__ import annotations

import pytest

from companion.devices import protocol
from companion.devices.firmware import wire
from companion.errors import ProtocolError

# EVENT seq 7: seat 2 presses "yes" at t = 1234 ms (the example in docs/protocol.md)
GOOD = "a5 07 02 07 02 00 01 00 00 04 d2 11 f5"
GOOD_FRAME = (wire.T_EVENT, 7, bytes.fromhex("02 00 01 00 00 04 d2"))
# EVENT seq 8: seat 2 releases "yes" at t = 1301 ms
GOOD2 = "a5 07 02 08 02 00 02 00 00 05 15 bc 7f"
HEARTBEAT = "a5 07 03 03 00 00 01 f4 00 00 00 e7 1f"
HELLO = ("a5 22 01 00 66 77 3d 31 2e 30 2e 30 20 70 72 6f 74 6f 3d 31 20 73 65 61 74 73 3d 38 "
         "20 62 6f 6f 74 3d 33 66 32 61 fa 95")


def h(text: str) -> bytes:
    return bytes.fromhex(text)


def test_crc_check_value():
    # CRC-16/CCITT-FALSE catalogue check value
    assert wire.crc16(b"123456789") == 0x29B1


def test_encode_matches_documented_bytes():
    assert wire.encode(*GOOD_FRAME) == h(GOOD)
    assert protocol.hello_request() == h("a5 00 81 00 e4 35")
    assert protocol.light(5, 3, "blink") == h("a5 02 82 05 03 02 fb 3e")
    assert protocol.ack(7) == h("a5 00 84 07 6b 27")


def test_whole_frame():
    p = wire.Parser()
    assert p.feed(h(GOOD)) == [GOOD_FRAME]
    assert p.pending() == 0 and p.junk == 0


@pytest.mark.parametrize("cut", range(1, 13))
def test_split_frame_at_every_byte(cut):
    p = wire.Parser()
    data = h(GOOD)
    assert p.feed(data[:cut]) == []
    assert p.feed(data[cut:]) == [GOOD_FRAME]


def test_byte_by_byte_then_two_frames_in_one_read():
    p = wire.Parser()
    out = []
    for b in h(GOOD):
        out += p.feed(bytes([b]))
    assert out == [GOOD_FRAME]
    assert [f[1] for f in p.feed(h(GOOD + GOOD2))] == [7, 8]


def test_junk_before_a_frame():
    p = wire.Parser()
    # ASCII noise (a REPL banner), a lone SOF, and a short SOF-prefixed fragment
    junk = b"MicroPython v1.22\r\n>>> " + h("a5") + h("00 13 a5 01")
    assert p.feed(junk + h(GOOD)) == [GOOD_FRAME]
    assert p.junk > 0


def test_bad_checksum_then_good_frame():
    p = wire.Parser()
    bad = bytearray(h(GOOD))
    bad[-1] ^= 0x01  # corrupt CRC
    assert p.feed(bytes(bad) + h(GOOD2)) == [(wire.T_EVENT, 8, h("02 00 02 00 00 05 15"))]
    assert p.bad_crc == 1


def test_bad_checksum_in_body_then_good_frame():
    p = wire.Parser()
    bad = bytearray(h(GOOD))
    bad[6] ^= 0x40  # flipped bit in the kind byte
    assert p.feed(bytes(bad)) == []
    assert p.feed(h(GOOD)) == [GOOD_FRAME]


def test_truncated_frame_swallowing_the_next_is_resynced():
    # a frame cut short (cable pulled mid-frame): its LEN makes it eat into the next frame;
    # the CRC fails and the parser rescans from the byte after the first SOF
    p = wire.Parser()
    assert p.feed(h(GOOD)[:7] + h(GOOD2)) == [(wire.T_EVENT, 8, h("02 00 02 00 00 05 15"))]


def test_oversize_length_does_not_wait_for_bytes():
    p = wire.Parser()
    # LEN = 0xC8 (200) > 48: rejected at once, not after 200 more bytes
    assert p.feed(h("a5 c8 02 07 00 00") + h(GOOD)) == [GOOD_FRAME]
    assert p.oversize == 1


def test_duplicate_sequence_number_passes_the_parser():
    # duplicates are a link-level matter: the parser delivers both, the driver drops one
    p = wire.Parser()
    assert p.feed(h(GOOD + GOOD)) == [GOOD_FRAME, GOOD_FRAME]


def test_stray_sof_before_short_frame_released_by_idle():
    # a junk SOF whose LEN (48) asks for more bytes than follow: the good frame sits inside the
    # candidate until the line goes idle; idle() drops the candidate and finds the frame
    p = wire.Parser()
    assert p.feed(h("a5 30") + h(GOOD)) == []
    assert p.idle() == [GOOD_FRAME]
    assert p.stale == 1 and p.pending() == 0


def test_decode_typed_messages():
    ev = protocol.decode(GOOD_FRAME)
    assert ev == protocol.ButtonEvent(seat=2, button="yes", kind="press", seq=7, t_ms=1234)
    hb = protocol.decode(wire.Parser().feed(h(HEARTBEAT))[0])
    assert hb == protocol.Heartbeat(uptime_ms=500, outbox=0, dropped=0, seq=3)
    hello = protocol.decode(wire.Parser().feed(h(HELLO))[0])
    assert (hello.firmware, hello.protocol, hello.seats, hello.boot_id) == ("1.0.0", 1, 8, 0x3F2A)
    hold = protocol.decode(wire.Parser().feed(h("a5 07 02 09 06 02 03 01 02 03 04 ab 19"))[0])
    assert (hold.seat, hold.button, hold.kind, hold.t_ms) == (6, "plus", "hold", 0x01020304)
    err = protocol.decode(wire.Parser().feed(h("a5 03 05 04 03 82 05 5d 59"))[0])
    assert err == protocol.BoxError("bad_seat", 0x82, 5)


@pytest.mark.parametrize("frame, message", [
    ((wire.T_EVENT, 1, b"\x00\x00"), "7 bytes"),
    ((wire.T_EVENT, 1, bytes((0, 9, 1, 0, 0, 0, 0))), "unknown button"),
    ((wire.T_EVENT, 1, bytes((0, 0, 7, 0, 0, 0, 0))), "unknown kind"),
    ((wire.T_HELLO, 0, b"fw=1.0.0 proto=x"), "malformed hello"),
    ((wire.T_HELLO, 0, b"\xff\xfe"), "malformed hello"),
    ((wire.T_HELLO, 0, b"fw=1.0.0 proto=1 seats=-5 boot=3f2a"), r"nonsensical fields: seats=-5 \(1-8\)"),
    ((wire.T_HELLO, 0, b"fw=1.0.0 proto=1 seats=0 boot=3f2a"), "seats=0"),
    ((wire.T_HELLO, 0, b"fw=1.0.0 proto=1 seats=200 boot=3f2a"), "seats=200"),
    ((wire.T_HELLO, 0, b"fw=1.0.0 proto=0 seats=8 boot=3f2a"), "proto=0"),
    ((wire.T_HELLO, 0, b"fw=1.0.0 proto=1 seats=8 boot=123456"), "boot=123456"),
    ((wire.T_HELLO, 0, b"fw=" + b"9" * 40 + b" proto=1 seats=8 boot=1"), "fw="),
    ((0x42, 0, b""), "unknown box frame type 0x42"),
])
def test_decode_rejects_bad_fields(frame, message):
    with pytest.raises(ProtocolError, match=message):
        protocol.decode(frame)


def test_encode_rejects_oversize_body_and_bad_light():
    with pytest.raises(ValueError, match="too long"):
        wire.encode(wire.T_EVENT, 0, bytes(49))
    with pytest.raises(ProtocolError, match="unknown light state"):
        protocol.light(0, 1, "disco")


def test_seq_newer_wraps():
    assert wire.seq_newer(8, 7) and wire.seq_newer(0, 255) and wire.seq_newer(100, 0)
    assert not wire.seq_newer(7, 7) and not wire.seq_newer(6, 7) and not wire.seq_newer(200, 0)
