"""``companion run``: the table service — a real table on a Pi, the simulated table elsewhere.

Examples::

    companion run                                  # Pi: real devices; elsewhere: simulated table
    companion run --sim --game skull               # the make-demo table, dashboard on :8080
    companion run --sim --game doubt --seed 7 --until-end --json   # headless; prints the summary

The console shows the dashboard URL, a QR code of it and the operator PIN, then short progress
and status lines. Ctrl-C (or SIGTERM from systemd) stops cleanly; the game resumes from its table
log at the next start. Exit status: 0 ok — also Ctrl-C on a table that serves until it is stopped
(``make demo``: the operator's way to end the run, not a failure); 1 the table could not run (a
part is missing, a device failed); 2 unusable arguments; 130 Ctrl-C before the end a run was asked
to reach (``--until-end``, ``--json``); 143 SIGTERM (systemd's stop).
"""

from __future__ import annotations

import argparse

import json
import os
import logging
import signal
import threading
import sys
import time
from pathlib import Path

from companion.backends import BOTS_PRESS, NO_BOTS_PRESS
from companion.datalock import DataFolderBusy, hold as hold_data_folder
from companion.errors import CompanionError, IllegalAction
from companion.i18n import M, MN, MP, N_, NC_, render
from companion.i18n import cli as words
from companion.i18n.cli import _

SIM_PACE_MS = 1200
"""Default pause between bot actions on the watched simulated table (ms): a person can follow."""


def _seed(text: str) -> int:
    """``--seed``: a whole number ≥ 0 (a negative seed used to replay the positive one's game)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError("the seed must be 0 or more")
    return value


def register(subparsers) -> None:
    p = subparsers.add_parser(
        "run", help=_("run the table: referee + camera + button box + lights + dashboard"),
        description=_("The table service: a real table on a Raspberry Pi, the simulated table elsewhere."),
    )
    p.add_argument("--game", help=_("game id for a new game (skull, doubt, hoggenheimer, infinity, lottery)"))
    p.add_argument("--config", metavar=_("FILE"), help=_("settings file (TOML); flags override it"))
    p.add_argument("--sim", action="store_true", default=None, help=_("simulated table: bots, rendered camera, virtual box"))
    p.add_argument("--seed", type=_seed, help=_("simulated table's seed, a whole number ≥ 0 (default 0)"))
    p.add_argument("--seats", help=_("comma-separated player names, clockwise from seat 1"))
    p.add_argument("--option", action="append", default=[], metavar=_("KEY=VALUE"),
                   help=_("house-rule option for a new game (JSON value; a seat option such as first_dealer counts seats from 1), repeatable"))
    p.add_argument("--until-end", action="store_true", help=_("exit when the game is over"))
    p.add_argument("--json", action="store_true",
                   help=_("headless: print the replay summary JSON at the end (implies --until-end, no dashboard)"))
    p.add_argument("--dashboard", action="store_true", help=_("serve the dashboard even with --json"))
    which = p.add_mutually_exclusive_group()
    which.add_argument("--new", action="store_true", help=_("start a new game even if an unfinished one can resume"))
    which.add_argument("--resume", metavar=_("LOG"), help=_("resume the unfinished game of this table log instead of the "
                       "current one (a file name in DATA_DIR/games or its path; the current game is set aside)"))
    p.add_argument("--data-dir", type=Path, help=_("folder of table logs (default $COMPANION_DATA, else /var/lib/companion when "
                   "writable, else ~/.local/share/companion)"))
    p.add_argument("--host", help=_("dashboard address to listen on (default 0.0.0.0)"))
    p.add_argument("--port", type=words.integer, help=_("dashboard port (default 8080; 0 = any free port)"))
    pins = p.add_mutually_exclusive_group()
    pins.add_argument("--pin", help=_("operator PIN for this run (6-12 digits; default the PIN kept in the data "
                      "folder's operator-pin file, made once at random)"))
    pins.add_argument("--new-pin", action="store_true", help=_("make a new random operator PIN and keep it in the "
                      "data folder (logins made with the old PIN end)"))
    p.add_argument("--pace-ms", type=words.integer, help=_("simulated table: ms between bot actions (default {pace} on the simulated table, "
                   "whether chosen by --sim or because this is not a Raspberry Pi; 0 with --json)").format(pace=SIM_PACE_MS))
    p.add_argument("--camera", help=_("camera backend: auto | picamera2 | opencv:INDEX|URL|VIDEO | "
                   "folder:PATH | image:PATH | scene (or a bare index, URL, folder or image)"))
    p.add_argument("--buttons", help=_("button box: auto | virtual | serial port or URL"))
    p.add_argument("--lights", help=_("lights: auto | gpio | mock | none"))
    p.add_argument("--club", metavar="URL", help=_("publish this table to its club: mqtt[s]://[user:pass@]HOST:PORT/CLUB "
                   "(docs/club.md)"))
    p.add_argument("--lang", choices=CONSOLE_LANGS, default=words.current(),
                   help=_("language of the console's lines: ru (default, like the dashboard) or en"))
    p.add_argument("-v", "--verbose", action="store_true", help=_("log details to stderr"))
    p.set_defaults(func=main)


def _options(pairs: list[str]) -> dict:
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise CompanionError(M("--option needs KEY=VALUE, got %(pair)r", pair=pair))
        try:
            out[key] = json.loads(value)
        except json.JSONDecodeError:
            out[key] = value
    return out


def build_settings(args):
    """Settings from ``--config`` and the flags.

    Raises:
        SettingsError, CompanionError: a bad file or flag.
    """
    from companion.settings import Settings

    overrides = dict(
        game=args.game, sim=args.sim, seed=args.seed, host=args.host, port=args.port, pin=args.pin,
        pace_ms=args.pace_ms, camera=args.camera, buttons=args.buttons, lights=args.lights,
        seats=[s.strip() for s in args.seats.split(",")] if args.seats else None,
        options=_options(args.option) or None, data_dir=args.data_dir, club=getattr(args, "club", None),
    )
    return Settings.load(args.config, **overrides)


def apply_plan(settings, plan, args) -> None:
    """Settings that follow the table actually chosen (``plan.sim``), however it was chosen:
    ``--sim``, ``sim = true`` in the settings file, or :func:`~companion.service.choose_backends`
    picking the simulated table because this is not a Raspberry Pi (plain ``make demo``).

    * the bots' pace: :data:`SIM_PACE_MS` on a simulated table someone watches (no ``--json``)
      unless ``--pace-ms`` or the file's ``pace_ms`` says otherwise; 0 headless or on a real table;
    * the data folder: a simulated table keeps its logs apart from a real table's
      (``<data_dir>/sim``).
    """
    headless = bool(getattr(args, "json", False))
    if getattr(args, "pace_ms", None) is None and settings.pace_ms == 0 and plan.sim and not headless:
        settings.pace_ms = SIM_PACE_MS
    if plan.sim and settings.data_dir.name != "sim":
        settings.data_dir = settings.data_dir / "sim"


CONSOLE_LANGS = ("ru", "en")
"""Languages of the console's lines (``--lang``): Russian by default, like the dashboard."""

