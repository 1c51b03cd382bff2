"""The words of ``companion run``'s outcomes: a finished game's result line
(:func:`format_result`), a refusal before the table starts (:func:`error_words`) and the Ctrl-C line
(:func:`stop_words`), in the console's language.
"""

from __future__ import annotations

import dataclasses
import errno
from pathlib import Path

from companion.errors import IllegalAction
from companion.games.words import money
from companion.i18n import M, MN, MP, N_, NC_, aside, render

#: the operating system's errors a person meets at the table, in words (message ids)
OS_REASONS = {
    errno.ENOENT: N_("no such file or folder"), errno.EACCES: N_("permission denied"),
    errno.EPERM: N_("permission denied"), errno.ENOSPC: N_("no space left on the disk"),
    errno.EROFS: N_("the disk is read-only"), errno.ENODEV: N_("no such device"),
    errno.ENXIO: N_("no such device"), errno.EBUSY: N_("the device is busy"),
    errno.EIO: N_("input/output error (a failing disk, card or cable)"),
    errno.EADDRNOTAVAIL: N_("this machine has no such address (--host)"),
    errno.ENOTDIR: N_("a part of the path is a file, not a folder"),
    errno.EISDIR: N_("it is a folder, not a file"),
}


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
        told = ""
        if result.get("face_value") is not None:  # written as the board writes it («42 000 ₽»)
            told = " = " + money(result["face_value"], result.get("currency"))[lang]
        parts.append(MN("bank: %(n)s note(s)%(money)s", "bank: %(n)s note(s)%(money)s", len(bank), money=told))
    if isinstance(result.get("rounds"), int):
        parts.append(M("rounds: %(rounds)s", rounds=result["rounds"]))
    return render(M("game over — %(parts)s", parts=" · ".join(render(part, lang) for part in parts)), lang)


def os_reason(exc: OSError):
    """What an operating-system error says, as a message: :data:`OS_REASONS`, another one by its
    code name (``EIO``)."""
    code = getattr(exc, "errno", None)
    if code == errno.EADDRINUSE:
        return M("the port is taken by another program")
    if code in OS_REASONS:
        return M(OS_REASONS[code])
    return M("system error %(code)s", code=errno.errorcode.get(code, "?") if isinstance(code, int) else "?")


def os_error_words(exc: OSError, lang: str = "ru") -> str:
    """An operating-system error that stopped the table, in ``lang``: what went wrong in words
    (:data:`OS_REASONS`; another one by its code name, ``EIO``), the file it names, and where to
    look further — never the system's English text on a Russian line."""
    why = os_reason(exc)
    name = getattr(exc, "filename", None)
    if name is not None:
        return render(M("the table stopped on a system error: %(why)s: %(path)s (details: -v)", why=why,
                        path=str(name)), lang)
    return render(M("the table stopped on a system error: %(why)s (details: -v)", why=why), lang)


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
    if exc.reason == "bad_option" and f.get("rule"):
        from companion.games.optionwords import rule_words

        told = rule_words(f, game_id)
        if told is not None:  # options bound by a rule: their ids as typed, then the rule by their labels
            return M("options %(options)s (--option): %(rule)s", options=", ".join(map(str, f["options"])), rule=told)
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
    if exc.reason == "bad_option" and f.get("option") and f.get("expected") == "integer":
        return M("option %(option)s (--option): a whole number is needed, not %(value)r", option=f["option"],
                 value=f.get("value"))
    if exc.reason == "bad_option" and f.get("option") and f.get("expected") == "boolean":
        return M("option %(option)s (--option): true or false is needed, not %(value)r", option=f["option"],
                 value=f.get("value"))
    if exc.reason == "bad_seats" and f.get("max") is not None and int(f.get("given") or 0) > int(f["max"]):
        # too many: the most the game takes, not the game's why (the lottery's is about the least)
        return M("too many players: %(given)s given, this game takes at most %(max)s (--seats)", given=f["given"],
                 max=f["max"])
    if exc.reason == "bad_seats" and f.get("max") is not None:
        # the range the options in force allow (the engine's Game.seat_range, as the new-game
        # form shows it), and why when the game says (the lottery's banker and dealer hold no cards)
        count = M("this game needs %(min)s to %(max)s players, %(given)s given (--seats)", min=f["min"],
                  max=f["max"], given=f["given"])
        from companion.games import registry

        spec = registry.find(game_id)
        why = spec.presenter.refusal(exc.reason) if spec is not None else None
        return M("%(count)s. %(why)s", count=count, why=why) if why else count
    if exc.reason == "bad_seats" and f.get("too_long"):
        # the length and the most, as the other --seats lines say theirs; not the new-game form's
        # advice on its lines (that sentence stays the form's: reasons.name_too_long)
        return MN("the name «%(name)s» is too long (--seats): %(n)s character, at most %(most)s",
                  "the name «%(name)s» is too long (--seats): %(n)s characters, at most %(most)s",
                  int(f["length"]), name=str(f["too_long"]), most=int(f["most"]))
    if exc.reason == "bad_seats" and f.get("empty"):
        return M("player %(seat)s has an empty name (--seats): each player needs a name", seat=f["empty"])
    if exc.reason == "bad_seats" and f.get("repeated"):
        return M("the name %(name)r is given twice (--seats): each player needs a name of their own",
                 name=f["repeated"])
    if exc.reason == "bad_seats" and f.get("char") and f.get("position"):
        # a control character (a bell, an escape pasted with the name): which one, and where
        return M("the name %(name)s of player %(seat)s holds a character that cannot be shown (character "
                 "%(position)s: %(char)s) (--seats): type the name without it", name=f["name"], seat=f["seat"],
                 position=f["position"], char=f["char"])
    # English: the engine's message; Russian: the game's own sentence for the code when it has one
    # (the lottery's player count), else the dashboard's plain sentence with the engine's detail,
    # which names the option
    from companion.games import registry

    spec = registry.find(game_id)
    own = spec.presenter.refusal(exc.reason) if spec is not None else None
    if own:
        return aside(str(exc), own)
    # the engine's English detail is not shown on a Russian line: the option it names (the
    # detail starts with it), else the plain sentence
    names = sorted((f.name for f in dataclasses.fields(spec.engine.OPTIONS)), key=len, reverse=True) \
        if spec is not None and dataclasses.is_dataclass(getattr(spec.engine, "OPTIONS", None)) else []
    option = next((n for n in names if (exc.detail or "").startswith(n)), None)
    if exc.reason == "bad_option" and option is not None:
        return aside(str(exc), M("option %(option)s (--option): this value cannot be used", option=option))
    return aside(str(exc), reason_words(exc.reason))


