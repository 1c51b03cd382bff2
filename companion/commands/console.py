"""The console of ``companion run``: the header a start prints (the game, its table log, the
backend choices, the dashboard URL with its QR code, the operator PIN, the parts' status), then one
line per notable change (:class:`Console`) — all in the console's language (``--lang``).

The words of results and refusals are :mod:`companion.commands.results`; the console's other
words, :mod:`companion.commands.console_words`.
"""

from __future__ import annotations

import sys
import threading
import time
from typing import Literal

from companion.backends import BOTS_PRESS, NO_BOTS_PRESS
from companion.commands.console_words import (_bots_idle_words, _left_alone, _notice_words, _print_qr,
                                              _set_aside_words, bots_leave_words, camera_counts, game_lines,
                                              phone_hint, pin_origin, why_words)
from companion.commands.results import _plain, format_result
from companion.i18n import M, N_, render


CONSOLE_LANGS = ("ru", "en")
"""Languages of the console's lines (``--lang``): Russian by default, like the dashboard."""

#: What to do about a part in trouble, said after its status line (message ids).
TROUBLE_HINTS = {
    "buttons": N_("check the cable and the port: ls /dev/ttyACM* /dev/ttyUSB*, --buttons PORT, companion doctor; "
                  "the box reconnects by itself"),
    "camera": N_("check the camera: companion doctor"),
}


