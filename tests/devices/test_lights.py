"""Table signals through gpiozero's MockFactory (real gpiozero device code, mock pins)."""

from __future__ import annotations

import time

import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.devices.firmware import load_pinmap
from companion.devices.lights import SOUNDS, TableLights
from gpiozero.tones import Tone

from tests.waiting import wait_for

PI = load_pinmap()["pi"]


class RecordingPWMPin(MockPWMPin):
    """A mock PWM pin that also records every frequency it was set to."""

    def _set_frequency(self, value):
        self.__dict__.setdefault("freqs", []).append(value)
        super()._set_frequency(value)


class FakeBox:
    def __init__(self):
        self.calls = []

    def set_light(self, seat, state):
        self.calls.append((seat, state))


@pytest.fixture
def table():
    factory = MockFactory(pin_class=RecordingPWMPin)
    box = FakeBox()
    lights = TableLights(4, box, pin_factory=factory)
    yield lights, factory, box
    lights.close()
    factory.reset()


def pin(factory, key):
    return factory.pin(PI[key]["gpio"])


def _levels(factory, key) -> set[float]:
    """The distinct levels the pin ``key`` has been set to so far (rounded to 0.01)."""
    return {round(s.state, 2) for s in pin(factory, key).states}


def test_whose_turn_and_who_must_act(table):
    lights, factory, box = table
    lights.show_turn(current=1, must_act=[2, 3])
    assert lights.seat_states == ["off", "on", "blink", "blink"]
    assert box.calls[-4:] == [(0, "off"), (1, "on"), (2, "blink"), (3, "blink")]
    assert pin(factory, "turn_light").state == 1
    lights.show_turn(current=None, must_act=[])
    assert lights.seat_states == ["off"] * 4 and pin(factory, "turn_light").state == 0
    with pytest.raises(ValueError, match="unknown seat"):
        lights.show_turn(current=7)


def test_alert_blinks_red_and_the_seats_fast(table):
    lights, factory, box = table
    lights.alert(seats=[0])
    red = pin(factory, "alert_light")
    # it blinks (gpiozero's blink thread: waited for, not slept on, so a loaded machine is no failure)
    assert wait_for(lambda: {s.state for s in red.states} >= {True, False}, 10)
    assert lights.seat_states[0] == "fast" and (0, "fast") in box.calls
    lights.alert(seats=[0], on=False)
    assert red.state == 0 and lights.seat_states[0] == "off"


def test_waiting_pulses_the_turn_light(table):
    lights, factory, _ = table
    lights.waiting()
    assert wait_for(lambda: len(_levels(factory, "turn_light")) > 3, 10), \
        _levels(factory, "turn_light")  # a fade, not on/off (that stays at 2 levels however long)


@pytest.mark.parametrize("name", sorted(SOUNDS))
def test_sounds_play_their_notes_then_silence(table, name):
    lights, factory, _ = table
    buzzer = pin(factory, "buzzer")
    buzzer.freqs = []  # forget the PWM set-up at construction
    lights.play(name, wait=True)
    expected = [Tone(n).frequency for n, _ in SOUNDS[name] if n is not None]
    played = [f for f in buzzer.freqs if f is not None]
    assert played == pytest.approx(expected)
    assert buzzer.state == 0  # silent afterwards


def test_a_new_sound_cuts_the_old_one(table):
    lights, factory, _ = table
    lights.failure()
    lights.success(wait=True)
    played = [f for f in pin(factory, "buzzer").freqs if f is not None]
    assert played[-3:] == pytest.approx([Tone(n).frequency for n, _ in SOUNDS["success"]])
    with pytest.raises(KeyError):
        lights.play("fanfare")


