"""Seat blueprint: join a seat by code or QR, then see the seat's private view and act.

Routes: ``GET/POST /join`` (``?code=`` from the QR pre-fills the form), ``GET /seat``,
``POST /seat/leave``, ``GET /api/seat/state``, ``POST /api/seat/action`` (``{"action": "2 bid 3"}``),
``POST /api/seat/pending`` (``{"count": 3}``). A typed action's cards are read as the pages
show them (:func:`companion.dashboard.manualentry.typed_cards`).
"""

from __future__ import annotations

from flask import Blueprint, abort, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from companion import sanitise
from companion.dashboard import common
from companion.i18n import MN, render

#: the longest seat code taken, spaces and dashes included (a code is 6 digits)
MAX_CODE = 32

bp = Blueprint("seat", __name__)


@bp.route("/join", methods=["GET", "POST"])
def join():
    table = common.table()
    error = None
    code = request.values.get("code", "")
    if not isinstance(code, str):
        abort(400, description="bad code")
    if len(sanitise.typed(code)) > MAX_CODE:  # a paste gone wrong: said in words, not counted as a guess
        error = render(MN("The code is too long: %(n)s character, at most %(max)s. Type the seat's code again.",
                          "The code is too long: %(n)s characters, at most %(max)s. Type the seat's code again.",
                          len(code), max=MAX_CODE), common.lang())
        return _page("", error, status=400)
    given_pass = request.values.get("k", "")
    if not isinstance(given_pass, str) or len(given_pass) > 32:
        abort(400, description="bad pass")
    if request.method == "POST":
        # a code read off the console is often typed in groups ("063 138", "063-138")
        # (full-width digits are digits; a zero-width character pasted with it is nothing)
        typed = "".join(ch for ch in sanitise.typed(code) if not (ch.isspace() or ch in "-–"))
        if not typed:  # nothing typed (the form sent blank): a prompt, not a wrong guess
            return _page("", _("Type your seat's code from the operator, or scan its QR code."), status=400)
        # the seat's QR code carries a pass made from its code: such a join is never held up by
        # the table-wide backoff someone else's guessing started (a right code, proven)
        # the operator's own logged-in browser (it can read every code) is never locked out
        operator = common.is_operator()
        trusted = operator or table.sessions.is_join_pass(typed, given_pass)
        if not operator:
            common.limit("join", trusted=trusted)
        before = session.get("seat")
        with table.sessions.labelled(request.headers.get("User-Agent")):
            joined = table.join(typed, before) if typed.isdigit() else None
        if joined is None:
            if not operator:
                common.limiter().fail("join", common.client_ip())  # a right code clears nothing
            error = _("Wrong code. Ask the operator for your seat's code.")
            wait = 0 if operator else common.limiter().retry_after("join", common.client_ip(), trusted=trusted)
            if wait:  # this one started a lockout: say how long at once
                error += " " + common.wait_message(wait)
            return _page(code, error, status=403)
        common.hold_login("seat", joined[1])  # a cookie that outlasts a closed browser (24 h)
        if joined[1] != before:  # a new login: the seat's other phones and the operator are told
            from companion.dashboard import devices

            devices.joined(table, common.hub(), joined[0], joined[1])
        return redirect(url_for("seat.seat_page"))
    if table.sessions.was_signed_out(session.get("seat")):
        common.drop_login("seat")
        error = _("The operator signed this phone out of its seat. To play on it again, enter the seat's code.")
    notice = None
    why = _why_retired(table, session.get("seat")) if error is None else None
    if why is not None:
        common.drop_login("seat")  # its game ended: a new one has new codes
        notice = _retired_notice(why)
    return _page(code, error, notice, given_pass)


def _page(code: str, error: str | None, notice: str | None = None, k: str = "", status: int = 200):
    """The join page (its code field takes :data:`MAX_CODE` characters, as the server does)."""
    return render_template("join.html", code=code, error=error, notice=notice, k=k, max_code=MAX_CODE,
                           boot=common.boot("join")), status


def _why_retired(table, token) -> str | None:
    """``Sessions.retired_why`` of ``token``, said as it stands now: a login the operator's end
    of its game took (``"ended"``) is from an earlier game (``"earlier"``) once another game is
    running — started at the console or by a restart — not one still waiting for "the next game"."""
    why = table.sessions.retired_why(token)
    if why == "ended" and table.current_referee() is not None:
        return "earlier"
    return why