class Console:
    """Status lines for a person at the console: a header, then one line per notable change
    (game start/resume/end, rounds, part status, rejected presses) — not a log flood."""

    def __init__(self, out=sys.stdout, quiet: bool = False, lang: str = "ru", clock=time.monotonic) -> None:
        self.out = out
        #: the console's clock (seconds; a test's fake clock)
        self.clock = clock
        self._telling = threading.RLock()
        self._closed = False  # the last line was said
        self._released_for = None  # the game whose bots-leave-it line was said
        #: the language of every line (``--lang``): ``"ru"`` or ``"en"``
        self.lang = lang if lang in CONSOLE_LANGS else "ru"
        self.quiet = quiet
        self.t0 = clock()
        self._status: dict = {}
        self._told: dict = {}  # part -> the last status line printed for it
        #: seconds between status lines, whether the game moves or waits
        self.every = 15.0
        #: seconds a seat a phone holds may wait before the status line says how to hand it back to the bots
        self.long_wait = 60.0
        self._last_progress = clock()
        self._seen_version = -1  # the game's version when progress() last looked
        self._moved_at = clock()  # when progress() first saw that version
        self._hinted_at: float | None = None  # when the hand-it-back hint was last said in this wait
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
        #: who played each seat when the console last said it (``{seat: by}``,
        #: :meth:`companion.table.control.ControlMixin.played_by`)
        self._played: dict[int, str] = {}

    def say(self, msg) -> str:
        """``msg`` (a :class:`companion.i18n.Message`) in the console's language."""
        return render(msg, self.lang)

    def part_line(self, part: str, st: dict) -> str:
        """A part's status in words (:mod:`companion.statuswords`), with the error and what to do
        when it is in trouble."""
        from companion.statuswords import line, system_words

        msg = line(part, st, self.lang)
        trouble = st.get("state") in ("error", "warn")
        error = system_words(st["error"], self.lang) if st.get("error") and trouble else None
        if error:
            msg += f" — {error}"  # e.g. the button box's port does not exist: «нет такого файла или папки»
        if trouble and part in TROUBLE_HINTS:
            msg += f" ({self.say(M(TROUBLE_HINTS[part]))})"
        return msg

    def line(self, text: str, always: bool = False) -> None:
        with self._telling:
            if self._closed:
                return  # after the stop line: the parts and bots winding down are not news
            if always or not self.quiet:
                print(f"[{self.clock() - self.t0:7.1f}s] {text}", file=self.out, flush=True)

    def last_line(self, text: str) -> None:
        """The run's last line (the Ctrl-C line), said even headless; nothing is said after it."""
        self.line(text, always=True)
        with self._telling:
            self._closed = True

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
        title, log_line = game_lines(head, ref.log.path, len(ref.log.records()) if service.resumed else None, self.lang)
        print(f"{title}\n  {log_line}", file=w)
        for notice in getattr(service.table, "notices", ()):
            print(f"  {_notice_words(notice, self.lang)}", file=w)
        if service.set_aside:
            print(f"  {_set_aside_words(service, self.lang)}", file=w)
        if _left_alone(service) is not None:
            print(f"  {_bots_idle_words(service, self.lang)}", file=w)
            self._bots_released = True  # said here, not again by progress()
            self._released_for = ref.log.path
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
        pads = self._pads_line(head)
        if pads:
            print(f"  {pads}", file=w)
        self._played = self._who_plays()
        for part, st in sorted(service.table.status().items()):
            self._status[part] = (st.get("state"), st.get("detail"), st.get("error"))
            self._told[part] = self.part_line(part, st)
            print(f"  {self._told[part]}", file=w)
        print("  " + say(M("Ctrl-C stops; the game resumes from its log at the next start.")) + "\n", file=w, flush=True)

    def _title(self, head) -> str:
        """The first line of a game's announcement: the game's name and its players."""
        return game_lines(head, None, None, self.lang)[0]

    def _codes_line(self, head) -> str:
        """The seat join codes of the current game in words (``""`` when there are none)."""
        codes: dict[int, str] = self.table.seat_codes() if self.table is not None else {}
        if not codes:
            return ""
        return self.say(M("Seat codes: %(codes)s", codes=", ".join(
            f"{head.seats[k]}={v}" for k, v in sorted(codes.items()) if 0 <= k < len(head.seats))))

    def _pads_line(self, head) -> str:
        """The seats the button box has no pad for, in words (``""`` when every seat has one)."""
        pads = getattr(self.table, "pads", None)
        n = len(head.seats)
        if not isinstance(pads, int) or n <= pads:
            return ""
        return self.say(M("the button box has %(pads)s pads: seats %(first)s-%(last)s play on their phones (seat "
                          "view) or from the console", pads=pads, first=pads + 1, last=n))

    def _who_plays(self) -> dict[int, str]:
        """``{seat: by}`` of the table's current game (:meth:`ControlMixin.seat_play`)."""
        try:
            return {s["seat"]: s["by"] for s in self.table.seat_play()["seats"]} if self.table is not None else {}
        except Exception:  # words are a nicety
            return {}

    def _tell_control(self) -> None:
        """A seat changed hands — a phone took it over from the bots, gave it back, the operator
        took it onto the console or handed it to the bots: one line a seat."""
        now = self._who_plays()
        with self._telling:
            changed = [(s, by) for s, by in sorted(now.items()) if self._played.get(s) != by]
            self._played = now
        for seat, by in changed:
            from companion.table.control import PLAYED_BY

            name = self.seats[seat] if 0 <= seat < len(self.seats) else str(seat + 1)
            self.line(self.say(M("seat %(n)s (%(name)s): %(who)s", n=seat + 1, name=name, who=PLAYED_BY[by])))

    def _tell_game(self) -> None:
        """A game the table took up after the start — the operator started it on the dashboard's
        console (or resumed one there) — announced at once, like the first: its name and players,
        its table log, the new seat codes, and, on the simulated table, once, that the bots do
        not touch it (the bots play only their own game: :attr:`SimTable.released`)."""
        table = self.table
        ref = table.current_referee() if table is not None else None
        with self._telling:  # told once, whichever thread sees the new game first
            if ref is None or ref.log.path == self._game_path:
                return
            self._game_path = ref.log.path
        head = ref.log.header
        self.game_id, self.seats = head.game, list(head.seats)
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
            pads = self._pads_line(head)
            if pads:
                print(f"  {pads}", file=self.out, flush=True)
        self._played = self._who_plays()
        self._tell_released()

    def _tell_new_game_first(self) -> None:
        """A new game's parts and first moves may reach the console before the table's "game"
        change does: once a game was announced (the header), a line about another game comes
        after that game's header."""
        if self._game_path is not None:
            self._tell_game()

    def _tell_released(self) -> None:
        """Once per game the console announced, on the simulated table whose bots leave it alone
        (:attr:`SimTable.released`): that they do not touch it — said with the game's header (or
        as soon as the bots let go of it), not at the next status line, and not again by
        :meth:`progress`."""
        if _left_alone(self.service) is None:
            return
        with self._telling:
            if self._released_for == self._game_path:
                return
            self._released_for = self._game_path
            self._bots_released = True
        from companion.service import WHY_OPERATORS

        words = bots_leave_words(WHY_OPERATORS, self.lang)
        if self.quiet:
            self.line(words, always=True)
        else:
            print(f"  {words}", file=self.out, flush=True)

    def progress(self, service) -> None:
        """One line every :attr:`every` seconds until the game is over, also while it waits:
        actions, whose turn, how long nothing has moved, the camera counters — public facts only;
        then :meth:`_phone_hints`. Once, the line that the bots stopped because the operator
        started another game (even headless: it goes to stderr). A game the table took up and the
        console has not told yet is announced first: its header comes before any line about it."""
        self._tell_new_game_first()
        sim = _left_alone(service)
        if sim is not None and not self._bots_released:
            self._bots_released = True
            self._released_for = self._game_path
            words = getattr(sim, "released_words", None)
            self.line(words(self.lang) if callable(words) else sim.released, always=True)
        if self.quiet:
            return
        ref = service.table.referee if service.table else None
        if ref is None:
            return
        now = self.clock()
        with ref.lock:
            version, seats, names = ref.version, ref.game.current_seats(), ref.game.seats
            over = ref.game.is_over()
        if version != self._seen_version:  # the game moved (or the first look: the wait began at the start)
            if self._seen_version != -1:
                self._moved_at, self._hinted_at = now, None
            self._seen_version = version
        if over or now - self._last_progress < self.every:
            return
        self._last_progress = now
        who = ", ".join(names[s] for s in seats) if seats else M("the camera or the operator")
        line = self.say(M("actions %(n)s · waiting for: %(who)s", n=version, who=who))
        still = int(now - self._moved_at)
        if still >= max(self.every, 1):  # the table waits: said, so a quiet console is never a stalled one
            line += " · " + self.say(M("nothing moved for %(s)s s", s=still))
        counts = camera_counts(service)
        if counts is not None:
            line += self.camera_words(counts)
        self.line(line)
        self._phone_hints(service.table, seats, names, now)

    def _phone_hints(self, table, seats, names, now: float) -> None:
        """A waited-for seat a phone took over from the bots (closed, maybe, without «Покинуть
        место»), nothing moved for :attr:`long_wait` s: a line each, how to hand it back to the
        bots — again after another :attr:`long_wait`, not at every status line."""
        still = now - self._moved_at
        if still < self.long_wait or (self._hinted_at is not None and now - self._hinted_at < self.long_wait):
            return
        held = [seat for seat in seats if getattr(table, "played_by", lambda _s: None)(seat) == "phone"]
        if not held:
            return
        self._hinted_at = now
        for seat in held:
            self.line(self.say(phone_hint(seat, names[seat], int(still))))

    def camera_words(self, counts: dict) -> str:
        """The status line's camera part for :func:`camera_counts`: «камера: снимков 34, повторов 3,
        вручную 8» (the re-reads only where they are known: the simulated table's own game)."""
        reads, retried, manual = counts["reads"], counts["retried"], counts["manual"]
        if retried is None:
            return " · " + self.say(M("camera: %(reads)s reads, %(manual)s by hand", reads=reads, manual=manual))
        return " · " + self.say(M("camera: %(reads)s reads, %(retried)s retried, %(manual)s by hand", reads=reads,
                                  retried=retried, manual=manual))

    def on_table(self, kind: str, payload) -> None:
        if kind != "game":
            self._tell_new_game_first()
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
            self._tell_released()
        elif kind == "control":
            self._tell_control()
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

    def _words(self, event, update) -> str | Literal[False] | None:
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
