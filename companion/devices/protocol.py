"""Button-box wire protocol v1, host side: typed messages over the shared framing (pure, no I/O).

The framing (SOF, LEN, TYPE, SEQ, BODY, CRC-16/CCITT-FALSE) and the incremental
:class:`FrameParser` come from the very file the Pico runs (``firmware/wire.py``, packaged as
:mod:`companion.devices.firmware.wire`), so host and firmware cannot disagree on a byte. This module
turns raw ``(type, seq, body)`` frames into typed messages and builds the host's frames.
The specification with hex examples is docs/protocol.md.

Seats are 0-based (pad label = seat + 1); buttons are ``yes`` (Верю / agree), ``no``
(Не верю / pass), ``plus`` (add, raise, count up) and ``ok`` (confirm).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion.devices.firmware import wire
from companion.errors import ProtocolError

PROTOCOL_VERSION = wire.PROTOCOL_VERSION
BUTTONS: tuple[str, ...] = tuple(wire.BUTTONS)
KINDS: tuple[str, ...] = ("press", "release", "hold")
LIGHT_STATES: tuple[str, ...] = tuple(wire.LIGHT_STATES)
MAX_SEATS = 8
ERROR_CODES = {
    wire.E_UNKNOWN_TYPE: "unknown_type",
    wire.E_BAD_BODY: "bad_body",
    wire.E_BAD_SEAT: "bad_seat",
    wire.E_BAD_STATE: "bad_state",
}

FrameParser = wire.Parser
crc16 = wire.crc16
encode_frame = wire.encode


@dataclass(frozen=True)
class ButtonEvent:
    """One debounced button event from a seat pad.

    Attributes:
        seat: 0-based seat (pad label minus one).
        button: ``yes`` | ``no`` | ``plus`` | ``ok``.
        kind: ``press`` | ``release`` | ``hold`` (hold: kept down 600 ms, sent once).
        seq: the box's 8-bit sequence number of this event frame.
        t_ms: box time of the debounced edge, ms since the box booted (mod 2**32).
        received: host ``time.monotonic()`` seconds when the driver accepted it (not compared).
    """

    seat: int
    button: str
    kind: str
    seq: int
    t_ms: int
    received: float = field(default=0.0, compare=False)


@dataclass(frozen=True)
class Hello:
    """The box's hello line: firmware and protocol versions, seat count, boot id."""

    firmware: str
    protocol: int
    seats: int
    boot_id: int
    text: str


@dataclass(frozen=True)
class Heartbeat:
    """Box liveness: uptime (ms), frames waiting in its outbox, events it had to drop."""

    uptime_ms: int
    outbox: int
    dropped: int
    seq: int


@dataclass(frozen=True)
class Ack:
    """The box acknowledges the host frame with sequence number ``seq``."""

    seq: int


@dataclass(frozen=True)
class BoxError:
    """The box could not use a host frame: ``code`` (see ERROR_CODES), its type and seq."""

    code: str
    frame_type: int
    seq: int


def decode(frame: tuple[int, int, bytes]):
    """A raw box->host frame ``(type, seq, body)`` as a typed message.

    Returns:
        ButtonEvent | Hello | Heartbeat | Ack | BoxError.
    Raises:
        ProtocolError: unknown frame type, wrong body length, or a field out of range (unknown
            button or kind, malformed hello line).
    """
    ftype, seq, body = frame
    if ftype == wire.T_EVENT:
        if len(body) != 7:
            raise ProtocolError(f"EVENT body must be 7 bytes, got {len(body)}")
        seat, button, kind = body[0], body[1], body[2]
        if button >= len(BUTTONS):
            raise ProtocolError(f"EVENT with unknown button code {button}")
        if kind not in wire.KINDS:
            raise ProtocolError(f"EVENT with unknown kind code {kind}")
        return ButtonEvent(seat, BUTTONS[button], wire.KINDS[kind], seq, wire.get_u32(body, 3))
    if ftype == wire.T_HEARTBEAT:
        if len(body) != 7:
            raise ProtocolError(f"HEARTBEAT body must be 7 bytes, got {len(body)}")
        return Heartbeat(wire.get_u32(body, 0), body[4], (body[5] << 8) | body[6], seq)
    if ftype == wire.T_ACK:
        if body:
            raise ProtocolError("ACK must have an empty body")
        return Ack(seq)
    if ftype == wire.T_HELLO:
        return parse_hello(body)
    if ftype == wire.T_ERROR:
        if len(body) != 3:
            raise ProtocolError(f"ERROR body must be 3 bytes, got {len(body)}")
        return BoxError(ERROR_CODES.get(body[0], f"code_{body[0]}"), body[1], body[2])
    raise ProtocolError(f"unknown box frame type 0x{ftype:02x}")


