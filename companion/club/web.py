"""The club board's pages (Flask): ``companion club --broker URL``.

Routes::

    GET  /                     every table: game, players, whose turn, silent or live, its live board;
                               the standings of the night; merging two spellings of a player
    GET  /t/<table>            one table's public page — the table's own page (web/static/app.js) fed
                               from the board (``?embed=1``: the board's tile, fed by the board page)
    GET  /stream               the board page's Server-Sent Events: table, standings, broker
    GET  /t/<table>/stream     one table's snapshots, in the table's own page format
    GET  /api/tables           every table's summary (JSON); /api/tables/<table>: with its page state
    GET  /api/tables/<table>/events?game=KEY   the board's record of a table's events
    GET  /api/standings        the night's standings and the merged spellings
    POST /api/merge  {"name", "into", "pin"}   POST /api/unmerge {"name", "pin"}   POST /api/night {"pin"}

The live board of a table is the table's own public rendering (``web/static/app.js`` and
``app.css``, served from the dashboard's ``web/``, and each game's board script from its package,
``/games/<id>/board.js``), so a redesign of the tables' pages is the board's too. A POST needs the board's PIN (``board-pin`` in the data folder, printed at start) and a
JSON body (a cross-site form cannot send one); wrong PINs are limited per client.
"""

from __future__ import annotations

import json
import logging
import queue
import threading
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

from flask import Flask, Response, abort, jsonify, render_template, request, stream_with_context
from flask_babel import Babel
from flask_babel import gettext as _

from companion.club.board import Board
from companion.club.words import js_words

if TYPE_CHECKING:
    from werkzeug.serving import BaseWSGIServer

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
HEARTBEAT_S = 15.0
CLIENT_QUEUE = 512


def _dumps(obj) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def sse(event: str, data) -> str:
    return f"event: {event}\ndata: {_dumps(data)}\n\n"


class Streams:
    """The open pages and their queues; fed from the :class:`Board`'s listener."""

    def __init__(self, board: Board) -> None:
        self.board = board
        self._lock = threading.Lock()
        self._clients: dict[queue.Queue, str | None] = {}  # queue -> None (board page) or a table id
        self._unsub = board.subscribe(self._on_board)

    def connect(self, table: str | None, first: list[str]) -> queue.Queue:
        q: queue.Queue = queue.Queue(CLIENT_QUEUE)
        for m in first:
            q.put_nowait(m)
        with self._lock:
            self._clients[q] = table
        return q

    def disconnect(self, q: queue.Queue) -> None:
        with self._lock:
            self._clients.pop(q, None)

    def count(self) -> int:
        with self._lock:
            return len(self._clients)

    def _send(self, message: str, table: str | None, to_board: bool, to_table: bool) -> None:
        with self._lock:
            targets = [q for q, t in self._clients.items() if (t is None and to_board) or (to_table and t == table)]
        for q in targets:
            try:
                q.put_nowait(message)
            except queue.Full:  # a page that does not read: cut it off, it reconnects
                self.disconnect(q)
                try:
                    q.put_nowait(None)
                except queue.Full:
                    pass

    def _on_board(self, kind: str, table: str | None) -> None:
        if kind == "table" and table is not None:
            row = self.board.store.table(table)
            if row is None:
                return
            state = self.board.page_state(table)
            self._send(sse("table", {"summary": self.board.summary(row), "state": state}), table, True, False)
            if state is not None:
                self._send(sse("snapshot", state), table, False, True)
        elif kind == "standings":
            self._send(sse("standings", {"rows": self.board.standings(), "merges": self.board.store.merges()}),
                       None, True, False)
        elif kind == "broker":
            self._send(sse("broker", {"connected": self.board.connected}), None, True, False)

    def close(self) -> None:
        self._unsub()
        with self._lock:
            clients, self._clients = list(self._clients), {}
        for q in clients:
            try:
                q.put_nowait(None)
            except queue.Full:
                pass

    def stream(self, q: queue.Queue):
        try:
            yield "retry: 1500\n\n"
            while True:
                try:
                    msg = q.get(timeout=HEARTBEAT_S)
                except queue.Empty:
                    yield ": ping\n\n"
                    continue
                if msg is None:
                    return
                yield msg
        finally:
            self.disconnect(q)


