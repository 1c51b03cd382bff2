"""The table's voice (issue #23 item 3): what is said for the moments a table listens for, in
which voice, never a hidden fact; a burst never piles up; no espeak-ng or no sound card and the
table goes on with the status saying why. espeak-ng and aplay are fakes on PATH that record their
command line and what they were given; one test runs the real espeak-ng into a WAV."""

from __future__ import annotations

import json
import os
import shutil
import stat
import time
import wave

import pytest

from companion import voice as V
from companion.i18n import M, render
from companion.settings import Settings, SettingsError
from companion.table import Table

FAKE_ESPEAK = r'''#!/usr/bin/env python3
import json, os, sys
text = sys.stdin.buffer.read().decode("utf-8")
with open(os.environ["FAKE_VOICE_LOG"], "a", encoding="utf-8") as fh:
    fh.write(json.dumps({"argv": sys.argv[1:], "text": text}, ensure_ascii=False) + "\n")
if "-w" in sys.argv:
    open(sys.argv[sys.argv.index("-w") + 1], "wb").write(b"RIFF" + b"\0" * 100)
elif "--stdout" in sys.argv:
    sys.stdout.buffer.write(b"RIFF" + b"\0" * 100)
'''
FAKE_APLAY = r'''#!/bin/sh
if [ "$1" = "-l" ]; then
  [ -n "$FAKE_NO_CARD" ] && { echo "aplay: device_list:274: no soundcards found..." >&2; exit 1; }
  echo "**** List of PLAYBACK Hardware Devices ****"; echo "card 0: Fake [Fake], device 0: Fake [Fake]"; exit 0
fi
cat > /dev/null
'''

A = ["РЗ000002", "РЗ000004", "ЧР000001"]


def _serials(s):
    return [f"РЗ{s}000002", f"РЗ{s}000004", f"ЧР{s}000001"]


@pytest.fixture
def fake(tmp_path, monkeypatch):
    """espeak-ng and aplay fakes first on PATH; returns the function reading what was spoken."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for name, body in (("espeak-ng", FAKE_ESPEAK), ("aplay", FAKE_APLAY)):
        p = bin_dir / name
        p.write_text(body)
        p.chmod(p.stat().st_mode | stat.S_IXUSR)
    log = tmp_path / "spoken.jsonl"
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    monkeypatch.setenv("FAKE_VOICE_LOG", str(log))
    monkeypatch.delenv("COMPANION_VOICE", raising=False)

    def spoken():
        if not log.exists():
            return []
        return [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]

    return spoken


def _wait(cond, timeout=30.0):  # generous: a loaded 2-core machine stalls the voice thread
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if cond():
            return True
        time.sleep(0.02)
    return False


@pytest.fixture
def skull_table(fast_dir):
    table = Table(fast_dir, pin="246810")
    table.new_game("skull", ["Аня", "Борис"], {"notes_per_player": 3})
    yield table
    table.close()


def _play_skull_to_the_end(table):
    """Аня and Борис: a success, then Аня flips Борис's skull, pays, and is out: Борис wins."""
    lines = [f"table register 0 {','.join(_serials(0))} ?", f"table register 1 {','.join(_serials(1))} ?",
             "table dealer 1", "0 place", "1 place", "1 place", "0 place", "1 bid 3", "0 pass",
             f"table flip 1 {_serials(1)[1]}", f"table flip 1 {_serials(1)[0]}", f"table flip 0 {_serials(0)[0]}",
             f"table deposit 0 {_serials(0)[1]}",
             "1 place", "0 place", "0 bid 2", "1 pass", f"table flip 0 {_serials(0)[0]}",
             f"table flip 1 {_serials(1)[2]}", f"table deposit 0 {_serials(0)[0]}"]
    for line in lines:
        out = table.submit(line, "manual" if line.startswith("table") else "dashboard")
        assert out.accepted, (line, out.reason, out.detail)


