"""What the readers see, drawn on the camera set-up view (#23): each read at the box the reader
gives (the card's region, the serial's line) with its value and confidence, the reads the reader
was not sure of (it abstained) in red «? не уверен», and the frame's focus, brightness and glare
along the top — through the operator's ``/operator/camera.jpg`` and ``/api/operator/camera``,
with the real card and note readers on the simulated camera's frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion import camview, parts
from companion.games import new_game
from companion.observe import Item
from companion.parts import CameraAdapter
from companion.settings import Settings
from companion.vision.camera import RenderedSource
from companion.vision.scene import SceneRenderer
from tests.dashboard.helpers import operator_client
from tests.dashboard.test_camera_view import _scene


@pytest.fixture
def env(counting_env):
    return counting_env


def _shown(frame, items=None):
    """Show ``frame`` on a simulated camera as the game's watcher reads it (and ``items`` as what
    a reader read in it)."""
    sim = CameraAdapter(RenderedSource())
    sim.push(frame)
    sim.read()
    if items is not None:
        camview.offer_items(items)
    return sim


def _jpeg(op) -> np.ndarray:
    r = op.get("/operator/camera.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg"
    return cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)


def _near(pixels: np.ndarray, bgr, tol: int = 90) -> float:
    """Share of ``pixels`` within ``tol`` (sum of channel differences) of ``bgr``."""
    return float((np.abs(pixels.astype(int) - bgr).sum(axis=-1) < tol).mean())


def _ink(pixels: np.ndarray) -> np.ndarray:
    """The bright pixels (a label's letters on its dark backing), as an N×3 BGR array."""
    flat = pixels.reshape(-1, 3).astype(int)
    return flat[flat.max(axis=1) > 150]


def test_the_card_readers_reads_are_drawn_at_their_boxes(env):
    table, app = env
    game = new_game("hoggenheimer", ["Аня", "Борис"])
    frame = SceneRenderer("hoggenheimer", seed=1).render([("card", "7H"), ("card", "QS")])
    _shown(frame)
    read = parts.reader("card", Settings(), game)  # the table's card reader: it tells the view
    items = read(frame)
    assert [it.value for it in items] == ["7H", "QS"] and all(it.box for it in items), items
    op, _ = operator_client(app, table)
    facts = op.get("/api/operator/camera").get_json()
    assert [(r["value"], r["sure"]) for r in facts["reads"]] == [("7H", True), ("QS", True)]
    H, W = frame.shape[:2]
    for r, it in zip(facts["reads"], items):
        x, y, w, h = r["box"]
        assert r["box"] == list(it.box) and 0 <= x < x + w <= W and 0 <= y < y + h <= H
        assert abs((x + w / 2) - it.x) < 1  # the box is where the reader ordered the card
    img = _jpeg(op)
    k = img.shape[1] / W
    for it in items:
        x, y, w, h = (int(round(v * k)) for v in it.box)
        left_edge = img[y + 10:y + h - 10, max(0, x - 1):x + 2]
        assert _near(left_edge, camview.SURE_BGR) > 0.5, it  # its box drawn round it
        below = img[y + h + 2:y + h + 20, x + 3:x + 60]  # its label: «7H 1,00» on a dark backing
        assert _near(below, (20, 20, 20), 40) > 0.3
        ink = _ink(below)
        assert len(ink) > 0.05 * below.shape[0] * below.shape[1] and ink[:, 0].mean() > ink[:, 2].mean() + 60


def test_a_read_the_reader_was_not_sure_of_is_marked(env):
    table, app = env
    frame = _scene()
    unsure = Item(None, 0.41, 290.0, "weak_index", (200, 200, 180, 252))
    _shown(frame, [unsure, Item("7H", 0.93, 790.0, None, (700, 200, 180, 252))])
    assert camview.read_label(unsure) == "? не уверен 0,41"  # the Russian decimal sign
    assert camview.read_label(unsure, "en") == "? not sure 0.41"
    assert camview.read_label(Item("7H", 0.93, 790.0, None, None)) == "7H 0,93"
    assert camview.read_label(Item("7H", 0.93, 790.0, None, None), "en") == "7H 0.93"
    op, _ = operator_client(app, table)
    reads = op.get("/api/operator/camera").get_json()["reads"]
    assert reads[0] == {"value": None, "confidence": 0.41, "sure": False, "reason": "weak_index",
                        "box": [200, 200, 180, 252]}
    assert reads[1]["sure"] and reads[1]["value"] == "7H"
    img = _jpeg(op)  # 1280 → 640: half size
    assert _near(img[110:220, 99:102], camview.UNSURE_BGR) > 0.5  # the unsure one's box: red
    assert _near(img[110:220, 349:352], camview.SURE_BGR) > 0.5  # the sure one's: blue
    assert _near(img[110:220, 349:352], camview.UNSURE_BGR) < 0.1
    ink = _ink(img[228:246, 103:170])  # «? не уверен 0.41» under the red box, in red
    assert len(ink) > 20 and ink[:, 2].mean() > ink[:, 0].mean() + 60


@pytest.mark.parametrize("kw, colour", [({}, camview.GOOD_BGR), ({"blur": 6}, camview.BAD_BGR)])
def test_the_frames_figures_are_written_along_the_top(env, kw, colour):
    table, app = env
    frame = _scene(**kw)
    _shown(frame, [])
    op, _ = operator_client(app, table)
    facts = op.get("/api/operator/camera").get_json()
    img = _jpeg(op)
    strip = img[0:22, 0:360]
    assert _near(strip, (30, 30, 30), 60) > 0.5  # the dark strip
    other = camview.BAD_BGR if colour == camview.GOOD_BGR else camview.GOOD_BGR
    assert _near(strip, colour, 150) > 0.01 and _near(strip, other, 60) < 0.002, facts
    assert ("blurred" in facts["advice"]) == bool(kw)


@pytest.mark.parametrize("lang, said", [("ru", "Резкость 412, яркость 128, блики 1,5 %"),
                                        ("en", "Focus 412, brightness 128, glare 1.5 %")])
def test_the_frames_figures_have_the_languages_decimal_sign(lang, said):
    assert camview.figures_words({"focus": 412.3, "brightness": 127.6, "glare": 0.0153}, lang) == said


def test_the_note_reader_says_where_it_read_the_serial():
    frame = SceneRenderer("skull", seed=3).render([("note", "ЕВ4177763")])
    items = parts.reader("note", Settings(currency="RUB"), None)(frame)
    assert len(items) == 1 and items[0].box is not None, items
    x, y, w, h = items[0].box
    # inside the note (its paper box), and a serial line's size, not the whole note
    paper = camview.paper_boxes(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY))
    assert paper, "no note found by the set-up view"
    (px0, py0), (px1, py1) = paper[0].min(axis=0), paper[0].max(axis=0)
    assert px0 - 5 <= x and x + w <= px1 + 5 and py0 - 5 <= y and y + h <= py1 + 5, (items[0].box, paper[0])
    assert w * h < 0.3 * (px1 - px0) * (py1 - py0)
    assert items[0].x == pytest.approx(x + w / 2, abs=1)
