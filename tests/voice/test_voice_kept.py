"""Voice settings set on the operator's console take effect at the next sentence and survive a
restart (``voice.json`` in the data folder over the settings file's ``[voice]``): through the real
HTTP endpoint of a served dashboard, logged in with the PIN, and the voice as the table service
starts it (:func:`companion.voice.attach`)."""

from __future__ import annotations

import json
import logging
import time

import pytest

from companion import voice as V
from companion import statuswords as W
from companion.dashboard import DashboardServer
from companion.i18n import M, render
from companion.settings import Settings
from companion.table import Table
from tests.operator_http import Operator

PIN = "246810"
OK = (True, None)


class Table_:
    """A table served on a free port with its voice started as the service starts it; what the
    voice says is recorded (``(text, lang, volume, pace)``) instead of played."""

    def __init__(self, data_dir, settings=None) -> None:
        logging.getLogger("werkzeug").setLevel(logging.ERROR)
        self.said: list[tuple] = []
        self.table = Table(data_dir, pin=PIN)
        if self.table.referee is None:
            self.table.new_game("counting", ["Аня", "Борис"])
        self.stop_voice = V.attach(self.table, settings, available=OK,
                                   say=lambda text, lang, vol, pace: self.said.append((text, lang, vol, pace)))
        self.voice = V.voice_of(self.table)
        self.server = DashboardServer(self.table, port=0).start()
        self.op = Operator(self.server.url)
        status, _ = self.op.login(PIN)
        assert status == 200

    def heard(self, n: int, timeout: float = 5.0) -> list[tuple]:
        deadline = time.monotonic() + timeout
        while len(self.said) < n and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.said

    def close(self) -> None:
        self.server.stop()
        self.stop_voice()
        self.table.close()


@pytest.fixture
def voiced(monkeypatch, counting):
    monkeypatch.setenv("COMPANION_VOICE", "on")  # conftest keeps the suite quiet: this test hears
    opened = []

    def open_(data_dir, settings=None):
        opened.append(Table_(data_dir, settings))
        return opened[-1]

    yield open_
    for t in opened:
        t.close()


def test_console_voice_settings_act_at_once_and_survive_a_restart(fast_dir, voiced):
    file_voice = V.VoiceSettings(volume=90, pace=150, turn_s=0)  # the settings file's [voice]
    settings = Settings(data_dir=fast_dir, voice=file_voice)
    first = voiced(fast_dir, settings)
    status, got = first.op.get_json("api/operator/voice")
    assert status == 200 and got["settings"] == file_voice.to_json()
    assert not (fast_dir / V.SAVED_FILE).exists()  # nothing kept before the operator changes anything

    status, got = first.op.post_json("api/operator/voice", {"lang": "en", "volume": 140, "pace": 220})
    assert status == 200 and got["settings"]["lang"] == "en", got
    # at once: the very next sentence is said in English, louder and faster
    status, got = first.op.post_json("api/operator/voice/test", {})
    assert status == 200 and got["queued"]
    assert first.heard(1) == [(V.phrase("test", "en"), "en", 140, 220)]
    assert json.loads((fast_dir / V.SAVED_FILE).read_text(encoding="utf-8"))["volume"] == 140

    status, got = first.op.post_json("api/operator/voice", {"on": False})
    assert status == 200 and got["status"]["state"] == "unused"
    # the page's status words in both languages (the message itself stays on the table)
    assert "said" not in got["status"] and got["status"]["words"] == W.words("voice", first.voice.status())
    assert got["status"]["words"]["en"]["detail"] == render(M("voice turned off"), "en")
    status, got = first.op.post_json("api/operator/voice/test", {})
    assert status == 200 and not got["queued"]  # off: nothing more is said
    assert got["status"]["words"]["ru"]["detail"] == render(M("voice turned off"), "ru")
    status, got = first.op.post_json("api/operator/voice", {"pace": 999})  # refused: nothing kept
    assert status == 400 and got["reason"] == "bad_voice"
    first.close()

    # the restart: the same data folder and settings file; the operator's choice is back
    again = voiced(fast_dir, settings)
    status, got = again.op.get_json("api/operator/voice")
    assert status == 200
    assert got["settings"] == {"on": False, "lang": "en", "volume": 140, "pace": 220, "turn_s": 0}, got
    assert again.voice.settings == V.VoiceSettings(on=False, lang="en", volume=140, pace=220, turn_s=0)
    status, got = again.op.post_json("api/operator/voice", {"on": True, "lang": "ru"})
    assert status == 200
    again.op.post_json("api/operator/voice/test", {})
    assert again.heard(1) == [(V.phrase("test", "ru"), "ru", 140, 220)]


def test_a_damaged_kept_file_falls_back_to_the_settings_file(fast_dir, voiced, caplog):
    (fast_dir / V.SAVED_FILE).write_text('{"volume": 5000', encoding="utf-8")  # cut short
    t = voiced(fast_dir, Settings(data_dir=fast_dir, voice=V.VoiceSettings(pace=120, turn_s=0)))
    assert t.voice.settings == V.VoiceSettings(pace=120, turn_s=0)
    assert "voice settings" in caplog.text
    (fast_dir / V.SAVED_FILE).write_text('{"volume": 5000}', encoding="utf-8")  # out of range
    assert V.load_saved(fast_dir / V.SAVED_FILE, V.VoiceSettings(pace=120)) == V.VoiceSettings(pace=120)
    (fast_dir / V.SAVED_FILE).write_text('{"volume": 50, "colour": "blue"}', encoding="utf-8")
    assert V.load_saved(fast_dir / V.SAVED_FILE).volume == 50  # an unknown key is left aside
