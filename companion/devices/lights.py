"""Table signals on the Pi's own GPIO (gpiozero): turn light, alert light, buzzer; seat lights.

:class:`TableLights` drives the devices named in the pin map's ``pi`` section
(hardware/pinmap.json): an amber *turn* light (PWMLED), a red *alert* light (LED) and a passive
buzzer (TonalBuzzer). It also forwards per-seat states to the button box's pad lights through
any object with ``set_light(seat, state)`` (a :class:`~companion.devices.buttonbox.ButtonBox`).

The pin factory is injected (gpiozero's ``pin_factory``): on a Pi gpiozero picks lgpio; elsewhere
pass ``gpiozero.pins.mock.MockFactory(pin_class=MockPWMPin)`` -- :func:`mock_factory` builds one.
No ``if on_pi`` anywhere: the caller chooses.

Signals (docs/hardware.md):

* whose turn: that seat's pad light steady on; seats that must act (answer Верю / Не верю,
  bid) blink at 2 Hz; the Pi's turn light is on while anyone must act, pulses while the table
  waits for the camera or the operator;
* alert: the red light blinks (1 Hz) and the pad lights of the seats concerned blink fast;
* sounds: ``success`` (rising C5-E5-G5), ``failure`` (falling G4-C4), ``attention`` (two A5).
"""

from __future__ import annotations

import threading
from typing import Iterable, Protocol

from gpiozero import LED, PWMLED, TonalBuzzer
from gpiozero.tones import Tone

from companion.devices.firmware import load_pinmap
from companion.errors import ProtocolError

#: Melodies as (note, seconds) pairs; ``None`` is a rest. Range A2..A6 (TonalBuzzer octaves=2).
SOUNDS: dict[str, tuple[tuple[str | None, float], ...]] = {
    "success": (("C5", 0.08), ("E5", 0.08), ("G5", 0.16)),
    "failure": (("G4", 0.15), (None, 0.03), ("C4", 0.30)),
    "attention": (("A5", 0.07), (None, 0.07), ("A5", 0.07)),
}


class SeatLights(Protocol):
    """Anything that can set a pad light: ``set_light(seat, "off"|"on"|"blink"|"fast")``."""

    def set_light(self, seat: int, state: str) -> None: ...


def mock_factory():
    """A gpiozero MockFactory whose pins support PWM (for the buzzer and the turn light)."""
    from gpiozero.pins.mock import MockFactory, MockPWMPin

    return MockFactory(pin_class=MockPWMPin)


def default_pin_factory(model_file: str = "/proc/device-tree/model"):
    """``None`` (gpiozero's own choice: real pins) on a Raspberry Pi, else :func:`mock_factory`.

    The one place that decides; pass its result as ``pin_factory``. A Pi is recognised by
    "Raspberry Pi" in ``model_file``.
    """
    try:
        with open(model_file, "rb") as f:
            if b"Raspberry Pi" in f.read():
                return None
    except OSError:
        pass
    return mock_factory()


