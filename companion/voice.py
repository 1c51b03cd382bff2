"""The table's voice: short spoken announcements through espeak-ng (issue #23 item 3).

A subscriber on the table's event bus (:meth:`companion.table.Table.subscribe`): for the moments
a table listens for — «Череп!», «ХОЙ!», «Верю» / «Не верю» and how the check came out, the joker,
a prize, a note to the bank, the winner, and whose turn it is after a pause with no move — it
speaks one short sentence (Russian by default, English too): a game's moments are worded by its
presenter (``Presenter.spoken``, :func:`event_spoken`), the table's own by :data:`PHRASES`. Only
**public** events are looked at, and a sentence holds nothing but seat names and the phrase's own
words: never a serial, a card or a note that is face down (a deposit is «купюра в банк», not its
number).

Speech: ``espeak-ng -v <lang> -a <volume> -s <pace> --stdout`` (the text on its stdin, never on its
command line) piped to ``aplay -q``; :func:`write_wav` writes a WAV instead (``companion say
--wav``). With no espeak-ng, no aplay or no sound card the table goes on and its status says
«Голос: не используется — голос недоступен: …» with why (:func:`probe`); speech that fails later
says so the same way.

A burst of events never piles up minutes of speech: the queue holds :data:`QUEUE_MAX` sentences
(a full queue drops its least important one: a «whose turn» first, then «купюра в
банк», the oldest of them first), a sentence older than
:data:`STALE_S` is dropped unsaid, and «whose turn» is said only while the table still waits at
the version it was meant for. Rationale: docs/voice.md.

Settings changed on the operator's console (:meth:`Voice.configure`) take effect at the next
sentence and are kept in the data folder (:data:`SAVED_FILE`, written whole or not at all): the
next start speaks as the operator left it, over the settings file's ``[voice]``
(:func:`load_saved`).
"""

from __future__ import annotations

import logging
import os
import threading
import time
import weakref
from collections import deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Protocol

from companion.errors import CompanionError
from companion.i18n import M, N_, Message, render
from companion.speech import SPEAK_TIMEOUT_S, espeak_args, probe, speak, write_wav  # noqa: F401 (this module's API)

if TYPE_CHECKING:  # pragma: no cover
    from companion.games.spec import Spoken

log = logging.getLogger(__name__)

#: The table's own sentences: ``{key: message id}`` (English; the Russian is in the catalogue,
#: companion.i18n). ``%(name)s``/``%(names)s`` are seat names, nothing else. A game's moments
#: («Череп!», «Джокер!») are its presenter's (``Presenter.spoken``).
PHRASES: dict[str, str] = {
    "turn": N_("%(name)s, your turn."),
    "turn_two": N_("%(names)s, your turn."),
    "winner": N_("Game over. The winner: %(name)s!"),
    "winners": N_("Game over. The winners: %(names)s!"),
    "game_over": N_("Game over."),
    "test": N_("Voice check. The table is ready."),
}

# How much a sentence matters when a burst fills the queue: the least goes first (then the oldest).
# «whose turn» (0) goes before anything; a game's minor moment («купюра в банк», 1) before the rest
# (``Spoken.priority``, 2 by default), so «Череп!», «ХОЙ!», the winner outlast it.

#: Two names joined («Аня и Борис»).
AND = N_("%(first)s and %(last)s")

LANGS = ("ru", "en")
#: the voices' languages in words (the status says «espeak-ng, русский»)
LANGUAGE_NAMES = {"ru": N_("Russian"), "en": N_("English")}
QUEUE_MAX = 3
"""Sentences waiting at most; a burst beyond it drops the oldest (a «whose turn» first)."""

STALE_S = 12.0
"""A sentence not begun this many seconds after its event is dropped unsaid."""

VOLUME_RANGE = (0, 200)
"""espeak-ng's amplitude (``-a``): 100 is its default."""

