"""Operator blueprint: PIN login and the console.

Routes: ``GET /operator`` (login form or console), ``POST /operator/login`` (``pin``; ``?pin=`` from
the start-up QR pre-fills the form), ``POST /operator/logout``, ``POST /operator/new`` (new game
form: ``game``, ``seats`` one name a line, ``opt_<game>_<option>``), ``GET /operator/qr/<seat>.svg``
(join QR of a seat), and the JSON API ``POST /api/operator/{undo,void,end,action,manual,prompt,
prompt/<id>/clear}``, ``GET /api/operator/state``.
"""

from __future__ import annotations

import dataclasses
import io
import typing

from flask import Blueprint, Response, abort, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _

from companion.dashboard import common
from companion.dashboard.model import OPERATOR
from companion.errors import IllegalAction

bp = Blueprint("operator", __name__)

MAX_SEAT_NAME = 24


def game_specs() -> list[dict]:
    """Installed games with their house-rule options: ``[{"id", "min", "max", "options": [{"name",
    "type", "default", "choices"}]}]`` (the new-game form)."""
    import companion.games as games

    specs = []
    for gid in games.GAME_IDS:
        try:
            cls = games.get_game_class(gid)
        except (IllegalAction, ImportError):
            continue
        opts = []
        hints = typing.get_type_hints(cls.OPTIONS)
        for f in dataclasses.fields(cls.OPTIONS):
            hint = hints.get(f.name)
            kind = {int: "int", bool: "bool", float: "float", str: "str"}.get(hint)
            if kind is None or f.default is dataclasses.MISSING:
                continue  # options of other shapes keep their defaults here
            choices = (getattr(cls.OPTIONS, "CHOICES", None) or {}).get(f.name)  # optional {name: [values]}
            opts.append({"name": f.name, "type": kind, "default": f.default, "choices": choices})
        specs.append({"id": gid, "min": cls.MIN_SEATS, "max": cls.MAX_SEATS, "options": opts})
    return specs


def _console(error: str | None = None, status: int = 200):
    table = common.table()
    codes = table.seat_codes()
    info = table.game_info()
    seats = [{"seat": s, "name": info["seats"][s], "code": codes.get(s)} for s in range(len(info["seats"]))] if info else []
    return render_template("operator.html", games=game_specs(), seats=seats, info=info, error=error,
                           boot=common.boot("operator", snapshot=common.hub().snapshot(OPERATOR))), status


@bp.route("/operator")
def console():
    if not common.is_operator():
        return render_template("login.html", pin=request.args.get("pin", "")[:12], error=None,
                               boot=common.boot("login"))
    return _console()


@bp.route("/operator/login", methods=["POST"])
def login():
    common.limit("pin")
    pin = request.form.get("pin", "")
    token = common.table().check_pin(pin) if isinstance(pin, str) and len(pin) <= 12 else None
    if token is None:
        common.limiter().fail("pin", common.client_ip())
        return render_template("login.html", pin="", error=_("Wrong PIN."), boot=common.boot("login")), 403
    common.limiter().reset("pin", common.client_ip())
    session["op"] = token
    return redirect(url_for("operator.console"))


@bp.route("/operator/logout", methods=["POST"])
def logout():
    session.pop("op", None)
    return redirect(url_for("public.index"))


def _parse_options(spec: dict, form) -> dict:
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
            out[opt["name"]] = {"int": int, "float": float, "str": str}[opt["type"]](raw)
        except ValueError:
            abort(400, description=f"option {opt['name']} must be {opt['type']}")
    return out


@bp.route("/operator/new", methods=["POST"])
def new_game():
    common.require_operator()
    gid = request.form.get("game", "")
    spec = next((s for s in game_specs() if s["id"] == gid), None)
    if spec is None:
        abort(400, description=f"unknown game {gid!r}")
    names = [n.strip() for n in request.form.get("seats", "").splitlines() if n.strip()]
    if any(len(n) > MAX_SEAT_NAME for n in names):
        abort(400, description=f"seat names are at most {MAX_SEAT_NAME} characters")
    options = _parse_options(spec, request.form)
    try:
        common.table().new_game(gid, names, options)
    except IllegalAction as exc:
        return _console(error=f"{exc.reason}: {exc.detail}", status=400)
    return redirect(url_for("operator.console"))


@bp.route("/operator/qr/<int:seat>.svg")
def seat_qr(seat: int):
    common.require_operator()
    code = common.table().seat_codes().get(seat)
    if code is None:
        abort(404, description=f"no seat {seat} in the current game")
    return Response(qr_svg(url_for("seat.join", code=code, _external=True)), mimetype="image/svg+xml")


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


@bp.route("/api/operator/undo", methods=["POST"])
def undo():
    common.require_operator()
    return common.outcome_response(common.table().undo())


@bp.route("/api/operator/void", methods=["POST"])
def void():
    common.require_operator()
    return common.outcome_response(common.table().void_round())


@bp.route("/api/operator/end", methods=["POST"])
def end():
    common.require_operator()
    common.table().end_game()
    return jsonify({"ended": True})


@bp.route("/api/operator/action", methods=["POST"])
def action():
    """A table action typed or pressed by the operator (source ``operator``)."""
    common.require_operator()
    text = common.text_field(common.json_body(), "action")
    if not text.startswith("table "):
        abort(400, description="the operator submits table actions ('table ...'); seats act from their pads or phones")
    return common.outcome_response(common.table().submit(text, "operator"))


@bp.route("/api/operator/manual", methods=["POST"])
def manual():
    """An entry made because OCR abstained: logged with source ``manual``."""
    common.require_operator()
    data = common.json_body()
    text = common.text_field(data, "action")
    prompt = data.get("prompt")
    if prompt is not None and not isinstance(prompt, str):
        abort(400, description="'prompt' must be a prompt id")
    if "?" in text.split():
        abort(400, description="fill every '?' field before sending")
    return common.outcome_response(common.table().manual_entry(text, prompt))


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