def stop_words(service, lang: str = "ru", headless: bool = False) -> str:
    """The Ctrl-C line: an unfinished game is offered for resuming, a finished one (or one the
    operator ended, the table having no game since) is not. A headless run (``--json``), whose
    console shows no header, names the kept log and how to go on with it."""
    try:
        ref = service.table.referee if service.table is not None else None
        over = ref is not None and service.over
        path = ref.log.path if ref is not None else None
    except Exception:  # the table is half started: say the safe thing
        over, path = False, None
    ended = _ended_log(getattr(service, "table", None)) if path is None else None
    if ended is not None:
        return _ended_line(ended, lang)
    return _stop_line(over, path, lang, headless)


def table_stop_words(table, lang: str = "ru") -> str:
    """The Ctrl-C line of a table served on its own (``companion dashboard``): as :func:`stop_words`."""
    try:
        ref = table.referee
        with ref.lock:
            over = ref.game.is_over()
        path = ref.log.path
    except Exception:  # no game, or a game that ended: say the safe thing
        over, path = False, None
    ended = _ended_log(table) if path is None else None
    if ended is not None:
        return _ended_line(ended, lang)
    return _stop_line(over, path, lang, False)


def _ended_log(table) -> str | None:
    """The table log of the game the operator ended (``Table.last_ended``), when the table has
    had no game since: nothing resumes at the next start."""
    try:
        if table is None or table.referee is not None:
            return None
        ended = getattr(table, "last_ended", None)
        log = ended.get("log") if isinstance(ended, dict) else None
        return log if isinstance(log, str) else None
    except Exception:  # the table is half started: no such line
        return None


def _ended_line(path: str, lang: str) -> str:
    return render(M("stopping; the operator ended the game, its table log is %(path)s", path=path), lang)


def _stop_line(over: bool, path, lang: str, headless: bool) -> str:
    if over:
        return render(M("stopping; the game is over, its table log is %(path)s", path=str(path)), lang)
    if headless and path is not None:
        return render(M("stopping before the end; the game is kept in its table log %(path)s: the same command "
                        "(without --new) or `companion run --resume %(name)s` goes on with it",
                        path=str(path), name=Path(path).name), lang)
    return render(M("stopping; the game resumes from its table log at the next start"), lang)


_stop_words = stop_words  # the older name
