"""Operator blueprint: PIN login and the console.

Routes: ``GET /operator`` (login form or console), ``POST /operator/login`` (``pin``; the start-up
link ``/operator?pin=…`` renders the form filled in, and the page posts it at once — with its CSRF
token, through the PIN attempt limiter: ``web/static/login.js``), ``POST /operator/logout``, ``POST /operator/new`` (new game
form: ``game``, ``seats`` one name a line or comma-separated, ``opt_<game>_<option>``), ``GET /operator/qr/<seat>.svg``
(join QR of a seat), and the JSON API ``POST /api/operator/{undo,void,end,action,manual,prompt,
prompt/<id>/clear}``, ``GET /api/operator/state``; the seats' phones: ``GET /api/operator/devices``,
``POST /api/operator/devices/<id>/revoke`` (:mod:`companion.dashboard.devices`). The camera set-up
view and the voice: :mod:`companion.dashboard.tablesetup`.
"""

from __future__ import annotations

import dataclasses
import io
import re
import typing

from flask import (Blueprint, Response, abort, jsonify, make_response, redirect, render_template, request, session,
                   url_for)
from flask_babel import gettext as _

from companion import sanitise
from companion.dashboard import common
from companion.dashboard.model import OPERATOR, action_fields
from companion.games.base import name_key, observation_fields, repeated_name, seat_from_one
from companion.games.fields import Kind, fields_of
from companion.errors import IllegalAction

bp = Blueprint("operator", __name__)

MAX_SEAT_NAME = 24


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
        specs.append({"id": gid, "min": min_seats(gid), "max": cls.MAX_SEATS, "options": opts})
    return specs


def min_seats(game_id: str, options: dict | None = None) -> int:
    """The fewest players ``game_id`` can start with under ``options`` (the defaults when
    ``None``): the first count from the class's ``MIN_SEATS`` up for which the game starts. The
    lottery's ``MIN_SEATS`` is 2, but with its default options the banker and the dealer hold no
    cards, so it needs 4 (RULINGS §5)."""
    import companion.games as games

    if options is None and game_id in _MIN_SEATS:
        return _MIN_SEATS[game_id]
    cls = games.get_game_class(game_id)
    if options is None:
        _MIN_SEATS[game_id] = n = _first_count(cls, {})
        return n
    return _first_count(cls, options)


_MIN_SEATS: dict[str, int] = {}


def _first_count(cls, options: dict) -> int:
    for n in range(cls.MIN_SEATS, cls.MAX_SEATS + 1):
        try:
            cls([f"p{i}" for i in range(n)], dict(options))
        except IllegalAction as exc:
            if exc.reason == "bad_seats":
                continue
            return cls.MIN_SEATS  # another problem (an option): the count is not what is wrong
        except Exception:
            return cls.MIN_SEATS
        return n
    return cls.MIN_SEATS


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


def _console(error: str | None = None, status: int = 200, reason: str | None = None, detail: str | None = None,
             typed: dict | None = None):
    """The console page; ``error`` (page's language) is shown, its ``reason`` code and English
    ``detail`` ride along as the alert's ``data-reason`` / ``data-detail`` attributes (for logs).
    The new-game form is filled in with ``typed`` (a refused form), else the last game
    (:mod:`companion.dashboard.lastgame`)."""
    from companion.dashboard.lastgame import fill_in, last_game

    table = common.table()
    codes = table.seat_codes()
    info = table.game_info()
    seats = [{"seat": s, "name": info["seats"][s], "code": codes.get(s)} for s in range(len(info["seats"]))] if info else []
    last = typed or last_game(table)
    games = _carried(fill_in(game_specs(), last), table)
    return render_template("operator.html", games=games, seats=seats, info=info, error=error, last=last,
                           error_reason=reason, error_detail=detail,
                           boot=common.boot("operator", snapshot=common.hub().snapshot(OPERATOR))), status