#: What to do about a part in trouble, said after its status line (message ids).
TROUBLE_HINTS = {
    "buttons": N_("check the cable and the port: ls /dev/ttyACM* /dev/ttyUSB*, --buttons PORT, companion doctor; "
                  "the box reconnects by itself"),
    "camera": N_("check the camera: companion doctor"),
}

def why_words(line, lang: str = "ru") -> str:
    """A backend choice (``plan.why``, a message) in ``lang``."""
    return render(line, lang)


class Console:
    """Status lines for a person at the console: a header, then one line per notable change
    (game start/resume/end, rounds, part status, rejected presses) — not a log flood."""

    def __init__(self, out=sys.stdout, quiet: bool = False, lang: str = "ru") -> None:
        self.out = out
        #: the language of every line (``--lang``): ``"ru"`` or ``"en"``
        self.lang = lang if lang in CONSOLE_LANGS else "ru"
        self.quiet = quiet
        self.t0 = time.monotonic()
        self._status: dict = {}
        self._told: dict = {}  # part -> the last status line printed for it
        self.every = 15.0
        self._last_progress = time.monotonic()
        self._last_version = -1
        self.game_id: str | None = None
        self.seats: list[str] = []
        self._bots_released = False
        #: the table (set by :meth:`header`): after «Завершить игру» its ``last_ended`` is told
        self.table = None
        #: the service (set by :meth:`header`): its simulated table, if any, for the bots' line
        self.service = None
        #: the table log of the game the console last announced (header or :meth:`_tell_game`)
        self._game_path = None
        self._ended_told: int | None = None

    def say(self, msg) -> str:
        """``msg`` (a :class:`companion.i18n.Message`) in the console's language."""
        return render(msg, self.lang)

    def part_line(self, part: str, st: dict) -> str:
        """A part's status in words (:mod:`companion.statuswords`), with the error and what to do
        when it is in trouble."""
        from companion.statuswords import line

        msg = line(part, st, self.lang)
        trouble = st.get("state") in ("error", "warn")
        if st.get("error") and trouble:
            msg += f" — {st['error']}"  # e.g. the button box's port does not exist (the OS's words)
        if trouble and part in TROUBLE_HINTS:
            msg += f" ({self.say(M(TROUBLE_HINTS[part]))})"
        return msg

    def line(self, text: str, always: bool = False) -> None:
        if always or not self.quiet:
            print(f"[{time.monotonic() - self.t0:7.1f}s] {text}", file=self.out, flush=True)

    def header(self, service, url: str | None) -> None:
        ref = service.table.referee
        head = ref.log.header
        self.game_id, self.seats = head.game, list(head.seats)
        self.table = service.table
        self.service = service
        self._game_path = ref.log.path
        if self.quiet:  # headless: only the parts in trouble (stderr; stdout keeps the summary)
            # and what the start found: a damaged state file, a recovered or set-aside game
            for notice in getattr(service.table, "notices", ()):
                self.line(_notice_words(notice, self.lang), always=True)
            if service.set_aside:
                self.line(_set_aside_words(service, self.lang), always=True)
            for part, st in sorted(service.table.status().items()):
                self._status[part] = (st.get("state"), st.get("detail"), st.get("error"))
                if st.get("state") in ("error", "warn"):
                    self.line(self.part_line(part, st), always=True)
            return
        w = self.out
        say = self.say
        print(self._title(head), file=w)
        if service.resumed:
            n = len(ref.log.records())
            print("  " + say(M("resumed from %(path)s at action %(n)s", path=str(ref.log.path), n=n)), file=w)
        else:
            print("  " + say(M("new game, table log %(path)s", path=str(ref.log.path))), file=w)
        for notice in getattr(service.table, "notices", ()):
            print(f"  {_notice_words(notice, self.lang)}", file=w)
        if service.set_aside:
            print(f"  {_set_aside_words(service, self.lang)}", file=w)
        sim = getattr(service, "simtable", None)
        if sim is not None and getattr(sim, "released", None):
            print(f"  {_bots_idle_words(service, self.lang)}", file=w)
            self._bots_released = True  # said here, not again by progress()
        for why in service.plan.why:
            if self._bots_released and getattr(why, "id", None) == BOTS_PRESS:
                why = M(NO_BOTS_PRESS)  # the bots were just said to leave this game alone
            print(f"  {why_words(why, self.lang)}", file=w)
        if url:
            print("\n  " + say(M("Dashboard: %(url)s", url=url)), file=w)
            _print_qr(url, w)
            print("  " + say(M("Operator console (logs in by itself): %(url)s",
                               url=f"{url.rstrip('/')}/operator?pin={service.table.pin}")), file=w)
        print("  " + say(M("Operator PIN: %(pin)s  (%(origin)s)", pin=service.table.pin,
                           origin=pin_origin(service.table, self.lang))), file=w)
        codes = self._codes_line(head)
        if codes:
            print(f"  {codes}", file=w)
        for part, st in sorted(service.table.status().items()):
            self._status[part] = (st.get("state"), st.get("detail"), st.get("error"))
            self._told[part] = self.part_line(part, st)
            print(f"  {self._told[part]}", file=w)
        print("  " + say(M("Ctrl-C stops; the game resumes from its log at the next start.")) + "\n", file=w, flush=True)

    def _title(self, head) -> str:
        """The first line of a game's announcement: the game's name and its players."""
        from companion.dashboard.i18n import game_title

        # the Russian line names the game by its page name, the English one by its id
        return self.say(M("Table Companion — %(game)s, %(n)s seats: %(seats)s",
                          game={"ru": game_title(head.game, "ru"), "en": head.game}, n=len(head.seats),
                          seats=", ".join(head.seats)))

    def _codes_line(self, head) -> str:
        """The seat join codes of the current game in words (``""`` when there are none)."""
        codes = self.table.seat_codes() if self.table is not None else {}
        if not codes:
            return ""
        return self.say(M("Seat codes: %(codes)s", codes=", ".join(
            f"{head.seats[k]}={v}" for k, v in sorted(codes.items()) if 0 <= k < len(head.seats))))

    def _tell_game(self) -> None:
        """A game the table took up after the start — the operator started it on the dashboard's
        console (or resumed one there) — announced at once, like the first: its name and players,
        its table log, the new seat codes, and, on the simulated table, once, that the bots do
        not touch it (the bots play only their own game: :attr:`SimTable.released`)."""
        table = self.table
        ref = table.current_referee() if table is not None else None
        if ref is None or ref.log.path == self._game_path:
            return
        self._game_path = ref.log.path
        head = ref.log.header
        self.game_id, self.seats = head.game, list(head.seats)
        sim = getattr(self.service, "simtable", None)
        released = sim is not None and getattr(sim, "released", None)
        if not self.quiet:
            self.line(self._title(head))
            if ref.version:
                told = self.say(M("resumed from %(path)s at action %(n)s", path=str(ref.log.path), n=ref.version))
            else:
                told = self.say(M("new game, started from the operator console; table log %(path)s",
                                  path=str(ref.log.path)))
            print(f"  {told}", file=self.out)
            codes = self._codes_line(head)
            if codes:
                print(f"  {codes}", file=self.out, flush=True)
        if released:
            # said now, not at the next status line, and not again by progress()
            self._bots_released = True
            from companion.service import WHY_OPERATORS

            words = bots_leave_words(WHY_OPERATORS, self.lang)
            if self.quiet:
                self.line(words, always=True)
            else:
                print(f"  {words}", file=self.out, flush=True)

    def progress(self, service) -> None:
        """One line every :attr:`every` seconds while the game moves: actions, whose turn, and
        the simulated table's camera counters — public facts only. Once, the line that the bots
        stopped because the operator started another game (even headless: it goes to stderr)."""
        sim = getattr(service, "simtable", None)
        if sim is not None and getattr(sim, "released", None) and not self._bots_released:
            self._bots_released = True
            words = getattr(sim, "released_words", None)
            self.line(words(self.lang) if callable(words) else sim.released, always=True)
        now = time.monotonic()
        if self.quiet or now - self._last_progress < self.every:
            return
        ref = service.table.referee if service.table else None
        if ref is None:
            return
        with ref.lock:
            version, seats, names = ref.version, ref.game.current_seats(), ref.game.seats
            over = ref.game.is_over()
        if version == self._last_version or over:
            return
        self._last_progress, self._last_version = now, version
        who = ", ".join(names[s] for s in seats) if seats else M("the camera or the operator")
        line = self.say(M("actions %(n)s · waiting for: %(who)s", n=version, who=who))
        counts = camera_counts(service)
        if counts is not None:
            line += self.camera_words(counts)
        self.line(line)

    def camera_words(self, counts: dict) -> str:
        """The status line's camera part for :func:`camera_counts`: «камера: снимков 34, повторов 3,
        вручную 8» (the re-reads only where they are known: the simulated table's own game)."""
        reads, retried, manual = counts["reads"], counts["retried"], counts["manual"]
        if retried is None:
            return " · " + self.say(M("camera: %(reads)s reads, %(manual)s by hand", reads=reads, manual=manual))
        return " · " + self.say(M("camera: %(reads)s reads, %(retried)s retried, %(manual)s by hand", reads=reads,
                                  retried=retried, manual=manual))

    def on_table(self, kind: str, payload) -> None:
        if kind == "status":
            for part, st in payload.items():
                key = (st.get("state"), st.get("detail"), st.get("error"))
                if self._status.get(part) != key:
                    self._status[part] = key
                    msg = self.part_line(part, st)
                    trouble = st.get("state") in ("error", "warn")
                    if msg == self._told.get(part) and not trouble:
                        continue  # the same words (a field the line does not show changed)
                    self._told[part] = msg
                    # a part in trouble is said even headless (--json keeps stdout for the
                    # summary; this goes to stderr): a run waiting on a missing box is not silent
                    self.line(msg, always=trouble)
        elif kind == "action":
            final = None  # the game's own words for its end, if it has them
            for ev in payload.outcome.events:
                if ev.private_to is None and any(w in ev.kind for w in self._notable()):
                    words = self._words(ev, payload)
                    if payload.over and ev.kind == "game_over":
                        final = words or None
                        continue  # the end of the game is told once, below
                    if words is False:
                        words = f"{ev.kind}: " + ", ".join(f"{k} {_plain(v)}" for k, v in list(ev.data.items())[:4])
                    if words:
                        self.line(words)
            if payload.over:
                self.line(final or format_result(payload.result, self._seat_names(payload), self.lang))
        elif kind == "game":
            self._tell_ended()
            self._tell_game()
        elif kind == "prompts" and payload:
            last = payload[-1]
            self.line(self.say(M("prompt: %(text)s", text=(last.get("words") or {}).get(self.lang) or last["text"])))


    def _notable(self) -> tuple[str, ...]:
        """The event kinds (substrings) the console tells as they happen: the game presenter's
        ``notable`` (rounds and deals, their results, a voided round, the end)."""
        from companion.games import registry

        spec = registry.find(self.game_id)
        return spec.presenter.notable if spec is not None else ("game_over",)

    def _seat_names(self, update) -> list[str]:
        if self.seats:
            return self.seats
        try:
            seats = update.views[None].get("seat_names") or update.views[None].get("seats")
            return [s["name"] if isinstance(s, dict) else str(s) for s in seats]
        except Exception:  # names are a nicety
            return []

    def _words(self, event, update) -> str | None:
        """The game's own sentence for a public event when its presenter narrates events
        (``event(event, seats, lang)``; ``None``: the game says nothing for it), or ``False`` when
        the game has no words (the generic line is printed)."""
        from companion.games import registry

        try:
            spec = registry.find(self.game_id)
            names = self._seat_names(update)
            if spec is None or not spec.presenter.narrates or not names:
                return False
            return render(spec.presenter.event(event, names), self.lang)
        except Exception:  # words are a nicety; the generic line is printed instead
            return False


    def _tell_ended(self) -> None:
        """Once per ended game: the operator ended it («Завершить игру») — say how it stood (the
        table's ``last_ended``, in Russian: the public view's chips, points, notes or cards)."""
        table = self.table
        ended = getattr(table, "last_ended", None) if table is not None else None
        if not isinstance(ended, dict) or table.referee is not None or ended.get("epoch") == self._ended_told:
            return
        self._ended_told = ended.get("epoch")
        text = (ended.get("text") or {}).get(self.lang) or (ended.get("text") or {}).get("ru")
        if text:
            self.line(text)