PACE_RANGE = (80, 400)
"""Words per minute (espeak-ng ``-s``); 160 is a calm announcer."""

SAVED_FILE = "voice.json"
"""The operator's voice settings in the data folder (:meth:`Voice.configure` writes it, the next
start reads it back: :func:`load_saved`)."""


class VoiceError(CompanionError, ValueError):
    """A voice setting out of range or of the wrong type: ``VoiceError(M(...))``, a message with
    its facts (``str()`` English, :meth:`words` in a language)."""


#: the whole-number settings: ``{name: (range, message id of a value out of it)}``
_NUMBERS = {
    "volume": (VOLUME_RANGE, N_("voice 'volume' must be a whole number %(lo)s-%(hi)s, got %(value)s")),
    "pace": (PACE_RANGE, N_("voice 'pace' must be a whole number %(lo)s-%(hi)s, got %(value)s")),
    "turn_s": ((0, 600), N_("voice 'turn_s' must be a whole number %(lo)s-%(hi)s, got %(value)s")),
}


@dataclass
class VoiceSettings:
    """How the table speaks (``[voice]`` in the settings file, the operator page).

    Attributes:
        on: speak at all.
        lang: ``"ru"`` or ``"en"``.
        volume: espeak-ng amplitude, :data:`VOLUME_RANGE`.
        pace: words per minute, :data:`PACE_RANGE`.
        turn_s: seconds without a move before «whose turn» is said (0: never).
    """

    on: bool = True
    lang: str = "ru"
    volume: int = 100
    pace: int = 160
    turn_s: int = 20

    def check(self) -> "VoiceSettings":
        """Return self when every value is in range.

        Raises:
            VoiceError: a value of the wrong type or out of range, in both languages.
        """
        if not isinstance(self.on, bool):
            raise VoiceError(M("voice 'on' must be true or false"))
        if self.lang not in LANGS:
            raise VoiceError(M("voice 'lang' must be ru or en, got %(value)s", value=repr(self.lang)))
        for name, ((lo, hi), msgid) in _NUMBERS.items():
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
                raise VoiceError(M(msgid, lo=lo, hi=hi, value=repr(value)))
        return self

    def to_json(self) -> dict:
        return {"on": self.on, "lang": self.lang, "volume": self.volume, "pace": self.pace, "turn_s": self.turn_s}


# ---------------------------------------------------------------------------- what is said
def _lang(lang: str) -> str:
    return "en" if lang == "en" else "ru"


def phrase(key: str, lang: str = "ru", **names) -> str:
    """The sentence ``key`` of :data:`PHRASES` in ``lang`` with the seat names filled in."""
    return render(M(PHRASES[key], **names), _lang(lang))


def _names(names: list[str]) -> Message | str:
    if len(names) <= 1:
        return "".join(names)
    return M(AND, first=", ".join(names[:-1]), last=names[-1])


def event_spoken(event, seats, game: str | None) -> Spoken | None:
    """What the voice says for one event of the game ``game`` (its id), or ``None`` when it is
    not a moment the table says aloud: the game's presenter words it (``Presenter.spoken``). A
    private event (``private_to`` set) is never said."""
    if getattr(event, "private_to", None) is not None:
        return None
    from companion.games import registry

    spec = registry.find(game)
    if spec is None:
        return None
    try:
        return spec.presenter.spoken(event, list(seats))
    except Exception:  # the voice is a courtesy: a presenter's slip costs one sentence
        log.exception("the %s presenter could not word event %r aloud", game, getattr(event, "kind", None))
        return None


def event_phrase(event, seats, lang: str = "ru", game: str | None = None) -> str | None:
    """:func:`event_spoken`'s sentence rendered in ``lang``."""
    said = event_spoken(event, seats, game)
    return None if said is None else render(said.message, _lang(lang))


