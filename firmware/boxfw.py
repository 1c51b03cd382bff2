"""Button-box firmware logic: debounce, press/release/hold, reliable link, seat lights.

Pure logic with no hardware access, written in the MicroPython subset so the same file runs on
the Pico (driven by ``firmware/main.py``, which owns ``machine``) and on CPython (driven by the
virtual box ``companion/devices/virtualbox.py`` and the tests). Time is passed in explicitly as
integer milliseconds from an arbitrary origin (monotonic, never wrapping on the caller's side).

Timing constants (docs/hardware.md, docs/protocol.md):

* the matrix is sampled every ``SCAN_MS`` = 1 ms;
* debounce: a key changes state after its raw reading has disagreed with the debounced state
  continuously for ``DEBOUNCE_MS`` = 5 ms (Omron B3F / Sanwa OBSF data sheets give bounce
  under 5 ms); any agreeing sample restarts the count;
* a key held for ``HOLD_MS`` = 600 ms emits one ``hold`` event;
* reliable frames are sent stop-and-wait: retransmitted after ``RTO_MS`` = 30 ms without ACK, at
  most ``MAX_RETRIES`` = 5 times; then the link counts as down and the head frame is re-offered
  only every ``PROBE_MS`` = 1000 ms, or at once when any valid host frame arrives;
* events wait in an outbox of ``OUTBOX_MAX`` = 64 frames; on overflow the oldest is dropped and
  counted (``dropped``, reported in every heartbeat, never silent);
* a heartbeat every ``HEARTBEAT_MS`` = 500 ms.
"""

try:
    from . import wire  # the packaged copy: companion.devices.firmware
except ImportError:
    import wire  # flat layout on the Pico and in firmware/

FIRMWARE_VERSION = "1.0.0"

SCAN_MS = 1
DEBOUNCE_MS = 5
HOLD_MS = 600
RTO_MS = 30
MAX_RETRIES = 5
PROBE_MS = 1000
HEARTBEAT_MS = 500
OUTBOX_MAX = 64
BLIP_MS = 80      # local feedback: a press inverts its seat light for this long
BLINK_HALF_MS = 250
FAST_HALF_MS = 100


