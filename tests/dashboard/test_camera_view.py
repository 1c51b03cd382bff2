"""The camera set-up view (issue #23): the operator gets the latest camera frame, downscaled,
with the cards and notes it sees boxed and measured, and advice (focus, exposure, glare, size);
it works with a simulated camera; and no public or seat route, nor any stream, ever serves it —
a face-down card may be in view."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from companion import camview
from companion.observe import Item
from companion.parts import CameraAdapter
from companion.vision.camera import ImageSource, RenderedSource
from tests.dashboard.helpers import operator_client, seat_client


def _scene(card_side=180, blur=0, bright=0):
    """A green table (1280×720) with two white cards: (card_side × 1.4·card_side) px."""
    img = np.full((720, 1280, 3), (40, 90, 40), np.uint8)
    for x0 in (200, 700):
        cv2.rectangle(img, (x0, 200), (x0 + card_side, 200 + int(card_side * 1.4)), (235, 235, 235), -1)
        cv2.putText(img, "7", (x0 + 10, 240), cv2.FONT_HERSHEY_SIMPLEX, 1.2, (0, 0, 200), 3)
    if blur:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if bright:
        img = cv2.add(img, np.full_like(img, bright))
    return img


@pytest.fixture
def env(counting_env):
    return counting_env


def test_the_simulated_cameras_frame_with_boxes_and_advice(env):
    table, app = env
    frame = _scene()
    sim = CameraAdapter(RenderedSource())
    sim.push(frame)
    assert sim.read() is frame  # as the camera watcher reads it: the view gets the same frame
    camview.offer_items([Item("7H", 0.93, 290.0)])
    op, _ = operator_client(app, table)
    r = op.get("/operator/camera.jpg")
    assert r.status_code == 200 and r.mimetype == "image/jpeg" and "no-store" in r.headers["Cache-Control"]
    img = cv2.imdecode(np.frombuffer(r.data, np.uint8), cv2.IMREAD_COLOR)
    assert img.shape[1] == camview.MAX_WIDTH and img.shape[0] == 360  # downscaled, same aspect
    # the green boxes are drawn round the cards (their edge, at the downscaled size)
    edge = img[100:180, 99:102]  # the first card's left edge, x 200/2
    assert (np.abs(edge.astype(int) - (60, 200, 60)).sum(axis=2) < 90).mean() > 0.5
    facts = op.get("/api/operator/camera").get_json()
    assert facts["frame"] and facts["size"] == [1280, 720]
    assert [o["side"] for o in facts["objects"]] == [pytest.approx(181, abs=3)] * 2
    assert facts["advice"] == ["good"]
    assert facts["reads"] == [{"value": "7H", "confidence": 0.93, "sure": True, "reason": None, "box": None}]
    # the simulated camera is never read by the view (that would take a frame from the game)
    sim.push(_scene(60))
    op.get("/api/operator/camera")
    assert len(sim.source._queue) == 1


@pytest.mark.parametrize("kw, code", [({"blur": 6}, "blurred"), ({"bright": 200}, "bright"), ({"card_side": 50}, "small")])
def test_the_advice_says_what_is_wrong(kw, code):
    facts = camview.advice(_scene(**kw))
    assert code in facts["advice"] and "good" not in facts["advice"], facts


def test_nothing_in_view_and_no_frame(env):
    table, app = env
    facts = camview.advice(np.full((480, 640, 3), 90, np.uint8))
    assert "nothing" in facts["advice"]
    quiet = CameraAdapter(RenderedSource())  # a table whose camera gave nothing yet  # noqa: F841
    op, _ = operator_client(app, table)
    r = op.get("/operator/camera.jpg")
    assert r.status_code == 404 and op.get("/api/operator/camera").get_json() == {"frame": False}


def test_a_live_camera_is_read_for_the_view(env, tmp_path):
    table, app = env
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), _scene())
    camera = CameraAdapter(ImageSource(path))  # nothing read by the game yet: the view reads it itself  # noqa: F841
    op, _ = operator_client(app, table)
    assert op.get("/operator/camera.jpg").status_code == 200


def test_only_the_operator_ever_gets_the_camera_view(env):
    """The leak test: every route a player or a passer-by can open, and every stream, never
    carries the camera frame."""
    table, app = env
    sim = CameraAdapter(RenderedSource())
    sim.push(_scene())
    sim.read()
    anyone = app.test_client()
    phone, _ = seat_client(app, table, 0)
    for client in (anyone, phone):
        for path in ("/operator/camera.jpg", "/api/operator/camera"):
            r = client.get(path)
            assert r.status_code == 403 and not r.data.startswith(b"\xff\xd8"), path
    jpeg = b"\xff\xd8\xff"
    for client, paths in ((anyone, ["/", "/api/state", "/join", "/healthz"]),
                          (phone, ["/seat", "/api/seat/state", "/api/state", "/"])):
        for path in paths:
            r = client.get(path)
            assert jpeg not in r.data and b"camera.jpg" not in r.data, path
    # the pages' streams carry no image, and their snapshots no camera view
    hub = app.extensions["companion"]["hub"]
    for viewer in ("public", 0):
        c = hub.connect(__import__("companion.dashboard.model", fromlist=["PUBLIC"]).PUBLIC if viewer == "public" else 0)
        msg = c.queue.get_nowait()
        assert "camera.jpg" not in msg and "/9j/" not in msg  # no URL, no base64 JPEG
        hub.disconnect(c)
    # the public and seat pages do not link it: only the console's block does
    op, _ = operator_client(app, table)
    assert b"camera-setup" in op.get("/operator").data
    assert b"camera-setup" not in phone.get("/seat").data and b"camera-setup" not in anyone.get("/").data