@bp.route("/operator")
def console():
    pin = request.args.get("pin")
    if not common.is_operator():
        # the start-up link (?pin=…): the page posts its own form at once (web/static/login.js),
        # with its CSRF token and through the attempt limiter; a GET changes nothing
        from companion.dashboard.security import login_lost

        pin = pin if isinstance(pin, str) and pin.isdigit() and len(pin) <= 12 else ""
        wait = _pin_wait()
        return _login_page(pin="" if wait else pin, wait=wait, lost=login_lost(common.lang()))
    if pin is not None:
        return redirect(url_for("operator.console"))  # logged in already: the PIN leaves the address bar
    return _console()


def _pin_wait() -> int:
    """Seconds until this browser may try a PIN again (0: now). A browser that logged in with
    this PIN before is the operator's own device: someone else's guessing (the table-wide
    backoff) never locks it out; its own address's count still holds."""
    trusted = common.table().sessions.is_device(session.get("dev"))
    return common.limiter().retry_after("pin", common.client_ip(), trusted=trusted)


def _login_page(pin: str = "", error: str | None = None, wait: int = 0, status: int = 200, lost=None):
    """The login page; while ``wait`` (s) holds, the form is hidden and the wait is counted down
    to the second (web/static/lockout.js; without scripts the page reloads when it ends), then the
    form returns. A 429 carries ``Retry-After``."""
    from companion.dashboard.security import countdown_words

    lang = common.lang()
    locked = None
    if wait:
        # the sentence with a slot the script fills each second, and the units it counts in
        slot = "{WAIT}"
        locked = {"wait": wait, "text": _("Too many wrong attempts: wait %(wait)s, then the login form returns.",
                                          wait=countdown_words(wait, lang)),
                  "template": _("Too many wrong attempts: wait %(wait)s, then the login form returns.", wait=slot),
                  "slot": slot, "units": ["мин", "с"] if lang == "ru" else ["min", "s"]}
    resp = make_response(render_template("login.html", pin=pin, error=error, lost=lost, locked=locked,
                                         boot=common.boot("login")), status)
    if status == 429:
        resp.headers["Retry-After"] = str(wait)
    return resp


@bp.route("/operator/login", methods=["POST"])
def login():
    table = common.table()
    if common.is_operator():
        # this browser holds a live operator login (a second tab's form, a double tap): it is
        # never held up by a lockout, and nothing is guessed
        return redirect(url_for("operator.console"))
    wait = _pin_wait()  # the operator's own device is never held up by someone else's guessing
    if wait:  # locked out: the page counts the wait down and gives the form back at its end
        return _login_page(wait=wait, status=429)
    pin = request.form.get("pin", "")
    token = table.check_pin(pin) if isinstance(pin, str) and len(pin) <= 24 else None
    if token is None:
        common.limiter().fail("pin", common.client_ip())  # a right PIN clears nothing
        # this one may have started a lockout: the countdown says how long at once
        return _login_page(error=_("Wrong PIN."), wait=_pin_wait(), status=403)
    session["op"] = token
    if not table.sessions.is_device(session.get("dev")):
        session["dev"] = table.sessions.device_mark()
    return redirect(url_for("operator.console"))


@bp.route("/operator/logout", methods=["POST"])
def logout():
    common.table().logout_operator(session.pop("op", None))  # ended at the table, not only here
    return redirect(url_for("public.index"))


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
    long = next((n for n in names if len(n) > MAX_SEAT_NAME), None)
    if long is not None:
        raise FormError(_("The name is too long: %(length)d characters, at most %(n)d («%(name)s»). Put each name "
                          "on its own line (or separate them with commas).", n=MAX_SEAT_NAME, length=len(long),
                          name=long if len(long) <= 2 * MAX_SEAT_NAME else long[:2 * MAX_SEAT_NAME] + "…"),
                        f"seat names are at most {MAX_SEAT_NAME} characters")
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
            raise FormError(_("«%(option)s» must be %(kind)s.", option=option_label(opt["name"]), kind=kind),
                            f"option {opt['name']} must be {opt['type']}") from None
        if opt.get("seat"):
            try:
                value = seat_from_one(value)  # typed from 1; the engine counts seats from 0
            except ValueError:
                raise FormError(_("«%(option)s»: seats are numbered from 1.", option=option_label(opt["name"])),
                                f"option {opt['name']}: seats are numbered from 1") from None
            if seat_count and value >= seat_count:
                raise FormError(_("«%(option)s»: there is no player %(seat)d at this table (players 1–%(n)d).",
                                  option=option_label(opt["name"]), seat=value + 1, n=seat_count),
                                f"option {opt['name']}: no seat {value + 1} at a table of {seat_count}")
        out[opt["name"]] = value
    return out


