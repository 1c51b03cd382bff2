"""What a club hears of a doubt game (:mod:`companion.club`): the rows of its result."""

from __future__ import annotations


def result_rows(view: dict, seats: list[str]) -> list[dict]:
    """The winner (the first to be rid of their cards) and the loser (the one left with them)."""
    told = view.get("result")
    result: dict = told if isinstance(told, dict) else {}
    winner = result.get("winner")
    loser = result.get("loser_name")
    return [{"name": n, "win": n == winner, "lost": n == loser} for n in seats]
