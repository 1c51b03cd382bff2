"""The console's words of a table that need no :class:`~companion.commands.console.Console`: a
start's game lines, the backend choices, the operator PIN's origin, the dashboard URL as a QR
code, the simulated table's bots' lines, the hint for a seat a phone holds, and the camera
counters the status and end lines say."""

from __future__ import annotations

from pathlib import Path

from companion.i18n import M, render


def why_words(line, lang: str = "ru") -> str:
    """A backend choice (``plan.why``, a message) in ``lang``."""
    return render(line, lang)


def phone_hint(seat: int, name: str, still: int):
    """The line for a seat a phone took over from the bots that has not moved for ``still``
    seconds (``seat`` counted from 0): how the operator hands it back to the bots — the console's
    button or the typed directive (README, the operator plays a seat from the console)."""
    # the operator page's own words for the button and its box (web/templates/operator.html)
    button, field = M("Hand back to the bots"), M("Play a seat from the console")
    return M("seat %(n)s (%(name)s) is held by a phone and nothing has moved for %(s)s s; if nobody plays it "
             "there, hand it back to the bots: \"%(button)s\" on the operator console, or `table bot %(n)s` in "
             "\"%(field)s\"'s move field", n=seat + 1, name=name, s=still, button=button, field=field)


def game_lines(head, path, resumed_at: int | None, lang: str = "ru") -> tuple[str, str]:
    """The lines a start says of its game (``companion run``'s header, ``companion dashboard``'s
    start): its name and players, and its table log ``path`` — a new game, or resumed at action
    ``resumed_at``."""
    from companion.games import registry

    title = M("Table Companion — %(game)s, %(n)s seats: %(seats)s", game=registry.console_name(head.game),
              n=len(head.seats), seats=", ".join(head.seats))
    log_line = (M("new game, table log %(path)s", path=str(path)) if resumed_at is None
                else M("resumed from %(path)s at action %(n)s", path=str(path), n=resumed_at))
    return render(title, lang), render(log_line, lang)


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


def _notice_words(notice, lang: str = "ru") -> str:
    """A start's notice (:class:`companion.table.Notice`) in ``lang``."""
    words = getattr(notice, "words", None)
    return words(lang) if callable(words) else str(notice)


def _set_aside_words(service, lang: str = "ru") -> str:
    """The line for an unfinished game the start set aside: why, where its log is, how to resume it."""
    from companion.games import registry

    gid, path = service.set_aside
    why = getattr(service, "set_aside_message", None) or M("nobody could play it in this run")
    return render(M("the unfinished %(game)s game is set aside (%(why)s), its table log kept at %(path)s; "
                    "`companion run --resume %(name)s` resumes it", game=registry.console_name(gid, quoted=True), why=why,
                    path=str(path),
                    name=Path(path).name), lang)


def bots_leave_words(why: str, lang: str = "ru") -> str:
    """The line that the simulated table's bots leave a game alone, in ``lang``; ``why`` is a
    message id (:data:`companion.service.WHY_OPERATORS`)."""
    return render(M("the simulated table's bots leave this game alone (%(why)s); play it from the console and "
                    "the phones", why=M(why)), lang)


def _left_alone(service):
    """The simulated table's driver whose bots leave the current game alone, or ``None`` (they
    play it, or take it up now: :meth:`companion.service.TableService.bots_left_alone`; or the
    table has no game — the operator ended it: there is nothing to leave alone)."""
    table = getattr(service, "table", None)
    if table is not None and table.current_referee() is None:
        return None
    return service.bots_left_alone()


def _bots_idle_words(service, lang: str = "ru") -> str:
    """The line for a resumed game the simulated table's bots leave alone, in ``lang``."""
    return service.simtable.released_words(lang)


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