def camera_counts(service) -> dict | None:
    """The current game's camera counters, for the console's status and end lines — of the game,
    not of this process, so a restart (``--resume``, or after a crash) goes on from where they
    stood, as the count of actions does:

    * ``reads``: observations the camera read and the referee accepted (log source ``camera``);
    * ``manual``: entries typed by hand — the operator's manual-entry forms
      (``/api/operator/manual``) and the simulated table's operator after six failed reads
      (log source ``manual``; an entry later undone still counts: it was made);
    * ``retried``: observations that needed more than one read — known only on the simulated
      table, for the bots' own game (:class:`companion.simtable.SimStats`, kept in
      ``sim-stats.json``); ``None`` elsewhere.

    ``None`` when the table has no game.
    """
    table = getattr(service, "table", None)
    ref = table.current_referee() if table is not None else None
    if ref is None:
        return None
    with ref.lock:
        sources = [r.source for r in ref.log.records()]
    sim = getattr(service, "simtable", None)
    retried = sim.stats.retried if sim is not None and sim.owned == ref.log.path else None
    return {"reads": sources.count("camera"), "manual": sources.count("manual"), "retried": retried}


def _plain(value, limit: int = 8, lang: str = "en") -> str:
    """A value for a console line in words, not Python syntax: ``{"A": 3}`` → ``"A 3"``,
    ``[1, 2]`` → ``"1, 2"``; long collections are cut with ``…``."""
    if isinstance(value, dict):
        items = [f"{k} {_plain(v, limit, lang)}" for k, v in list(value.items())[:limit]]
        return ", ".join(items) + (", …" if len(value) > limit else "") if items else "-"
    if isinstance(value, (list, tuple)):
        items = [_plain(v, limit, lang) for v in list(value)[:limit]]
        return ", ".join(items) + (", …" if len(value) > limit else "") if items else "-"
    if isinstance(value, bool):
        return render(M("yes") if value else M("no"), lang)
    return "-" if value is None else str(value)