def create_app(board: Board, pin: str, *, testing: bool = False, limiter=None) -> Flask:
    """The board's Flask app.

    Args:
        board: the running :class:`Board`.
        pin: the board's PIN (merging names, a new night).
    """
    from companion.dashboard import i18n, web_root
    from companion.dashboard.security import Limiter

    root = web_root()
    app = Flask(__name__, template_folder=str(HERE / "templates"), static_folder=str(root / "static"),
                static_url_path="/static")
    app.config.update(TESTING=testing, MAX_CONTENT_LENGTH=16 * 1024, JSON_AS_ASCII=False,
                      BABEL_DEFAULT_LOCALE=i18n.DEFAULT,
                      BABEL_TRANSLATION_DIRECTORIES=str(root / "translations"))
    from flask.json.provider import DefaultJSONProvider

    assert isinstance(app.json, DefaultJSONProvider)  # (Flask's own provider)
    app.json.ensure_ascii = False
    Babel(app, locale_selector=i18n.select_locale)
    from flask import Blueprint

    app.register_blueprint(Blueprint("club", __name__, static_folder=str(HERE / "static"),
                                     static_url_path="/club-static"))
    from companion.dashboard import boards

    app.register_blueprint(boards.bp)  # the tiles' boards: each game's board script, from its package
    streams = Streams(board)
    limiter = limiter or Limiter()
    app.extensions["club"] = {"board": board, "streams": streams}

    def lang() -> str:
        from flask_babel import get_locale

        return "en" if str(get_locale() or i18n.DEFAULT) == "en" else "ru"

    @app.context_processor
    def _globals():
        return {"lang": lang(), "languages": i18n.LANGUAGES, "club": board.url.club}

    @app.after_request
    def _headers(resp):
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("Referrer-Policy", "same-origin")
        resp.headers.setdefault("X-Frame-Options", "SAMEORIGIN")
        resp.headers.setdefault("Content-Security-Policy",
                                "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; "
                                "connect-src 'self'; frame-ancestors 'self'")
        if request.path.startswith(("/api/", "/stream", "/t/")):
            resp.headers.setdefault("Cache-Control", "no-store")
        return resp

    @app.errorhandler(404)
    def _not_found(exc):
        if request.path.startswith("/api/"):
            return jsonify({"error": "not_found", "message": _("No such table on this board.")}), 404
        return render_template("message.html", message=_("No such table on this board.")), 404

    def sse_response(q):
        resp = Response(stream_with_context(streams.stream(q)), mimetype="text/event-stream")
        resp.headers["X-Accel-Buffering"] = "no"
        return resp

    def boot(**extra) -> dict:
        return {"words": js_words(), "lang": lang(), **extra}

    def table_state(table: str) -> dict:
        state = board.page_state(table)
        if state is None:
            abort(404)
        return state

    @app.route("/")
    def index():
        return render_template("board.html", boot=boot(kind="board", tables=board.tables(),
                                                         standings=board.standings(), merges=board.store.merges(),
                                                         connected=board.connected))

    @app.route("/t/<table>")
    def table_page(table: str):
        state = table_state(table)
        embed = request.args.get("embed") == "1"
        return render_template("table.html", table=table, embed=embed,
                               boot=boot(kind="public", snapshot=state,
                                         stream=None if embed else f"/t/{table}/stream"))

    @app.route("/t/<table>/stream")
    def table_stream(table: str):
        state = table_state(table)
        return sse_response(streams.connect(table, [sse("snapshot", state)]))

    @app.route("/stream")
    def board_stream():
        first = [sse("broker", {"connected": board.connected})]
        return sse_response(streams.connect(None, first))

    @app.route("/api/tables")
    def api_tables():
        return jsonify({"club": board.url.club, "connected": board.connected, "tables": board.tables()})

    @app.route("/api/tables/<table>")
    def api_table(table: str):
        row = board.store.table(table)
        if row is None:
            abort(404)
        return jsonify({**board.summary(row), "state": board.page_state(table)})

    @app.route("/api/tables/<table>/events")
    def api_events(table: str):
        if board.store.table(table) is None:
            abort(404)
        return jsonify({"table": table, "events": board.store.events(table, request.args.get("game") or None)})

    @app.route("/api/standings")
    def api_standings():
        return jsonify({"club": board.url.club, "night": board.store.night().isoformat(timespec="seconds"), "standings": board.standings(),
                        "merges": board.store.merges()})

    def body_with_pin() -> dict:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            return _refuse(400, "bad_request", _("Send a JSON object."))
        client = request.remote_addr or "?"
        wait = limiter.retry_after("board-pin", client)
        if wait:
            return _refuse(429, "too_many", _("Too many wrong PINs: try again in %(s)s s.", s=wait))
        import hmac

        given = data.get("pin")
        if not isinstance(given, str) or not hmac.compare_digest("".join(given.split()).encode(), pin.encode()):
            limiter.fail("board-pin", client)
            return _refuse(403, "wrong_pin", _("Wrong board PIN."))
        return data

    def _refuse(code: int, reason: str, message: str) -> NoReturn:
        resp = jsonify({"ok": False, "reason": reason, "message": message})
        resp.status_code = code
        abort(resp)

    def name_field(data: dict, key: str) -> str:
        value = data.get(key)
        if not isinstance(value, str) or not value.strip() or len(value) > 80:
            _refuse(400, "bad_name", _("Give a player's name (at most 80 characters)."))
        return " ".join(value.split())

    @app.route("/api/merge", methods=["POST"])
    def api_merge():
        data = body_with_pin()
        name, into = name_field(data, "name"), name_field(data, "into")
        try:
            board.store.merge(name, into)
        except ValueError:
            _refuse(409, "same_player", _("«%(name)s» already counts as «%(into)s».", name=name, into=into))
        board.names_changed()
        return jsonify({"ok": True, "standings": board.standings(), "merges": board.store.merges()})

    @app.route("/api/unmerge", methods=["POST"])
    def api_unmerge():
        data = body_with_pin()
        if not board.store.unmerge(name_field(data, "name")):
            _refuse(404, "not_merged", _("That spelling is not merged."))
        board.names_changed()
        return jsonify({"ok": True, "standings": board.standings(), "merges": board.store.merges()})

    @app.route("/api/night", methods=["POST"])
    def api_night():
        body_with_pin()
        night = board.store.new_night()
        board.names_changed()
        return jsonify({"ok": True, "night": night})

    @app.route("/lang/<code>")
    def set_lang(code: str):
        from flask import redirect

        if code not in i18n.LANGUAGES:
            abort(404)
        back = request.args.get("next", "/")
        if not back.startswith("/") or back.startswith("//"):
            back = "/"
        resp = redirect(back)
        resp.set_cookie(i18n.COOKIE, code, max_age=365 * 86400, samesite="Lax")
        return resp

    @app.route("/healthz")
    def healthz():
        return jsonify({"ok": True, "connected": board.connected, "streams": streams.count(),
                        "received": board.received, "ignored": board.ignored})

    return app