def winner_said(result, seats) -> Message:
    """«Игра окончена. Победитель: …» from a game's result (its ``winner_name``, ``winner`` or
    ``winners``: names or seats), else «Игра окончена.» Only names are taken from it: the
    result may list every player's notes."""
    result = result if isinstance(result, dict) else {}
    found: list[str] = []
    for key in ("winner_name", "winner", "winners"):
        value = result.get(key)
        items = value if isinstance(value, (list, tuple)) else [value]
        for item in items:
            if isinstance(item, int) and not isinstance(item, bool) and 0 <= item < len(seats):
                found.append(str(seats[item]))
            elif isinstance(item, str) and item in seats:
                found.append(item)
        if found:
            break
    found = list(dict.fromkeys(found))
    if len(found) == 1:
        return M(PHRASES["winner"], name=found[0])
    if found:
        return M(PHRASES["winners"], names=_names(found))
    return M(PHRASES["game_over"])


def turn_said(current, seats) -> Message | None:
    """«Ваш ход, Аня.» for the one or two seats the game waits for (more wait at once: nothing
    is said — everybody acts, nobody in particular is slow)."""
    names = [str(seats[s]) for s in current or () if isinstance(s, int) and 0 <= s < len(seats)]
    if len(names) == 1:
        return M(PHRASES["turn"], name=names[0])
    if len(names) == 2:
        return M(PHRASES["turn_two"], names=_names(names))
    return None


# ---------------------------------------------------------------------------- the subscriber
@dataclass
class _Line:
    text: str
    kind: str  # "turn" or "event"
    at: float
    version: int | None = None
    priority: int = 2


class _Table(Protocol):
    """What the voice needs of the table (:class:`companion.table.Table`; tests pass fakes)."""

    def subscribe(self, listener: Callable[[str, Any], None]) -> Callable[[], None]: ...
    def set_status(self, part: str, status: dict) -> None: ...
    def game_info(self) -> dict | None: ...


