"""The phone dashboard: Flask app factory and blueprints; templates/static come from web/.

Usage (``companion dashboard`` and ``companion run`` do this)::

    table = Table(default_data_dir())   # companion.settings
    server = DashboardServer(table, host="0.0.0.0", port=8080)
    server.start()          # threaded werkzeug server in a background thread
    ...
    server.stop()           # ends every stream and joins the thread

Blueprints: ``public`` (``/``, ``/api/state``), ``seat`` (``/join``, ``/seat``, ``/api/seat/...``),
``operator`` (``/operator``, ``/api/operator/...``), ``stream`` (``/stream``, Server-Sent Events),
``games`` (``/games/<id>/board.js``: each game's board script, from its package).
See ``docs/dashboard.md`` for routes, the stream format and the security model.
"""

from __future__ import annotations

import logging
import socket
import threading
from datetime import timedelta
from pathlib import Path
from typing import TYPE_CHECKING

from flask import Flask, jsonify, render_template, request
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel
from werkzeug.exceptions import HTTPException

from companion.i18n.pages import english_quotes_on
from companion.sessions import OPERATOR_TTL_S, SEAT_TTL_S
from companion.table import NoGame, Table

if TYPE_CHECKING:
    from werkzeug.serving import BaseWSGIServer


def lan_address() -> str:
    """This machine's address on the local network (for the QR codes), or 127.0.0.1."""
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))  # TEST-NET: no packet is sent for a UDP connect
        return s.getsockname()[0]
    except OSError:
        return "127.0.0.1"
    finally:
        s.close()


def shown_url(host: str, port: int) -> str:
    """The dashboard's address to print and put in QR codes (``http://HOST:PORT``, no trailing
    slash): the LAN address when the server listens on every interface (``0.0.0.0``, ``::`` or
    empty), so a phone on the table's Wi-Fi can open it; else ``host`` itself."""
    shown = lan_address() if host in ("0.0.0.0", "", "::") else host
    return f"http://{shown}:{port}"

log = logging.getLogger(__name__)

LOGIN_COOKIE_S = max(SEAT_TTL_S, OPERATOR_TTL_S)
"""How long the session cookie of a logged-in browser lasts (s): the longest login it can carry
(a seat's, 24 h). The server ends each token at its own time (the operator's after 12 h)."""


def web_root() -> Path:
    """The folder holding ``templates/``, ``static/`` and ``translations/``: the source tree's
    top-level ``web/`` beside this ``companion`` package when there is one (a checkout), else the
    installed ``companion.web`` package (a wheel)."""
    source = Path(__file__).resolve().parent.parent.parent / "web"
    if (source / "templates").is_dir():
        return source
    from importlib import resources

    return Path(str(resources.files("companion.web")))


