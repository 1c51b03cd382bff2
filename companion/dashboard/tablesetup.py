"""Operator blueprint, continued: the camera set-up view and the table's voice (issue #23).

Routes (PIN-protected, CSRF on the POSTs as every operator route): ``GET /operator/camera.jpg``
(:func:`companion.camview.view`), ``GET /api/operator/camera`` (its figures and advice),
``GET/POST /api/operator/voice`` (:mod:`companion.voice` settings while the table runs),
``POST /api/operator/voice/test``. The console's block: ``web/templates/_devices.html``,
``web/static/setup.js``. The camera view is **never** served to a public or seat page: a
face-down card may be in view.
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, jsonify, request
from flask_babel import gettext as _

from companion.dashboard import common
from companion.statuswords import public

bp = Blueprint("tablesetup", __name__)


@bp.route("/operator/camera.jpg")
def camera_jpg():
    """The camera set-up view (:func:`companion.camview.view`): the latest frame, downscaled,
    with what the camera sees drawn on it. Operator only — a face-down card may be in view."""
    from companion import camview

    common.require_operator()
    frame, _age = camview.latest()
    if frame is None:
        abort(404, description="no camera frame yet")
    jpg, _facts = camview.view(frame, lang=common.lang())  # the marks in the page's language
    return Response(jpg, mimetype="image/jpeg", headers={"Cache-Control": "no-store"})


@bp.route("/api/operator/camera")
def camera_facts():
    """The set-up figures of the latest frame (:func:`companion.camview.advice`) and its age:
    ``{"frame": bool, "age": s, "size", "focus", "brightness", "glare", "objects", "advice",
    "reads"}``."""
    from companion import camview

    common.require_operator()
    frame, age = camview.latest()
    if frame is None or age is None:  # (both or neither)
        return jsonify({"frame": False})
    return jsonify({"frame": True, "age": round(age, 1), **camview.facts(frame)})


@bp.route("/api/operator/voice", methods=["GET", "POST"])
def voice_settings():
    """The table's voice (:mod:`companion.voice`): GET its settings and status; POST changes
    (``{"on", "lang", "volume", "pace", "turn_s"}``, any of them) while the table runs. 409
    ``no_voice`` when this table runs without one (``companion dashboard``)."""
    from companion import voice as V

    common.require_operator()
    running = V.voice_of(common.table())
    if running is None:
        return jsonify({"running": False, "reason": "no_voice",
                        "message": _("This table runs without a voice (it speaks under companion run)."),
                        "ranges": _voice_ranges()}), (409 if request.method == "POST" else 200)
    if request.method == "POST":
        data = common.json_body()
        try:
            running.configure(**data)
        except V.VoiceError as exc:
            return jsonify({"accepted": False, "reason": "bad_voice", "detail": str(exc),
                            "message": exc.words(common.lang())}), 400
    return jsonify({"running": True, "settings": running.settings.to_json(), "status": public("voice", running.status()),
                    "ranges": _voice_ranges()})


def _voice_ranges() -> dict:
    from companion import voice as V

    return {"volume": list(V.VOLUME_RANGE), "pace": list(V.PACE_RANGE), "langs": list(V.LANGS)}


@bp.route("/api/operator/voice/test", methods=["POST"])
def voice_test():
    """Say the voice check («Проверка голоса…») now: ``{"queued": bool, "status"}``."""
    from companion import voice as V

    common.require_operator()
    running = V.voice_of(common.table())
    if running is None:
        return jsonify({"queued": False, "reason": "no_voice",
                        "message": _("This table runs without a voice (it speaks under companion run).")}), 409
    queued = running.add(V.phrase("test", running.settings.lang))
    return jsonify({"queued": queued, "status": public("voice", running.status())})