def parse_hello(body: bytes) -> Hello:
    """Parse the hello line ``fw=1.0.0 proto=1 seats=8 boot=3f2a`` (ASCII, space separated).

    Unknown keys are ignored (later firmware may add some). Every field must make sense: ``fw``
    1–32 printable characters, ``proto`` 1–255, ``seats`` 1–:data:`MAX_SEATS`, ``boot`` a 16-bit
    hex id — a box that says ``seats=-5`` is not believed.

    Raises:
        ProtocolError: not ASCII, or ``fw``/``proto``/``seats``/``boot`` missing, malformed or
            out of range.
    """
    try:
        text = body.decode("ascii")
        fields = dict(part.split("=", 1) for part in text.split())
        hello = Hello(fields["fw"], int(fields["proto"]), int(fields["seats"]),
                      int(fields["boot"], 16), text)
    except (UnicodeDecodeError, ValueError, KeyError) as exc:
        raise ProtocolError(f"malformed hello line {body!r}: {exc}") from None
    wrong = []
    if not (1 <= len(hello.firmware) <= 32 and hello.firmware.isprintable()):
        wrong.append(f"fw={hello.firmware!r} (1-32 printable characters)")
    if not 1 <= hello.protocol <= 255:
        wrong.append(f"proto={hello.protocol} (1-255)")
    if not 1 <= hello.seats <= MAX_SEATS:
        wrong.append(f"seats={hello.seats} (1-{MAX_SEATS})")
    if not 0 <= hello.boot_id <= 0xFFFF:
        wrong.append(f"boot={fields['boot']} (a 16-bit id)")
    if wrong:
        raise ProtocolError(f"hello line with nonsensical fields: {', '.join(wrong)}")
    return hello


def hello_request() -> bytes:
    """The host's HELLO_REQ frame (sent on every (re)connection)."""
    return wire.encode(wire.T_HELLO_REQ, 0)


def ack(seq: int) -> bytes:
    """The host's ACK of the box frame with sequence number ``seq``."""
    return wire.encode(wire.T_HOST_ACK, seq)


def light_state_code(state: str | int) -> int:
    """Light state name (``off``/``on``/``blink``/``fast``) or code (0..3) as its code.

    Raises:
        ProtocolError: unknown state.
    """
    if isinstance(state, str):
        try:
            return LIGHT_STATES.index(state)
        except ValueError:
            raise ProtocolError(f"unknown light state {state!r}; use one of {LIGHT_STATES}") from None
    if isinstance(state, int) and 0 <= state < len(LIGHT_STATES):
        return state
    raise ProtocolError(f"unknown light state {state!r}")


def light(seq: int, seat: int, state: str | int) -> bytes:
    """The host's LIGHT frame: seat light ``seat`` (0-based, or 0xFF for all) to ``state``.

    Raises:
        ProtocolError: seat outside 0..254 / 0xFF or unknown state.
    """
    if not (0 <= seat <= 0xFF):
        raise ProtocolError(f"seat {seat} outside 0..255")
    return wire.encode(wire.T_LIGHT, seq, bytes((seat, light_state_code(state))))
