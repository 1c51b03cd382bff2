"""Wording checked by message id and facts: a refusal or notice is a
:class:`~companion.i18n.Message`, and a test asserts what it says (its id, its facts) rather than
pinning a Russian sentence. The sentences themselves are the catalogue's; the golden snapshots
(tests/i18n/golden) keep one rendered check per page and language.

>>> said(M("%(player)s must act now.", player="Аня"))
('%(player)s must act now.', {'player': 'Аня'})
>>> said(M("at least %(chips)s", chips=MPN("genitive", "%(n)s chip", "%(n)s chips", 1)))
('at least %(chips)s', {'chips': 'genitive|1 chip'})
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from companion.dashboard.reasons import reason_words
from companion.i18n import M, MPN, Message, render
from tests.gamekit import rejects

__all__ = ["M", "MPN", "golden", "refusal", "said", "speaks"]

GOLDEN = Path(__file__).resolve().parent / "i18n" / "golden"


def _fact(value: Any) -> Any:
    """A nested message as its English words (the id with its facts), after its context when it
    has one (``"genitive|1 chip"``: the Russian form the sentence asks for), a list fact by item."""
    if isinstance(value, Message) and value.context:
        return f"{value.context}|{render(value, 'en')}"
    if isinstance(value, (Message, dict)):
        return render(value, "en")
    if isinstance(value, (list, tuple)):
        return [_fact(v) for v in value]
    return value


def said(msg: Any) -> tuple[str, dict]:
    """``(id, facts)`` of ``msg`` (a nested message fact as its English words), after checking
    that it speaks both languages (:func:`speaks`)."""
    assert isinstance(msg, Message), f"not a message id with facts: {msg!r}"
    speaks(msg)
    return msg.id, {k: _fact(v) for k, v in msg.facts.items()}


def speaks(msg: Message) -> None:
    """``msg`` renders in Russian as a real translation (not the English id, no placeholder
    left) and in English, every plain text fact in both."""
    ru, en = render(msg, "ru"), render(msg, "en")
    assert ru != en and "%(" not in ru and "%(" not in en, (msg, ru, en)
    for value in msg.facts.values():
        if isinstance(value, str):
            assert value in ru and value in en, (value, ru, en)


def refusal(g, action: str, reason: str) -> Message:
    """The words of ``g`` refusing ``action`` with ``reason`` (the state unchanged, as
    :func:`tests.gamekit.rejects` checks): the message the dashboard renders, with its facts."""
    exc = rejects(g, action, reason)
    return reason_words(exc.reason, g.GAME_ID, g.options, exc.facts)


def golden(name: str, text: str) -> None:
    """``text`` (rendered words) is the golden snapshot tests/i18n/golden/``name``; regenerated on
    purpose only, with ``COMPANION_UPDATE_GOLDEN=1`` (as tests/i18n/test_golden_words.py)."""
    path = GOLDEN / name
    if os.environ.get("COMPANION_UPDATE_GOLDEN") == "1":
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"{path} is missing: COMPANION_UPDATE_GOLDEN=1 makes it"
    assert text.splitlines() == path.read_text(encoding="utf-8").splitlines(), name