def _new_game_error(exc: IllegalAction, spec: dict, count: int) -> str:
    """A refused new game in the page's language: the reason in words, and for ``bad_seats`` the
    number of players the chosen options need."""
    from companion.dashboard.i18n import option_label, term

    msg = common.reason_message(exc.reason, spec["id"])
    facts = exc.facts or {}
    if exc.reason == "bad_option" and isinstance(facts.get("max"), int) and facts.get("option"):
        # outside the option's range (Options.check_limits): name it with its range
        words = {"option": option_label(facts["option"]), "min": _number(facts.get("min")), "max": _number(facts["max"])}
        if facts.get("min") is None:
            return _("«%(option)s»: a number no larger than %(max)s.", **words)
        return _("«%(option)s»: a number from %(min)s to %(max)s.", **words)
    if exc.reason == "bad_option" and facts.get("rule") == "different_seats" and facts.get("options"):
        return _("%(options)s must be two different players: choose different numbers.",
                 options=_(" and ").join(f"«{option_label(o)}»" for o in facts["options"]))
    if exc.reason == "bad_seats" and facts.get("repeated"):
        return _("The name «%(name)s» is entered twice: each player needs a name of their own.",
                 name=facts["repeated"])
    if exc.reason == "bad_option":
        # the engine's detail starts with the option's name ("currency must be one of …"): name
        # it in words, with the values it may take when it has a list
        opt = next((o for o in spec["options"] if (exc.detail or "").startswith(o["name"])), None)
        if opt is not None:
            # the reason goes on after the colon: lower case («"Валюта": у одного из правил …»)
            msg = _("«%(option)s»: %(reason)s", option=option_label(opt["name"]), reason=msg[:1].lower() + msg[1:])
            if opt.get("choices"):
                msg += " " + _("Possible values: %(values)s.", values=", ".join(term(c) for c in opt["choices"]))
    if exc.reason == "bad_seats":
        msg += " " + _("Players entered: %(n)d; this game with these options needs %(min)d–%(max)d.",
                       n=count, min=spec["min"], max=spec["max"])
    return msg


def _number(value) -> str:
    """A whole number for a sentence, thousands grouped with a thin space: 1000000 → «1 000 000»."""
    return "" if value is None else f"{value:,}".replace(",", "\u202f")


@bp.route("/operator/new", methods=["POST"])
def new_game():
    common.require_operator()
    from companion.dashboard.lastgame import from_form

    gid = request.form.get("game", "")
    spec = next((s for s in game_specs() if s["id"] == gid), None)
    if spec is None:
        return _console(error=common.reason_message("unknown_game", gid), status=400, reason="unknown_game",
                        detail=f"unknown game {gid!r}")
    names = split_names(request.form.get("seats", ""))
    typed = from_form(gid, names, request.form)  # a refused form comes back as it was typed
    try:
        _check_names(names)
    except FormError as exc:
        return _console(error=exc.message, status=400, reason="bad_seats", detail=exc.detail, typed=typed)
    try:
        options = _parse_options(spec, request.form, len(names))
        spec = dict(spec, min=min_seats(gid, options))
        common.table().new_game(gid, names, options)
    except FormError as exc:
        return _console(error=exc.message, status=400, reason="bad_option", detail=exc.detail, typed=typed)
    except IllegalAction as exc:
        return _console(error=_new_game_error(exc, spec, len(names)), status=400, reason=exc.reason,
                        detail=exc.detail, typed=typed)
    return redirect(url_for("operator.console"))