STANDINGS = ("scores", "net", "points", "balances", "chips", "losses")
"""Result keys that rank the players, in the order a summary line prefers them."""


#: Result keys in words, for :func:`format_result` (message ids; English is the key itself).
STANDING_WORDS = {"scores": NC_("result", "scores"), "net": NC_("result", "net"), "points": NC_("result", "points"),
                  "balances": NC_("result", "balances"), "chips": NC_("result", "chips"),
                  "losses": NC_("result", "losses")}


def format_result(result: dict | None, seats: list[str] | None = None, lang: str = "ru") -> str:
    """One human line in ``lang`` (``"ru"`` default, or ``"en"``) for a finished game's
    ``result()`` (any game, for one without its own words for the end): the winner(s), at most two
    standings (scores, net chips, balances …, by player name), the bank of a skull game and the
    rounds played — e.g. ``игра окончена — победитель: Вика · выигрыш: Аня -12, Борис 0, Вика 12 ·
    раундов: 9`` (``game over — winner: Вика · net: … · rounds: 9``).
    """
    if not isinstance(result, dict):
        return render(M("game over"), lang)
    seats = list(seats or [])

    def name(v) -> str:
        if isinstance(v, int) and not isinstance(v, bool) and 0 <= v < len(seats):
            return seats[v]
        return str(v)

    parts: list = []
    winner = result.get("winner_name") or result.get("winner")
    winners = result.get("winner_names") or result.get("winners")
    if winner is not None and not isinstance(winner, bool):
        parts.append(M("winner: %(winner)s", winner=name(winner)))
    elif isinstance(winners, list) and winners:
        parts.append(M("winners (tie): %(winners)s", winners=", ".join(name(w) for w in winners)))
    else:
        parts.append(M("no winner"))
    loser = result.get("loser_name") or result.get("loser")
    if loser is not None and not isinstance(loser, bool):
        parts.append(M("loser: %(loser)s", loser=name(loser)))
    shown = 0
    for key in STANDINGS:
        v = result.get(key)
        if isinstance(v, list) and len(v) == len(seats) and all(isinstance(x, (int, float)) for x in v):
            v = dict(zip(seats, v))
        if isinstance(v, dict) and v and all(isinstance(x, (int, float, str)) for x in v.values()):
            parts.append(M("%(key)s: %(values)s", key=MP("result", STANDING_WORDS[key]), values=_plain(v, lang=lang)))
            shown += 1
            if shown == 2:
                break
    bank = result.get("bank")
    if isinstance(bank, list):
        money = ""
        if result.get("face_value") is not None:
            money = f" = {result['face_value']} {result.get('currency', '')}".rstrip()
        parts.append(MN("bank: %(n)s note(s)%(money)s", "bank: %(n)s note(s)%(money)s", len(bank), money=money))
    if isinstance(result.get("rounds"), int):
        parts.append(M("rounds: %(rounds)s", rounds=result["rounds"]))
    return render(M("game over — %(parts)s", parts=" · ".join(render(part, lang) for part in parts)), lang)