def test_the_moments_are_said_in_the_russian_voice_and_nothing_hidden(fake, skull_table, monkeypatch):
    # the game is played in one burst, faster than a loaded machine speaks: the queue's bound
    # (its own test below) would drop moments here, so it is lifted for this test
    monkeypatch.setattr(V, "QUEUE_MAX", 100)
    voice = V.Voice(skull_table, V.VoiceSettings(turn_s=0)).start()
    try:
        assert voice.ready and skull_table.status()["voice"]["state"] == "ok"
        _play_skull_to_the_end(skull_table)
        won = render(M(V.PHRASES["winner"], name="Борис"), "ru")
        assert _wait(lambda: any(x["text"] == won for x in fake()))
    finally:
        voice.stop()
    said = fake()
    texts = [x["text"] for x in said]
    for msg in (M("Success! %(name)s made it.", name="Борис"), M("Skull! %(name)s.", name="Борис"),
                M("%(name)s: a note to the bank.", name="Аня")):
        assert render(msg, "ru") in texts, msg
    assert texts[-1] == render(M(V.PHRASES["winner"], name="Борис"), "ru")
    for x in said:  # the Russian voice, the text on stdin (never on the command line)
        assert x["argv"][:2] == ["-v", "ru"] and "--stdin" in x["argv"] and "--stdout" in x["argv"]
        assert x["text"] not in " ".join(x["argv"])
    # never a serial, nor which note lies face down
    everything = " ".join(texts)
    for serial in _serials(0) + _serials(1):
        assert serial not in everything
    assert "роза" not in everything.lower() and "rose" not in everything.lower()


def test_english_voice_volume_and_pace(fake, skull_table):
    voice = V.Voice(skull_table, V.VoiceSettings(lang="en", volume=150, pace=200, turn_s=0)).start()
    try:
        assert voice.add(V.phrase("test", "en"))
        assert _wait(lambda: fake())
    finally:
        voice.stop()
    x = fake()[0]
    assert x["text"] == "Voice check. The table is ready."
    assert x["argv"][:6] == ["-v", "en", "-a", "150", "-s", "200"]


def test_whose_turn_after_a_pause_only_while_nobody_moved(fake, skull_table):
    t = skull_table
    for line in (f"table register 0 {','.join(_serials(0))} ?", f"table register 1 {','.join(_serials(1))} ?",
                 "table dealer 1", "0 place", "1 place"):
        assert t.submit(line, "manual" if line.startswith("table") else "dashboard").accepted
    clock = [1000.0]
    voice = V.Voice(t, V.VoiceSettings(turn_s=20), clock=lambda: clock[0]).start()
    try:
        assert t.referee.game.current_seats() == [1]
        time.sleep(0.3)
        assert fake() == []  # not yet: the pause has not passed
        clock[0] += 21
        with voice._cv:
            voice._cv.notify_all()
        assert _wait(lambda: fake())
        assert fake()[0]["text"] == render(M(V.PHRASES["turn"], name="Борис"), "ru")
        time.sleep(0.3)
        assert len(fake()) == 1  # said once per wait, not again and again
        # a stale «whose turn» is dropped: someone moved before it was said
        voice.add("Ваш ход, Борис.", "turn", version=t.referee.version - 1)
        time.sleep(0.3)
        assert len(fake()) == 1
    finally:
        voice.stop()


def test_a_burst_never_piles_up(skull_table):
    said, gate = [], []

    def slow(text, lang, volume, pace):
        said.append(text)
        while not gate:
            time.sleep(0.01)

    voice = V.Voice(skull_table, V.VoiceSettings(turn_s=0), say=slow, available=(True, None)).start()
    try:
        voice.add("first")
        assert _wait(lambda: said == ["first"])
        voice.add("Ваш ход, Аня.", "turn", version=skull_table.referee.version)
        for i in range(10):
            voice.add(f"event {i}")
        assert len(voice._lines) == V.QUEUE_MAX
        assert [x.text for x in voice._lines] == ["event 7", "event 8", "event 9"]
        gate.append(True)
        assert _wait(lambda: len(said) == 4)
    finally:
        voice.stop()
    assert said == ["first", "event 7", "event 8", "event 9"]