class Box:
    """The whole firmware state machine for ``seats`` pads of ``len(wire.BUTTONS)`` buttons.

    Drive it with ``tick(now_ms, raw)`` every ``SCAN_MS`` and ``feed(data, now_ms)`` with bytes
    from the host; send what ``take_output()`` returns; drive the seat LEDs from
    ``light_outputs(now_ms)``.

    Args:
        seats: number of pads scanned (1..8 here; the protocol allows up to 255).
        now_ms: the current time in ms.
        boot_id: 16-bit id of this power-up, announced in HELLO so the host can tell a reboot
            (sequence numbers restart) from a reconnection (they continue).
    """

    def __init__(self, seats, now_ms, boot_id):
        self.seats = seats
        self.nbuttons = len(wire.BUTTONS)
        self.boot_id = boot_id & 0xFFFF
        self.start_ms = now_ms
        nkeys = seats * self.nbuttons
        self.state = [False] * nkeys      # debounced
        self.since = [-1] * nkeys         # when raw began to disagree with state, or -1
        self.pressed_at = [0] * nkeys
        self.hold_sent = [False] * nkeys
        self.mask = [0] * seats           # debounced state per seat, bit b = button b
        self.unstable = [0] * seats       # bits whose raw reading disagrees with the mask
        self.holding = [0] * seats        # bits pressed whose hold event is still due
        self.parser = wire.Parser()
        self.out = bytearray()
        self.outbox = []                  # [(seq, type, body)], head is in flight
        self.tx_seq = 0
        self.sent_at = -1                 # when the head was last sent, -1 = not yet
        self.retries = 0
        self.link_down = False
        self.dropped = 0
        self.info_seq = 0                 # SEQ of unreliable frames (HELLO, HEARTBEAT, ERROR)
        self.last_host_seq = -1           # last applied reliable host frame
        self.next_heartbeat = now_ms
        self.lights = [wire.L_OFF] * seats
        self.blip_until = [-1] * seats
        self._send_hello()

    # -- matrix -------------------------------------------------------------------------

    def tick(self, now_ms, raw):
        """One scan: ``raw[seat]`` is a bit mask of closed switches (bit b = ``wire.BUTTONS[b]``).

        Emits press/release/hold events into the outbox and runs the link timers.
        """
        nb = self.nbuttons
        for seat in range(self.seats):
            bits = raw[seat] if seat < len(raw) else 0
            if bits == self.mask[seat] and not self.unstable[seat] and not self.holding[seat]:
                continue  # the usual case: nothing moving at this pad (keeps a scan < 1 ms)
            for b in range(nb):
                k = seat * nb + b
                bit = 1 << b
                closed = bool(bits & bit)
                if closed == self.state[k]:
                    self.since[k] = -1
                    self.unstable[seat] &= ~bit
                    if closed and not self.hold_sent[k] and now_ms - self.pressed_at[k] >= HOLD_MS:
                        self.hold_sent[k] = True
                        self.holding[seat] &= ~bit
                        self._event(seat, b, wire.K_HOLD, now_ms)
                    continue
                if self.since[k] < 0:
                    self.since[k] = now_ms
                    self.unstable[seat] |= bit
                if now_ms - self.since[k] >= DEBOUNCE_MS:
                    self.state[k] = closed
                    self.since[k] = -1
                    self.unstable[seat] &= ~bit
                    if closed:
                        self.mask[seat] |= bit
                        self.holding[seat] |= bit
                        self.pressed_at[k] = now_ms
                        self.hold_sent[k] = False
                        self.blip_until[seat] = now_ms + BLIP_MS
                        self._event(seat, b, wire.K_PRESS, now_ms)
                    else:
                        self.mask[seat] &= ~bit
                        self.holding[seat] &= ~bit
                        self._event(seat, b, wire.K_RELEASE, now_ms)
        self.service(now_ms)

    def _event(self, seat, button, kind, now_ms):
        body = bytes((seat, button, kind)) + wire.u32(now_ms - self.start_ms)
        self._enqueue(wire.T_EVENT, body, now_ms)

    # -- reliable link --------------------------------------------------------------------

    def _enqueue(self, ftype, body, now_ms):
        if len(self.outbox) >= OUTBOX_MAX:
            self.outbox.pop(0)
            self.dropped += 1
            self.sent_at = -1
            self.retries = 0
        self.outbox.append((self.tx_seq, ftype, body))
        self.tx_seq = (self.tx_seq + 1) & 0xFF
        if len(self.outbox) == 1:
            self.sent_at = -1
            self.retries = 0
        self.service(now_ms)

    def service(self, now_ms):
        """Run the timers: (re)send the head of the outbox, send a heartbeat when due."""
        if self.outbox:
            seq, ftype, body = self.outbox[0]
            if self.sent_at < 0:
                self._send_head(now_ms)
            elif self.link_down:
                if now_ms - self.sent_at >= PROBE_MS:
                    self._send_head(now_ms)
            elif now_ms - self.sent_at >= RTO_MS:
                if self.retries >= MAX_RETRIES:
                    self.link_down = True
                    if now_ms - self.sent_at >= PROBE_MS:
                        self._send_head(now_ms)
                else:
                    self.retries += 1
                    self._send_head(now_ms)
        if now_ms >= self.next_heartbeat:
            self.next_heartbeat = now_ms + HEARTBEAT_MS
            body = (wire.u32(now_ms - self.start_ms) + bytes((min(len(self.outbox), 255),))
                    + bytes(((self.dropped >> 8) & 0xFF, self.dropped & 0xFF)))
            self._send_info(wire.T_HEARTBEAT, body)

    def _send_head(self, now_ms):
        seq, ftype, body = self.outbox[0]
        self.out.extend(wire.encode(ftype, seq, body))
        self.sent_at = now_ms

    def _send_info(self, ftype, body):
        self.out.extend(wire.encode(ftype, self.info_seq, body))
        self.info_seq = (self.info_seq + 1) & 0xFF

    def _send_hello(self):
        text = "fw=%s proto=%d seats=%d boot=%04x" % (
            FIRMWARE_VERSION, wire.PROTOCOL_VERSION, self.seats, self.boot_id)
        self._send_info(wire.T_HELLO, text.encode())

    def _link_up(self, now_ms):
        if self.link_down or self.retries:
            self.link_down = False
            self.retries = 0
            if self.outbox:
                self._send_head(now_ms)

    # -- host frames ------------------------------------------------------------------------

    def feed(self, data, now_ms):
        """Bytes from the host: parse, apply, acknowledge."""
        for ftype, seq, body in self.parser.feed(data):
            self._handle(ftype, seq, body, now_ms)

    def idle(self, now_ms):
        """The host line has been quiet for a while: let the parser drop a stale candidate."""
        for ftype, seq, body in self.parser.idle():
            self._handle(ftype, seq, body, now_ms)

    def _handle(self, ftype, seq, body, now_ms):
        if ftype == wire.T_HOST_ACK:
            if self.outbox and self.outbox[0][0] == seq:
                self.outbox.pop(0)
                self.sent_at = -1
                self.retries = 0
                self.link_down = False
                self.service(now_ms)
            else:
                self._link_up(now_ms)
        elif ftype == wire.T_HELLO_REQ:
            self._send_hello()
            self.last_host_seq = -1  # a new host session numbers its frames afresh
            self.link_down = False
            self.retries = 0
            if self.outbox:
                self._send_head(now_ms)
        elif ftype == wire.T_LIGHT:
            self.out.extend(wire.encode(wire.T_ACK, seq))
            if seq != self.last_host_seq:
                self.last_host_seq = seq
                self._light(seq, body)
            self._link_up(now_ms)
        else:
            self._error(wire.E_UNKNOWN_TYPE, ftype, seq)

    def _light(self, seq, body):
        if len(body) != 2:
            self._error(wire.E_BAD_BODY, wire.T_LIGHT, seq)
            return
        seat, state = body[0], body[1]
        if state >= len(wire.LIGHT_STATES):
            self._error(wire.E_BAD_STATE, wire.T_LIGHT, seq)
        elif seat == wire.ALL_SEATS:
            for s in range(self.seats):
                self.lights[s] = state
        elif seat < self.seats:
            self.lights[seat] = state
        else:
            self._error(wire.E_BAD_SEAT, wire.T_LIGHT, seq)

    def _error(self, code, ftype, seq):
        self._send_info(wire.T_ERROR, bytes((code, ftype, seq)))

    # -- outputs ------------------------------------------------------------------------------

    def take_output(self):
        """Bytes to write to the host since the last call (whole frames only)."""
        data = bytes(self.out)
        self.out = bytearray()
        return data

    def light_outputs(self, now_ms):
        """Seat LED levels now: list of bools, one per seat (blink phases and press blips)."""
        levels = []
        for s in range(self.seats):
            st = self.lights[s]
            if st == wire.L_ON:
                on = True
            elif st == wire.L_BLINK:
                on = (now_ms // BLINK_HALF_MS) % 2 == 0
            elif st == wire.L_FAST:
                on = (now_ms // FAST_HALF_MS) % 2 == 0
            else:
                on = False
            if now_ms < self.blip_until[s]:
                on = not on
            levels.append(on)
        return levels
