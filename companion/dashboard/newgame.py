"""The operator's new-game form: the games it offers with their house-rule options, and the typed
form checked and read into a game's players and options (:func:`companion.dashboard.operator.new_game`).

A refused form is a :class:`FormError` or an :class:`~companion.errors.IllegalAction` from the
engine, said in the page's language (:func:`_new_game_error`).
"""

from __future__ import annotations

import dataclasses
import typing

from flask_babel import gettext as _

from companion.dashboard import common
from companion.errors import IllegalAction
from companion.i18n import render
from companion.games.base import name_key, repeated_name, seat_from_one
from companion.games.seats import MAX_SEAT_NAME, long_name


#: The option types the new-game form has an input for, by the type hint of the option's field.
_OPTION_KINDS: dict[object, str] = {int: "int", bool: "bool", float: "float", str: "str"}


def game_specs() -> list[dict]:
    """Installed games with their house-rule options: ``[{"id", "min", "max", "options": [{"name",
    "type", "default", "choices", "seat"}]}]`` (the new-game form). Seat options (``Options.SEATS``)
    carry a 1-based default, like every seat number the operator sees."""
    import companion.games as games

    specs = []
    for gid in games.ids():
        try:
            cls = games.get_game_class(gid)
        except (IllegalAction, ImportError):
            continue
        opts = []
        hints = typing.get_type_hints(cls.OPTIONS)
        for f in dataclasses.fields(cls.OPTIONS):
            kind = _OPTION_KINDS.get(hints.get(f.name))
            if kind is None or f.default is dataclasses.MISSING:
                continue  # options of other shapes keep their defaults here
            choices = (getattr(cls.OPTIONS, "CHOICES", None) or {}).get(f.name)  # optional {name: [values]}
            seat = f.name in cls.OPTIONS.SEATS  # a seat index: shown and typed 1-based
            default = f.default + 1 if seat else f.default
            opts.append({"name": f.name, "type": kind, "default": default, "choices": choices, "seat": seat})
        least, most = games.seat_range(gid)
        specs.append({"id": gid, "min": least, "max": most, "options": opts})
    return specs


def _carried(specs: list[dict], table) -> list[dict]:
    """``specs`` with each game's carried options (``Options.CARRIED``) defaulting to the value
    the newest finished game of that kind left (the lottery's box: RULINGS §5 "the box carries
    over"), so a new game does not silently start from 0."""
    import companion.games as games

    for spec in specs:
        carried = getattr(games.get_game_class(spec["id"]).OPTIONS, "CARRIED", {}) or {}
        if not carried:
            continue
        last = table.last_result(spec["id"])
        if not last:
            continue
        for opt in spec["options"]:
            key = carried.get(opt["name"])
            if key is not None and isinstance(last.get(key), type(opt["default"])):
                opt["default"] = last[key]
    return specs


class FormError(Exception):
    """A new-game form value the operator must correct: ``message`` in the page's language,
    ``detail`` in English (for the log)."""

    def __init__(self, message: str, detail: str) -> None:
        super().__init__(detail)
        self.message, self.detail = message, detail


def split_names(text: str) -> list[str]:
    """Player names as typed on the new-game form: one a line, or separated by commas on one
    line (as ``companion run --seats`` takes them), or both; blanks are dropped:
    ``"Аня, Борис\nВера"`` → ``["Аня", "Борис", "Вера"]``."""
    names = (n.strip() for line in (text or "").splitlines() for n in line.split(","))
    # a name nobody could see (a zero-width space, a direction mark pasted between commas) is a blank
    return [n for n in names if name_key(n)]


def _check_names(names: list[str]) -> None:
    """Refuse a name that is too long or given twice, before the game is tried.

    Raises:
        FormError: the name in the page's language, the English detail for the log.
    """
    from companion.dashboard.reasons import long_name_words

    long = long_name(names)
    if long is not None:
        raise FormError(render(long_name_words(long), common.lang()), f"seat names are at most {MAX_SEAT_NAME} characters")
    repeated = repeated_name(names)  # «Аня» and «аня» are one player
    if repeated is not None:
        raise FormError(_("The name «%(name)s» is entered twice: each player needs a name of their own.",
                          name=repeated), f"seat name {repeated!r} is given twice")


