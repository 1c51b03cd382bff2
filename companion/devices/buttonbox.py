"""Host driver of the USB-serial button box: :class:`ButtonBox`.

One background thread owns the serial port (pyserial ``serial_for_url``: a device path such as
``/dev/buttonbox`` or ``/dev/pts/5``, ``socket://host:port``, ``loop://``). It reconnects forever
with a capped backoff, greets the box (HELLO_REQ) on every connection, acknowledges each event
frame, drops duplicates by sequence number, retransmits seat-light commands a bounded number of
times and publishes :class:`ButtonEvent` objects through a callback or a queue.

Typical use::

    with ButtonBox("/dev/buttonbox") as box:
        box.set_light(2, "blink")            # seat 2 (pad "3") must act
        for event in box.events():
            print(event.seat, event.button, event.kind)

Protocol: docs/protocol.md. Dashboard: ``box.status.to_dict()``.
"""

from __future__ import annotations

import dataclasses
import logging
import queue
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable, Iterator

import serial

from companion.devices import protocol
from companion.devices.firmware import wire
from companion.devices.protocol import ButtonEvent, LIGHT_STATES
from companion.errors import ProtocolError

if TYPE_CHECKING:
    from companion.devices.virtualbox import VirtualButtonBox

log = logging.getLogger(__name__)

LIGHT_RTO_S = 0.05         # host retransmission timeout for LIGHT frames
LIGHT_MAX_RETRIES = 5      # then wait for the next HELLO (reconnection) to try again
HELLO_RETRY_S = 0.5        # HELLO_REQ repeated until the box answers
HEARTBEAT_TIMEOUT_S = 2.0  # box heartbeat is every 0.5 s; 4 missed = not alive
IDLE_TIMEOUT_S = 0.05      # a partial frame this old is junk (the box writes whole frames)


@dataclass(frozen=True)
class BoxStatus:
    """A snapshot of the box connection, for the dashboard (``to_dict()`` is JSON-safe).

    Attributes:
        port: the URL or device path opened.
        connected: port open and the box's HELLO received on this connection.
        alive: connected and a frame arrived within the last 2 s (heartbeats every 0.5 s).
        firmware: firmware version from the hello line, or ``None`` before the first hello.
        protocol: protocol version announced by the box.
        seats: number of seat pads the box scans.
        boot_id: the box's 16-bit boot id (changes when it reboots).
        last_heartbeat: wall-clock time (``time.time()``, s) of the last heartbeat, or ``None``.
        box_uptime_ms: the box's uptime in that heartbeat.
        connects: successful connections so far (1 + reconnections).
        events: events delivered; duplicates: retransmitted events dropped by sequence number.
        lost: events the box reported dropped (outbox overflow) plus sequence gaps seen.
        frame_errors: frames rejected (bad CRC, oversize length, undecodable body).
        rejected: well-formed frames whose fields make no sense, refused and never applied:
            an event for a seat the box does not have (acknowledged, so the box stops sending
            it, but not delivered) or a hello line such as ``seats=-5``.
        last_error: the last connection or protocol problem, in English, or ``None``.
    """

    port: str
    connected: bool = False
    alive: bool = False
    firmware: str | None = None
    protocol: int | None = None
    seats: int | None = None
    boot_id: int | None = None
    last_heartbeat: float | None = None
    box_uptime_ms: int | None = None
    connects: int = 0
    events: int = 0
    duplicates: int = 0
    lost: int = 0
    frame_errors: int = 0
    rejected: int = 0
    last_error: str | None = None

    def to_dict(self) -> dict:
        """JSON-safe dict of all fields."""
        return dataclasses.asdict(self)