@dataclass
class Voice:
    """The table's voice (see module docstring): ``Voice(table, settings).start()``; :meth:`stop`
    ends it. ``say`` is the function that speaks (tests pass a recorder); ``available``: what
    :func:`probe` found, else probed at :meth:`start`."""

    table: _Table
    settings: VoiceSettings = field(default_factory=VoiceSettings)
    say: Callable[[str, str, int, int], None] = speak
    available: tuple[bool, Message | None] | None = None
    clock: Callable[[], float] = time.monotonic
    #: where the operator's changes are kept (:data:`SAVED_FILE` in the data folder), or ``None``
    keep: Path | None = None

    def __post_init__(self) -> None:
        self._lines: deque[_Line] = deque()
        self._cv = threading.Condition()
        self._turn: tuple[int, float, list] | None = None  # (version, due, seats) of «whose turn»
        self._said_turn: int | None = None
        self._stop = False
        self._thread: threading.Thread | None = None
        self._unsub: Callable[[], None] | None = None
        self.spoken: deque[tuple[float, str]] = deque(maxlen=50)  # (when said, text): the last ones

    # ------------------------------------------------------------ life
    def start(self) -> "Voice":
        if self.available is None:
            self.available = probe()
        _VOICES[self.table] = self
        self._report()
        self._unsub = self.table.subscribe(self._on_table)
        self._thread = threading.Thread(target=self._run, name="voice", daemon=True)
        self._thread.start()
        self._schedule_turn()
        return self

    def stop(self) -> None:
        if self._unsub is not None:
            self._unsub()
            self._unsub = None
        with self._cv:
            self._stop = True
            self._cv.notify_all()
        if self._thread is not None:
            self._thread.join(SPEAK_TIMEOUT_S + 5)
        if _VOICES.get(self.table) is self:
            del _VOICES[self.table]

    @property
    def ready(self) -> bool:
        """Voice on and this machine can speak."""
        return bool(self.settings.on and self.available and self.available[0])

    def configure(self, **changes) -> VoiceSettings:
        """Change settings (``on``, ``lang``, ``volume``, ``pace``, ``turn_s``) while running.

        Raises:
            VoiceError: an unknown name or a bad value (nothing changes then).
        """
        unknown = set(changes) - set(VoiceSettings().to_json())
        if unknown:
            raise VoiceError(M("unknown voice setting(s): %(names)s", names=", ".join(sorted(unknown))))
        new = VoiceSettings(**{**self.settings.to_json(), **changes}).check()
        with self._cv:
            self.settings = new
            if not new.on:
                self._lines.clear()
            self._cv.notify_all()
        self._report()
        if self.keep is not None:
            save(self.keep, new)
        return new

    def status(self) -> dict:
        """The voice's status part (:meth:`companion.table.Table.set_status`)."""
        ok, why = self.available or (False, M("voice not started"))
        if not ok:  # the table goes on without it: not a fault of the table
            said = why if why is not None else M("voice not started")
        elif not self.settings.on:
            said = M("voice turned off")
        else:
            said = M("espeak-ng, %(language)s", language=M(LANGUAGE_NAMES[_lang(self.settings.lang)]))
        return {"state": "ok" if ok and self.settings.on else "unused", "detail": render(said, "en"), "said": said}

    def _report(self) -> None:
        try:
            self.table.set_status("voice", self.status())
        except Exception:  # the status is a courtesy: the voice goes on
            log.exception("could not report the voice's status")

    # ------------------------------------------------------------ hearing the table
    def _on_table(self, kind: str, payload) -> None:
        if kind == "game":
            self._schedule_turn()
            return
        if kind != "action":
            return
        info = self.table.game_info()
        seats, game = (info["seats"], info.get("id")) if info else ([], None)
        lang = self.settings.lang
        for ev in payload.outcome.events:
            said = event_spoken(ev, seats, game)
            if said is not None:
                self.add(render(said.message, _lang(lang)), "event", priority=said.priority)
        if payload.over:
            self.add(render(winner_said(payload.result, seats), _lang(lang)), "event")
        self._schedule_turn(payload.version, [] if payload.over else list(payload.current_seats or ()))

    def _schedule_turn(self, version: int | None = None, current: list | None = None) -> None:
        if version is None or current is None:
            referee = getattr(self.table, "referee", None)
            if referee is None:
                with self._cv:
                    self._turn = None
                return
            try:
                with referee.lock:
                    version, over = referee.version, referee.game.is_over()
                    current = [] if over else list(referee.game.current_seats())
            except Exception:
                return
        with self._cv:
            self._turn = (version, self.clock() + self.settings.turn_s, current) if current else None
            self._cv.notify_all()

    def add(self, text: str, kind: str = "event", version: int | None = None, priority: int | None = None) -> bool:
        """Queue one sentence (see module docstring for the bound): a full queue drops its least
        important sentence, the oldest of them (``Spoken.priority``; the new one when it matters
        least); the same sentence already waiting is not queued twice. False when the voice is
        off or cannot speak, or the sentence was dropped."""
        if not self.ready:
            return False
        if priority is None:
            priority = 0 if kind == "turn" else 2
        with self._cv:
            if any(x.text == text for x in self._lines):
                return False
            line = _Line(text, kind, self.clock(), version, priority)
            if len(self._lines) >= QUEUE_MAX:
                least = min(self._lines, key=lambda x: x.priority)  # the oldest of the least
                if least.priority > priority:
                    return False
                self._lines.remove(least)
            self._lines.append(line)
            self._cv.notify_all()
        return True

    # ------------------------------------------------------------ speaking
    def _current_version(self) -> int | None:
        referee = getattr(self.table, "referee", None)
        return None if referee is None else referee.version

    def _run(self) -> None:
        while True:
            with self._cv:
                line: _Line | None = None
                while line is None and not self._stop:
                    now = self.clock()
                    if self._lines:
                        line = self._lines.popleft()
                        break
                    wait = None
                    if self._turn is not None and self.settings.turn_s > 0:
                        version, due, current = self._turn
                        if now >= due:
                            self._turn = None
                            if self._said_turn != version and self.ready:
                                info = self.table.game_info()
                                said = turn_said(current, info["seats"] if info else [])
                                text = render(said, _lang(self.settings.lang)) if said else None
                                if text:
                                    self._said_turn = version
                                    line = _Line(text, "turn", now, version)
                                    break
                            continue
                        wait = due - now
                    self._cv.wait(timeout=wait if wait is not None else 1.0)
                if self._stop or line is None:  # (line is set unless stopped)
                    return
                settings = self.settings
            if self.clock() - line.at > STALE_S:
                continue  # a burst went on too long: this one is old news
            if line.kind == "turn" and line.version != self._current_version():
                continue  # somebody moved meanwhile
            if not settings.on:
                continue
            try:
                self.say(line.text, settings.lang, settings.volume, settings.pace)
                self.spoken.append((self.clock(), line.text))
            except (OSError, RuntimeError, ValueError) as exc:
                log.warning("the voice could not speak: %s", exc)
                self.available = (False, M("voice unavailable: %(error)s", error=str(exc)))
                self._report()


