"""The voice from the operator's console and the command line: its settings change while the
table runs (PIN and CSRF as every operator POST), «Проверить голос» speaks the check, and
``companion say`` speaks a line or writes a WAV."""

from __future__ import annotations

import shutil
import subprocess
import sys
import time
import wave

import pytest

from companion import voice as V
from companion.dashboard import create_app
from companion.table import Table
from tests.dashboard.helpers import operator_client, seat_client
from companion.commands import say
from companion.i18n import M, render


@pytest.fixture
def env(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    said = []
    voice = V.Voice(table, V.VoiceSettings(turn_s=0), say=lambda text, lang, vol, pace: said.append((text, lang, vol)),
                    available=(True, None)).start()
    yield table, app, voice, said
    voice.stop()
    app.extensions["companion"]["hub"].close()
    table.close()


def test_the_console_changes_the_voice_while_the_table_runs(env):
    table, app, voice, said = env
    op, csrf = operator_client(app, table)
    r = op.get("/api/operator/voice")
    assert r.status_code == 200 and r.get_json()["settings"] == V.VoiceSettings(turn_s=0).to_json()
    r = op.post("/api/operator/voice", json={"volume": 60, "lang": "en"}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and voice.settings.volume == 60 and voice.settings.lang == "en"
    r = op.post("/api/operator/voice", json={"pace": 5}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400 and r.get_json()["reason"] == "bad_voice" and "темп" in r.get_json()["message"]
    assert voice.settings.pace == 160  # nothing changed
    r = op.post("/api/operator/voice/test", json={}, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 200 and r.get_json()["queued"]
    deadline = time.monotonic() + 5
    while not said and time.monotonic() < deadline:
        time.sleep(0.02)
    assert said == [(V.phrase("test", "en"), "en", 60)]
    r = op.post("/api/operator/voice", json={"on": False}, headers={"X-CSRF-Token": csrf})
    assert r.get_json()["status"]["state"] == "unused" and table.status()["voice"]["state"] == "unused"
    # the operator only, with the CSRF token
    phone, pc = seat_client(app, table, 0)
    assert phone.get("/api/operator/voice").status_code == 403
    assert phone.post("/api/operator/voice", json={"on": True}, headers={"X-CSRF-Token": pc}).status_code == 403
    assert op.post("/api/operator/voice", json={"on": True}).status_code == 400


@pytest.mark.parametrize("body,kind", [("громче", "application/json"), ("{volume: 60", "application/json"),
                                       ("[60]", "application/json"), ("", "application/json"),
                                       ("volume=60", "application/x-www-form-urlencoded")])
def test_a_voice_change_that_is_not_a_json_object_is_told_so(env, body, kind):
    """Called by hand (curl) with a body that is not a JSON object: the answer says the body is not
    a JSON object — not that the text "holds characters that cannot be shown"."""
    table, app, voice, _said = env
    op, csrf = operator_client(app, table)
    r = op.post("/api/operator/voice", data=body.encode(), content_type=kind, headers={"X-CSRF-Token": csrf})
    assert r.status_code == 400
    got = r.get_json()
    assert got["detail"].startswith("bad_json"), got
    assert got["message"] == render(M("The request's body is not a JSON object: send one, with Content-Type: "
                                      "application/json."), "ru"), got["message"]
    assert voice.settings == V.VoiceSettings(turn_s=0)  # nothing changed
    op.set_cookie("lang", "en")
    r = op.post("/api/operator/voice", data=body.encode(), content_type=kind, headers={"X-CSRF-Token": csrf})
    assert "not a JSON object" in r.get_json()["message"], r.get_json()


def test_a_table_without_a_voice_says_so(fast_dir, counting):
    table = Table(fast_dir, pin="246810")
    table.new_game("counting", ["Аня", "Борис"])
    app = create_app(table, testing=True)
    try:
        op, csrf = operator_client(app, table)
        body = op.get("/api/operator/voice").get_json()
        assert body["running"] is False
        assert body["message"] == render(M("This table runs without a voice (it speaks under companion run)."), "ru")
        assert op.post("/api/operator/voice/test", json={}, headers={"X-CSRF-Token": csrf}).status_code == 409
        assert b"voice-setup" in op.get("/operator").data
    finally:
        app.extensions["companion"]["hub"].close()
        table.close()


def _say(*args, env=None):
    return subprocess.run([sys.executable, "-m", "companion", "say", *args], capture_output=True, text=True,
                          timeout=120, env=env)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (make test installs it)")
def test_companion_say_writes_a_wav(tmp_path):
    out = tmp_path / "check.wav"
    r = _say("--wav", str(out), "Череп!")
    assert r.returncode == 0, r.stderr
    assert "Записано" in r.stdout and "Череп!" in r.stdout
    with wave.open(str(out)) as w:
        assert w.getnframes() / w.getframerate() > 0.2
    r = _say("--lang", "en", "--wav", str(tmp_path / "en.wav"))
    assert r.returncode == 0 and "Voice check" in r.stdout


def test_companion_say_without_a_speaker_says_why(tmp_path):
    import os

    env = dict(os.environ, PATH=str(tmp_path))  # no espeak-ng, no aplay
    r = _say("Проверка", env=env)
    assert r.returncode == 1 and r.stderr.strip() == render(M(say.WORDS["no_espeak"]), "ru"), r.stderr
    r = _say("--volume", "900", "x", env=env)
    assert r.returncode == 2 and "громкость" in r.stderr


def test_companion_say_an_empty_text_says_it_is_empty(tmp_path):
    """`companion say ""` is a text left empty, not a sound-card problem: refused as such before
    the speaker is looked at (no espeak-ng on PATH here: a speaker check would say that)."""
    import os

    env = dict(os.environ, PATH=str(tmp_path))
    for text in ("", "   "):
        r = _say(text, env=env)
        assert r.returncode == 2, (text, r.stderr)
        assert "пуст" in r.stderr and "espeak-ng" not in r.stderr and "звуков" not in r.stderr, r.stderr
    r = _say("--lang", "en", "", env=env)
    assert r.returncode == 2 and "empty" in r.stderr, r.stderr