def test_a_stale_sentence_is_dropped(skull_table):
    clock = [0.0]
    said = []
    voice = V.Voice(skull_table, V.VoiceSettings(turn_s=0), say=lambda *a: said.append(a[0]),
                    available=(True, None), clock=lambda: clock[0])
    voice._lines.append(V._Line("old news", "event", -V.STALE_S - 1))
    voice.start()
    try:
        voice.add("fresh")
        assert _wait(lambda: said)
    finally:
        voice.stop()
    assert said == ["fresh"]


def test_no_espeak_or_no_sound_card_the_table_goes_on(fake, skull_table, monkeypatch, tmp_path):
    monkeypatch.setenv("FAKE_NO_CARD", "1")
    voice = V.Voice(skull_table).start()
    try:
        st = skull_table.status()["voice"]
        assert st["state"] == "unused" and st["said"] == M("voice unavailable: no sound card (aplay -l lists none)")
        assert not voice.add("Джокер!")
        assert skull_table.submit(f"table register 0 {','.join(_serials(0))} ?", "manual").accepted
    finally:
        voice.stop()
    monkeypatch.setenv("PATH", str(tmp_path / "nothing"))
    assert V.probe() == (False, M("voice unavailable: espeak-ng is not installed"))


def test_turning_it_off_and_on_while_running(fake, skull_table):
    voice = V.Voice(skull_table, V.VoiceSettings(turn_s=0)).start()
    try:
        voice.configure(on=False)
        assert skull_table.status()["voice"]["state"] == "unused"
        assert not voice.add("Джокер!")
        voice.configure(on=True, volume=50)
        assert voice.add("Джокер!") and _wait(lambda: fake())
        assert fake()[0]["argv"][2:4] == ["-a", "50"]
        with pytest.raises(V.VoiceError):
            voice.configure(volume=900)
        with pytest.raises(V.VoiceError):
            voice.configure(loud=True)
    finally:
        voice.stop()


def test_each_game_words_its_moments_with_seat_names_only():
    """A game's moments are its presenter's (``Presenter.spoken``): a message whose only facts
    are seat names, and how much it matters in a burst (1: a minor moment)."""
    from companion.games.base import Event

    seats = ["Аня", "Борис", "Вера"]

    def said(game, event):
        s = V.event_spoken(event, seats, game)
        return None if s is None else (s.message.id, dict(s.message.facts), s.priority)

    assert said("infinity", Event("hoy", {"seat": 2, "card": "5H"})) == ("Hoy! %(name)s.", {"name": "Вера"}, 2)
    assert said("doubt", Event("answered", {"seat": 1, "answer": "doubt", "placer": 0})) \
        == ("%(name)s: I doubt it.", {"name": "Борис"}, 2)
    assert said("doubt", Event("answered", {"seat": 1, "answer": "believe", "placer": 0})) \
        == ("%(name)s: I believe.", {"name": "Борис"}, 2)
    assert said("doubt", Event("checked", {"true": False, "taker": 0, "kinds": ["mushroom"], "pile": 3})) \
        == ("False! %(taker)s takes the pile.", {"taker": "Аня"}, 2)
    assert said("doubt", Event("checked", {"true": True, "taker": None, "pile": 3})) == ("The pile is discarded.", {}, 1)
    assert said("hoggenheimer", Event("joker", {"turned": 3})) == ("The joker!", {}, 2)
    assert said("lottery", Event("prize_won", {"seat": 0, "card": "AS", "chips": 5})) \
        == ("A prize! %(name)s wins it.", {"name": "Аня"}, 2)
    assert said("skull", Event("note_to_bank", {"seat": 0, "serial": "РЗ0000002"})) \
        == ("%(name)s: a note to the bank.", {"name": "Аня"}, 1)
    assert said("skull", Event("outcome", {"outcome": "skull", "skull_owner": 1, "dealer": 0})) \
        == ("Skull! %(name)s.", {"name": "Борис"}, 2)
    # a private event is never said, nor an event that is no moment, nor another game's moment
    assert said("infinity", Event("hoy", {"seat": 2}, private_to=2)) is None
    assert said("skull", Event("flip", {"seat": 0, "serial": "РЗ0000002", "role": "rose"})) is None
    assert said("skull", Event("joker", {"turned": 3})) is None and said(None, Event("joker", {})) is None
    # the table's own: the winner(s), whose turn
    assert V.winner_said({"winners": ["Аня", "Вера"]}, seats).facts["names"].facts == {"first": "Аня", "last": "Вера"}
    assert V.winner_said({"winner": 1, "bank": ["РЗ0000002"]}, seats) == M(V.PHRASES["winner"], name="Борис")
    assert V.winner_said(None, seats) == M(V.PHRASES["game_over"])
    assert V.turn_said([0, 1, 2], seats) is None and V.turn_said([0], seats) == M(V.PHRASES["turn"], name="Аня")
    # one real sentence in each language
    checked = Event("checked", {"true": True, "taker": 1, "kinds": ["mushroom"], "pile": 3})
    assert V.event_phrase(checked, seats, "ru", "doubt") == "Правда! Стопку забирает Борис."
    assert render(V.turn_said([0, 2], seats), "en") == "Аня and Вера, your turn."