_VOICES: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def save(path, settings: VoiceSettings) -> None:
    """Keep ``settings`` in ``path`` (:data:`SAVED_FILE`): replaced whole or not at all. A data
    folder that cannot be written costs the keeping, never the change (logged)."""
    import json

    from companion.durable import write_file

    try:
        write_file(path, json.dumps(settings.to_json(), ensure_ascii=False), mode=0o644)
    except OSError as exc:
        log.warning("could not keep the voice settings in %s: %s", path, exc)


def load_saved(path, base: VoiceSettings | None = None) -> VoiceSettings:
    """``base`` (the settings file's ``[voice]``, else the defaults) with what the operator kept in
    ``path`` over it. A missing file gives ``base``; an unreadable or damaged one, or a value out
    of range, is skipped with a warning in the log (the table speaks as ``base`` says)."""
    import json

    base = base if isinstance(base, VoiceSettings) else VoiceSettings()
    try:
        raw = json.loads(Path(path).read_text(encoding="utf-8"))
    except FileNotFoundError:
        return base
    except (OSError, ValueError) as exc:
        log.warning("the kept voice settings in %s cannot be read (%s): using the settings file's", path, exc)
        return base
    known = set(base.to_json())
    if not isinstance(raw, dict):
        log.warning("the kept voice settings in %s are not an object: using the settings file's", path)
        return base
    try:
        return VoiceSettings(**{**base.to_json(), **{k: v for k, v in raw.items() if k in known}}).check()
    except VoiceError as exc:
        log.warning("the kept voice settings in %s: %s; using the settings file's", path, exc)
        return base


def voice_of(table) -> Voice | None:
    """The running :class:`Voice` of ``table``, else ``None`` (the operator page asks)."""
    return _VOICES.get(table)


def attach(table, settings=None, **kw) -> Callable[[], None]:
    """Start the voice of ``table`` with the service's settings (their ``voice`` part, a
    :class:`VoiceSettings`, or the defaults) and what the operator kept in the table's data folder
    over them (:func:`load_saved`); returns the function that stops it. The one line
    :class:`companion.service.TableService` calls. ``kw``: more :class:`Voice` fields (tests)."""
    voice = getattr(settings, "voice", None)
    voice = voice if isinstance(voice, VoiceSettings) else VoiceSettings()
    if os.environ.get("COMPANION_VOICE", "").lower() in ("off", "0", "no"):
        return lambda: None  # the test suite, a machine that must stay quiet: no voice at all
    data_dir = getattr(table, "data_dir", None)
    keep = Path(data_dir) / SAVED_FILE if data_dir is not None else None
    if keep is not None:
        voice = load_saved(keep, voice)
    return Voice(table, voice, keep=keep, **kw).start().stop