def _notice_words(notice, lang: str = "ru") -> str:
    """A start's notice (:class:`companion.table.Notice`) in ``lang``."""
    words = getattr(notice, "words", None)
    return words(lang) if callable(words) else str(notice)


def _set_aside_words(service, lang: str = "ru") -> str:
    """The line for an unfinished game the start set aside: why, where its log is, how to resume it."""
    gid, path = service.set_aside
    default = M("nobody could play it in this run")
    why = {"ru": getattr(service, "set_aside_why_ru", "") or render(default, "ru"),
           "en": getattr(service, "set_aside_why", "") or render(default, "en")}
    return render(M("the unfinished %(game)s game is set aside (%(why)s), its table log kept at %(path)s; "
                    "`companion run --resume %(name)s` resumes it", game=gid, why=why, path=str(path),
                    name=Path(path).name), lang)


def bots_leave_words(why: tuple[str, str], lang: str = "ru", go_on: bool = False) -> str:
    """The line that the simulated table's bots leave a game alone, in ``lang``; ``why`` is
    ``(English, Russian)`` (:data:`companion.service.WHY_OPERATORS`); ``go_on`` for a resumed
    game («играйте дальше»)."""
    why_words = {"ru": why[1], "en": why[0]}
    if go_on:
        return render(MP("go on", "the simulated table's bots leave this game alone (%(why)s); play it from the "
                                  "console and the phones", why=why_words), lang)
    return render(M("the simulated table's bots leave this game alone (%(why)s); play it from the console and "
                    "the phones", why=why_words), lang)