class BoardServer:
    """The board's pages on a threaded werkzeug server in a background thread (as the dashboard's).

    Raises:
        OSError: the port is taken (from :meth:`start`).
    """

    def __init__(self, board: Board, pin: str, host: str = "0.0.0.0", port: int = 8090, **kwargs) -> None:
        self.board = board
        self.host = host
        self.port = port
        self.app = create_app(board, pin, **kwargs)
        self._server: BaseWSGIServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        host = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        return f"http://{host}:{self.port}"

    def start(self) -> "BoardServer":
        import socket

        from werkzeug.serving import ThreadedWSGIServer, make_server

        logging.getLogger("werkzeug").setLevel(logging.WARNING)
        family = socket.AF_INET6 if ":" in self.host else socket.AF_INET
        sock = socket.create_server((self.host, self.port), family=family, backlog=128)
        try:
            self._server = server = make_server(self.host, self.port, self.app, threaded=True, fd=sock.fileno())
        finally:
            sock.close()
        if isinstance(server, ThreadedWSGIServer):  # (threaded=True)
            server.daemon_threads = True
        self.port = server.socket.getsockname()[1]
        self._thread = threading.Thread(target=server.serve_forever, name="club-board", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self.app.extensions["club"]["streams"].close()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(5.0)
        self._server = self._thread = None