class TableLights:
    """The Pi-side table signals (context manager; ``close()`` releases the pins).

    Args:
        seats: number of seats at the table (pad lights 0..seats-1).
        seat_lights: where pad-light states go (a ButtonBox), or ``None`` for none.
        pin_factory: a gpiozero pin factory (``None``: gpiozero's default, real pins on a Pi).
        pinmap: the pin map dict (default: the packaged hardware/pinmap.json).

    Raises:
        gpiozero.GPIOZeroError: a pin is in use or unavailable (from gpiozero).
    """

    def __init__(self, seats: int, seat_lights: SeatLights | None = None, *, pin_factory=None,
                 pinmap: dict | None = None) -> None:
        pi = (pinmap or load_pinmap())["pi"]
        self.seats = seats
        self.seat_lights = seat_lights
        self.turn_light = PWMLED(pi["turn_light"]["gpio"], pin_factory=pin_factory)
        self.alert_light = LED(pi["alert_light"]["gpio"], pin_factory=pin_factory)
        self.buzzer = TonalBuzzer(pi["buzzer"]["gpio"], octaves=2, pin_factory=pin_factory)
        self.seat_states: list[str] = ["off"] * seats
        self._sound_stop = threading.Event()
        self._sound_thread: threading.Thread | None = None

    def __enter__(self) -> "TableLights":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return (f"<TableLights turn={self.turn_light.pin} alert={self.alert_light.pin} "
                f"buzzer={self.buzzer.pwm_device.pin} seats={self.seat_states}>")

    def close(self) -> None:
        """Stop any sound and release the GPIO pins."""
        self._stop_sound()
        for dev in (self.turn_light, self.alert_light, self.buzzer):
            dev.close()

    # -- seats --------------------------------------------------------------------------------

    def _set_seat(self, seat: int, state: str) -> None:
        self.seat_states[seat] = state
        if self.seat_lights is not None:
            try:
                self.seat_lights.set_light(seat, state)
            except ProtocolError:
                # a seat the box has no pad for (its hello said fewer pads than the table was
                # started with): that seat plays on its phone; the other pads and lights go on
                pass

    def show_turn(self, current: int | None = None, must_act: Iterable[int] = ()) -> None:
        """Show whose turn it is and who must act.

        Args:
            current: the seat whose turn it is (pad light steady on), or ``None``.
            must_act: seats that must answer now (pad lights blink 2 Hz); may include
                ``current``, which then blinks.

        Raises:
            ValueError: a seat outside 0..seats-1.
        """
        acting = set(must_act)
        for seat in acting | ({current} if current is not None else set()):
            if not (isinstance(seat, int) and 0 <= seat < self.seats):
                raise ValueError(f"unknown seat {seat!r}: the table has seats 0..{self.seats - 1}")
        for seat in range(self.seats):
            if seat in acting:
                state = "blink"
            elif seat == current:
                state = "on"
            else:
                state = "off"
            self._set_seat(seat, state)
        if acting or current is not None:
            self.turn_light.on()
        else:
            self.turn_light.off()

    def waiting(self) -> None:
        """The table waits for a physical step (camera read, operator): turn light pulses."""
        self.turn_light.pulse(fade_in_time=0.5, fade_out_time=0.5)

    def alert(self, seats: Iterable[int] = (), on: bool = True) -> None:
        """Raise (or clear, ``on=False``) the alert: red light blinks 1 Hz, the pads of
        ``seats`` blink fast. Clearing turns the red light and those pads off."""
        if on:
            self.alert_light.blink(on_time=0.5, off_time=0.5)
        else:
            self.alert_light.off()
        for seat in seats:
            if 0 <= seat < self.seats:
                self._set_seat(seat, "fast" if on else "off")

    def all_off(self) -> None:
        """Every light off, sound stopped."""
        self._stop_sound()
        self.turn_light.off()
        self.alert_light.off()
        for seat in range(self.seats):
            self._set_seat(seat, "off")

    # -- following the referee -------------------------------------------------------------------

    def follow(self, referee):
        """Subscribe to ``referee`` (a :class:`companion.referee.Referee`): after every accepted
        action the seats the game waits for (``game.current_seats()``) blink and the turn light is
        on; when it waits for the table (camera, operator) the turn light pulses; when the game
        ends every light goes off and the success sound plays. Returns the unsubscribe function.
        """

        def on_outcome(ref, outcome) -> None:
            game = ref.game
            if game.is_over():
                self.all_off()
                self.success()
                return
            seats = [s for s in game.current_seats() if 0 <= s < self.seats]
            if seats:
                self.show_turn(must_act=seats)
            else:
                self.show_turn()
                self.waiting()

        on_outcome(referee, None)  # show the current state at once
        return referee.subscribe(on_outcome)

    def signal_outcome(self, outcome) -> None:
        """Sound for the player who acted: ``success`` when ``outcome.accepted``, else ``failure``
        (the referee's rejections reach only the submitter, so the button input calls this)."""
        if outcome.accepted:
            self.success()
        else:
            self.failure()

    # -- sounds -------------------------------------------------------------------------------

    def play(self, name: str, wait: bool = False) -> None:
        """Play the sound ``name`` (``success``, ``failure``, ``attention``); non-blocking
        unless ``wait``. A new sound cuts the one playing.

        Raises:
            KeyError: unknown sound name.
        """
        notes = SOUNDS[name]
        self._stop_sound()
        self._sound_stop = stop = threading.Event()
        thread = threading.Thread(target=self._play, args=(notes, stop), daemon=True,
                                  name=f"sound-{name}")
        self._sound_thread = thread
        thread.start()
        if wait:
            thread.join()

    def success(self, wait: bool = False) -> None:
        """Rising three-note chime: an action was accepted / a call was right."""
        self.play("success", wait)

    def failure(self, wait: bool = False) -> None:
        """Falling two-note tone: an action was rejected / a call was wrong."""
        self.play("failure", wait)

    def attention(self, wait: bool = False) -> None:
        """Two short beeps: someone must act or the operator is needed."""
        self.play("attention", wait)

    def _play(self, notes, stop: threading.Event) -> None:
        try:
            for note, seconds in notes:
                if stop.is_set():
                    break
                if note is None:
                    self.buzzer.stop()
                else:
                    self.buzzer.play(Tone(note))
                if stop.wait(seconds):
                    break
        finally:
            self.buzzer.stop()

    def _stop_sound(self) -> None:
        self._sound_stop.set()
        thread = self._sound_thread
        if thread is not None and thread is not threading.current_thread():
            thread.join(timeout=1.0)
        self._sound_thread = None