def _bots_idle_words(service, lang: str = "ru") -> str:
    """The line for a resumed game the simulated table's bots leave alone, in ``lang``."""
    why_ru = getattr(service, "bots_idle_ru", "")
    if not why_ru:
        return service.simtable.released
    return render({"ru": bots_leave_words(("", why_ru), "ru", go_on=True), "en": service.simtable.released}, lang)


def pin_origin(table, lang: str = "ru") -> str:
    """Where the operator PIN comes from, in ``lang``, for the console's PIN line: the data
    folder's PIN file (and how to change it) or ``--pin``/settings."""
    path = getattr(table, "pin_file", None)
    if path is None:
        return render(M("--pin / settings"), lang)
    return render(M("kept in %(path)s; --new-pin or deleting the file makes a new one", path=str(path)), lang)


def _print_qr(url: str, out) -> None:
    """The URL as a QR code in the terminal (qrcode's ASCII output)."""
    import qrcode

    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    qr.make(fit=True)
    try:
        qr.print_ascii(out=out, invert=True)
    except (OSError, UnicodeEncodeError):
        print("  (QR code needs a UTF-8 terminal)", file=out)


def main(args) -> int:
    """Run the table; returns the exit status (0 done or stopped by Ctrl-C, 1 error, 2 bad
    arguments, 130 Ctrl-C before the end of an ``--until-end`` run, 143 SIGTERM; module docstring).

    A camera read (onnxruntime, Tesseract) cannot be interrupted. If one is still running on a
    worker thread after every part was stopped and the table log closed, the process leaves with
    ``os._exit`` instead of letting the interpreter tear down a native library under a running
    thread (which aborts with "terminate called without an active exception").
    """
    code = _main(args)
    busy = [t for t in threading.enumerate() if t is not threading.main_thread() and t.is_alive()]
    if busy:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code


