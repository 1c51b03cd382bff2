"""The one text sanitiser: at the dashboard's edge every request's text is checked before a view
function sees it, so no handler has to think about broken text; text from inside the program
(a prompt, a player's name from the command line) goes through :func:`clean` or :func:`check_text`;
direction controls (U+202E …) are dropped from every text the screens show (:func:`without_bidi`:
names and prompts alike).

Checked (:func:`check_request`, run by ``create_app`` before every request):

* the query string and form fields, and the JSON body, which is parsed here once (with a depth
  limit checked *before* parsing, so a 5 000-deep ``[[[[…`` costs a scan, not a recursion) and
  kept for :func:`json_body`;
* every string in them, keys too (:func:`check_text`): no lone surrogate (``"\\ud800"`` cannot be
  written as UTF-8, so a page holding one could not be sent at all), no control character but
  tab, line feed and carriage return, at most :data:`MAX_TEXT` characters;
* at most :data:`MAX_DEPTH` levels of nesting and :data:`MAX_ITEMS` values in a JSON body.

A request that fails is answered 400 with ``detail`` ``bad_text: …`` (the pages say it in words,
``reasons.BAD_TEXT``), or ``bad_json: …`` when the body is not JSON at all, or JSON of a shape no
page sends (too deep, too many values): ``reasons.BAD_JSON`` says that, not "characters"; or
``bad_number: <field>: …`` for a number no field takes (not finite: ``1e400``, ``NaN``; or beyond
:data:`MAX_NUMBER`): ``reasons.BAD_NUMBER`` names the field. :func:`clean` is the same rule for text that enters from inside the
program (a prompt another part adds): it drops what cannot be shown instead of refusing.
"""

from __future__ import annotations

import json
import re
import unicodedata

MAX_TEXT = 4000
"""The longest string taken anywhere (each field also has its own, shorter limit)."""

MAX_DEPTH = 20
"""The deepest JSON nesting taken (the pages send 2)."""

MAX_ITEMS = 2000
"""The most values (strings, numbers, lists, objects) in one JSON body."""

_ALLOWED_CONTROLS = {"\t", "\n", "\r"}
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKETS = re.compile(r"[\[\]{}]")


class BadText(ValueError):
    """A text the sanitiser refuses; ``str()`` says why, in English (for logs and ``detail``)."""


class TooLong(BadText):
    """A text longer than the sanitiser takes: ``length`` characters, at most ``most``; ``field``
    the form or query field that held it (``None``: a JSON body's string)."""

    def __init__(self, length: int, most: int, field: str | None = None) -> None:
        super().__init__(f"a text of {length} characters (at most {most})")
        self.length, self.most, self.field = length, most, field


class BadJSON(BadText):
    """A JSON body that is not JSON (or is nested too deep, holds too many values): the body's
    shape is wrong, not its characters."""


class BadNumber(BadText):
    """A JSON number no field takes: not finite (``1e400`` reads as infinity, ``NaN``) or beyond
    :data:`MAX_NUMBER`; ``field`` the object key that held it (``None``: in a list, or the body)."""

    def __init__(self, why: str, field: str | None = None) -> None:
        super().__init__(why)
        self.field = field


MAX_NUMBER = 2 ** 53
"""The largest number (in size) taken in a JSON body: what a page's JavaScript can hold exactly;
every number a page sends (a version, a seat, a count) is far smaller."""


def bad_character(text: str) -> int | None:
    """The index of the first character of ``text`` no screen can show — a control character (but
    tab and new lines) or a broken one (a lone surrogate) —, or ``None`` when there is none."""
    for i, ch in enumerate(text):
        if ch not in _ALLOWED_CONTROLS and unicodedata.category(ch) in ("Cc", "Cs"):
            return i
    return None


