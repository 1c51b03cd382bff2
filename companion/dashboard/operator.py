"""Operator blueprint: PIN login and the console.

Routes: ``GET /operator`` (login form or console), ``POST /operator/login`` (``pin``; the start-up
link ``/operator?pin=…`` renders the form filled in, and the page posts it at once — with its CSRF
token, through the PIN attempt limiter: ``web/static/login.js``), ``POST /operator/logout``, ``POST /operator/new`` (new game
form: ``game``, ``seats`` one name a line or comma-separated, ``opt_<game>_<option>``), ``GET /operator/qr/<seat>.svg``
(join QR of a seat), and the JSON API ``POST /api/operator/{undo,void,end,action,manual,prompt,
prompt/<id>/clear}``, ``GET /api/operator/state``; the seats' phones: ``GET /api/operator/devices``,
``POST /api/operator/devices/<id>/revoke`` (:mod:`companion.dashboard.devices`). The camera set-up
view and the voice: :mod:`companion.dashboard.tablesetup`. The new-game form's games and checks:
:mod:`companion.dashboard.newgame`; the operator's entries checked and normalised before the engine
sees them: :mod:`companion.dashboard.manualentry`.
"""

from __future__ import annotations

import io
import re

from flask import (Blueprint, Response, abort, jsonify, make_response, redirect, render_template, request, session,
                   url_for)
from flask_babel import gettext as _

from companion import sanitise
from companion.dashboard import common
from companion.dashboard.manualentry import _refusal, for_seat, prepare_manual, typed_cards
from companion.dashboard.movewords import UNREAD, typed_move, unread_move
from companion.dashboard.manualentry import canonical_serial as canonical_serial  # (imported from here too)
from companion.dashboard.model import OPERATOR
from companion.dashboard.newgame import (FormError, _carried, _check_names, _new_game_error, _parse_options,
                                         game_specs, split_names)
from companion.errors import IllegalAction
from companion.games import seat_range

bp = Blueprint("operator", __name__)


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
    return render_template("operator.html", games=games, seats=seats, info=info, error=error, last=last, bots=table.bots,
                           error_reason=reason, error_detail=detail,
                           boot=common.boot("operator", snapshot=common.hub().snapshot(OPERATOR))), status


@bp.route("/operator")
def console():
    pin = request.args.get("pin")
    if not common.is_operator():
        # the start-up link (?pin=…): the page posts its own form at once (web/static/login.js),
        # with its CSRF token and through the attempt limiter; a GET changes nothing
        from companion.dashboard.security import login_lost
        from companion.i18n import render

        pin = pin if isinstance(pin, str) and pin.isdigit() and len(pin) <= 12 else ""
        wait = _pin_wait()
        return _login_page(pin="" if wait else pin, wait=wait, lost=render(login_lost(), common.lang()))
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
    from companion.dashboard.security import countdown_units, countdown_words

    lang = common.lang()
    locked = None
    if wait:
        # the sentence with a slot the script fills each second, and the units it counts in
        slot = "{WAIT}"
        locked = {"wait": wait, "text": _("Too many wrong attempts: wait %(wait)s, then the login form returns.",
                                          wait=countdown_words(wait, lang)),
                  "template": _("Too many wrong attempts: wait %(wait)s, then the login form returns.", wait=slot),
                  "slot": slot, "units": list(countdown_units(lang))}
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
    common.hold_login("op", token)  # a cookie that outlasts a closed browser; the token ends after 12 h
    if not table.sessions.is_device(session.get("dev")):
        session["dev"] = table.sessions.device_mark()
    return redirect(url_for("operator.console"))


@bp.route("/operator/logout", methods=["POST"])
def logout():
    common.table().logout_operator(common.drop_login("op"))  # ended at the table, not only here
    return redirect(url_for("public.index"))


@bp.route("/operator/new", methods=["POST"])
def new_game():
    common.require_operator()
    from companion.dashboard.lastgame import from_form

    names = split_names(request.form.get("seats", ""))
    typed = from_form(request.form.get("game", ""), names, request.form)  # a refused form comes back as typed
    try:
        gid, names, options, spec = _checked_new_game(request.form)
        common.table().new_game(gid, names, options)
    except _Refused as exc:
        return _console(error=exc.message, status=400, reason=exc.reason, detail=exc.detail,
                        typed=typed if exc.reason != "unknown_game" else None)
    except IllegalAction as exc:
        return _console(error=_new_game_error(exc, spec, len(names)), status=400, reason=exc.reason,
                        detail=exc.detail, typed=typed)
    return redirect(url_for("operator.console"))


@bp.route("/api/operator/new/check", methods=["POST"])
def new_game_check():
    """The new-game form's fields (JSON, as the form would post them) checked as ``POST
    /operator/new`` checks them, without ending the current game or starting one: ``{"ok": true}``,
    or ``{"ok": false, "reason", "detail", "message"}`` (the page's language). The console asks
    «Текущая игра будет завершена…» only for a form that will be accepted."""
    common.require_operator()
    form = common.json_body()
    if not isinstance(form, dict):
        abort(400, description="the form's fields as a JSON object")
    try:
        _form_texts(form)
        _checked_new_game(form)
    except _Refused as exc:
        return jsonify({"ok": False, "reason": exc.reason, "detail": exc.detail, "message": exc.message})
    return jsonify({"ok": True})


