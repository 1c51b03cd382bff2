"""The one renderer: a :class:`~companion.i18n.messages.Message` in a language, through the Babel
catalogue in ``web/translations`` (the same one Flask-Babel serves the pages from).

English is the message ids themselves; Russian is ``ru/LC_MESSAGES/messages.mo``. Plural forms
come from the catalogue's ``Plural-Forms`` header (``ngettext``), game words from the message
context (``pgettext``, the game id).
"""

from __future__ import annotations

import gettext as _gettext
import logging
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping, overload

from companion.i18n.messages import DecimalNumber, Message

LANGUAGES = ("ru", "en")
DEFAULT = "ru"

log = logging.getLogger(__name__)


def catalogue_dir() -> Path:
    """The catalogue folder: ``web/translations`` of a checkout, else the installed
    ``companion.web`` package's ``translations``."""
    source = Path(__file__).resolve().parent.parent.parent / "web" / "translations"
    if source.is_dir():
        return source
    from importlib import resources

    return Path(str(resources.files("companion.web"))) / "translations"


def english_quotes(text: str) -> str:
    """English typography for an English text: the Russian guillemets some ids are written with
    («%(option)s») as English quotes (“%(option)s”)."""
    return text.replace("«", "\u201c").replace("»", "\u201d") if isinstance(text, str) else text


_TEXT_METHODS = frozenset({"gettext", "ngettext", "pgettext", "npgettext", "ugettext", "ungettext", "upgettext",
                           "unpgettext"})


class EnglishQuotes:
    """A catalogue read as English: every text it gives has English quotes (:func:`english_quotes`).
    The ids are English, but typed by Russian speakers: an English page or line must not show
    «…». Wraps ``inner`` (any gettext translations object); the rest is ``inner``'s."""

    def __init__(self, inner) -> None:
        self._inner = inner

    def __getattr__(self, name: str):
        attr = getattr(self._inner, name)
        if name in _TEXT_METHODS:
            return lambda *args: english_quotes(attr(*args))
        return attr


@lru_cache(maxsize=None)
def translations(lang: str):
    """The catalogue of ``lang`` (for English, the ids' own language, the ids with English quotes
    (:class:`EnglishQuotes`); a language without a catalogue gets its ids as they are)."""
    if lang == "en":
        return EnglishQuotes(_gettext.NullTranslations())
    if lang not in LANGUAGES:
        return _gettext.NullTranslations()
    from babel.support import Translations

    return Translations.load(str(catalogue_dir()), [lang])


def _text(msg: Message, lang: str) -> str:
    t = translations(lang)
    if msg.plural is not None:
        n = int(msg.facts.get("n", 0))
        if msg.context is not None:
            return t.npgettext(msg.context, msg.id, msg.plural, n)
        return t.ngettext(msg.id, msg.plural, n)
    if msg.context is not None:
        return t.pgettext(msg.context, msg.id)
    return t.gettext(msg.id)


def fact(value: Any, lang: str) -> Any:
    """A fact as the text shows it: a message rendered, a text in both languages (``{"ru": …,
    "en": …}``, words the game's data carries) in ``lang``, a list joined with ``", "``, numbers
    and names as they are."""
    if isinstance(value, (Message, dict)):
        return render(value, lang)
    if isinstance(value, DecimalNumber):  # the language's decimal sign: «400,0» / "400.0"
        from babel.numbers import format_decimal

        return format_decimal(value.value, format="0." + "0" * value.places if value.places else "0",
                              locale=lang if lang in LANGUAGES else DEFAULT)
    if isinstance(value, (list, tuple)):
        return ", ".join(str(fact(v, lang)) for v in value)
    return value


@overload
def render(msg: Message | str, lang: str = DEFAULT) -> str: ...
@overload
def render(msg: Message | Mapping[str, str] | str | None, lang: str = DEFAULT) -> str | None: ...
def render(msg: Message | Mapping[str, str] | str | None, lang: str = DEFAULT) -> str | None:
    """``msg`` in ``lang`` (``"ru"`` or ``"en"``); a text in both languages (``{"ru": …, "en":
    …}``) gives its ``lang`` one (else the other), a plain string is returned as it is, ``None``
    stays ``None``. A text whose facts do not fit (a catalogue mistake) falls back to the English
    id with the facts, and is logged — never an exception on a page or the console."""
    if msg is None or isinstance(msg, str):
        return msg
    if isinstance(msg, Mapping):
        told = msg.get(lang)
        return told if told is not None else next((v for v in msg.values() if v is not None), None)
    text = _text(msg, lang)
    if not msg.facts:
        return text
    facts = {k: fact(v, lang) for k, v in msg.facts.items()}
    try:
        return text % facts
    except (KeyError, ValueError, TypeError):
        log.error("message %r does not fit its facts in %s", msg.id, lang)
        try:
            return msg.id % facts
        except (KeyError, ValueError, TypeError):
            return msg.id


@overload
def both(msg: Message | str) -> dict[str, str]: ...
@overload
def both(msg: Message | Mapping[str, str] | str) -> dict[str, str | None]: ...
@overload
def both(msg: Message | Mapping[str, str] | str | None) -> dict[str, str | None] | None: ...
def both(msg: Message | Mapping[str, str] | str | None) -> dict | None:
    """``{"ru": …, "en": …}``: ``msg`` in both languages, the shape the page views carry."""
    if msg is None:
        return None
    return {lang: render(msg, lang) for lang in LANGUAGES}


def aside(text: str, gist: Message | Mapping[str, str] | str) -> dict[str, str]:
    """A program's own English words (an exception's text, an engine's detail) as a fact: the text
    itself in English, its gist (a message) in every other language, where the English would not
    be read."""
    return {lang: text if lang == "en" else (render(gist, lang) or text) for lang in LANGUAGES}
