"""A minimum stake above the maximum is refused naming both options and the values (facts a
page and the console word: ``companion.games.optionwords``), not as one unnamed bad value."""

from __future__ import annotations

import pytest

from companion.errors import IllegalAction
from companion.games import new_game


def test_min_above_max_names_both_stakes():
    with pytest.raises(IllegalAction) as e:
        new_game("hoggenheimer", ["Аня", "Борис"], {"min_stake": 10, "max_stake": 5})
    assert e.value.reason == "bad_option"
    assert e.value.facts == {"options": ["min_stake", "max_stake"], "rule": "not_above", "low": 10, "high": 5}
    new_game("hoggenheimer", ["Аня", "Борис"], {"min_stake": 5, "max_stake": 5})  # equal is fine


def test_a_negative_first_banker_is_named():
    with pytest.raises(IllegalAction) as e:
        new_game("hoggenheimer", ["Аня", "Борис"], {"first_banker": -1})
    assert e.value.detail.startswith("first_banker")
