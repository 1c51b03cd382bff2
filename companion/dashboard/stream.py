"""Stream blueprint: ``GET /stream?view=public|seat|operator`` — one Server-Sent Events stream per page.

The viewer comes from the session: ``seat`` needs a seat token of the current game (403 otherwise),
``operator`` the operator token. The first message is the full snapshot (see :mod:`hub`).
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, request, session, stream_with_context

from companion.dashboard import common
from companion.dashboard.model import OPERATOR, PUBLIC

bp = Blueprint("stream", __name__)


@bp.route("/stream")
def stream() -> Response:
    kind = request.args.get("view", "public")
    token = None
    viewer: str | int
    if kind == "public":
        viewer = PUBLIC
    elif kind == "operator":
        common.require_operator()
        viewer = OPERATOR
    elif kind == "seat":
        seat = common.session_seat()
        if seat is None:
            abort(403, description="join a seat first")
        viewer = seat
        token = session.get("seat")
    else:
        abort(400, description="view must be public, seat or operator")
    hub = common.hub()
    client = hub.connect(viewer, token if kind == "seat" else None)
    if client is None:
        abort(409, description="no such viewer in the current game")
    resp = Response(stream_with_context(hub.stream(client)), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp
