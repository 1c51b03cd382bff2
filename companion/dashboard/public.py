"""Public blueprint: the table view anyone on the Wi-Fi may open (no login).

Routes: ``GET /`` (page), ``GET /tv`` (the table display for a TV or tablet beside the table: the
same public snapshot and stream, drawn large), ``GET /api/state`` (snapshot JSON, same as the
stream's first message).
"""

from __future__ import annotations

from flask import Blueprint, jsonify, render_template

from companion.dashboard import common
from companion.dashboard.model import PUBLIC

bp = Blueprint("public", __name__)


@bp.route("/")
def index():
    return render_template("public.html", boot=common.boot("public", snapshot=common.hub().snapshot(PUBLIC)))


@bp.route("/api/state")
def state():
    return jsonify(common.hub().snapshot(PUBLIC))


@bp.route("/tv")
def tv():
    # the public model and the public stream only: the display shows what the public page shows
    return render_template("tv.html", boot=common.boot("tv", snapshot=common.hub().snapshot(PUBLIC),
                                                       stream="/stream?view=public"))