def _form_texts(form: dict) -> None:
    """The new-game form's fields are texts, as the page sends them (``FormData``'s strings:
    ``seats`` the names one a line or separated by commas, a checkbox ``"on"``): a field of another
    kind (a list of names, a number) is refused, never dropped and the form judged without it.

    Raises:
        _Refused: ``bad_seats`` for ``seats``, else ``bad_syntax``, naming the field.
    """
    field = next((k for k, v in form.items() if not isinstance(v, str)), None)
    if field == "seats":
        raise _Refused(_("The players must be one text: their names separated by commas or one a line, not a list."),
                       "bad_seats", "'seats' must be a text (names separated by commas or one a line)")
    if field is not None:
        raise _Refused(_("«%(field)s» must be a text, as the form sends it.", field=field), "bad_syntax",
                       f"{field!r} must be a text, as the form sends it")


class _Refused(Exception):
    """A new-game form refused: ``message`` in the page's language, the ``reason`` code and the
    English ``detail`` (for logs)."""

    def __init__(self, message: str, reason: str, detail: str) -> None:
        super().__init__(detail)
        self.message, self.reason, self.detail = message, reason, detail


def _checked_new_game(form) -> tuple[str, list[str], dict, dict]:
    """The new-game form's game id, names, options and game spec, once the names, the options and
    the engine accept them (nothing is started).

    Raises:
        _Refused: the game, a name, an option or the engine refuses.
    """
    from companion.table.session import check_new_game

    gid = form.get("game", "")
    spec = next((s for s in game_specs() if s["id"] == gid), None)
    if spec is None:
        raise _Refused(common.reason_message("unknown_game", gid), "unknown_game", f"unknown game {gid!r}")
    names = split_names(form.get("seats", ""))
    try:
        _check_names(names)
    except FormError as exc:
        raise _Refused(exc.message, "bad_seats", exc.detail) from None
    try:
        options = _parse_options(spec, form, len(names))
        least, most = seat_range(gid, options)
        spec = dict(spec, min=least, max=most)
        check_new_game(gid, names, options)
    except FormError as exc:
        raise _Refused(exc.message, "bad_option", exc.detail) from None
    except IllegalAction as exc:
        raise _Refused(_new_game_error(exc, spec, len(names)), exc.reason, exc.detail) from None
    return gid, names, options, spec


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
    """A table action typed or pressed by the operator (source ``operator``). With ``"seat"``
    (counted from 1) the text is what the operator typed in «Играть место с пульта»'s move field
    for that seat: a seat directive typed whole, a bare ``bot`` / ``console``, or the seat's move
    (:meth:`companion.table.control.ControlMixin.console_move`)."""
    common.require_operator()
    data = common.json_body()
    text = common.text_field(data, "action")
    seen = common.seen_field(data)
    seat = data.get("seat")
    typed = text  # as the operator typed it, for a refusal of a move not understood
    info = common.table().game_info()
    game_id = info and info.get("id")
    if seat is not None:
        if not isinstance(seat, int) or isinstance(seat, bool) or seat < 1:
            abort(400, description="'seat' must be a seat number counted from 1")
        text = common.table().console_move(seat, typed_move(game_id, text))
    else:
        text = typed_move(game_id, text)  # «table as 3 Согласен» typed in the table-action field
    if not text.startswith("table "):
        body = {"accepted": False, "action": text, "reason": "not_a_table_action",
                "detail": "the operator submits table actions ('table ...'); seats act from their pads or phones",
                "message": common.reason_message("not_a_table_action")}
        return body, 400
    referee = common.table().require_referee()
    if _AS_SEAT.fullmatch(text) and not _PLAYED_FOR.fullmatch(text):
        # «table as -1 pass»: no seat by that number, refused as «table as 9 pass» is (the
        # directive's unknown_seat), not read as cards or a game's verb
        return common.outcome_response(common.table().submit(text, "operator", seen=seen))
    text = for_seat(type(referee.game), text)
    played = _PLAYED_FOR.fullmatch(text)
    # cards as the pages show them (Д♥, «гриб», «бесконечность»), read as a seat's phone reads
    # them: a seat's move played from the console is the seat's own action
    named = typed_cards(referee.game, f"{int(played[1]) - 1} {played[2]}" if played else text)
    if not isinstance(named, str):
        return named
    if played:
        named = f"table as {played[1]} {named.split(' ', 1)[1]}"
    outcome = common.table().submit(named, "operator", seen=seen)
    body, status = common.outcome_response(outcome)
    if played and not outcome.accepted and outcome.reason in UNREAD:
        # a seat's move the engine could not read at all: the moves the seat can make now
        said = _PLAYED_FOR.fullmatch(" ".join(typed.split())) if seat is None else None
        body["message"] = _unread_move(game_id, said[2] if said else typed, int(played[1]) - 1)
    return body, status


def _unread_move(game_id: str | None, typed: str, seat: int) -> str:
    """:func:`companion.dashboard.movewords.unread_move` for seat ``seat`` (from 0) of the current
    game, in the page's language (the seat's possible moves now, the table's own view of them)."""
    from companion.i18n import render

    _epoch, _version, _views, legal, _current, _over, _result = common.table().views()
    seats = (common.table().game_info() or {}).get("seats") or []
    player = seats[seat] if 0 <= seat < len(seats) else str(seat + 1)
    return render(unread_move(game_id, " ".join(typed.split()), player, legal.get(seat, [])), common.lang())


#: ``table as N <move>``: seat N's move (counted from 1) played from the console
_PLAYED_FOR = re.compile(r"table as (\d+) (\S.*)")
#: a ``table as`` directive whatever names its seat (``-1``, ``1.5``, a word)
_AS_SEAT = re.compile(r"table as \S+ \S.*")


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