@bp.route("/operator/qr/<int:seat>.svg")
def seat_qr(seat: int):
    common.require_operator()
    code = common.table().seat_codes().get(seat)
    if code is None:
        abort(404, description=f"no seat {seat} in the current game")
    link = url_for("seat.join", code=code, k=common.table().sessions.join_pass(code), _external=True)
    return Response(qr_svg(link), mimetype="image/svg+xml")


def qr_svg(data: str) -> bytes:
    """A QR code of ``data`` as SVG bytes (qrcode's SVG path factory)."""
    import qrcode
    import qrcode.image.svg

    img = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=8, border=2)
    buf = io.BytesIO()
    img.save(buf)
    return buf.getvalue()


# ---------------------------------------------------------------------- JSON API
@bp.route("/api/operator/state")
def state():
    common.require_operator()
    return jsonify(common.hub().snapshot(OPERATOR))


@bp.route("/api/operator/devices")
def devices():
    """The phones that hold each seat (:func:`companion.dashboard.devices.listing`): a device id,
    a label («Chrome, Android»), first and last seen; never a token."""
    from companion.dashboard import devices as D

    common.require_operator()
    return jsonify(D.listing(common.table(), common.hub()))


@bp.route("/api/operator/devices/<device_id>/revoke", methods=["POST"])
def revoke_device(device_id: str):
    """Sign out one seat's phone: its login ends at once and its page is told («Оператор
    отключил этот телефон…»). 404 when no live login has that id (it left, or a new game)."""
    from companion.dashboard import devices as D

    common.require_operator()
    seat = D.sign_out(common.table(), common.hub(), device_id)
    if seat is None:
        abort(404, description=f"no phone {device_id!r} holds a seat now")
    return jsonify({"revoked": device_id, "seat": seat})


@bp.route("/api/operator/undo", methods=["POST"])
def undo():
    """Undo the last accepted action. Body (optional) ``{"seen": version}``: refused ``stale``
    when the table changed after the version the console showed (a double tap, a second
    operator): an undo always undoes what the operator saw."""
    common.require_operator()
    data = sanitise.json_body()
    seen = common.seen_field(data) if isinstance(data, dict) else None
    return common.outcome_response(common.table().undo(seen=seen))


@bp.route("/api/operator/void", methods=["POST"])
def void():
    """Void the round; optional body ``{"seen": version}`` as for :func:`undo`."""
    common.require_operator()
    data = sanitise.json_body()
    seen = common.seen_field(data) if isinstance(data, dict) else None
    return common.outcome_response(common.table().void_round(seen=seen))


@bp.route("/api/operator/end", methods=["POST"])
def end():
    common.require_operator()
    ended = common.table().end_game()
    # how the game stood, in words (public view only): the page reloads and shows it too
    return jsonify({"ended": True, "text": ended.get("text")})


@bp.route("/api/operator/action", methods=["POST"])
def action():
    """A table action typed or pressed by the operator (source ``operator``)."""
    common.require_operator()
    data = common.json_body()
    text = common.text_field(data, "action")
    seen = common.seen_field(data)
    if not text.startswith("table "):
        body = {"accepted": False, "action": text, "reason": "not_a_table_action",
                "detail": "the operator submits table actions ('table ...'); seats act from their pads or phones",
                "message": common.reason_message("not_a_table_action")}
        return body, 400
    referee = common.table().require_referee()
    text = for_seat(type(referee.game), text)
    named = _canonical_names(referee.game, text)
    if not isinstance(named, str):
        return named
    return common.outcome_response(common.table().submit(named, "operator", seen=seen))


def for_seat(game_cls, text: str) -> str:
    """An entry the operator makes for a seat, in the table's form, as the seat's action:
    ``table play 0 500`` → ``0 play 500`` (infinity: the card seat 0 played, the camera could not
    read it). Only for a verb whose action has an observation field (one that may be ``?``:
    :func:`companion.games.base.observation_fields`) and one word more than its fields — the
    seat; a seat's pure decisions (a bid, «Верю») are never entered for it. Anything else is
    returned unchanged (the engine says what is wrong with it)."""
    tokens = text.split()
    if len(tokens) < 3 or tokens[0] != "table" or not tokens[2].isdigit():
        return text
    cls = game_cls._verbs().get(tokens[1])
    if cls is None or not observation_fields(cls) or len(tokens) - 3 != len(action_fields(cls)[0]):
        return text
    return " ".join([str(int(tokens[2])), tokens[1], *tokens[3:]])


