"""Public blueprint: the table view anyone on the Wi-Fi may open (no login).

Routes: ``GET /`` (page), ``GET /api/state`` (snapshot JSON, same as the stream's first message).
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
