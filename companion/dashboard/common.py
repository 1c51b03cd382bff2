"""Helpers shared by the blueprints: the table, the hub, who is asking, and request parsing."""

from __future__ import annotations

from flask import abort, current_app, request, session
from werkzeug.exceptions import TooManyRequests

from companion.dashboard import i18n
from companion.dashboard.security import csrf_token


def table():
    return current_app.extensions["companion"]["table"]


def hub():
    return current_app.extensions["companion"]["hub"]


def limiter():
    return current_app.extensions["companion"]["limiter"]


def client_ip() -> str:
    return request.remote_addr or "?"


def limit(kind: str) -> None:
    """Abort 429 (with Retry-After) when this client failed ``kind`` too often."""
    wait = limiter().retry_after(kind, client_ip())
    if wait:
        exc = TooManyRequests(description=f"too many wrong {kind} attempts; try again in {wait} s")
        exc.retry_after = wait
        raise exc


def session_seat() -> int | None:
    """The seat this browser joined in the current game, else ``None``."""
    return table().seat_for_token(session.get("seat"))


def is_operator() -> bool:
    return table().is_operator(session.get("op"))


def require_operator() -> None:
    if not is_operator():
        abort(403, description="operator login required")


def json_body() -> dict:
    """The request's JSON object (400 when absent or not an object)."""
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="expected a JSON object body")
    return data


def text_field(data: dict, name: str, max_len: int = 200) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip() or len(value) > max_len:
        abort(400, description=f"'{name}' must be a non-empty string of at most {max_len} characters")
    return value.strip()


def reason_message(reason: str | None) -> str | None:
    """The current game's sentence for a reason code in the page's language (the game module's
    ``REASONS_RU`` for Russian, ``REASONS`` for English), or ``None`` when it has none."""
    if not reason:
        return None
    import importlib

    from flask_babel import get_locale

    gid = table().game_id
    if not gid:
        return None
    try:
        module = importlib.import_module(f"companion.games.{gid}")
    except ImportError:
        return None
    lang = str(get_locale() or "ru")
    hook = getattr(module, "reason_message", None)  # a game's sentence with the table's facts in it
    if callable(hook):
        referee = table().referee
        text = hook(reason, lang, getattr(getattr(referee, "game", None), "options", None))
        if text:
            return text
    for name in (("REASONS_RU", "REASONS") if lang == "ru" else ("REASONS",)):
        text = (getattr(module, name, None) or {}).get(reason)
        if text:
            return text
    return None


def outcome_response(outcome):
    """200 for an accepted action, 409 with the reason code for a rejected one (plus
    ``"message"``: the reason in words, in the page's language, when the game has them)."""
    body = outcome.to_json()
    if not outcome.accepted:
        msg = reason_message(outcome.reason)
        if msg:
            body["message"] = msg
    return body, (200 if outcome.accepted else 409)


def boot(kind: str, **extra) -> dict:
    """The JSON the page script starts from (embedded in the page)."""
    return {"kind": kind, "words": i18n.js_words(), "csrf": csrf_token(), **extra}
