"""The virtual button box: the real firmware logic on CPython behind a pseudo-terminal.

:class:`VirtualButtonBox` runs ``boxfw.Box`` (the very file flashed to the Pico, packaged as
:mod:`companion.devices.firmware.boxfw`) in a thread with a 1 ms scan, on a simulated key matrix,
and speaks protocol v1 on the master side of a pty. The host opens the slave side like the real
``/dev/ttyACM0`` -- every layer above the switch contacts is the real code path. Presses come
from Python (the demo's bots, tests), from ``companion buttonbox-sim`` scripts or the keyboard::

    with VirtualButtonBox(seats=4) as vbox, ButtonBox(vbox.port) as box:
        vbox.press(2, "yes")                     # seat 2 (pad "3") presses Верю
        event = box.get_event(timeout=1)         # ButtonEvent(seat=2, button='yes', kind='press')

Switch bounce is simulated (contacts chatter for ``bounce_ms`` after each edge), so the
firmware's 5 ms debounce is exercised. ``unplug()`` / ``plug()`` close and reopen the pty like a
USB cable pulled out and put back; a ``link`` path, if given, is kept pointing at the current pty
the way the udev rule keeps ``/dev/buttonbox`` stable.
"""

from __future__ import annotations

import collections
import errno
import os
import re
import select
import threading
import time
import tty

from companion.devices.firmware import boxfw, wire
from companion.devices.protocol import BUTTONS, LIGHT_STATES, MAX_SEATS
from companion.errors import DeviceError, ProtocolError
from companion.i18n import MP, M, N_, render

TX_BACKLOG_MAX = 4096  # bytes kept for a host that is not reading (USB CDC drops beyond this)


