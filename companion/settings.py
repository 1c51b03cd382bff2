"""Settings of one table service (``companion run``): defaults, a TOML file, then command-line flags.

A settings file is TOML (``tomllib``, standard library)::

    game = "skull"
    seats = ["Аня", "Борис", "Вера"]
    data_dir = "/var/lib/companion"
    port = 8080

    [options]
    notes_per_player = 4

    club = "mqtt://table3:PASSWORD@192.168.1.10:1883/vecher"   # club mode (docs/club.md); "" = off

    [voice]               # the table's voice (companion/voice.py, docs/voice.md)
    on = true             # false: silent
    lang = "ru"           # ru | en
    volume = 100          # 0-200 (espeak-ng amplitude)
    pace = 160            # words per minute, 80-400
    turn_s = 20           # seconds without a move before «whose turn» is said; 0: never

    [backends]            # "auto" picks the real device on a Pi and the simulated one elsewhere
    camera = "auto"       # auto | picamera2 | opencv:0 | opencv:URL | folder:PATH | image:PATH | scene
    buttons = "auto"      # auto | virtual | a serial URL/port, e.g. /dev/buttonbox
    lights = "auto"       # auto | gpio | mock | none

Unknown keys are an error (a typo must not silently fall back to a default).
"""

from __future__ import annotations

import dataclasses
import logging
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from companion.errors import CompanionError
from companion.i18n import M, MP, N_, NC_
from companion.voice import VoiceError, VoiceSettings

log = logging.getLogger(__name__)


class SettingsError(CompanionError, ValueError):
    """A settings file or flag is malformed (unknown key, wrong type, unreadable file). Raised
    with a message (:meth:`CompanionError.words`): ``companion run`` prints it in the console's
    language."""


#: a setting's type by its Python name, for "must be …" (context ``setting type``)
_TYPES = {str: NC_("setting type", "str"), bool: NC_("setting type", "bool"), int: NC_("setting type", "int"),
          dict: NC_("setting type", "dict")}

#: an OS error's usual causes (``errno`` name → the C library's words, message ids), else its text
_OS_WORDS = {"ENOENT": N_("No such file or directory"), "EACCES": N_("Permission denied"),
             "EISDIR": N_("Is a directory"), "ENOTDIR": N_("Not a directory")}


def _os_words(exc: OSError):
    """Why a file could not be read: a message when the cause is a usual one."""
    import errno

    told = _OS_WORDS.get(errno.errorcode.get(exc.errno or 0, ""))
    return M(told) if told and told == exc.strerror else (exc.strerror or str(exc))


def toml_place(exc: tomllib.TOMLDecodeError) -> tuple[int, int] | None:
    """Where ``exc`` found the mistake: ``(line, column)`` from 1, ``(0, 0)`` at the end of the
    file, ``None`` when it does not say. Python 3.14's ``lineno``/``colno`` when there, else the
    ``(at line N, column M)`` of its message (3.11–3.13)."""
    line, column = getattr(exc, "lineno", None), getattr(exc, "colno", None)
    if isinstance(line, int) and isinstance(column, int):
        return line, column
    found = re.search(r"\(at line (\d+), column (\d+)\)\s*$", str(exc))
    if found:
        return int(found[1]), int(found[2])
    return (0, 0) if str(exc).rstrip().endswith("(at end of document)") else None


def _toml_words(exc: tomllib.TOMLDecodeError, path: str):
    """A settings file that is not TOML, in words: where (line and column), never tomllib's English."""
    place = toml_place(exc)
    if place is None:
        return M("%(path)s: not valid TOML", path=path)
    if place == (0, 0):
        return M("%(path)s: not valid TOML at the end of the file: something is left unfinished "
                 "(a bracket or quotes not closed?)", path=path)
    return M("%(path)s: not valid TOML at line %(line)s, column %(column)s", path=path, line=place[0],
             column=place[1])


STABLE_BUTTONBOX = "/dev/buttonbox"
"""The button box's stable device name, made by the udev rule in ``hardware/``."""