def test_voice_settings_in_the_settings_file(tmp_path):
    p = tmp_path / "s.toml"
    p.write_text('[voice]\non = false\nlang = "en"\nvolume = 80\npace = 140\nturn_s = 0\n', encoding="utf-8")
    s = Settings.load(p)
    assert s.voice == V.VoiceSettings(on=False, lang="en", volume=80, pace=140, turn_s=0)
    assert Settings.load().voice == V.VoiceSettings()
    p.write_text('[voice]\npace = 9000\n', encoding="utf-8")
    with pytest.raises(SettingsError) as err:
        Settings.load(p)
    assert "pace" in str(err.value) and "темп" in err.value.words("ru")
    p.write_text('[voice]\nloudness = 3\n', encoding="utf-8")
    with pytest.raises(SettingsError):
        Settings.load(p)


@pytest.mark.skipif(shutil.which("espeak-ng") is None, reason="espeak-ng is not installed (make test installs it)")
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_real_espeak_writes_every_phrase_to_a_wav(tmp_path, lang):
    from companion.games.base import Event

    names = {"name": "Аня", "names": "Аня и Борис", "taker": "Борис"}
    texts = {key: V.phrase(key, lang, **names) for key in V.PHRASES}
    for game, kind, data in (("skull", "outcome", {"outcome": "success", "dealer": 0}),
                             ("skull", "outcome", {"outcome": "skull", "skull_owner": 1}),
                             ("skull", "note_to_bank", {"seat": 0}), ("infinity", "hoy", {"seat": 1}),
                             ("doubt", "answered", {"seat": 1, "answer": "believe"}),
                             ("doubt", "answered", {"seat": 1, "answer": "doubt"}),
                             ("doubt", "checked", {"true": True, "taker": 1}),
                             ("doubt", "checked", {"true": False, "taker": 1}), ("doubt", "checked", {}),
                             ("hoggenheimer", "joker", {}), ("lottery", "prize_won", {"seat": 0})):
        texts[f"{game}-{kind}-{len(texts)}"] = V.event_phrase(Event(kind, data), ["Аня", "Борис"], lang, game)
    for key, text in texts.items():
        assert text, key
        path = V.write_wav(text, tmp_path / f"{key}.wav", lang)
        with wave.open(str(path)) as w:
            seconds = w.getnframes() / w.getframerate()
        assert 0.3 < seconds < 10, (key, seconds)


def test_the_service_line_starts_the_voice_and_quiet_mode_starts_none(fake, skull_table, monkeypatch):
    stop = V.attach(skull_table, Settings(voice=V.VoiceSettings(lang="en", turn_s=0)))
    try:
        running = V.voice_of(skull_table)
        assert running is not None and running.settings.lang == "en" and running.ready
    finally:
        stop()
    assert V.voice_of(skull_table) is None
    monkeypatch.setenv("COMPANION_VOICE", "off")
    V.attach(skull_table, Settings())()
    assert V.voice_of(skull_table) is None