def error_words(exc: Exception, lang: str = "ru", settings=None) -> str:
    """A refusal before the table starts — a bad flag, setting file, ``--option``, game id, player
    list or ``--resume`` log — in the console's language (``--lang``, Russian by default, like
    every other console line): the error's own Russian words when its raiser gave them
    (:meth:`CompanionError.words`), a game's refusal (``IllegalAction``) from its reason code and
    facts, else the English message."""
    if isinstance(exc, IllegalAction):
        return _refusal_words(exc, lang, getattr(settings, "game", None))
    words = getattr(exc, "words", None)
    return words(lang) if callable(words) else str(exc)


def _refusal_words(exc: IllegalAction, lang: str, game_id: str | None = None) -> str:
    """A new game refused by the engine (``unknown_game``, ``bad_option``, ``bad_seats``) in
    ``lang``, naming what was typed on the command line or in the settings file."""
    told = _refusal_message(exc, game_id)
    return render(told, lang) if told is not None else str(exc)


def _refusal_message(exc: IllegalAction, game_id: str | None = None):
    from companion.dashboard.reasons import reason_words

    f = exc.facts or {}
    if exc.reason == "unknown_game" and f.get("game"):
        return M("no game %(game)r; games: %(games)s", game=f["game"], games=", ".join(f.get("games") or ()))
    if exc.reason == "bad_option" and f.get("unknown"):
        return M("unknown option(s) (--option): %(unknown)s; this game's options: %(known)s",
                 unknown=", ".join(f["unknown"]), known=", ".join(f.get("known") or ()))
    if exc.reason == "bad_option" and f.get("option") and f.get("max") is not None:
        if f.get("min") is None:
            span = M("at most %(max)s", max=f["max"])
        else:
            span = M("%(min)s to %(max)s", min=f["min"], max=f["max"])
        return M("option %(option)s (--option): a number %(span)s, not %(value)s", option=f["option"], span=span,
                 value=str(f.get("value")).replace("-", "\u2212"))
    if exc.reason == "bad_option" and f.get("option") and f.get("choices"):
        return M("option %(option)s (--option): one of %(choices)s, not %(value)r", option=f["option"],
                 choices=", ".join(map(str, f["choices"])), value=f.get("value"))
    if exc.reason == "bad_seats" and f.get("max") is not None:
        return M("this game needs %(min)s to %(max)s players, %(given)s given (--seats)", min=f["min"], max=f["max"],
                 given=f["given"])
    if exc.reason == "bad_seats" and f.get("repeated"):
        return M("the name %(name)r is given twice (--seats): each player needs a name of their own",
                 name=f["repeated"])
    # English: the engine's message; Russian: the game's own sentence for the code when it has one
    # (the lottery's player count), else the dashboard's plain sentence with the engine's detail,
    # which names the option
    from companion.games import registry

    spec = registry.find(game_id)
    own = spec.presenter.refusal(exc.reason) if spec is not None else None
    ru = render(own, "ru") if own else f"{render(reason_words(exc.reason), 'ru').rstrip('.')} ({exc.detail})"
    return {"ru": ru, "en": str(exc)}


def _stop_words(service, lang: str = "ru") -> str:
    """The Ctrl-C line: an unfinished game is offered for resuming, a finished one is not."""
    try:
        over = service.table is not None and service.table.referee is not None and service.over
        path = service.table.referee.log.path if over else None
    except Exception:  # the table is half started: say the safe thing
        over, path = False, None
    if over:
        return render(M("stopping; the game is over, its table log is %(path)s", path=str(path)), lang)
    return render(M("stopping; the game resumes from its table log at the next start"), lang)