def create_app(table: Table, *, testing: bool = False, limiter=None) -> Flask:
    """Build the dashboard app for ``table``.

    Args:
        table: the table session (the app never holds game state of its own).
        testing: Flask testing mode.
        limiter: a :class:`~companion.dashboard.security.Limiter` (default: 5 failures / 5 min).
    """
    from companion.dashboard import boards, i18n, operator, public, seat, stream, tablesetup
    from companion.dashboard.hub import Hub
    from companion.dashboard.security import Limiter, check_csrf, csrf_token

    root = web_root()
    app = Flask(__name__, template_folder=str(root / "templates"), static_folder=str(root / "static"),
                static_url_path="/static")
    app.config.update(
        SECRET_KEY=table.secret_key,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        # a login's cookie outlasts a closed browser (phones drop session cookies): it is made
        # permanent at a join or a PIN login (common.hold_login) and lasts the longest login it can
        # carry; the shorter operator token, and every token, still ends on the server at its own time
        PERMANENT_SESSION_LIFETIME=timedelta(seconds=LOGIN_COOKIE_S),
        # the expiry is set when the session changes (a join, a login), not moved on by each request:
        # the cookie ends with the login in it, and a request in flight never rewrites a cookie
        # a leave or a logout just changed
        SESSION_REFRESH_EACH_REQUEST=False,
        TESTING=testing,
        MAX_CONTENT_LENGTH=64 * 1024,
        BABEL_DEFAULT_LOCALE=i18n.DEFAULT,
        BABEL_TRANSLATION_DIRECTORIES=str(root / "translations"),
        JSON_AS_ASCII=False,
    )
    if isinstance(app.json, DefaultJSONProvider):  # Flask's own provider (the only one the app uses)
        app.json.ensure_ascii = False
    english_quotes_on(Babel(app, locale_selector=i18n.select_locale))  # English pages: “…”, not «…»
    hub = Hub(table)
    app.extensions["companion"] = {"table": table, "hub": hub, "limiter": limiter or Limiter()}

    @app.before_request
    def _edge():
        from companion.sanitise import check_request

        check_request()  # the one text sanitiser: broken text never reaches a handler or a page
        if request.method not in ("GET", "HEAD", "OPTIONS"):
            check_csrf()

    @app.context_processor
    def _globals():
        from flask_babel import get_locale

        return {"csrf_token": csrf_token, "lang": str(get_locale() or i18n.DEFAULT),
                "languages": i18n.LANGUAGES, "option_label": i18n.option_label, "game_name": i18n.game_name,
                "term": i18n.term, "label": i18n.sentence}

    @app.after_request
    def _headers(resp):
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
            "connect-src 'self'; frame-ancestors 'none'",
        )
        if request.path.startswith(("/api/", "/stream", "/seat", "/operator")):
            resp.headers.setdefault("Cache-Control", "no-store")
        return resp

    def _wants_json() -> bool:
        return request.path.startswith(("/api/", "/stream")) or request.is_json

    @app.errorhandler(HTTPException)
    def _http_error(exc: HTTPException):
        from companion.dashboard.common import lang
        from companion.dashboard.reasons import http_message

        code = exc.code or 400
        retry_after = getattr(exc, "retry_after", None)  # a 429 (TooManyRequests) or a 503 has one
        # the sentence in the page's language; the English description stays as the detail
        message = http_message(code, lang(), exc.description, wait=retry_after)
        if _wants_json():
            body = {"error": exc.name.lower().replace(" ", "_"), "detail": exc.description, "message": message}
            if exc.description == "csrf":
                body["reason"] = "stale_page"
            resp = jsonify(body)
        else:
            # the English description stays out of the page when the sentence says it all (a stale
            # token; the lockout, whose wait is in the Retry-After header)
            # and werkzeug's own English description of the code («The requested URL was not found
            # on the server…») says no more than the sentence in the page's language
            default = getattr(type(exc), "description", None)
            detail = (None if exc.description in (None, "csrf", default) or code == 429
                      else exc.description)
            resp = app.make_response((render_template("error.html", code=code, name=exc.name,
                                                      message=message, detail=detail), code))
        resp.status_code = code
        if code == 429 and retry_after:
            resp.headers["Retry-After"] = str(retry_after)
        return resp

    @app.errorhandler(NoGame)
    def _no_game(exc: NoGame):
        if _wants_json():
            from companion.dashboard.common import lang
            from companion.dashboard.reasons import reason_message

            return jsonify({"error": "no_game", "reason": "no_game", "detail": str(exc),
                            "message": reason_message("no_game", lang())}), 409
        from companion.dashboard.common import lang
        from companion.dashboard.reasons import reason_message

        return render_template("error.html", code=409, name="No game", message=reason_message("no_game", lang()),
                               detail=str(exc)), 409

    @app.errorhandler(TimeoutError)
    def _timeout(exc):
        from companion.dashboard.common import lang
        from companion.dashboard.reasons import http_message

        return jsonify({"error": "busy", "detail": "the referee did not answer in time",
                        "message": http_message(503, lang())}), 503

    @app.route("/lang/<code>")
    def set_lang(code: str):
        from flask import abort, redirect

        if code not in i18n.LANGUAGES:
            abort(404, description=f"unknown language {code!r}; one of {', '.join(i18n.LANGUAGES)}")
        from companion.dashboard.security import safe_next

        resp = redirect(safe_next(request.args.get("next", "/")))  # a path on this site, nothing else
        resp.set_cookie(i18n.COOKIE, code, max_age=365 * 86400, samesite="Lax")
        return resp

    @app.route("/favicon.ico")
    def favicon():
        return "", 204

    @app.route("/healthz")
    def healthz():
        return jsonify({"ok": True, "game": table.game_id, "streams": hub.client_count()})

    app.register_blueprint(public.bp)
    app.register_blueprint(seat.bp)
    app.register_blueprint(operator.bp)
    app.register_blueprint(tablesetup.bp)  # the camera set-up view and the voice (operator only)
    app.register_blueprint(stream.bp)
    app.register_blueprint(boards.bp)  # each game's board script, from its package
    return app


class DashboardServer:
    """The dashboard on a threaded werkzeug server in a background thread.

    Args:
        table: the table session.
        host: address to bind (``0.0.0.0`` for the phones on the table's Wi-Fi).
        port: TCP port; 0 picks a free one (see :attr:`port` after :meth:`start`).

    Raises:
        OSError: the port is taken (from :meth:`start`).
    """

    def __init__(self, table: Table, host: str = "127.0.0.1", port: int = 8080, **app_kwargs) -> None:
        self.table = table
        self.host = host
        self.port = port
        self.app = create_app(table, **app_kwargs)
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def hub(self):
        return self.app.extensions["companion"]["hub"]

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> "DashboardServer":
        """Bind and serve in a daemon thread; returns self.

        Raises:
            OSError: the address cannot be bound (``errno.EADDRINUSE``: the port is taken).
        """
        # werkzeug logs every request at INFO: phones' requests would bury the console's game lines
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        import socket

        from werkzeug.serving import ThreadedWSGIServer, make_server

        # Bind here rather than in werkzeug: its server prints "Address already in use" and calls
        # sys.exit when the bind fails; a caller needs a plain OSError (errno EADDRINUSE …) to
        # report the port and clean up what it started.
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.create_server((self.host, self.port), family=family, backlog=128)
        try:
            self._server = server = make_server(self.host, self.port, self.app, threaded=True, fd=sock.fileno())
        finally:
            sock.close()  # werkzeug works on its own duplicate of the descriptor
        if isinstance(server, ThreadedWSGIServer):  # always (threaded=True)
            server.daemon_threads = True
        self.port = server.socket.getsockname()[1]
        self._thread = threading.Thread(target=server.serve_forever, name="dashboard", daemon=True)
        self._thread.start()
        log.info("dashboard on %s", self.url)
        return self

    def stop(self, timeout: float = 5.0) -> None:
        """End every stream, stop the server and join its thread."""
        self.hub.close()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout)
        self._server = self._thread = None

    def __enter__(self) -> "DashboardServer":
        return self.start()

    def __exit__(self, *exc) -> None:
        self.stop()