def _canonical_names(game, text: str):
    """``text`` with the kind names the operator typed («гриб,Ёж», ``Mushroom``) in its card fields
    (kind ``card``) replaced by the deck's kind ids (``mushroom,hedgehog``), via the game's
    ``kind_for_name`` (a deck of named pictures: the deck profile is the one source of the names). Returns the text, or a Flask ``(response, 409)`` ``unknown_kind``
    naming the deck's cards in the page's language when a name is not in the deck."""
    lookup = getattr(game, "kind_for_name", None)
    if lookup is None:
        return text
    try:
        action = type(game).parse_action(text)
    except IllegalAction:
        return text
    changes, unknown = {}, []
    for name in (f.name for f in fields_of(type(action)) if f.kind is Kind.CARD):
        value = getattr(action, name, None)
        values = value if isinstance(value, tuple) else (value,) if isinstance(value, str) else ()
        ids = []
        for v in values:
            kid = v if v == "?" else lookup(v)
            if kid is None:
                unknown.append(v)
            ids.append(kid or v)
        if values and tuple(ids) != tuple(values):
            changes[name] = tuple(ids) if isinstance(value, tuple) else ids[0]
    if unknown:
        from companion.i18n import render as words

        names = ", ".join(words(k, common.lang()) for k in game.kind_names())
        msg = _("No such card in this deck: %(typed)s. The deck's cards: %(names)s.",
                typed=", ".join(f"«{v}»" for v in unknown), names=names)
        return jsonify({"accepted": False, "action": text, "reason": "unknown_kind", "fields": [],
                        "detail": f"not a kind of this deck: {', '.join(unknown)}", "message": msg}), 409
    return dataclasses.replace(action, **changes).text() if changes else text


def canonical_serial(text: str, currency: str | None) -> str:
    """A serial as typed by the operator in the form the banknote reader gives: upper case, no
    spaces, dashes or other separators (:func:`companion.vision.serials.canonical`), and — for a
    rouble table (``currency`` ``"RUB"``) — a Latin letter that looks like a Cyrillic one (``A``
    for ``А``, ``K`` for ``К`` …) in the letter positions of a RUB serial is the Cyrillic letter,
    exactly as the reader maps it (:data:`companion.vision.serials.LATIN_TO_CYRILLIC`, a zero-
    correction fit of the RUB format): ``"ak 244-4841"`` → ``"АК2444841"``. Nothing else is changed:
    a text that does not fit the RUB format exactly (a letter where a digit belongs …) is only
    upper-cased and stripped, and the engine then says what is wrong with it."""
    from companion.vision import serials

    canon = serials.canonical(text)
    if currency == "RUB":
        exact = [m for m in serials.match(canon, "RUB") if m.corrections == 0]
        if exact:
            return exact[0].serial
    return canon


def _field_words(names) -> str:
    from companion.dashboard.i18n import field_word

    return ", ".join(f"«{field_word(n)}»" for n in names)


def _missing_fields(fields: list[str], optional: list[str]):
    """The 400 answer for a manual entry with required fields left ``?``."""
    if optional:
        msg = _("Fill in %(fields)s. Only %(optional)s may stay empty (unknown).",
                fields=_field_words(fields), optional=_field_words(optional))
    else:
        msg = _("Fill in %(fields)s: the game needs every field of this entry.", fields=_field_words(fields))
    return jsonify({"accepted": False, "reason": "missing_field", "fields": fields, "detail": msg,
                    "message": msg}), 400