def _retired_notice(why: str) -> str:
    """/join's notice for a phone whose seat login ended with its game (:func:`_why_retired`)."""
    if why == "earlier":
        from companion.dashboard.reasons import SEAT_RETIRED
        from companion.i18n import M

        return render(M(SEAT_RETIRED), common.lang())
    if why == "new_game":
        return _("The operator started a new game, so this phone left its seat. Join again with your "
                 "seat's new code from the operator, or scan the new QR code.")
    if why == "ended":
        return _("The operator ended the game, so this phone left its seat. When the next game starts, join "
                 "it with your seat's new code from the operator, or scan the new QR code.")
    return _("This phone's game was over when the table was restarted, so the phone left its "
             "seat. Join again with your seat's new code from the operator, or scan the new QR code.")


@bp.route("/seat")
def seat_page():
    seat = common.session_seat()
    if seat is None:
        return redirect(url_for("seat.join"))
    return render_template("seat.html", seat=seat, boot=common.boot("seat", seat=seat,
                                                                  snapshot=common.hub().snapshot(seat)))


@bp.route("/seat/leave", methods=["POST"])
def leave():
    common.table().leave_seat(common.drop_login("seat"))  # the token ends here, not only in this browser
    from companion.dashboard import devices

    devices.changed(common.hub())  # the operator's list of the seats' phones
    return redirect(url_for("seat.join"))


def _seat() -> int:
    seat = common.session_seat()
    if seat is None:
        why = _why_retired(common.table(), session.get("seat"))
        if why == "ended":  # the operator ended its game: reasons.SEAT_ENDED
            abort(403, description="seat_retired: ended: join a seat first (the operator ended the seat "
                                   "token's game; the next game has new seat codes)")
        if why is not None:
            # a new game (or the game's end before a restart) ended this login: said as that, with
            # the way on (reasons.SEAT_RETIRED), not as a login this phone never had
            abort(403, description="seat_retired: join a seat first (the seat token is from an earlier game; "
                                   "this game has new seat codes)")
        abort(403, description="join a seat first (seat token missing or from an old game)")
    return seat


@bp.route("/api/seat/state")
def state():
    seat = _seat()
    return jsonify(common.hub().snapshot(seat))


@bp.route("/api/seat/action", methods=["POST"])
def action():
    seat = _seat()
    data = common.json_body()
    text = common.text_field(data, "action")
    table = common.table()
    if table.played_by(seat) == "bots":
        # the operator handed this seat (back) to the bots while this phone held it: a tap here
        # would play alongside them (joining again takes it over: companion.table.control)
        return jsonify({"accepted": False, "action": text, "reason": "bots_play_seat",
                        "detail": f"the simulated table's bots play seat {seat} now",
                        "message": common.reason_message("bots_play_seat")}), 409
    if table.played_by(seat) == "console":
        # the seat's player is back on the phone: the seat is the player's again (the operator's
        # list and console hear it), so the page never shows «играет оператор с пульта» beside a
        # move the phone made
        table.hand_seat(seat, None)
    # cards typed as the pages show them (Д♥, «гриб»), read as the operator's entries read them
    from companion.dashboard.manualentry import typed_cards

    named = typed_cards(table.require_referee().game, text)
    if not isinstance(named, str):
        return named
    return common.outcome_response(table.submit_for_seat(seat, named, "dashboard", seen=common.seen_field(data)))


@bp.route("/api/seat/pending", methods=["POST"])
def pending():
    seat = _seat()
    body = common.json_body()
    if "count" not in body:
        abort(400, description="expected {\"count\": n or null}")
    count = body["count"]
    if count is not None and (not isinstance(count, int) or isinstance(count, bool) or not 0 <= count <= 999):
        abort(400, description="count must be an integer 0-999 or null")
    if count and count not in (_counts(seat) or ()):
        # the badge «считает N» tells the table a bid being counted: only the seat that may bid
        # now, and only a number it may bid (anything else would mislead every screen)
        return jsonify({"accepted": False, "reason": "bad_pending", "message": common.reason_message("bad_pending"),
                        "detail": f"seat {seat} cannot count {count} now"}), 409
    common.table().set_pending(seat, count)
    return jsonify({"seat": seat, "count": count})


def _counts(seat: int) -> set[int] | None:
    """The numbers ``seat`` may send now as the single argument of one of its legal actions (a
    bid's stepper), or ``None`` when it has no such action now."""
    table = common.table()
    referee = table.require_referee()
    with referee.lock:
        texts = [a.text() for a in referee.game.legal_actions(seat)]
    values = {int(t.split()[2]) for t in texts if len(t.split()) == 3 and t.split()[2].isdigit()}
    return values or None