def _main(args) -> int:
    from companion.service import choose_backends

    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, stream=sys.stderr,
                        format="%(levelname)s %(name)s: %(message)s")
    until_end = args.until_end or args.json
    try:
        settings = build_settings(args)
        plan = choose_backends(settings)
    except CompanionError as exc:
        print(f"companion run: {error_words(exc, args.lang)}", file=sys.stderr)
        return 2
    apply_plan(settings, plan, args)
    try:
        with hold_data_folder(settings.data_dir):
            return _serve(args, settings, plan, until_end)
    except DataFolderBusy as exc:  # another table referees from this folder: never two in one log
        print(f"companion run: {error_words(exc, args.lang)}", file=sys.stderr)
        return 1


def _serve(args, settings, plan, until_end: bool) -> int:
    """Run the table of ``settings`` and ``plan`` until its end, Ctrl-C or SIGTERM (the data
    folder already held); returns the exit status."""
    from companion.service import TableService

    console = Console(sys.stderr if args.json else sys.stdout, quiet=args.json and not args.verbose,
                      lang=getattr(args, "lang", "ru"))

    stopped_by: list[int] = []

    def terminate(signum, frame):  # systemd stop: leave like Ctrl-C
        stopped_by.append(signum)
        raise KeyboardInterrupt

    # Ctrl-C must stop the table even when this process began with SIGINT ignored (inherited
    # from a parent that ignores it: a script's background job, or an in-process caller whose
    # earlier run left it ignored); the handlers are put back as they were once stopped
    previous = {sig: signal.getsignal(sig) for sig in (signal.SIGINT, signal.SIGTERM)}
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, terminate)
    service = TableService(settings, plan, dashboard=(not args.json) or args.dashboard, new=args.new,
                           resume=args.resume, new_pin=args.new_pin,
                           asked={"game": args.game, "seats": settings.seats if args.seats else None},
                           follow=plan.sim)  # the bots take up every game the console starts (#23)
    try:
        service.start()
        service.table.subscribe(console.on_table)
        url = service.server.url if service.server else None
        console.header(service, url)
        t0 = time.monotonic()
        service.run_bots()
        service.wait(until_end=until_end, progress=lambda: console.progress(service))
        wall = time.monotonic() - t0
        if args.json:
            summary = service.summary()
            print(json.dumps(summary, ensure_ascii=False))
        if service.simtable is not None:
            st = service.simtable.stats
            counts = camera_counts(service) or {"reads": 0, "manual": 0}
            console.line(console.say(M(
                "simulated game: %(wall)s s in this run; in the game %(actions)s bot actions, %(presses)s presses, "
                "%(reads)s camera reads, %(retried)s retried (%(share)s %%), %(manual)s by hand",
                wall=f"{wall:.1f}", actions=st.actions, presses=st.presses, reads=counts["reads"], retried=st.retried,
                share=f"{100 * st.retry_share:.1f}", manual=counts["manual"])))
        if not until_end:
            service.wait(until_end=False)
        return 0
    except KeyboardInterrupt:
        console.line(_stop_words(service, console.lang))
        if not stopped_by and not until_end:
            # Ctrl-C is how an operator ends a served table (the header says so): a clean stop,
            # status 0 — `make demo` would otherwise add "make: *** [demo] Error 130". The
            # finally below stops every part; an error there still propagates.
            return 0
        # 128 + the signal, as a shell reports it: 130 for Ctrl-C before the end a headless run
        # was asked to reach, 143 for SIGTERM (systemd stop)
        return 128 + (stopped_by[0] if stopped_by else signal.SIGINT)
    except CompanionError as exc:
        print(f"companion run: {error_words(exc, console.lang, settings)}", file=sys.stderr)
        return 1
    except OSError as exc:
        if getattr(exc, "errno", None) == 98:
            print("companion run: " + console.say(M(
                "%(error)s — the dashboard port %(port)s is taken; choose another with --port",
                error=str(exc), port=settings.port)), file=sys.stderr)
        else:
            print(f"companion run: {exc}", file=sys.stderr)
        return 1
    finally:
        # a second Ctrl-C or SIGTERM must not cut the orderly stop short: a camera read in
        # progress finishes and the pins are released before the interpreter goes (an
        # interrupted stop left an OCR thread running into shutdown: "terminate called …")
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        try:
            service.stop()
        finally:  # a caller in the same process (tests, a wrapper) gets its own handlers back
            for sig, handler in previous.items():
                signal.signal(sig, handler if handler is not None else signal.SIG_DFL)