class ButtonBox:
    """The button box on a serial URL; a context manager (``close()`` stops the thread).

    Args:
        url: device path or pyserial URL (``/dev/buttonbox``, ``/dev/pts/7``,
            ``socket://127.0.0.1:7000``, ``loop://``).
        on_event: called in the driver thread with each new :class:`ButtonEvent`; when given,
            events do not go to the queue read by :meth:`events` / :meth:`get_event`.
        baudrate: ignored by USB CDC and ptys, kept for real UARTs (bps).
        reconnect_delay: (first, max) seconds between attempts to reopen the port.
        read_timeout: seconds one read waits; also the parser's idle timeout.
        serial_factory: ``serial.serial_for_url`` or a replacement with its signature (tests).

    The driver starts on ``open()`` / ``__enter__``; opening never raises for a missing device,
    it keeps retrying and reports in :attr:`status`.
    """

    #: seconds close() waits for the driver thread to leave its read
    CLOSE_WAIT_S = 5.0

    def __init__(self, url: str, on_event: Callable[[ButtonEvent], None] | None = None, *,
                 baudrate: int = 115200, reconnect_delay: tuple[float, float] = (0.02, 0.5),
                 read_timeout: float = 0.01, serial_factory=serial.serial_for_url) -> None:
        self.url = url
        self.on_event = on_event
        self._baudrate = baudrate
        self._delay = reconnect_delay
        self._read_timeout = read_timeout
        self._factory = serial_factory
        self._queue: queue.Queue[ButtonEvent | None] = queue.Queue()
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._ser: serial.Serial | None = None
        self._parser: protocol.FrameParser | None = None
        self._hello: protocol.Hello | None = None
        self._frame_errors = 0     # frames that failed to decode
        self._closed_errors = 0    # CRC/oversize rejects of earlier connections' parsers
        self._status = BoxStatus(port=url)
        self._last_rx = 0.0
        self._last_seq: int | None = None
        self._box_dropped = 0
        # seat lights: what the host wants and what the box has acknowledged
        self._desired: dict[int, int] = {}
        self._acked: dict[int, int] = {}
        self._inflight: tuple[int, int, int, float, int] | None = None  # seq, seat, state, t, tries
        self._light_seq = 0
        self._lights_stalled = False
        self._connected_event = threading.Event()
        #: the VirtualButtonBox behind this driver when opened with ``open_button_box("sim")``
        self.virtual: VirtualButtonBox | None = None

    # -- public API -------------------------------------------------------------------------

    def open(self) -> "ButtonBox":
        """Start the driver thread (idempotent); returns ``self``."""
        if self._thread is None:
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name=f"ButtonBox({self.url})",
                                            daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the thread and close the port; :meth:`events` iterators end."""
        self._stop.set()
        thread, self._thread = self._thread, None
        if thread is not None:
            thread.join(timeout=self.CLOSE_WAIT_S)
        if thread is None or not thread.is_alive():
            self._disconnect(None)
        else:  # still inside a read: the thread closes the port itself as it leaves (_run)
            log.warning("button box %s: the driver thread is still reading; it closes the port as it stops",
                        self.url)
        self._queue.put(None)
        if self.virtual is not None:
            self.virtual.close()

    def __enter__(self) -> "ButtonBox":
        return self.open()

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        st = self._status
        state = "connected" if st.connected else "disconnected"
        return f"<ButtonBox port={self.url!r} {state} fw={st.firmware} seats={st.seats}>"

    @property
    def status(self) -> BoxStatus:
        """The current :class:`BoxStatus` (a frozen snapshot)."""
        with self._lock:
            st = self._status
            alive = st.connected and (time.monotonic() - self._last_rx) < HEARTBEAT_TIMEOUT_S
            return dataclasses.replace(st, alive=alive)

    def wait_connected(self, timeout: float = 5.0) -> bool:
        """Block until the box has said hello on the current connection; False on timeout."""
        return self._connected_event.wait(timeout)

    def get_event(self, timeout: float | None = None) -> ButtonEvent | None:
        """The next queued event, or ``None`` after ``timeout`` s (or when closed)."""
        try:
            return self._queue.get(timeout=timeout)
        except queue.Empty:
            return None

    def events(self, timeout: float | None = None) -> Iterator[ButtonEvent]:
        """Iterate over events as they come; ends on ``close()`` or after ``timeout`` s of
        silence (``None``: wait forever)."""
        while True:
            ev = self.get_event(timeout)
            if ev is None:
                return
            yield ev

    def set_light(self, seat: int, state: str | int) -> None:
        """Set seat ``seat``'s pad light to ``off``, ``on``, ``blink`` (must act) or ``fast``
        (alert). Non-blocking: sent (and re-sent after a reconnection) by the driver thread.

        Raises:
            ProtocolError: seat outside 0..7 (or the box's seat count once known), or an
                unknown state.
        """
        code = protocol.light_state_code(state)
        limit = self._status.seats or protocol.MAX_SEATS
        if not (isinstance(seat, int) and 0 <= seat < limit):
            raise ProtocolError(f"unknown seat {seat!r}: the box has seats 0..{limit - 1}")
        with self._lock:
            self._desired[seat] = code

    def set_lights(self, states: dict[int, str | int]) -> None:
        """Several seat lights at once: ``{seat: state}`` (see :meth:`set_light`)."""
        for seat, state in states.items():
            self.set_light(seat, state)

    def lights(self) -> dict[int, str]:
        """The light states the box has acknowledged, ``{seat: state_name}``."""
        with self._lock:
            return {s: LIGHT_STATES[c] for s, c in sorted(self._acked.items())}

    # -- driver thread ----------------------------------------------------------------------

    def _update(self, **changes) -> None:
        with self._lock:
            self._status = dataclasses.replace(self._status, **changes)

    def _run(self) -> None:
        """The driver loop; the only thread that touches the port while it runs."""
        delay = self._delay[0]
        try:
            while not self._stop.is_set():
                if self._ser is None:
                    if not self._connect():
                        self._stop.wait(delay)
                        delay = min(delay * 2, self._delay[1])
                        continue
                    delay = self._delay[0]
                try:
                    self._step()
                except (serial.SerialException, OSError) as exc:
                    self._disconnect(f"connection lost: {exc}")
        finally:
            self._disconnect(None)

    def _connect(self) -> bool:
        try:
            ser = self._factory(self.url, baudrate=self._baudrate, timeout=self._read_timeout,
                                write_timeout=1.0)
        except (serial.SerialException, OSError, ValueError) as exc:
            self._update(last_error=f"cannot open {self.url}: {exc}")
            return False
        self._ser = ser
        if self._parser is not None:  # keep the totals across connections
            self._closed_errors += self._parser.bad_crc + self._parser.oversize
        self._parser = protocol.FrameParser()
        self._last_bytes = time.monotonic()
        self._hello = None
        self._next_hello_req = 0.0
        self._inflight = None
        self._lights_stalled = False
        log.info("button box port %s opened", self.url)
        return True

    def _disconnect(self, error: str | None) -> None:
        ser, self._ser = self._ser, None
        self._connected_event.clear()
        if ser is not None:
            try:
                ser.close()
            except (serial.SerialException, OSError):
                pass
            changes: dict[str, object] = {"connected": False}
            if error:
                changes["last_error"] = error
                log.warning("button box %s: %s", self.url, error)
            self._update(**changes)

    def _write(self, data: bytes) -> None:
        assert self._ser is not None  # (called while connected)
        self._ser.write(data)

    def _step(self) -> None:
        ser, parser = self._ser, self._parser
        assert ser is not None and parser is not None  # (a step runs while connected)
        now = time.monotonic()
        if self._hello is None and now >= self._next_hello_req:
            self._write(protocol.hello_request())
            self._next_hello_req = now + HELLO_RETRY_S
        data = ser.read(ser.in_waiting or 1)
        if data:
            frames = parser.feed(data)
            self._last_bytes = now
        elif parser.pending() and now - self._last_bytes > IDLE_TIMEOUT_S:
            frames = parser.idle()
        else:
            frames = []
        for frame in frames:
            self._handle(frame)
        errors = (self._frame_errors + self._closed_errors
                  + parser.bad_crc + parser.oversize)
        if errors != self._status.frame_errors:
            self._update(frame_errors=errors)
        self._service_lights(time.monotonic())
        if self._hello is not None and time.monotonic() - self._last_rx > HEARTBEAT_TIMEOUT_S:
            if time.monotonic() >= self._next_hello_req:  # silent box: ask again
                self._write(protocol.hello_request())
                self._next_hello_req = time.monotonic() + HELLO_RETRY_S

    def _handle(self, frame) -> None:
        try:
            msg = protocol.decode(frame)
        except ProtocolError as exc:
            if frame[0] == wire.T_HELLO and "nonsensical" in str(exc):
                self._reject(str(exc))  # a whole frame, CRC good, fields absurd: never applied
                return
            self._frame_errors += 1
            self._update(last_error=str(exc))
            return
        now = time.monotonic()
        self._last_rx = now
        if isinstance(msg, protocol.ButtonEvent):
            self._on_event(msg, now)
        elif isinstance(msg, protocol.Heartbeat):
            lost_delta = max(0, msg.dropped - self._box_dropped)
            self._box_dropped = msg.dropped
            self._update(last_heartbeat=time.time(), box_uptime_ms=msg.uptime_ms,
                         lost=self._status.lost + lost_delta)
        elif isinstance(msg, protocol.Ack):
            inf = self._inflight
            if inf is not None and inf[0] == msg.seq:
                with self._lock:
                    self._acked[inf[1]] = inf[2]
                self._inflight = None
        elif isinstance(msg, protocol.Hello):
            self._on_hello(msg)
        elif isinstance(msg, protocol.BoxError):
            self._update(last_error=f"box rejected frame type 0x{msg.frame_type:02x} "
                                    f"seq {msg.seq}: {msg.code}")
            inf = self._inflight
            if inf is not None and inf[0] == msg.seq:
                self._inflight = None

    def _on_hello(self, hello: protocol.Hello) -> None:
        if hello.protocol != protocol.PROTOCOL_VERSION:
            self._update(last_error=f"box speaks protocol v{hello.protocol}, this host "
                                    f"v{protocol.PROTOCOL_VERSION}; update the firmware",
                         firmware=hello.firmware, protocol=hello.protocol, connected=False)
            return
        new_boot = hello.boot_id != self._status.boot_id
        if new_boot:
            self._last_seq = None
            self._box_dropped = 0
        first = self._hello is None
        self._hello = hello
        with self._lock:
            self._acked.clear()  # re-send every light: the box may have rebooted
        self._inflight = None
        self._lights_stalled = False
        self._update(connected=True, last_error=None, firmware=hello.firmware, protocol=hello.protocol,
                     seats=hello.seats, boot_id=hello.boot_id,
                     connects=self._status.connects + (1 if first else 0))
        self._connected_event.set()

    def _reject(self, why: str) -> None:
        """Count and log a frame refused for its fields (:attr:`BoxStatus.rejected`)."""
        with self._lock:
            self._status = dataclasses.replace(self._status, rejected=self._status.rejected + 1, last_error=why)
            n = self._status.rejected
        if n <= 10 or n % 100 == 0:  # a box that keeps sending nonsense does not flood the log
            log.warning("button box %s: %s (refused: %d)", self.url, why, n)

    def _on_event(self, ev: ButtonEvent, now: float) -> None:
        if self._hello is None:
            return  # not acked: the box re-sends after our HELLO_REQ is answered
        if not 0 <= ev.seat < self._hello.seats:
            # acknowledged, so the box does not send it again, but never applied
            self._reject(f"event for seat {ev.seat} (pad {ev.seat + 1}): the box has seats 0-{self._hello.seats - 1}")
            self._write(protocol.ack(ev.seq))
            return
        last = self._last_seq
        if last is not None and not wire.seq_newer(ev.seq, last):
            self._update(duplicates=self._status.duplicates + 1)
            self._write(protocol.ack(ev.seq))
            return
        gap = 0 if last is None else (ev.seq - last - 1) & 0xFF
        self._last_seq = ev.seq
        ev = dataclasses.replace(ev, received=now)
        self._update(events=self._status.events + 1, lost=self._status.lost + gap)
        if self.on_event is not None:
            try:
                self.on_event(ev)
            except Exception:  # a consumer bug must not kill the driver
                log.exception("button box on_event callback failed for %s", ev)
        else:
            self._queue.put(ev)
        # acknowledged once handed over: when the box's outbox is empty, every event it sent is
        # in the queue or has been through the callback
        self._write(protocol.ack(ev.seq))

    def _service_lights(self, now: float) -> None:
        if self._hello is None or self._lights_stalled:
            return
        inf = self._inflight
        if inf is not None:
            seq, seat, state, sent, tries = inf
            if now - sent < LIGHT_RTO_S:
                return
            if tries >= LIGHT_MAX_RETRIES:
                self._inflight = None
                self._lights_stalled = True
                self._update(last_error=f"seat light {seat} not acknowledged after "
                                        f"{tries} tries; retrying after the next hello")
                return
            self._write(protocol.light(seq, seat, state))
            self._inflight = (seq, seat, state, now, tries + 1)
            return
        with self._lock:
            todo = [(s, c) for s, c in sorted(self._desired.items()) if self._acked.get(s) != c]
        if not todo:
            return
        seat, state = todo[0]
        seq = self._light_seq
        self._light_seq = (seq + 1) & 0xFF
        self._write(protocol.light(seq, seat, state))
        self._inflight = (seq, seat, state, now, 1)



#: The udev rule's stable name for the real box (hardware/99-table-companion.rules).
DEFAULT_PORT = "/dev/buttonbox"


def open_button_box(port: str | None = None, *, seats: int = 8,
                    on_event: Callable[[ButtonEvent], None] | None = None) -> ButtonBox:
    """Open the table's button box: the one place that chooses real or simulated.

    Args:
        port: a device path or pyserial URL; ``"sim"`` for a :class:`VirtualButtonBox` on a pty
            (reachable as ``box.virtual`` to press its buttons); ``None``: ``/dev/buttonbox`` when
            it exists (a Pi with the udev rule), else ``"sim"``.
        seats: seat pads of the virtual box (ignored for a real one, which says so in HELLO).
        on_event: as :class:`ButtonBox`.

    Returns:
        A started :class:`ButtonBox`; ``close()`` also stops the virtual box.

    Raises:
        ValueError: ``seats`` outside 1..8 for a virtual box.
    """
    import os

    if port is None:
        port = DEFAULT_PORT if os.path.exists(DEFAULT_PORT) else "sim"
    if port == "sim":
        from companion.devices.virtualbox import VirtualButtonBox

        vbox = VirtualButtonBox(seats=seats).start()
        assert vbox.port is not None  # (a started box has its pty)
        box = ButtonBox(vbox.port, on_event=on_event)
        box.virtual = vbox
        return box.open()
    return ButtonBox(port, on_event=on_event).open()
