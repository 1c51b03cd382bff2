"""Button-box wire framing, shared verbatim by the Pico firmware and the host (protocol v1).

This file is written in the subset of Python that MicroPython on the RP2040 runs (no
dataclasses, no typing, no f-strings with format specs), because the very same file is uploaded
to the Pico and imported by the host driver: one implementation of the framing, not two. The
host imports this very file as ``companion.devices.firmware.wire`` (setup.py maps firmware/ into
the package), so host and Pico frame bytes with one implementation.

Frame (all integers big-endian), see docs/protocol.md::

    +------+-----+------+-----+------------+---------+
    | 0xA5 | LEN | TYPE | SEQ | BODY (LEN) | CRC16   |
    +------+-----+------+-----+------------+---------+
       1     1     1      1     0..48        2 bytes

``CRC16`` is CRC-16/CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR) over
LEN, TYPE, SEQ and BODY (the SOF byte is not included). A frame is at most 54 bytes, so it fits
in one 64-byte USB full-speed packet.
"""

PROTOCOL_VERSION = 1

SOF = 0xA5
MAX_BODY = 48
OVERHEAD = 6  # SOF, LEN, TYPE, SEQ, CRC16
MAX_FRAME = MAX_BODY + OVERHEAD

# Box -> host
T_HELLO = 0x01      # body: ASCII "fw=1.0.0 proto=1 seats=8 boot=3f2a" (unreliable)
T_EVENT = 0x02      # body: seat u8, button u8, kind u8, t_ms u32 (reliable: host ACKs)
T_HEARTBEAT = 0x03  # body: uptime_ms u32, outbox u8, dropped u16 (unreliable)
T_ACK = 0x04        # SEQ = the acknowledged host frame's SEQ, empty body
T_ERROR = 0x05      # body: code u8, offending TYPE u8, offending SEQ u8 (unreliable)
# Host -> box
T_HELLO_REQ = 0x81  # empty body; the box answers with HELLO and resumes sending its outbox
T_LIGHT = 0x82      # body: seat u8 (0xFF = all seats), state u8 (reliable: box ACKs)
T_HOST_ACK = 0x84   # SEQ = the acknowledged box frame's SEQ, empty body

# Button codes (column order of the matrix), event kinds, light states and error codes.
BUTTONS = ("yes", "no", "plus", "ok")
K_PRESS = 1
K_RELEASE = 2
K_HOLD = 3
KINDS = {K_PRESS: "press", K_RELEASE: "release", K_HOLD: "hold"}
L_OFF = 0
L_ON = 1
L_BLINK = 2   # 2 Hz, 50 % duty: "this seat must act"
L_FAST = 3    # 5 Hz, 50 % duty: "alert at this seat"
LIGHT_STATES = ("off", "on", "blink", "fast")
ALL_SEATS = 0xFF
E_UNKNOWN_TYPE = 1
E_BAD_BODY = 2
E_BAD_SEAT = 3
E_BAD_STATE = 4


def _make_table():
    table = []
    for i in range(256):
        crc = i << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
        table.append(crc)
    return table


_TABLE = _make_table()


def crc16(data, start=0, end=None):
    """CRC-16/CCITT-FALSE of ``data[start:end]`` (bytes-like) as an int 0..0xFFFF.

    The check value of b"123456789" is 0x29B1 (the catalogue value of CRC-16/CCITT-FALSE).
    """
    if end is None:
        end = len(data)
    crc = 0xFFFF
    table = _TABLE
    for i in range(start, end):
        crc = ((crc << 8) & 0xFFFF) ^ table[((crc >> 8) ^ data[i]) & 0xFF]
    return crc


def encode(ftype, seq, body=b""):
    """One wire frame as bytes: type ``ftype`` (0..255), sequence ``seq`` (0..255), ``body``.

    Raises:
        ValueError: body longer than MAX_BODY (48) bytes, or type/seq out of 0..255.
    """
    n = len(body)
    if n > MAX_BODY:
        raise ValueError("frame body too long: %d > %d bytes" % (n, MAX_BODY))
    if not (0 <= ftype <= 255 and 0 <= seq <= 255):
        raise ValueError("frame type and seq must be 0..255")
    frame = bytearray((SOF, n, ftype, seq))  # no slice assignment: not in every MicroPython
    frame.extend(body)
    crc = crc16(frame, 1)
    frame.append(crc >> 8)
    frame.append(crc & 0xFF)
    return bytes(frame)


def _find_sof(buf, start):
    try:
        return buf.find(b"\xa5", start)
    except AttributeError:  # MicroPython's bytearray has no find()
        for i in range(start, len(buf)):
            if buf[i] == SOF:
                return i
        return -1


class Parser:
    """Incremental frame parser: bytes in, frames out; never raises on any input.

    ``feed(data)`` returns the list of complete, CRC-valid frames as ``(type, seq, body)``
    tuples (``body`` is ``bytes``). Resynchronisation: bytes before a SOF are junk; a LEN above
    ``MAX_BODY`` or a CRC mismatch discards only the SOF byte and scanning restarts at the next
    byte, so a good frame hidden after (or inside) garbage is still found. ``idle()`` is called
    by the transport when the line has been quiet (no byte for a read timeout): an incomplete
    candidate is then taken for junk, so a stray SOF cannot hold a later frame hostage.

    Counters (ints, for status pages): ``frames``, ``junk`` (bytes skipped), ``bad_crc``,
    ``oversize``, ``stale`` (incomplete candidates dropped by ``idle()``).
    """

    def __init__(self, max_body=MAX_BODY):
        self.max_body = max_body
        self.buf = bytearray()
        self.frames = 0
        self.junk = 0
        self.bad_crc = 0
        self.oversize = 0
        self.stale = 0

    def pending(self):
        """Number of buffered bytes of an incomplete frame (0..MAX_FRAME-1)."""
        return len(self.buf)

    def feed(self, data):
        """Add ``data`` (bytes-like, any length) and return the frames it completes."""
        if data:
            self.buf.extend(data)
        return self._parse()

    def idle(self):
        """The line went quiet: drop an incomplete candidate's SOF and rescan what follows."""
        if not self.buf:
            return []
        self.stale += 1
        self.buf = self.buf[1:]
        return self._parse()

    def _parse(self):
        out = []
        buf = self.buf
        size = len(buf)
        i = 0
        while i < size:
            j = _find_sof(buf, i)
            if j < 0:
                self.junk += size - i
                i = size
                break
            self.junk += j - i
            i = j
            if size - i < 2:
                break
            n = buf[i + 1]
            if n > self.max_body:
                self.oversize += 1
                i += 1
                continue
            end = i + 4 + n
            if size < end + 2:
                break
            if crc16(buf, i + 1, end) != (buf[end] << 8) | buf[end + 1]:
                self.bad_crc += 1
                i += 1
                continue
            out.append((buf[i + 2], buf[i + 3], bytes(buf[i + 4:end])))
            self.frames += 1
            i = end + 2
        if i:
            self.buf = buf[i:]
        return out


def u32(value):
    """``value`` mod 2**32 as 4 big-endian bytes."""
    value &= 0xFFFFFFFF
    return bytes(((value >> 24) & 0xFF, (value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF))


def get_u32(body, offset):
    """The big-endian u32 at ``body[offset:offset+4]``."""
    return (body[offset] << 24) | (body[offset + 1] << 16) | (body[offset + 2] << 8) | body[offset + 3]


def seq_newer(seq, last):
    """True when 8-bit ``seq`` comes after ``last`` (RFC 1982 serial-number arithmetic)."""
    d = (seq - last) & 0xFF
    return 0 < d < 128
