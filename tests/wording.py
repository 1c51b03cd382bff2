"""Wording checked by message id and facts: a refusal or notice is a
:class:`~companion.i18n.Message`, and a test asserts what it says (its id, its facts) rather than
pinning a Russian sentence. The sentences themselves are the catalogue's; the golden snapshots
(tests/i18n/golden) keep one rendered check per page and language.

>>> said(M("%(player)s must act now.", player="Аня"))
('%(player)s must act now.', {'player': 'Аня'})
"""

from __future__ import annotations

from typing import Any

from companion.dashboard.reasons import reason_words
from companion.i18n import M, Message, render
from tests.gamekit import rejects

__all__ = ["M", "refusal", "said", "speaks"]


def _fact(value: Any) -> Any:
    """A nested message as its English words (the id with its facts), a list fact by item."""
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
