"""The table's card reads leave out card regions cut by the frame's edge with no corner in view
(`companion.parts.out_of_view`): the backs of face-down cards along the border used to make
every frame of a simulated 6100 game "unsure" (71 % of camera reads retried). Real OpenCV and the
real card reader on frames the simulated table's renderer draws."""

from __future__ import annotations

from companion import games, parts
from companion.settings import Settings
from companion.vision.cards import CardRead
from companion.vision.scene import SceneRenderer


def test_a_played_card_is_read_beside_backs_cut_by_the_frame_edge():
    game = games.new_game("infinity", ["Аня", "Борис", "Вика"])
    # plain tables: this checks the edge rule, not the reader on every table (test_learned_reader)
    renderer = SceneRenderer("infinity", seed=1, deck="numbered", varied=False)
    read = parts.reader("card", Settings(), game, renderer)
    truth = {"piles": [["10", "40", "36", "100", "106", "200", "225", "333"]]}  # won tricks, face down
    for attempt, value in enumerate(["40", "200", "333"]):
        frame = renderer.render([("card", value)], attempt=attempt, truth=truth, game=game)
        assert [(it.value, it.reason) for it in read(frame)] == [(value, None)], (attempt, value)


def test_only_an_unreadable_region_at_the_edge_is_out_of_view():
    shape = (720, 1280, 3)
    region = lambda box, reason="no_corner_visible", card=None: CardRead(card, box, 0.0, reason, None, None)
    assert parts.out_of_view(region([100, 0, 200, 90]), shape)          # cut by the top edge
    assert parts.out_of_view(region([1100, 300, 180, 250]), shape)      # reaches the right edge
    assert not parts.out_of_view(region([400, 200, 200, 280]), shape)   # inside: still "unsure"
    assert not parts.out_of_view(region([100, 0, 200, 90], reason="weak_index"), shape)
    assert not parts.out_of_view(region([100, 0, 200, 90], reason=None, card="40"), shape)
