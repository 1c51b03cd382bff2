"""The live stream over a real threaded server: snapshot, chained deltas, resets, clean stop."""

from __future__ import annotations

import http.client
import json
import time

import pytest

from companion.dashboard import DashboardServer
from companion.dashboard import model as M
from companion.table import Table


class SSE:
    """A minimal Server-Sent Events reader over http.client (one connection, like one page)."""

    def __init__(self, port: int, path: str, cookie: str | None = None) -> None:
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.conn.request("GET", path, headers={"Cookie": cookie} if cookie else {})
        self.resp = self.conn.getresponse()

    def next(self) -> tuple[str, dict | None]:
        """The next event ``(name, payload)``; comments and retry lines are skipped."""
        event, data = "message", None
        while True:
            line = self.resp.fp.readline()
            if not line:
                return "eof", None
            line = line.decode().rstrip("\n")
            if line == "":
                if data is not None:
                    return event, json.loads(data)
                continue
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: "):
                data = line[6:]

    def close(self) -> None:
        self.conn.close()


@pytest.fixture
def server(fast_dir, counting):
    table = Table(fast_dir, pin="777777")
    srv = DashboardServer(table, port=0).start()
    yield table, srv
    srv.stop()
    table.close()


def test_model_diff_roundtrip():
    old = {"a": 1, "view": {"x": 1, "y": [1, 2], "z": 0}, "gone": True}
    new = {"a": 2, "view": {"x": 1, "y": [1, 3], "w": {"k": 1}}, "h": []}
    sets, dels = M.diff(old, new)
    assert M.apply_diff(old, sets, dels) == new
    assert [["view", "z"]] == [d for d in dels if d[0] == "view"]


def test_snapshot_then_chained_deltas_then_reset(server):
    table, srv = server
    table.new_game("counting", ["Аня", "Борис"], {"limit": 50})
    public = SSE(srv.port, "/stream?view=public")
    assert public.resp.status == 200 and public.resp.getheader("Content-Type").startswith("text/event-stream")
    kind, snap = public.next()
    assert kind == "snapshot" and snap["model"]["version"] == 0 and snap["model"]["game"]["seats"] == ["Аня", "Борис"]
    model = snap["model"]
    for i in range(6):
        assert table.submit(f"{i % 2} add 1", "button").accepted
        kind, d = public.next()
        assert kind == "delta" and d["base"] == model["version"] and d["version"] == model["version"] + 1
        model = M.apply_diff(model, d["set"], d["del"])
        model["version"] = d["version"]
    wait = time.monotonic() + 2
    while srv.hub.model(M.PUBLIC)["version"] < 6 and time.monotonic() < wait:
        time.sleep(0.01)
    assert model == srv.hub.model(M.PUBLIC)  # the client's model equals the server's after deltas
    assert model["view"] == {"total": 6} and len(model["history"]) == 6
    table.set_status("camera", {"state": "ok"})
    kind, st = public.next()
    assert kind == "status" and st["camera"]["state"] == "ok" and st["camera"]["words"]["ru"]
    table.set_pending(1, 4)
    assert public.next() == ("pending", {"1": 4})
    table.new_game("counting", ["X", "Y", "Z"])
    kind, r = public.next()
    assert kind == "reset" and r["epoch"] == table.epoch
    assert public.next()[0] == "eof"  # the old stream ends; the page reconnects
    public.close()
    again = SSE(srv.port, "/stream?view=public")
    kind, snap = again.next()
    assert kind == "snapshot" and snap["model"]["game"]["seats"] == ["X", "Y", "Z"] and snap["model"]["version"] == 0
    again.close()


def test_many_streams_and_clean_stop(server):
    table, srv = server
    table.new_game("counting", ["A", "B"], {"limit": 100})
    streams = [SSE(srv.port, "/stream?view=public") for _ in range(12)]
    for s in streams:
        assert s.next()[0] == "snapshot"
    deadline = time.monotonic() + 2
    while srv.hub.client_count() < 12 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert srv.hub.client_count() == 12
    table.submit("0 add 3", "button")
    got = [s.next() for s in streams]
    assert all(k == "delta" and d["version"] == 1 for k, d in got)
    t0 = time.monotonic()
    srv.stop()  # ends all 12 streams and joins the server thread
    assert time.monotonic() - t0 < 3
    assert all(s.next()[0] == "eof" for s in streams)
    for s in streams:
        s.close()


def test_slow_client_is_cut_off_not_blocking(server, monkeypatch):
    from companion.dashboard import hub as hubmod

    table, srv = server
    monkeypatch.setattr(hubmod, "CLIENT_QUEUE", 8)
    table.new_game("counting", ["A", "B"], {"limit": 10_000})
    client = srv.hub.connect(M.PUBLIC)  # never read: a phone gone to sleep mid-stream
    for i in range(hubmod.CLIENT_QUEUE + 5):
        table.submit(f"{i % 2} add 1", "button")
    deadline = time.monotonic() + 5
    while srv.hub.model(M.PUBLIC)["version"] < hubmod.CLIENT_QUEUE + 5 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert client.closed  # cut off (it will reconnect and resync), the referee never waited for it
    assert list(srv.hub.stream(client)) == ["retry: 1500\n\n"]
    assert srv.hub.client_count() == 0
