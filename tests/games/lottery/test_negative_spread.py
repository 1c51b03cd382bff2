"""A negative spread amount sent to the engine (an API client, an old page) is refused with the
words for a negative amount, in the page's language — not the count-of-amounts sentence."""

from __future__ import annotations

from companion.dashboard.reasons import reason_message
from companion.games import new_game
from tests.gamekit import rejects


def test_a_negative_amount_is_named_negative_in_both_languages():
    g = new_game("lottery", ["Банкир", "Сдающий", "Аня", "Борис"])
    exc = rejects(g, "0 spread 4,3,5,-2", "bad_spread")
    ru, en = (reason_message(exc.reason, lang, "lottery", g.options, exc.facts) for lang in ("ru", "en"))
    assert ru == "Раскладка: сумма не может быть отрицательной (−2) — каждая 0 или больше."
    assert en == "The spread: an amount cannot be negative (−2); each is 0 or more."
    # a wrong count of amounts keeps its own sentence
    exc = rejects(g, "0 spread 4,3,3", "bad_spread")
    assert reason_message(exc.reason, "ru", "lottery", g.options, exc.facts).startswith("Раскладка: 4 суммы")
