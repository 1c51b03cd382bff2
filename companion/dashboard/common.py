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


def limit(kind: str, trusted: bool = False) -> None:
    """Abort 429 (with Retry-After) when this client failed ``kind`` too often, or when the
    whole table did and the browser is not ``trusted`` (the operator's device, a seat's QR pass:
    :class:`companion.dashboard.security.Limiter`)."""
    wait = limiter().retry_after(kind, client_ip(), trusted=trusted)
    if wait:
        exc = TooManyRequests(description=f"too many wrong {kind} attempts; try again in {wait} s")
        exc.retry_after = wait
        raise exc


def session_seat() -> int | None:
    """The seat this browser joined in the current game, else ``None`` (a live one is noted as
    seen now: the operator's list of seat devices shows it)."""
    token = session.get("seat")
    seat = table().seat_for_token(token)
    if seat is not None:
        table().sessions.touch(token)
    return seat


def hold_login(key: str, token: str) -> None:
    """Keep a login (``seat`` or ``op``) in this browser's session, in a cookie that lasts beyond
    the browser being closed (a phone drops session cookies when it kills the browser) for
    ``PERMANENT_SESSION_LIFETIME``: the longest login's lifetime (companion.dashboard.LOGIN_COOKIE_S)."""
    session[key] = token
    session.permanent = True


def drop_login(key: str):
    """Take a login (``seat`` or ``op``) out of this browser's session and return its token (or
    ``None``); with no login left the cookie goes back to one the browser forgets when closed."""
    token = session.pop(key, None)
    if not (session.get("seat") or session.get("op")):
        session.permanent = False
    return token


def is_operator() -> bool:
    return table().is_operator(session.get("op"))


def require_operator() -> None:
    if not is_operator():
        abort(403, description="operator login required")


def json_body() -> dict:
    """The request's JSON object as the sanitiser at the edge took it
    (:func:`companion.sanitise.json_body`); 400 ``bad_json`` when absent or not an object (the
    page says so in words: ``reasons.BAD_JSON``)."""
    from companion.sanitise import json_body as checked

    data = checked()
    if not isinstance(data, dict):
        abort(400, description="bad_json: expected a JSON object body (Content-Type: application/json)")
    return data


def text_field(data: dict, name: str, max_len: int = 200) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not value.strip() or len(value) > max_len:
        abort(400, description=f"'{name}' must be a non-empty string of at most {max_len} characters")
    return value.strip()


def seen_field(data: dict) -> int | None:
    """The optional ``"seen"`` of an action request: the table version the page showed when the
    button was pressed (``model.version``), which lets the referee refuse a double tap or a second
    operator's undo (:meth:`companion.referee.Referee.submit`); 400 when it is not a version."""
    seen = data.get("seen")
    if seen is not None and (not isinstance(seen, int) or isinstance(seen, bool) or seen < 0):
        abort(400, description="'seen' must be the table version the page showed (an integer >= 0)")
    return seen


def lang() -> str:
    """The page's language (``"ru"`` or ``"en"``)."""
    from flask_babel import get_locale

    return "en" if str(get_locale() or i18n.DEFAULT) == "en" else "ru"


def reason_message(reason: str | None, game_id: str | None = None, options=None, facts: dict | None = None) -> str:
    """A reason code in words in the page's language (:func:`companion.dashboard.reasons.reason_message`):
    the current game's words when it has them, with the refusal's ``facts`` (the player, the
    counts …) when it has them, never the engine's English detail."""
    from companion.dashboard.reasons import reason_message as words

    if game_id is None:
        game_id = table().game_id
        referee = table().referee
        options = getattr(getattr(referee, "game", None), "options", None)
    return words(reason, lang(), game_id, options, facts)


def outcome_response(outcome):
    """200 for an accepted action, 409 with the reason code for a rejected one, plus
    ``"message"``: the reason in words in the page's language (the engine's English ``detail``
    stays in ``detail``, for logs)."""
    body = outcome.to_json()
    if not outcome.accepted:
        body["message"] = reason_message(outcome.reason, facts=getattr(outcome, "facts", None))
    else:
        told = told_events(outcome)
        if told:
            body["told"] = told
    return body, (200 if outcome.accepted else 409)


def told_events(outcome) -> list[str]:
    """The accepted action's public events in the game's own words, in the page's language (the
    toast tells what the action did: a flip that found a foreign note says so at once, not only in
    the history). Events private to a seat are never told here; a game without words tells none."""
    from companion.dashboard import model as M

    info = table().game_info()
    describe = M.narrator(info["id"], info["seats"]) if info else None
    if describe is None:
        return []
    out = []
    for ev in outcome.events:
        if ev.private_to is not None:
            continue
        texts = describe(ev)
        if texts and texts is not M.SILENT and texts.get(lang()):
            out.append(toast_line(texts[lang()]))
    return [x for x in out if x]


def toast_line(text: str) -> str:
    """A history line as a toast says it: without the dashes that frame a heading line in the
    history («— Раунд 2, начинает Аня —» → «Раунд 2, начинает Аня»), which in a toast's run of
    sentences read as stray punctuation («в банке 2; — Раунд 2, начинает Аня —»)."""
    text = str(text).strip()
    if text.startswith("—") and text.endswith("—") and len(text) > 2:
        text = text[1:-1].strip()
    return text


def boot(kind: str, **extra) -> dict:
    """The JSON the page script starts from (embedded in the page)."""
    return {"kind": kind, "words": i18n.js_words(), "csrf": csrf_token(), **extra}


def wait_message(seconds: int) -> str:
    """How long a lockout still holds, in the page's language («Слишком много неверных попыток:
    подождите 40 с и попробуйте снова.»)."""
    from companion.dashboard.reasons import http_message

    return http_message(429, lang(), wait=seconds)