def default_data_dir() -> Path:
    """Where table logs live: ``$COMPANION_DATA``, else ``/var/lib/companion`` when writable (the
    systemd service), else ``~/.local/share/companion``."""
    env = os.environ.get("COMPANION_DATA")
    if env:
        return Path(env)
    system = Path("/var/lib/companion")
    if system.is_dir() and os.access(system, os.W_OK):
        return system
    return Path.home() / ".local" / "share" / "companion"


@dataclass
class Backends:
    """Which implementation stands behind each device; ``auto`` is resolved by
    :func:`companion.service.choose_backends` (the one place that knows about the platform)."""

    camera: str = "auto"
    buttons: str = "auto"
    lights: str = "auto"


@dataclass
class Settings:
    """Everything ``companion run`` needs.

    Attributes:
        game: game id (RULINGS §0) for a new game; ignored when a log is resumed.
        seats: player names clockwise (seat 0 first); ``None``: the game's default for the sim
            (4 players) or the operator chooses on the dashboard.
        options: house-rule options for a new game.
        sim: drive the table with bots (simulated camera frames and button presses).
        seed: random seed of the simulated table (bots, shuffles, scene poses).
        data_dir: the table's folder (:class:`companion.table.Table`: ``games/`` holds one table
            log per game, ``table.json`` names the current one).
        host, port: where the dashboard listens (port 0: any free port).
        pin: operator PIN (6–12 digits, as the dashboard accepts); when empty, the PIN kept in the
            data folder (``operator-pin``, made once at random: :class:`companion.table.Table`).
        currency: banknote currency of the table (``auto``, ``RUB``, ``EUR``, ``USD``, ``INR``,
            ``KRW``, ``JPY``; any letter case): the note reader's format and, for a new game
            that has a ``currency`` option (skull), that option's default. A resumed game keeps
            its own ``currency`` option, and the reader follows the game.
        deck: card deck profile for the card reader (``standard`` or a learned deck name).
        pace_ms: simulated table only: pause between bot actions, so a watcher can follow (ms).
        club: the club's broker address (``mqtt[s]://[user:pass@]HOST:PORT/CLUB``, docs/club.md):
            the table publishes its public view there; ``""``: not in a club.
        voice: the table's voice (:class:`companion.voice.VoiceSettings`, ``[voice]``).
        backends: device backends.
    """

    game: str = "skull"
    seats: list[str] | None = None
    options: dict = field(default_factory=dict)
    sim: bool = False
    seed: int = 0
    data_dir: Path = field(default_factory=default_data_dir)
    host: str = "0.0.0.0"
    port: int = 8080
    pin: str = ""
    currency: str = "auto"
    deck: str = "standard"
    pace_ms: int = 0
    club: str = ""
    voice: VoiceSettings = field(default_factory=VoiceSettings)
    backends: Backends = field(default_factory=Backends)

    # ------------------------------------------------------------------ loading
    @classmethod
    def load(cls, path: str | os.PathLike | None = None, **overrides) -> "Settings":
        """Defaults, then the TOML file at ``path`` (if given), then ``overrides`` whose value is
        not ``None`` (command-line flags).

        Raises:
            SettingsError: unreadable file, bad TOML, unknown key or wrong type.
        """
        data: dict = {}
        if path is not None:
            try:
                data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
            except OSError as exc:
                raise SettingsError(M("cannot read settings file %(path)s: %(why)s", path=str(path),
                                      why=_os_words(exc))) from None
            except tomllib.TOMLDecodeError as exc:
                log.info("%s: %s", path, exc)  # tomllib's English words: for the log only (-v)
                raise SettingsError(_toml_words(exc, str(path))) from None
            except UnicodeDecodeError:  # a photo or another binary file given by mistake
                raise SettingsError(M("%(path)s: not a settings file (not UTF-8 text; TOML expected)",
                                      path=str(path))) from None
        backends = data.pop("backends", {}) or {}
        if not isinstance(backends, dict):
            raise SettingsError(M("[backends] must be a table"))
        voice = _voice(data.pop("voice", {}) or {})
        names = {f.name for f in dataclasses.fields(cls)} - {"backends", "voice"}
        unknown = set(data) - names
        if unknown:
            bn = ", ".join(f.name for f in dataclasses.fields(Backends))
            raise SettingsError(M("unknown setting(s): %(unknown)s; known: %(known)s, and the table [backends] with "
                                  "%(backends)s (e.g. [backends] buttons = \"/dev/ttyACM0\")",
                                  unknown=", ".join(sorted(unknown)), known=", ".join(sorted(names)), backends=bn))
        bnames = {f.name for f in dataclasses.fields(Backends)}
        bunknown = set(backends) - bnames
        if bunknown:
            raise SettingsError(M("unknown backend(s): %(unknown)s; known: %(known)s",
                                  unknown=", ".join(sorted(bunknown)), known=", ".join(sorted(bnames))))
        b_over = {k: overrides.pop(k) for k in list(overrides) if k in bnames}
        for k, v in overrides.items():
            if v is not None:
                if k not in names:
                    raise SettingsError(M("unknown setting %(name)r", name=k))
                data[k] = v
        for k, v in b_over.items():
            if v is not None:
                backends[k] = v
        try:
            s = cls(**data, backends=Backends(**backends), voice=voice)
        except TypeError as exc:
            raise SettingsError(MP("settings", "%(error)s", error=str(exc))) from None
        s._check_types()
        return s

    def _check_types(self) -> None:
        if not isinstance(self.voice, VoiceSettings):
            self.voice = _voice(self.voice if isinstance(self.voice, dict) else {})
        checks = {
            "game": str, "sim": bool, "seed": int, "host": str, "port": int, "pin": str,
            "currency": str, "deck": str, "pace_ms": int, "options": dict, "club": str,
        }
        for name, typ in checks.items():
            value = getattr(self, name)
            if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
                raise SettingsError(M("setting %(name)r must be %(type)s, got %(value)r", name=name,
                                      type=MP("setting type", _TYPES[typ]), value=value))
        if self.seats is not None and (
            not isinstance(self.seats, list) or not all(isinstance(x, str) for x in self.seats)
        ):
            raise SettingsError(M("setting 'seats' must be a list of names"))
        from companion.vision.serials import CURRENCIES, currency_code

        self.currency = currency_code(self.currency)
        if self.currency != "auto" and self.currency not in CURRENCIES:
            raise SettingsError(M("setting 'currency' must be auto or one of %(currencies)s, got %(value)r",
                                  currencies=", ".join(CURRENCIES), value=self.currency))
        if self.pin:
            from companion.sessions import pin_refusal

            refusal = pin_refusal(self.pin)
            if refusal:
                raise SettingsError(M("setting 'pin' (--pin): %(why)s", why=refusal))
        if self.seed < 0:
            raise SettingsError(M("setting 'seed' must be 0 or more, got %(seed)s", seed=self.seed))
        if self.pace_ms < 0:
            raise SettingsError(M("setting 'pace_ms' must be 0 or more (ms between the bots' moves), got %(pace)s",
                                  pace=self.pace_ms))
        if not 0 <= self.port <= 65535:
            raise SettingsError(M("setting 'port' %(port)s is not a TCP port", port=self.port))
        self.data_dir = Path(self.data_dir)
        for name in ("camera", "buttons", "lights"):
            if not isinstance(getattr(self.backends, name), str):
                raise SettingsError(M("backend %(name)r must be a string", name=name))


def _voice(raw) -> VoiceSettings:
    """The ``[voice]`` table of a settings file as :class:`VoiceSettings`.

    Raises:
        SettingsError: not a table, an unknown key or a bad value, in both languages.
    """
    if not isinstance(raw, dict):
        raise SettingsError(M("[voice] must be a table"))
    known = set(VoiceSettings().to_json())
    unknown = set(raw) - known
    if unknown:
        raise SettingsError(M("unknown voice setting(s): %(unknown)s; known: %(known)s",
                              unknown=", ".join(sorted(unknown)), known=", ".join(sorted(known))))
    try:
        return VoiceSettings(**raw).check()
    except VoiceError as exc:
        raise SettingsError(M("[voice]: %(error)s", error=exc.message)) from None