def problem(text: str, max_len: int = MAX_TEXT) -> str | None:
    """Why ``text`` cannot be taken, in English, or ``None`` when it can."""
    if len(text) > max_len:
        return f"a text of {len(text)} characters (at most {max_len})"
    i = bad_character(text)
    if i is None:
        return None
    if unicodedata.category(text[i]) == "Cs":
        return f"a broken character (lone surrogate U+{ord(text[i]):04X})"
    return f"a control character U+{ord(text[i]):04X}"


def typed(text: str) -> str:
    """A code, PIN or serial as a person typed or pasted it, in the form it is checked in:
    compatibility forms folded (NFKC: full-width «１２３» is «123», «ＡＢ» is «AB») and invisible
    format characters dropped (Unicode category Cf: a zero-width space or a direction mark pasted
    with a code is not part of it)."""
    text = unicodedata.normalize("NFKC", str(text))
    return "".join(ch for ch in text if unicodedata.category(ch) != "Cf")


def fold_words(text: str) -> str:
    """Words as typed, compared with the words a page shows: case and «ё» ignored, runs of spaces
    as one (``"  Бесконечность "`` → ``"бесконечность"``)."""
    return " ".join(str(text).casefold().replace("ё", "е").split())


def fold_name(text: str) -> str:
    """A name as typed (a game's title), compared with the names a page shows: :func:`typed`
    (full-width «ｓｋｕｌｌ» is «skull»), then :func:`fold_words`, with every dash or hyphen
    (Unicode category Pd: «-», «–», «—» …) read as a space between words, so «Верю – не верю»,
    «Верю-не-верю» and «верю не верю» are the one name «верю не верю»."""
    text = typed(text)
    return fold_words("".join(" " if unicodedata.category(ch) == "Pd" else ch for ch in text))


#: the Russian ЙЦУКЕН letter on each key of the Latin QWERTY layout (lower case; a shifted
#: punctuation key the capital letter on it)
_QWERTY_TO_JCUKEN = {**dict(zip("`qwertyuiop[]asdfghjkl;'zxcvbnm,.", "ёйцукенгшщзхъфывапролджэячсмитьбю")),
                     **dict(zip('~{}:"<>', "ЁХЪЖЭБЮ"))}


def other_layout(text: str) -> str | None:
    """``text`` typed with the keyboard left on the Latin layout read as the Russian keys it was
    meant on (ЙЦУКЕН): ``"uhb,"`` → ``"гриб"``, ``"Dth."`` → ``"Верю"``; ``None`` when ``text``
    holds no such key but commas and full stops, or a character that is not on those keys (a
    digit or a space stays as it is).
    The caller tries it only when the Latin text means nothing itself."""
    if not any(ch.lower() in _QWERTY_TO_JCUKEN and ch not in ",." for ch in text):  # («`;» is «ёж»)
        return None
    out = []
    for ch in text:
        low = ch.lower()
        if low in _QWERTY_TO_JCUKEN:
            cyr = _QWERTY_TO_JCUKEN[low]
            out.append(cyr.upper() if ch != low else cyr)  # (a shifted key gives its capital as it is)
        elif ch.isdigit() or ch.isspace():
            out.append(ch)
        else:
            return None
    return "".join(out)


def check_text(text: str, max_len: int = MAX_TEXT) -> str:
    """``text`` when the sanitiser takes it.

    Raises:
        BadText: a lone surrogate, a control character (but tab and new lines) or too long.
    """
    if len(text) > max_len:
        raise TooLong(len(text), max_len)
    why = problem(text, max_len)
    if why:
        raise BadText(why)
    return text


