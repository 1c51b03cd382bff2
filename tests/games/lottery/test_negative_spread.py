"""A negative spread amount sent to the engine (an API client, an old page) is refused with the
words for a negative amount, in the page's language — not the count-of-amounts sentence."""

from __future__ import annotations

from companion.dashboard.reasons import reason_message
from companion.games import new_game
from tests.gamekit import rejects
from companion.i18n import M, MN, render


def test_a_negative_amount_is_named_negative_in_both_languages():
    g = new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    exc = rejects(g, "0 spread 4,3,5,-2", "bad_spread")
    ru, en = (reason_message(exc.reason, lang, "lottery", g.options, exc.facts) for lang in ("ru", "en"))
    negative = M("The spread: an amount cannot be negative (%(value)s); each is 0 or more.", value="−2")
    assert (ru, en) == (render(negative, "ru"), render(negative, "en"))
    # a wrong count of amounts keeps its own sentence
    exc = rejects(g, "0 spread 4,3,3", "bad_spread")
    four = MN("The spread is %(n)s amounts, one per prize place in order, each 0 or more.",
              "The spread is %(n)s amounts, one per prize place in order, each 0 or more.", 4)
    assert reason_message(exc.reason, "ru", "lottery", g.options, exc.facts) == render(four, "ru")
