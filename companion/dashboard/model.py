"""What each dashboard viewer may see: the page model, history entries and deltas.

A *viewer* is ``"public"``, ``"operator"`` or a seat number. The page model is a JSON-safe dict::

    {"epoch": 3, "version": 17,                      # game counter, referee version
     "viewer": {"kind": "seat", "seat": 2},
     "game": {"id": "skull", "seats": [...], "options": {...}} | None,
     "turn": [2], "over": False, "result": None,
     "view": {...},                                  # game.view(None), or game.view(seat) for a seat
     "actions": [{"text": "2 bid 3", "verb": "bid", "args": ["3"]}, ...],
     "schema": {"verbs": {…}, "widgets": […], "seat_keys": […]},  # GameSpec.schema()
     "waiting": {"ru": …, "en": …},                 # a seat's page with nothing to do: what the
                                                     # table waits for (dashboard.waiting)
                                                     # + "labels" for a choice made by id (below)
     "history": [{"v": 17, "items": [{"kind": "bid", "data": {...}, "seat": 2}]}, ...]}

Only :func:`view_for` decides what a viewer gets, and it only ever uses ``game.view(None)`` for
the public and operator pages, ``game.view(seat)`` for that seat, the events public or private to
that seat, and legal-action templates of that seat (operator: of the table, whose unknown fields
are ``?``, plus each seat's templates with an unknown observation field, in the table's form
``table <verb> <seat> ?`` — see :func:`describe_for_seat`). Action texts of table actors (camera
reads, manual entries) never appear in any history: they may hold a serial number; only their verb
is shown.
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Iterable

from companion.games import registry
from companion.i18n import LANGUAGES, M, both
from companion.games.base import Event, observation_fields
from companion.games.fields import Kind, fields_of

HISTORY_LEN = 40
"""Entries of round history kept per viewer (most recent last)."""

PUBLIC = "public"
OPERATOR = "operator"

Viewer = Any  # "public" | "operator" | int seat


def action_fields(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    """``(fields, optional, lists)`` of an Action class (:func:`companion.games.fields.fields_of`):
    its argument fields after ``seat``; those it lets stay unknown ``?`` (``UNKNOWN_OK``); and the
    list fields (``tuple[...]``, several items: a multi-line box)."""
    return _action_fields(cls)  # (over the cache, as fields_of: type[SomeAction] type-checks)


@functools.lru_cache(maxsize=None)
def _action_fields(cls: type) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    fields = fields_of(cls)
    return (tuple(f.name for f in fields), tuple(f.name for f in fields if f.unknown_ok),
            tuple(f.name for f in fields if f.many))


#: The schema entry of the seat an operator's entry for a seat names first (:func:`describe_for_seat`).
SEAT_FIELD = {"name": "seat", "kind": "seat", "type": "int", "many": False, "optional": False}


def _unknown_list(token: str) -> int:
    """How many items a list token of unknowns holds (``"?,?,?"`` → 3), else 0."""
    items = token.split(",")
    return len(items) if len(items) > 1 and all(x == "?" for x in items) else 0


def describe_action(text: str, game_id: str | None = None) -> dict:
    """``"2 bid 3"`` -> ``{"text": "2 bid 3", "actor": 2, "verb": "bid", "args": ["3"]}``
    (``actor`` is ``None`` for ``table``). With ``game_id``, also ``"fields"``: the action's field
    names, ``"optional"``: the fields the game lets the operator leave unknown (``?``) — the
    action class's ``UNKNOWN_OK`` names, e.g. skull's face values at registration (for the
    operator's manual-entry inputs), ``"lists"``, and ``"schema"``: each field's kind and type
    (:meth:`companion.games.fields.Field.schema`), which the page asks instead of field names."""
    parts = text.split()
    actor: int | None = int(parts[0]) if parts and parts[0].isdigit() else None
    args = parts[2:]
    out: dict[str, Any] = {"text": text, "actor": actor, "verb": parts[1] if len(parts) > 1 else "", "args": args}
    if game_id:
        try:
            spec = registry.get(game_id)
            action = spec.engine.parse_action(text)
            fields, optional, lists = (list(x) for x in action_fields(type(action)))
            out.update(fields=fields, optional=optional, lists=lists)
            out["schema"] = spec.action_schema(type(action))
        except Exception:  # a template that does not parse keeps its plain form
            pass
        else:
            # a list of unknowns ("?,?": doubt's two cards to turn up) is one field to type: shown
            # as "?" (an input), with the number of items the game expects in "items"
            items: dict[str, int] = {}
            for i, token in enumerate(args):
                n = _unknown_list(token)
                if n and i < len(fields):
                    args[i] = "?"
                    items[fields[i]] = n
            if items:
                out["items"] = items
    return out


def describe_for_seat(text: str, game_id: str | None) -> dict | None:
    """The operator's manual-entry form of a seat's action template whose observation fields are
    unknown (``"0 play ?"`` → ``{"text": "table play 0 ?", "actor": None, "for_seat": 0,
    "verb": "play", "args": ["0", "?"], "fields": ["seat", "card"], ...}``), or ``None`` when the
    template has no unknown observation (a bid, «Верю»: the seat's own decision).

    The form is the table actions' own (``table <verb> <seat> <fields…>``, the seat first as in
    ``table flip <seat> <serial>``), so the console renders it like any table action, with the
    seat by name; the dashboard turns an entry sent in this form back into the seat's action
    (``manualentry.for_seat``), logged with source ``manual``."""
    if not game_id:  # no game: no entry to make for a seat
        return None
    try:
        spec = registry.get(game_id)
        action = spec.engine.parse_action(text)
    except Exception:
        return None
    if action.seat is None or not any(getattr(action, n) is None for n in observation_fields(type(action))):
        return None
    parts = text.split()
    out = describe_action(" ".join(["table", parts[1], parts[0], *parts[2:]]))
    fields, optional, lists = action_fields(type(action))
    out.update({"for_seat": action.seat, "fields": ["seat", *fields], "optional": list(optional),
                "lists": list(lists), "schema": [SEAT_FIELD, *spec.action_schema(type(action))]})
    return out


@functools.lru_cache(maxsize=None)
def labelled_verbs(game_id: str) -> dict[str, tuple[str, ...]]:
    """``{verb: fields}`` of ``game_id``'s actions with fields whose values are ids a person cannot
    read (fields of kind ``choice``: the joker game's ``bet_id``), which the game's presenter words
    (``choice_label``); ``{}`` for a game without such fields."""
    spec = registry.find(game_id)
    if spec is None:
        return {}
    out = {a.VERB: tuple(f.name for f in fields_of(a) if f.kind is Kind.CHOICE) for a in spec.engine.ACTIONS}
    return {verb: names for verb, names in out.items() if names}


def label_choices(actions: list[dict], game_id: str | None, view: dict, seats) -> list[dict]:
    """``actions`` (from :func:`describe_action`) with ``"labels": {field: {"ru", "en"}}`` added to
    each one whose labelled fields (:func:`labelled_verbs`) the game words — «5 на Д♥ (ставка
    №3)» for the bet ``withdraw 3`` takes back — so the page offers a list of those words instead of
    a stepper over bare ids. The words come from ``view``, the viewer's own view: a label never
    tells more than the page already shows."""
    if not game_id:
        return actions
    verbs = labelled_verbs(game_id)
    if not verbs or not any(a.get("verb") in verbs for a in actions):
        return actions
    spec = registry.get(game_id)
    cls, fn = spec.engine, spec.presenter.choice_label
    out = []
    for a in actions:
        fields = verbs.get(a.get("verb", ""))
        if fields:
            try:
                action = cls.parse_action(a["text"])
                labels = {}
                for name in fields:
                    texts = both(fn(name, getattr(action, name), view, list(seats))) or {}
                    if all(texts.get(lang) for lang in LANGUAGES):
                        labels[name] = texts
            except Exception:  # words are a nicety: the action keeps its plain form
                labels = {}
            if labels:
                a = {**a, "labels": labels}
        out.append(a)
    return out


def narrator(game_id: str | None, seats) -> Callable[[Event], dict | None] | None:
    """The game presenter's ``event(event, seats)`` bound to ``seats``, in both languages (a game
    narrates its public events in words; the page falls back to generic words), or ``None`` for no
    game; its ``moment(event)`` is the presenter's moment for the table display."""
    spec = registry.find(game_id)
    if spec is None:
        return None
    presenter = spec.presenter

    def describe(event: Event) -> dict | None:
        # an event private to a seat reaches that seat's history only (history_entry): the game
        # words it there with its own function (skull: «Ваши купюры: …»)
        told = presenter.event if event.private_to is None else presenter.private_event
        try:
            said = told(event, list(seats))
            texts = both(said) if said is not None else {}
        except Exception:  # narration is a nicety; never break the stream for it
            return None
        if texts.get("ru") == "":
            return SILENT  # the game has nothing to tell of this event (it is told by another)
        return texts if texts.get("ru") else None

    def moment(event: Event) -> dict | None:
        try:
            m = presenter.moment(event, list(seats))
            return None if m is None else {"style": m.style, "text": both(m.words)}
        except Exception:  # the display's animation is a nicety too
            return None

    describe.moment = moment  # type: ignore[attr-defined]  # (history_entry: the table display's moments)
    return describe


#: What a narrator returns for an event its game deliberately does not tell (``describe_event``
#: returned ``""``): the history leaves the event out instead of showing its raw data.
SILENT: dict = {}


def history_entry(viewer: Viewer, version: int, outcome, describe=None) -> dict | None:
    """The history line ``viewer`` sees for one accepted outcome, or ``None`` if nothing to show.

    Events private to another seat are dropped. When no event is visible, a seat action is shown as
    its action (seat, verb, args — a button press is public at the table) and a table action only as
    its verb (its arguments may be a face-down serial or card).
    """
    items = []
    for ev in outcome.events:
        if ev.private_to is None or (isinstance(viewer, int) and ev.private_to == viewer):
            item = {"kind": ev.kind, "data": ev.data, "private": ev.private_to is not None}
            text = describe(ev) if describe else None
            if text is SILENT:
                continue
            if text:
                item["text"] = text
            moment = getattr(describe, "moment", None)
            told = moment(ev) if moment is not None and ev.private_to is None else None
            if told:
                item["moment"] = told  # the table display shows it large (Presenter.moment)
            items.append(item)
    if not items:
        d = describe_action(outcome.action)
        if d["actor"] is not None:
            items.append({"kind": "action", "data": {"seat": d["actor"], "verb": d["verb"], "args": d["args"]},
                          "private": False})
        else:
            items.append({"kind": "table_action", "data": {"verb": d["verb"], "source": outcome.source},
                          "private": False})
    return {"v": version, "items": items}


def viewers_for(seat_count: int) -> list[Viewer]:
    """Every viewer of a table with ``seat_count`` seats."""
    return [PUBLIC, OPERATOR, *range(seat_count)]


def whose(actions: list[dict], game_id: str | None, view: dict, seats) -> list[dict]:
    """``actions`` with ``"whose": seat`` added to each table action the game's presenter names a
    player for (``whose(verb, view)``, from ``view``, the operator's public view: who played a card
    is public at the table) when the action itself names no seat — 6100's ``table face ?`` reads the
    card the seat in ``pending`` declared; doubt's ``table reveal ?`` turns up the last placement's
    cards. The operator's form names that player, as skull's forms do with the seat in their
    arguments («Купюра в банк Борис»)."""
    spec = registry.find(game_id)
    if spec is None:
        return actions
    out = []
    for a in actions:
        seat = spec.presenter.whose(a.get("verb", ""), view) if a.get("actor") is None and "for_seat" not in a else None
        if isinstance(seat, int) and 0 <= seat < len(seats):
            a = {**a, "whose": seat}
        out.append(a)
    return out


def view_for(viewer: Viewer, *, epoch: int, version: int, game_info: dict | None, views: dict,
             legal: dict, turn: list, over: bool, result: dict | None, history: Iterable[dict],
             ended: dict | None = None, camera: bool = True) -> dict:
    """Build the page model for ``viewer`` from one consistent read of the game (see module doc).

    ``ended``: with no current game, the table's word on the game the operator last ended
    (``Table.last_ended``, built from that game's public view only); the model then carries
    ``"ended": {"game", "seats", "over", "text": {"ru", "en"}}`` so the pages say how it stood.
    ``camera``: the table reads with a camera (a seat's waiting words name it; else the operator)."""
    if game_info is None:
        view, actions = {}, []
    elif isinstance(viewer, int):
        view = views.get(viewer, {})
        actions = label_choices([describe_action(t) for t in legal.get(viewer, [])], game_info.get("id"),
                                view, game_info.get("seats") or [])
    else:
        view = views.get(None, {})
        gid = game_info.get("id")
        actions = []
        if viewer == OPERATOR:
            actions = [describe_action(t, gid) for t in legal.get(None, [])]
            # what a seat must do but only an observation can fill (infinity: the card a seat
            # played, when the camera could not read it): the operator enters it by hand
            for seat in sorted(k for k in legal if isinstance(k, int)):
                actions += [d for d in (describe_for_seat(t, gid) for t in legal[seat]) if d is not None]
            actions = label_choices(actions, gid, view, game_info.get("seats") or [])
            actions = whose(actions, gid, view, game_info.get("seats") or [])
    kind = "seat" if isinstance(viewer, int) else viewer
    extra: dict[str, Any] = {}
    result = view.get("result") if isinstance(view, dict) else None
    if game_info is not None and isinstance(view, dict):
        seats = list(game_info.get("seats") or [])
        if isinstance(viewer, int) and not over:
            # what this phone waits for when its pad has nothing for it: the other players by
            # name, or the table's own pending task (the camera, the operator) in words
            from companion.dashboard.waiting import waiting_words

            waiting = waiting_words(game_info.get("id"), viewer, view, legal, seats, camera)
            if waiting:
                extra["waiting"] = waiting
        if over:
            extra["result_text"] = result_words(game_info.get("id"), view, seats)
        view = page_view(game_info.get("id"), view, seats)
        page_schema = game_schema(game_info.get("id"))
        if page_schema is not None:
            extra["schema"] = page_schema
    if game_info is None and isinstance(ended, dict):
        extra["ended"] = {k: ended.get(k) for k in ("game", "seats", "over", "text")}
    return {**extra,
        "epoch": epoch,
        "version": version,
        "viewer": {"kind": kind, "seat": viewer if isinstance(viewer, int) else None},
        "game": game_info,
        "turn": list(turn),
        "over": bool(over),
        # game.result() is not a viewer-safe channel (skull's lists every player's notes): only what
        # the game's view itself publishes as its result is shown (found by the privacy property test).
        "result": result,
        "view": view,
        "actions": actions,
        "history": list(history)[-HISTORY_LEN:],
    }


_SCHEMAS: dict[tuple[str, int], dict] = {}


def game_schema(game_id: str | None) -> dict | None:
    """The page's description of the current game (:meth:`companion.games.spec.GameSpec.schema`:
    its actions' typed fields, its page widgets, its seat keys), built once per registered spec."""
    spec = registry.find(game_id)
    if spec is None:
        return None
    key = (spec.id, id(spec))
    out = _SCHEMAS.get(key)
    if out is None:
        out = _SCHEMAS[key] = spec.schema()
    return out


def page_view(game_id: str | None, view: dict, seats) -> dict:
    """The view a page shows: the game presenter's ``page(view, seats)``. A page view words the
    engine's view for people — players by name instead of seat indexes from 0, prizes numbered from
    1, card codes with their suit signs, words in both languages as ``{"ru": …, "en": …}`` (the page
    shows its language's) — and leaves out what the seat cards and badges already show. It is made
    from ``view`` alone (the viewer's own view), so it never tells more than that view; the keys
    the page script reads (``seats``, ``dealer``, ``turn``, ``limits``, ``table_task``…) keep their
    meaning."""
    spec = registry.find(game_id)
    if spec is None:
        return view
    try:
        return spec.presenter.page(view, list(seats))
    except Exception:  # words are a nicety: a page shows the plain view rather than nothing
        return view


def result_words(game_id: str | None, view: dict, seats) -> dict | None:
    """The game-over box's words, ``{"ru": …, "en": …}``: the game presenter's
    ``standings(view, seats, lang)`` of the finished game (who won, the standings and the few facts
    that matter), from the viewer's own view; ``None`` when the game has no words."""
    spec = registry.find(game_id)
    if spec is None:
        return None
    try:
        out = both(spec.presenter.standings(view, list(seats))) or {}
    except Exception:
        return None
    if not (out.get("ru") and out.get("en")):
        return None
    # the box's heading already says «Игра окончена»: its words do not say it again
    for lang, head in both(M("Game over")).items():
        text = out.get(lang)
        if text and text.startswith(head) and len(text) > len(head) + 2:
            rest = text[len(head):].lstrip("!.:; ").strip()
            out[lang] = rest[:1].upper() + rest[1:]
    return out


def diff(old: dict, new: dict) -> tuple[list, list]:
    """Two-level delta from ``old`` to ``new``: ``(set, delete)`` where ``set`` is a list of
    ``[path, value]`` and ``delete`` a list of paths; a path is a list of one or two keys.

    Only dict values are descended (one level): ``{"view": {"bid": 3}}`` changing ``bid`` gives
    ``[[["view", "bid"], 4]]``.
    """
    sets: list = []
    dels: list = []
    for key, value in new.items():
        if key not in old:
            sets.append([[key], value])
        elif old[key] != value:
            ov = old[key]
            if isinstance(value, dict) and isinstance(ov, dict):
                for k2, v2 in value.items():
                    if k2 not in ov or ov[k2] != v2:
                        sets.append([[key, k2], v2])
                for k2 in ov:
                    if k2 not in value:
                        dels.append([key, k2])
            else:
                sets.append([[key], value])
    for key in old:
        if key not in new:
            dels.append([key])
    return sets, dels


def apply_diff(model: dict, sets: list, dels: list) -> dict:
    """Apply a :func:`diff` result to a copy of ``model`` (the JavaScript client does the same)."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in model.items()}
    for path in dels:
        target = out
        for k in path[:-1]:
            target = target[k]
        target.pop(path[-1], None)
    for path, value in sets:
        target = out
        for k in path[:-1]:
            target = target.setdefault(k, {})
        target[path[-1]] = value
    return out
