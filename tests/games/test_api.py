"""Every registered game keeps the State API's promises (OpenSpiel's ``random_sim_test``), whatever
its rules: random playouts by its own bots where

* only legal actions happen (the bots' action is one ``legal_actions`` offers and ``is_legal``
  accepts),
* actions thrown at random (``tests.gamekit.random_text``: the game's own verbs, random
  arguments, malformed lines) — legal or not — either apply exactly as ``is_legal`` says or are
  rejected with the state untouched (``snapshot_bytes``),
* the game ends, and then nobody may act and the bots have nothing more to play,
* what the rules conserve (``Game.conserved()``: chips, notes, cards) never changes,
* no public view carries a card or serial the table learned in private (an observation no public
  event told) — the camera's private reads stay private,
* the text form of every action round-trips and every view is JSON.

This is the one API-consistency test over every registered game; a game's own properties (its
books, its hidden facts, its options) are in its folder's test_properties.py / test_playouts.py,
on the same scaffolding (``tests.gamekit.playout``).
"""

from __future__ import annotations

import json
import random

import pytest

from companion.games import new_game, registry
from companion.games.base import observation_fields
from companion.games.fields import fields_of

from tests.gamekit import probe, random_text, until_over

SEATS = ("Аня", "Борис", "Вика", "Глеб", "Даша", "Егор")


def _seat_counts(spec) -> list[int]:
    """Two table sizes the game starts with: its smallest and a middle one."""
    cls = spec.engine
    out = []
    for n in (cls.MIN_SEATS, min(cls.MAX_SEATS, 4), min(cls.MAX_SEATS, 5)):
        try:
            cls(list(SEATS[:n]))
        except Exception:  # noqa: BLE001 - not a size this game starts with by default
            continue
        if n not in out:
            out.append(n)
    return out[:2]


CASES = [(spec.id, n, seed) for spec in registry.specs() if spec.simulator is not None
         for n in _seat_counts(spec) for seed in (1, 2)]


def _strings(value) -> set[str]:
    """Every string in a JSON-safe value (keys included)."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, dict):
            out.update(str(k) for k in v)
            stack.extend(v.values())
        elif isinstance(v, (list, tuple)):
            stack.extend(v)
    return out


@pytest.mark.parametrize("game_id,n,seed", CASES)
def test_random_playout_keeps_the_api(game_id, n, seed):
    spec = registry.get(game_id)
    g = new_game(game_id, list(SEATS[:n]))
    sim = spec.simulator(g, seed)
    rng = random.Random(seed)
    books = g.conserved()
    pool = ["X", "ZZ", "-"]
    private: set[str] = set()  # values the table read that no public event told
    told: set[str] = set()
    rejected = 0
    for step in until_over(g, 20_000):
        # actions thrown at random: is_legal and apply agree, a refusal changes nothing
        for _ in range(2):
            if not probe(g, random_text(g, rng, pool)):
                rejected += 1
        nxt = sim.next_action()
        assert nxt is not None, "the bots stopped before the end"
        action = g.parse_action(nxt[0])
        assert g.parse_action(action.text()) == action
        assert any(type(t) is type(action) and t.seat == action.seat for t in g.legal_actions(action.seat)), nxt
        assert g.is_legal(action), nxt
        events = g.apply(action)
        sim.applied(nxt[0])
        assert g.conserved() == books, f"{nxt[0]} changed the books"
        public = [e.data for e in events if e.private_to is None]
        told |= _strings(public)
        for name in observation_fields(type(action)):
            f = next(x for x in fields_of(type(action)) if x.name == name)
            value = getattr(action, name)
            values = value if isinstance(value, tuple) else (value,)
            if f.reader is not None:
                private |= {v for v in values if isinstance(v, str) and v not in told}
        view = g.view(None)
        json.dumps(view), json.dumps(public)
        leaked = (private - told) & _strings(view)
        assert not leaked, f"the public view shows {sorted(leaked)} after {nxt[0]}"
        pool = sorted(set(pool) | {str(v) for v in vars(action).values() if isinstance(v, str)})[:60]
    assert g.result() is not None and rejected > 0
    # over: nobody may act, and the bots have nothing more to play
    assert g.legal_actions(None) == [] and g.current_seats() == []
    assert all(g.legal_actions(s) == [] for s in range(n)) and sim.next_action() is None


def test_every_builtin_game_is_registered_with_its_parts():
    """The five games come from their packages with the parts the table asks for."""
    assert registry.ids()[:5] == registry.BUILTIN
    for spec in registry.specs():
        assert spec.engine.GAME_ID == spec.id and spec.title
        assert spec.simulator is not None and spec.presenter.narrates
        verbs = [cls.VERB for cls in spec.engine.ACTIONS]
        assert len(set(verbs)) == len(verbs) and set(spec.schema()["verbs"]) == set(verbs)
    readers = {spec.id: spec.readers for spec in registry.specs()}
    assert readers == {"skull": ("note",), "doubt": ("card",), "hoggenheimer": ("card",),
                       "infinity": ("card",), "lottery": ("card",)}