def test_with_the_virtual_box_pads_follow(tmp_path):
    from companion.devices.buttonbox import ButtonBox
    from companion.devices.virtualbox import VirtualButtonBox

    factory = MockFactory(pin_class=MockPWMPin)
    with VirtualButtonBox(seats=4) as vbox, ButtonBox(vbox.port) as box, \
            TableLights(4, box, pin_factory=factory) as lights:
        assert box.wait_connected(3.0)
        lights.show_turn(current=0, must_act=[3])
        deadline = time.monotonic() + 3
        while vbox.light_states() != ["on", "off", "off", "blink"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert vbox.light_states() == ["on", "off", "off", "blink"]
        assert "GPIO17" in repr(lights)


def test_default_pin_factory_is_mock_off_a_pi(tmp_path):
    from companion.devices.lights import default_pin_factory

    pi = tmp_path / "model"
    pi.write_bytes(b"Raspberry Pi 5 Model B Rev 1.0\x00")
    assert default_pin_factory(str(pi)) is None
    assert isinstance(default_pin_factory(str(tmp_path / "absent")), MockFactory)


class FakeGame:
    def __init__(self):
        self.waiting_for = [1]
        self.over = False

    def current_seats(self):
        return list(self.waiting_for)

    def is_over(self):
        return self.over


class FakeReferee:
    """The part of companion.referee.Referee that lights use: game, subscribe()."""

    def __init__(self):
        self.game = FakeGame()
        self.subscribers = []

    def subscribe(self, cb):
        self.subscribers.append(cb)
        return lambda: self.subscribers.remove(cb)

    def accept(self):
        for cb in list(self.subscribers):
            cb(self, object())


def test_follow_the_referee(table):
    lights, factory, box = table
    ref = FakeReferee()
    unsubscribe = lights.follow(ref)
    assert lights.seat_states == ["off", "blink", "off", "off"]  # shown at once
    ref.game.waiting_for = [0, 2, 3]  # several seats must answer (Верю / Не верю)
    ref.accept()
    assert lights.seat_states == ["blink", "off", "blink", "blink"]
    assert pin(factory, "turn_light").state == 1
    ref.game.waiting_for = []  # waiting for the camera: the turn light pulses
    ref.accept()
    assert lights.seat_states == ["off"] * 4
    assert wait_for(lambda: len(_levels(factory, "turn_light")) > 3, 10), _levels(factory, "turn_light")
    buzzer = pin(factory, "buzzer")
    buzzer.freqs = []
    ref.game.over = True
    ref.accept()
    lights._sound_thread.join()
    assert [f for f in buzzer.freqs if f is not None] == pytest.approx(
        [Tone(n).frequency for n, _ in SOUNDS["success"]])
    unsubscribe()
    assert ref.subscribers == []


def test_signal_outcome_sounds(table):
    lights, factory, _ = table
    buzzer = pin(factory, "buzzer")
    buzzer.freqs = []

    class Outcome:
        accepted = False

    lights.signal_outcome(Outcome())
    lights._sound_thread.join()
    assert [f for f in buzzer.freqs if f is not None] == pytest.approx(
        [Tone(n).frequency for n, _ in SOUNDS["failure"] if n])


def test_a_box_with_fewer_pads_than_the_lights_breaks_no_other_light(tmp_path):
    """A real box whose hello says 4 pads under lights made for 8 (the table started before the
    box said hello): the seats it lacks are skipped, the others and the turn light still show
    (before, the box's refusal of seat 5 stopped every light after it)."""
    from companion.devices.buttonbox import ButtonBox
    from companion.devices.virtualbox import VirtualButtonBox

    factory = MockFactory(pin_class=MockPWMPin)
    with VirtualButtonBox(seats=4) as vbox, ButtonBox(vbox.port) as box, \
            TableLights(8, box, pin_factory=factory) as lights:
        assert box.wait_connected(3.0)
        lights.show_turn(current=None, must_act=[1, 6])
        assert lights.seat_states[1] == "blink" and lights.seat_states[6] == "blink"
        assert pin(factory, "turn_light").state == 1
        deadline = time.monotonic() + 3
        while vbox.light_states() != ["off", "blink", "off", "off"] and time.monotonic() < deadline:
            time.sleep(0.01)
        assert vbox.light_states() == ["off", "blink", "off", "off"]
        lights.all_off()