def _parse_options(spec: dict, form, seat_count: int | None = None) -> dict:
    """The house-rule options typed on the new-game form; a seat option must name one of the
    ``seat_count`` players when the count is given. Raises :class:`FormError`."""
    from companion.dashboard.i18n import option_label

    out = {}
    for opt in spec["options"]:
        key = f"opt_{spec['id']}_{opt['name']}"
        if opt["type"] == "bool":
            out[opt["name"]] = form.get(key) in ("on", "yes", "1", "true")
            continue
        raw = form.get(key)
        if raw is None or raw == "":
            continue
        try:
            value = {"int": int, "float": float, "str": str}[opt["type"]](raw)
        except ValueError:
            kind = {"int": _("a whole number"), "float": _("a number")}.get(opt["type"], _("a text"))
            raise FormError(_("«%(option)s» must be %(kind)s.", option=option_label(opt["name"], spec["id"]), kind=kind),
                            f"option {opt['name']} must be {opt['type']}") from None
        if opt.get("seat"):
            try:
                value = seat_from_one(value)  # typed from 1; the engine counts seats from 0
            except ValueError:
                raise FormError(_("«%(option)s»: seats are numbered from 1.", option=option_label(opt["name"], spec["id"])),
                                f"option {opt['name']}: seats are numbered from 1") from None
            if seat_count and value >= seat_count:
                raise FormError(_("«%(option)s»: there is no player %(seat)d at this table (players 1–%(n)d).",
                                  option=option_label(opt["name"], spec["id"]), seat=value + 1, n=seat_count),
                                f"option {opt['name']}: no seat {value + 1} at a table of {seat_count}")
        out[opt["name"]] = value
    return out


def _new_game_error(exc: IllegalAction, spec: dict, count: int) -> str:
    """A refused new game in the page's language: the reason in words, and for ``bad_seats`` the
    number of players the chosen options need."""
    from companion.dashboard.i18n import option_label, term

    from companion.games.optionwords import rule_words

    msg = common.reason_message(exc.reason, spec["id"])
    facts = exc.facts or {}
    told = rule_words(facts, spec["id"]) if exc.reason == "bad_option" else None
    if told is not None:
        # options bound by a rule (the lottery's entry stake and box, the joker game's minimum
        # and maximum stake): both named by their labels, and the rule
        return render(told, common.lang())
    if exc.reason == "bad_option" and isinstance(facts.get("max"), int) and facts.get("option"):
        # outside the option's range (Options.check_limits): name it with its range
        words = {"option": option_label(facts["option"], spec["id"]), "min": _number(facts.get("min")), "max": _number(facts["max"])}
        if facts.get("min") is None:
            return _("«%(option)s»: a number no larger than %(max)s.", **words)
        return _("«%(option)s»: a number from %(min)s to %(max)s.", **words)
    if exc.reason == "bad_seats" and isinstance(facts.get("max"), int) and int(facts.get("given", count)) > facts["max"]:
        # too many: the most this game takes (the game's own sentence may explain the least)
        return common.reason_message(exc.reason, spec["id"], facts=facts)
    if exc.reason == "bad_seats" and facts.get("repeated"):
        return _("The name «%(name)s» is entered twice: each player needs a name of their own.",
                 name=facts["repeated"])
    if exc.reason == "bad_option":
        # the engine's detail starts with the option's name ("currency must be one of …"): name
        # it in words, with the values it may take when it has a list
        opt = next((o for o in spec["options"] if (exc.detail or "").startswith(o["name"])), None)
        if opt is not None:
            # the reason goes on after the colon: lower case («"Валюта": у одного из правил …»)
            msg = _("«%(option)s»: %(reason)s", option=option_label(opt["name"], spec["id"]), reason=msg[:1].lower() + msg[1:])
            if opt.get("choices"):
                msg += " " + _("Possible values: %(values)s.", values=", ".join(term(c, spec["id"]) for c in opt["choices"]))
    if exc.reason == "bad_seats":
        msg += " " + _("Players entered: %(n)d; this game with these options needs %(min)d–%(max)d.",
                       n=count, min=facts.get("min", spec["min"]), max=facts.get("max", spec["max"]))
    return msg


def _number(value) -> str:
    """A whole number for a sentence, thousands grouped with a thin space: 1000000 → «1 000 000»."""
    return "" if value is None else f"{value:,}".replace(",", "\u202f")