def _join_split_serials(game_cls, text: str) -> str:
    """``text`` with the spaces inside a serial field dropped, as the page drops them (docs:
    *Manual entry*, "spaces inside an item are dropped"): ``table register 1 ak 244-4841,… ?``
    → ``table register 1 ak244-4841,… ?``. Only a ``table`` action with more words than fields
    and exactly one serial field is rejoined; anything else is returned unchanged."""
    tokens = text.split()
    if len(tokens) < 3 or tokens[0] != "table":
        return text
    cls = game_cls._verbs().get(tokens[1])
    if cls is None:
        return text
    fields = action_fields(cls)[0]
    extra = len(tokens) - 2 - len(fields)
    where = [i for i, f in enumerate(fields_of(cls)) if f.kind is Kind.SERIAL]
    if extra <= 0 or len(where) != 1:
        return text
    k = 2 + where[0]
    return " ".join(tokens[:k] + ["".join(tokens[k:k + extra + 1])] + tokens[k + extra + 1:])


_SUIT_SIGNS = {"♥": "H", "♦": "D", "♣": "C", "♠": "S"}
_RU_RANKS = {"Д": "Q", "К": "K", "В": "J", "Т": "A"}
_CARD_TOKEN = re.compile(r"^(10|[2-9]|[JQKAДКВТ])([♥♦♣♠HDCS])$", re.IGNORECASE)


def normalise_cards(text: str) -> str:
    """Card codes as the pages show them, typed back by the operator, in the engines' form:
    ``Q♥`` → ``QH``, ``Д♥`` (Russian rank letters Д К В Т) → ``QH``, ``10♠`` → ``10S``,
    ``JOKER`` / ``джокер`` → ``JK``. Only whole list items that are a rank and a suit change (a
    serial, a number or a doubt card name never is one)."""
    def one(item: str) -> str:
        if item.upper() in ("JOKER", "ДЖОКЕР"):
            return "JK"
        m = _CARD_TOKEN.match(item)
        if not m:
            return item
        rank, suit = m.group(1).upper(), m.group(2).upper()
        return _RU_RANKS.get(rank, rank) + _SUIT_SIGNS.get(suit, suit)

    text = re.sub(r"\s*,\s*", ",", text)
    return " ".join(",".join(one(i) for i in tok.split(",")) for tok in text.split())


def prepare_manual(text: str):
    """Check and normalise an operator's manual entry (see :func:`manual`).

    Returns the action text to submit, or a Flask ``(response, 400)`` when a field the game needs
    was left ``?`` (``409 unknown_kind`` for a card name not in the deck). Fields in the action
    class's ``UNKNOWN_OK`` may stay ``?`` (skull: the face values of the notes at registration;
    hoggenheimer: the joker's slot; infinity: the deal's leader); an entry for a seat in the
    table's form (``table play 0 500``) becomes the seat's action (:func:`for_seat`); kind names
    become the deck's ids (:func:`_canonical_names`); serial fields are canonicalised
    (:func:`canonical_serial`).
    A text the game cannot parse is passed on unchanged: the engine rejects it with its reason.
    """
    referee = common.table().require_referee()  # ended («Завершить игру») or never started: 409 no_game
    # a serial typed with spaces is rejoined first: ``table flip 1 БВ 2222224`` has one word more
    # than its fields and would otherwise read as seat 1's entry (:func:`for_seat`)
    # full-width letters and digits (a CJK keyboard: «ＡＢ１２３４５６７», «１２３») are the plain
    # ones, a pasted zero-width character is nothing
    text = _join_split_serials(type(referee.game), normalise_cards(sanitise.typed(text)))
    text = for_seat(type(referee.game), text)
    tokens = text.split()
    try:
        action = type(referee.game).parse_action(text)
    except IllegalAction as exc:
        if "?" in tokens:  # a '?' where the game takes no unknown value: a field still to fill
            msg = common.reason_message("missing_field")
            return jsonify({"accepted": False, "reason": "missing_field", "fields": [], "message": msg,
                            "detail": f"fill every '?' field before sending ({exc.detail})"}), 400
        return text  # the engine rejects it with its reason code (409)
    if action.seat is not None and not observation_fields(type(action)):
        # a seat's own decision (a bid, «Верю», a placement): only the seat's pad or phone makes
        # it; the operator enters what the camera could not read, never a player's choice
        return _refusal("seat_decision", f"{text!r} is a seat's own decision: the player makes it "
                        "on the seat's pad or phone", 409)
    fill = getattr(type(referee.game), "manual_fill", None)
    if fill is not None:  # what an operator's entry implies (the joker game: a card lies on its own place)
        filled = fill(action)
        if filled != action:
            action, text = filled, filled.text()
            tokens = text.split()
    fields, may_stay_unknown, _lists = action_fields(type(action))
    optional = list(may_stay_unknown)
    missing = [name for name, tok in zip(fields, tokens[2:]) if tok == "?" and name not in optional]
    if missing:
        return _missing_fields(missing, optional)
    named = _canonical_names(referee.game, text)
    if not isinstance(named, str):
        return named
    if named != text:
        text, action = named, type(referee.game).parse_action(named)
    currency = getattr(getattr(referee.game, "options", None), "currency", None)
    changes: dict[str, str | tuple] = {}
    # serial fields (kind ``serial``) are canonicalised before the engine sees them
    for name in (f.name for f in fields_of(type(action)) if f.kind is Kind.SERIAL):
        value = getattr(action, name, None)
        if isinstance(value, str):
            changes[name] = canonical_serial(value, currency)
        elif isinstance(value, tuple):
            changes[name] = tuple(canonical_serial(v, currency) if isinstance(v, str) else v for v in value)
    if not changes:
        return text
    try:
        return dataclasses.replace(action, **changes).text()
    except ValueError:  # a serial that was only separators: nothing left to write
        return jsonify({"accepted": False, "reason": "bad_serial", "detail": _("A serial number is empty."),
                        "message": _("A serial number is empty.")}), 400