#: Direction controls that reorder the text around them (embeddings, overrides, isolates, marks).
BIDI_CONTROLS = frozenset("\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


def without_bidi(text: str) -> str:
    """``text`` without direction controls: the rule for every text a person types that the
    screens show (a player's name, an operator's prompt): with U+202E it would show reversed on
    every page and terminal («сироБ»)."""
    return "".join(ch for ch in text if ch not in BIDI_CONTROLS)


def clean(text: str, max_len: int = MAX_TEXT) -> str:
    """``text`` as every screen can show it: what cannot be shown dropped (lone surrogates,
    control characters but tab and new lines), direction controls dropped (:func:`without_bidi`,
    the rule names follow too) and cut to ``max_len``: for a prompt the operator typed or another
    part of the program adds."""
    kept = "".join(ch for ch in without_bidi(str(text)) if ch in _ALLOWED_CONTROLS
                   or unicodedata.category(ch) not in ("Cs", "Cc"))
    return kept[:max_len]


def json_depth(raw: str) -> int:
    """The nesting depth of a JSON text, counted without parsing it (strings skipped)."""
    depth = deepest = 0
    for b in _BRACKETS.findall(_STRINGS.sub("", raw)):
        depth += 1 if b in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def parse_json(raw: bytes | str):
    """Parse a JSON body the sanitiser takes.

    Raises:
        BadText: not UTF-8, or a string the sanitiser refuses. BadJSON (a BadText): not JSON,
            too deep or too many values.
    """
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise BadText("the body is not UTF-8") from None
    if json_depth(raw) > MAX_DEPTH:
        raise BadJSON(f"JSON nested deeper than {MAX_DEPTH} levels")
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError) as exc:  # RecursionError: cannot happen after the depth check
        if isinstance(exc, ValueError) and "integer string conversion" in str(exc):
            raise BadNumber("a number out of range") from None  # thousands of digits (int_max_str_digits)
        raise BadJSON(f"not JSON ({exc.__class__.__name__}: {getattr(exc, 'msg', exc)})") from None
    count = 0
    stack: list[tuple[str | None, object]] = [(None, data)]
    while stack:
        field, item = stack.pop()
        count += 1
        if count > MAX_ITEMS:
            raise BadJSON(f"more than {MAX_ITEMS} values in one body")
        if isinstance(item, str):
            check_text(item)
        elif isinstance(item, dict):
            for key, value in item.items():
                check_text(key)
                stack.append((key, value))
        elif isinstance(item, list):
            stack.extend((field, v) for v in item)
        elif isinstance(item, float) and (item != item or item in (float("inf"), float("-inf"))):
            raise BadNumber("a number that is not finite", field)
        elif isinstance(item, (int, float)) and not isinstance(item, bool) and abs(item) > MAX_NUMBER:
            raise BadNumber("a number out of range", field)
    return data


_NO_BODY = object()


def check_request() -> None:
    """Check the current request's query, form and JSON body (see module docstring); abort 400
    ``bad_text: …`` when anything is refused. The parsed JSON body is kept for :func:`json_body`."""
    from flask import abort, g, request

    try:
        for key, value in request.args.items(multi=True):
            check_text(key, 200)
            check_text(value)
        if request.mimetype in ("application/x-www-form-urlencoded", "multipart/form-data"):
            for key, value in request.form.items(multi=True):
                check_text(key, 200)
                try:
                    check_text(value)
                except TooLong as exc:
                    raise TooLong(exc.length, exc.most, key) from None
        g.sanitised_json = _NO_BODY
        if request.method not in ("GET", "HEAD", "OPTIONS") and request.is_json:
            raw = request.get_data(cache=True)
            g.sanitised_json = parse_json(raw) if raw.strip() else None
    except BadJSON as exc:
        abort(400, description=f"bad_json: {exc}")
    except BadNumber as exc:  # said as a number (not as characters that cannot be shown)
        abort(400, description=f"bad_number: {exc.field or ''}: {exc}")
    except TooLong as exc:  # said as what it is (not as characters that cannot be shown)
        abort(400, description=f"bad_text: too_long: {exc.field or ''}: {exc.length}: {exc.most}")
    except BadText as exc:
        abort(400, description=f"bad_text: {exc}")


def json_body():
    """The request's JSON body as the sanitiser parsed it (``None`` when there is none)."""
    from flask import g

    data = getattr(g, "sanitised_json", _NO_BODY)
    if data is _NO_BODY:
        return None
    return data