class VirtualButtonBox:
    """A simulated button box on a pty (context manager).

    Args:
        seats: seat pads, 1..8.
        link: optional path of a symlink kept pointing at the current pty (a stable name).
        press_ms: how long :meth:`press` keeps a switch closed (ms, > debounce).
        bounce_ms: contact chatter after each edge (ms; 0 = ideal switch).
        boot_id: 16-bit boot id of the first power-up (default: from ``os.urandom``).

    Raises:
        ValueError: seats outside 1..8.
    """

    def __init__(self, seats: int = MAX_SEATS, link: str | None = None, *, press_ms: int = 40,
                 bounce_ms: int = 2, boot_id: int | None = None) -> None:
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"seats must be 1..{MAX_SEATS}, got {seats}")
        self.seats = seats
        self.link = link
        self.press_ms = press_ms
        self.bounce_ms = bounce_ms
        self._boot_id = boot_id
        self._lock = threading.RLock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._t0 = time.monotonic()
        self._box: boxfw.Box | None = None
        self._master: int | None = None
        self._slave: int | None = None
        self._device: str | None = None
        self._tx = bytearray()
        self._held: dict[tuple[int, int], list] = {}  # key -> [down_ms, up_ms, released_ms]
        self._pending: list[tuple[tuple[int, int], int | None]] = []  # (key, duration_ms), FIFO
        self._last_rx_ms = 0
        #: (seat, button index, box ms) of each switch closing, newest last (for benchmarks)
        self.closed_log: collections.deque = collections.deque(maxlen=10_000)
        self.presses = 0

    # -- lifecycle --------------------------------------------------------------------------

    def now_ms(self) -> int:
        """Box clock: ms since this object was created."""
        return int((time.monotonic() - self._t0) * 1000)

    def start(self) -> "VirtualButtonBox":
        """Power up the box, create the pty and start the 1 ms scan thread; returns ``self``."""
        with self._lock:
            if self._thread is not None:
                return self
            self._power_up(self._boot_id)
            self._open_pty()
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="VirtualButtonBox", daemon=True)
            self._thread.start()
        return self

    def close(self) -> None:
        """Stop the box and remove the pty (and the link)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=2.0)
            self._thread = None
        with self._lock:
            self._close_pty()

    def __enter__(self) -> "VirtualButtonBox":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "plugged" if self._master is not None else "unplugged"
        return f"<VirtualButtonBox port={self.port!r} seats={self.seats} {state}>"

    @property
    def port(self) -> str | None:
        """What the host should open: the link if one was given, else the current pty path."""
        return self.link or self._device

    @property
    def device(self) -> str | None:
        """The current pty slave path (``/dev/pts/N``), ``None`` while unplugged."""
        return self._device

    def unplug(self) -> None:
        """Pull the USB cable: the pty (and link) disappear, the host sees the port fail.

        The box stays powered (a self-powered box, or the host closing the port): presses made
        now wait in its outbox and reach the host after :meth:`plug`.
        """
        with self._lock:
            self._close_pty()

    def plug(self, reboot: bool = False) -> None:
        """Put the cable back: a new pty (the link follows it). ``reboot=True`` models a
        bus-powered box losing power: state, outbox and sequence numbers start afresh."""
        with self._lock:
            if reboot:
                self._power_up(None)
            if self._master is None:
                self._open_pty()

    # -- the player's side --------------------------------------------------------------------

    def _key(self, seat: int, button: str | int) -> tuple[int, int]:
        if not (isinstance(seat, int) and 0 <= seat < self.seats):
            raise ProtocolError(M("unknown seat %(seat)r: this box has seats 0..%(last)s", seat=seat, last=self.seats - 1))
        if isinstance(button, str):
            if button not in BUTTONS:
                raise ProtocolError(M("unknown button %(button)r; use one of %(buttons)s", button=button,
                                      buttons=", ".join(BUTTONS)))
            return seat, BUTTONS.index(button)
        if isinstance(button, int) and 0 <= button < len(BUTTONS):
            return seat, button
        raise ProtocolError(M("unknown button %(button)r", button=button))

    def press(self, seat: int, button: str, duration_ms: int | None = None) -> None:
        """Press and release ``button`` at ``seat`` (non-blocking). Presses at one seat are
        played in call order, each after the previous one's release has registered (one finger
        per seat), so rapid calls are never merged or reordered; different seats press at once.

        Raises:
            ProtocolError: unknown seat or button.
        """
        key = self._key(seat, button)
        dur = self.press_ms if duration_ms is None else int(duration_ms)
        if dur <= boxfw.DEBOUNCE_MS:
            raise ProtocolError(M("a press must last more than %(ms)s ms (debounce)", ms=boxfw.DEBOUNCE_MS))
        with self._lock:
            self._pending.append((key, dur))
            self.presses += 1

    def hold(self, seat: int, button: str, duration_ms: int = boxfw.HOLD_MS + 200) -> None:
        """Press and keep ``button`` down for ``duration_ms`` (default long enough for a hold
        event), then release. Raises ProtocolError as :meth:`press`."""
        self.press(seat, button, duration_ms)

    def down(self, seat: int, button: str) -> None:
        """Close the switch until :meth:`up` (keyboard-style). Raises ProtocolError."""
        key = self._key(seat, button)
        with self._lock:
            if key in self._held:
                raise ProtocolError(M("seat %(seat)s %(button)r is already down", seat=seat, button=button))
            self._held[key] = [self.now_ms(), None, None]  # at once: chords are allowed
            self.closed_log.append((key[0], key[1], self._held[key][0]))
            self.presses += 1

    def up(self, seat: int, button: str) -> None:
        """Open a switch closed by :meth:`down`. Raises ProtocolError."""
        key = self._key(seat, button)
        with self._lock:
            held = self._held.get(key)
            if held is not None and held[1] is None:
                held[1] = self.now_ms()

    def busy(self) -> bool:
        """True while a press is still being played or an event waits for the host's ACK."""
        with self._lock:
            return bool(self._pending or self._held or
                        (self._box is not None and self._box.outbox))

    def wait_idle(self, timeout: float = 5.0) -> bool:
        """Block until every press was played and acknowledged by a host; False on timeout."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if not self.busy():
                return True
            time.sleep(0.002)
        return False

    # -- what the host commanded ----------------------------------------------------------------

    def light_states(self) -> list[str]:
        """Each seat light's commanded state (``off``/``on``/``blink``/``fast``)."""
        with self._lock:
            return [LIGHT_STATES[c] for c in self.firmware.lights]

    def light_outputs(self) -> list[bool]:
        """Each seat LED's level right now (blink phase and press blips included)."""
        with self._lock:
            return self.firmware.light_outputs(self.now_ms())

    @property
    def firmware(self) -> boxfw.Box:
        """The running firmware state machine (read it, do not drive it): the box is started."""
        assert self._box is not None, "the virtual box is not started"
        return self._box

    # -- internals ------------------------------------------------------------------------------

    def _power_up(self, boot_id: int | None) -> None:
        if boot_id is None:
            boot_id = int.from_bytes(os.urandom(2), "big")
        self._box = boxfw.Box(self.seats, self.now_ms(), boot_id)
        self._tx = bytearray()
        self._held.clear()
        self._pending = []

    def _open_pty(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._device = os.ttyname(slave)
        self._tx = bytearray()
        if self.link:
            tmp = f"{self.link}.tmp{os.getpid()}"
            try:
                os.unlink(tmp)
            except FileNotFoundError:
                pass
            os.symlink(self._device, tmp)
            os.replace(tmp, self.link)

    def _close_pty(self) -> None:
        if self.link and self._device and os.path.islink(self.link):
            try:
                if os.readlink(self.link) == self._device:
                    os.unlink(self.link)
            except OSError:
                pass
        for fd in (self._master, self._slave):
            if fd is not None:
                try:
                    os.close(fd)
                except OSError:
                    pass
        self._master = self._slave = None
        self._device = None

    def _raw(self, now: int) -> list[int]:
        """Switch states for this scan. A finger stays down until the firmware has registered
        the press and stays up until it has registered the release, so a stalled scan thread
        (a loaded CI machine) can delay a press but never swallow one."""
        nb = len(BUTTONS)
        state = self.firmware.state
        if self._pending:
            keep = []
            busy = {seat for seat, _ in self._held}
            for key, dur in self._pending:
                if key[0] not in busy:  # one finger per seat: presses at a seat play in order
                    self._held[key] = [now, None if dur is None else now + dur, None]
                    self.closed_log.append((key[0], key[1], now))
                else:
                    keep.append((key, dur))
                busy.add(key[0])
            self._pending = keep
        masks = [0] * self.seats
        done = []
        for (seat, b), held in self._held.items():
            down, up, released = held
            registered = state[seat * nb + b]
            if released is None and up is not None and now >= up and registered:
                held[2] = released = now
            if released is None:
                closed, edge = True, down
            else:
                closed, edge = False, released
            if now - edge < self.bounce_ms and (now - edge) % 2 == 1:
                closed = not closed  # contact chatter right after the edge
            if released is not None and not registered and now - released >= self.bounce_ms:
                done.append((seat, b))
            if closed:
                masks[seat] |= 1 << b
        for key in done:
            del self._held[key]
        return masks

    def _run(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                master = self._master
            try:
                if master is not None:
                    ready, _, _ = select.select([master], [], [], boxfw.SCAN_MS / 1000)
                else:
                    ready = []
                    time.sleep(boxfw.SCAN_MS / 1000)
                with self._lock:
                    now = self.now_ms()
                    box = self.firmware
                    if ready and master is not None and self._master == master:
                        self._read(master, box, now)
                    if box.parser.pending() and now - self._last_rx_ms > 20:
                        box.idle(now)  # a partial host frame went stale (as firmware/main.py)
                    box.tick(now, self._raw(now))
                    out = box.take_output()
                    if self._master is None:
                        continue  # unplugged: nobody hears the box
                    self._tx.extend(out)
                    if len(self._tx) > TX_BACKLOG_MAX:
                        del self._tx[:len(self._tx) - TX_BACKLOG_MAX]
                        # keep whole frames: resync is the parser's job, but start at a SOF
                        i = self._tx.find(bytes((wire.SOF,)))
                        del self._tx[:max(i, 0)]
                    if self._tx:
                        try:
                            n = os.write(self._master, self._tx)
                            del self._tx[:n]
                        except BlockingIOError:
                            pass
            except OSError as exc:
                if exc.errno in (errno.EIO, errno.EBADF):
                    continue
                raise DeviceError(f"virtual button box failed: {exc}") from exc

    def _read(self, master: int, box: boxfw.Box, now: int) -> None:
        try:
            data = os.read(master, 4096)
        except BlockingIOError:
            return
        except OSError as exc:
            if exc.errno == errno.EIO:
                return
            raise
        if data:
            box.feed(data, now)
            self._last_rx_ms = now


_SHORT = re.compile(r"^(\d+)([yn+pok])(!?)$")

#: Keyboard shorthand for buttons in scripts: ``2y`` = seat 2 (pad 2, box index 1) presses ``yes``.
KEY_SHORTHAND = {"y": "yes", "n": "no", "+": "plus", "p": "plus", "o": "ok", "k": "ok"}

SCRIPT_HELP = N_("""\
Script / keyboard commands (one per line; seats are numbered 1..N as on the pads and the
dashboard: seat 3 is pad 3):
  press SEAT BUTTON [MS]   press and release (BUTTON: yes no plus ok), MS held (default 40)
  hold SEAT BUTTON [MS]    keep it down long enough for a hold event (default 800 ms)
  SEATk / SEATk!           shorthand: k = y (yes) n (no) + or p (plus) o (ok); ! = hold (3y = seat 3 Верю)
  wait MS                  pause
  idle                     wait until every press was acknowledged by the host
  unplug | plug | reboot   pull the USB cable / put it back / power-cycle the box
  lights                   print the seat light states the host commanded
  # ...                    comment""")


def _script_seat(text: str, vbox: VirtualButtonBox) -> int:
    """A script's seat number (1..N, as printed on the pads and shown on the dashboard) as the
    box's 0-based seat index.

    Raises:
        ProtocolError: not a seat of this box.
        ValueError: not a number.
    """
    n = int(text)
    if not 1 <= n <= vbox.seats:
        raise ProtocolError(M("unknown seat %(n)s: seats are numbered 1..%(seats)s, as on the pads and the dashboard",
                              n=n, seats=vbox.seats))
    return n - 1


#: a seat light's state in words (the protocol's word is the English: ``--light 2=blink`` takes it)
LIGHT_WORDS = {"off": MP("light", "off"), "on": MP("light", "on"), "blink": MP("light", "blink"),
               "fast": MP("light", "fast")}


def light_line(states, lang: str = "en") -> str:
    """``"lights: 1=off, 2=blink, …"`` — seat lights by seat number 1..N (as on the dashboard), in
    ``lang``: the states in its words («подсветка: 1=не горит, 2=мигает»), in English the
    protocol's own words (as ``--light 2=blink`` takes them); an unknown state as it is."""
    def said(st):
        word = LIGHT_WORDS.get(st)
        return render(word, lang) if word is not None else str(st)

    return render(M("lights: %(states)s", states=", ".join(f"{s + 1}={said(st)}" for s, st in enumerate(states))),
                  lang)


def run_script_line(vbox: VirtualButtonBox, line: str, out=None, lang: str = "en") -> None:
    """Execute one script line on ``vbox`` (syntax in :data:`SCRIPT_HELP`; seat numbers in a
    script are 1..N like the pads' labels, the box's seat index is that minus one).

    Raises:
        ProtocolError: unknown command, seat or button, or a malformed number.
    """
    line = line.split("#", 1)[0].strip()
    if not line:
        return
    parts = line.split()
    cmd = parts[0].lower()
    try:
        if cmd in ("press", "hold") and len(parts) in (3, 4):
            seat, button = _script_seat(parts[1], vbox), parts[2].lower()
            button = KEY_SHORTHAND.get(button, button)
            if cmd == "press":
                vbox.press(seat, button, int(parts[3]) if len(parts) == 4 else None)
            else:
                vbox.hold(seat, button, *([int(parts[3])] if len(parts) == 4 else []))
        elif cmd == "wait" and len(parts) == 2:
            time.sleep(int(parts[1]) / 1000)
        elif cmd == "idle" and len(parts) == 1:
            if not vbox.wait_idle(10.0):
                raise DeviceError(M("presses still unacknowledged after 10 s (is a host connected?)"))
        elif cmd == "unplug" and len(parts) == 1:
            vbox.unplug()
        elif cmd == "plug" and len(parts) == 1:
            vbox.plug()
        elif cmd == "reboot" and len(parts) == 1:
            vbox.unplug()
            vbox.plug(reboot=True)
        elif cmd == "lights" and len(parts) == 1:
            if out is not None:
                print(light_line(vbox.light_states(), lang), file=out, flush=True)
        elif len(parts) == 1 and (short := _SHORT.match(cmd)):
            pad, key, hold = short.groups()
            (vbox.hold if hold else vbox.press)(_script_seat(pad, vbox), KEY_SHORTHAND[key])
        else:
            raise ProtocolError(M("unknown command %(line)r", line=line))
    except ValueError as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(M("bad number in %(line)r: a whole number is needed", line=line)) from None