def _refusal(reason: str, detail: str, status: int):
    """A refusal made before the engine sees the entry, shaped like a rejected outcome."""
    return jsonify({"accepted": False, "reason": reason, "detail": detail,
                    "message": common.reason_message(reason)}), status


@bp.route("/api/operator/manual", methods=["POST"])
def manual():
    """An entry made because OCR abstained: logged with source ``manual``.

    Body ``{"action": "table register 2 АК2444841,АК2444842 ?", "prompt": id?}``. A ``?`` is
    allowed only where the game lets the value stay unknown (the action's ``UNKNOWN_OK`` fields);
    any other ``?`` gets 400 ``{"reason": "missing_field", "fields": [...], "detail"}`` naming the
    fields in the page's language. Serials are canonicalised as the banknote reader gives them
    (:func:`canonical_serial`) before the engine sees them.
    """
    common.require_operator()
    data = common.json_body()
    text = common.text_field(data, "action")
    prompt = data.get("prompt")
    if prompt is not None and not isinstance(prompt, str):
        abort(400, description="'prompt' must be a prompt id")
    seen = common.seen_field(data)
    if prompt is not None and not any(p["id"] == prompt for p in common.table().prompts()):
        # answered meanwhile (the camera read it, another operator typed it) or never asked
        return _refusal("prompt_closed", f"no open prompt {prompt!r}", 409)
    prepared = prepare_manual(text)
    if not isinstance(prepared, str):
        return prepared
    return common.outcome_response(common.table().manual_entry(prepared, prompt, seen=seen))


@bp.route("/api/operator/prompt", methods=["POST"])
def add_prompt():
    common.require_operator()
    data = common.json_body()
    text = common.text_field(data, "text")
    seat = data.get("seat")
    if seat is not None and (not isinstance(seat, int) or isinstance(seat, bool)):
        abort(400, description="'seat' must be a seat number or null")
    kind = data.get("kind", "scan")
    action = data.get("action")
    if action is not None and not isinstance(action, str):
        abort(400, description="'action' must be a string")
    try:
        pid = common.table().add_prompt(text, kind=kind, seat=seat, action=action)
    except ValueError as exc:
        abort(400, description=str(exc))
    return jsonify({"id": pid})


@bp.route("/api/operator/prompt/<pid>/clear", methods=["POST"])
def clear_prompt(pid: str):
    common.require_operator()
    if not common.table().clear_prompt(pid):
        abort(404, description=f"no prompt {pid!r}")
    return jsonify({"cleared": pid})
