"""Fuzz every dashboard endpoint over real HTTP (issue #20): 0 answers 5xx, 0 hangs.

A running dashboard (werkzeug, loopback, a skull game on the table) gets requests built by
Hypothesis: every route of the app (and random paths), every method, with the session of an
anonymous phone, a joined seat or the logged-in operator, a right, wrong or missing CSRF token;
query strings and form fields of random Unicode (control characters, lone surrogates as ``%ED%A0%80``
and as JSON's ``\\ud800``), JSON bodies of random shape with the keys the API reads, nested up to
6 000 levels, strings up to 70 000 characters, random bytes, wrong content types. A request with
no answer in 15 s is a hang. Printed: requests sent, answers by status class, 5xx and hangs
(each with the request that caused it), wall and CPU time.

    python bench/fuzz_http.py [--requests 3000] [--seed 0]
"""

from __future__ import annotations

import argparse
import collections
import http.client
import json
import logging
import random
import re
import socket
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import quote

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

KEYS = ["action", "seen", "text", "count", "seat", "prompt", "kind", "code", "pin", "game", "seats", "k",
        "csrf_token", "next", "view", "opt_skull_currency", "opt_skull_notes_per_player"]
METHODS = ["GET", "POST", "POST", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
TEXT = st.text(alphabet=st.characters(codec=None, exclude_categories=()), max_size=40) | st.sampled_from(
    ["", "0 bid 1", "table undo", "table dealer 0", "1 agree", "\ud800", "\x00", "/%09/evil.example",
     "//evil.example", "../../etc/passwd", "<script>", "9" * 400, "-1", "1e999", "NaN"])
SCALARS = st.none() | st.booleans() | st.integers(min_value=-2**70, max_value=2**70) | \
    st.floats(allow_nan=False, allow_infinity=False) | TEXT
JSONISH = st.recursive(SCALARS, lambda kids: st.lists(kids, max_size=5) | st.dictionaries(
    st.sampled_from(KEYS) | TEXT, kids, max_size=5), max_leaves=20)


def pct(text: str) -> str:
    """Percent-encode a text as UTF-8, lone surrogates as the bytes they would be (invalid UTF-8)."""
    return quote(text.encode("utf-8", "surrogatepass"), safe="")


class Target:
    """The dashboard under test and three browser sessions on it."""

    def __init__(self) -> None:
        from companion.dashboard import DashboardServer
        from companion.table import Table

        logging.getLogger("werkzeug").setLevel(logging.CRITICAL)
        logging.getLogger("companion").setLevel(logging.CRITICAL)
        self.table = Table(tempfile.mkdtemp(prefix="bench-fuzz-"), pin="246810")
        self.table.new_game("skull", ["Аня", "Борис", "Вера"])
        self.server = DashboardServer(self.table, port=0).start()
        self.port = self.server.port
        self.routes = sorted({r.rule for r in self.server.app.url_map.iter_rules()})
        self.sessions = {"anonymous": self._session("/join"), "seat": self._join(), "operator": self._login()}

    def _request(self, method, path, body=None, headers=None, timeout=15.0):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)
        try:
            conn.request(method, path, body=body, headers=headers or {})
            resp = conn.getresponse()
            if path.startswith("/stream") and resp.status == 200:
                resp.read1(256) if hasattr(resp, "read1") else None  # first bytes of the stream; it never ends
                return resp.status, resp.getheaders(), b""
            return resp.status, resp.getheaders(), resp.read()
        finally:
            conn.close()

    def _session(self, page):
        status, headers, body = self._request("GET", page)
        cookie = dict(headers).get("Set-Cookie", "").split(";")[0]
        token = re.search(rb'name="csrf_token" value="([^"]+)"', body).group(1).decode()
        return {"cookie": cookie, "csrf": token}

    def _post_form(self, sess, path, fields):
        body = "&".join(f"{k}={pct(v)}" for k, v in {**fields, "csrf_token": sess["csrf"]}.items())
        status, headers, _ = self._request("POST", path, body, {
            "Cookie": sess["cookie"], "Content-Type": "application/x-www-form-urlencoded"})
        new = dict(headers).get("Set-Cookie")
        if new:
            sess["cookie"] = new.split(";")[0]
        return status

    def _join(self):
        sess = self._session("/join")
        assert self._post_form(sess, "/join", {"code": self.table.seat_codes()[1]}) == 302
        return sess

    def _login(self):
        sess = self._session("/operator")
        assert self._post_form(sess, "/operator/login", {"pin": self.table.pin}) == 302
        return sess

    def close(self) -> None:
        self.server.stop()
        self.table.close()


def build(data, target: Target):
    """One random request: ``(method, path, body, headers)``."""
    method = data.draw(st.sampled_from(METHODS))
    rule = data.draw(st.sampled_from(target.routes + ["/nope", "/api/nope/x", "/" + "a" * 300]))
    path = re.sub(r"<int:[^>]+>", lambda m: str(data.draw(st.integers(-10, 10**12))), rule)
    path = re.sub(r"<[^>]+>", lambda m: pct(data.draw(TEXT)) or "x", path)
    if data.draw(st.booleans()):
        query = data.draw(st.lists(st.tuples(st.sampled_from(KEYS) | TEXT, TEXT), max_size=4))
        path += "?" + "&".join(f"{pct(k)}={pct(v)}" for k, v in query)
        if data.draw(st.integers(0, 9)) == 0:
            path += "&bad=%ZZ%E0%A4"  # broken percent escapes
    who = data.draw(st.sampled_from(list(target.sessions)))
    sess = target.sessions[who]
    headers = {"Cookie": sess["cookie"]}
    csrf = data.draw(st.sampled_from(["right", "right", "wrong", "none"]))
    if csrf != "none":
        wrong = "".join(ch for ch in data.draw(TEXT) if 32 <= ord(ch) < 127)[:50]  # a header holds no CR/LF
        headers["X-CSRF-Token"] = sess["csrf"] if csrf == "right" else wrong
    kind = data.draw(st.sampled_from(["json", "json", "json", "form", "deep", "big", "bytes", "none"]))
    body = None
    if kind == "json":
        headers["Content-Type"] = "application/json"
        body = json.dumps(data.draw(JSONISH), ensure_ascii=data.draw(st.booleans())).encode("utf-8", "surrogatepass")
    elif kind == "form":
        headers["Content-Type"] = data.draw(st.sampled_from(["application/x-www-form-urlencoded",
                                                              "multipart/form-data; boundary=x", "text/plain"]))
        fields = data.draw(st.lists(st.tuples(st.sampled_from(KEYS) | TEXT, TEXT), max_size=5))
        if csrf == "right":
            fields.append(("csrf_token", sess["csrf"]))
        body = "&".join(f"{pct(k)}={pct(v)}" for k, v in fields).encode()
    elif kind == "deep":
        headers["Content-Type"] = "application/json"
        n = data.draw(st.sampled_from([30, 500, 5000, 6000]))
        body = (data.draw(st.sampled_from(["[" * n + "]" * n, '{"a":' * n + "1" + "}" * n]))).encode()
    elif kind == "big":
        headers["Content-Type"] = "application/json"
        n = data.draw(st.sampled_from([5000, 60000, 70000]))
        body = json.dumps({data.draw(st.sampled_from(KEYS)): "я" * n}).encode()
    elif kind == "bytes":
        headers["Content-Type"] = data.draw(st.sampled_from(["application/json", "application/octet-stream"]))
        body = data.draw(st.binary(max_size=3000))
    if body is not None and method in ("GET", "HEAD", "OPTIONS") and data.draw(st.booleans()):
        body = None
    return method, path, body, headers, who


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    target = Target()
    counts: collections.Counter = collections.Counter()
    bad: list[str] = []
    w0, c0 = time.monotonic(), time.process_time()

    @settings(max_examples=args.requests, deadline=None, database=None, derandomize=False,
              phases=[Phase.generate], suppress_health_check=list(HealthCheck))
    @given(st.data())
    def one(data):
        method, path, body, headers, who = build(data, target)
        try:
            status, _h, _b = target._request(method, path, body, headers)
        except (socket.timeout, TimeoutError):
            counts["hang"] += 1
            bad.append(f"HANG {method} {path[:120]} ({who}, {len(body or b'')} bytes)")
            return
        except (ConnectionError, http.client.HTTPException) as exc:
            counts["dropped"] += 1  # werkzeug refusing a malformed request line outright
            if counts["dropped"] <= 3:
                bad.append(f"dropped ({exc.__class__.__name__}) {method} {path[:120]}")
            return
        counts[f"{status // 100}xx"] += 1
        counts[status] += 1
        if status >= 500:
            bad.append(f"{status} {method} {path[:120]} ({who}, body {(body or b'')[:120]!r})")

    random.seed(args.seed)
    try:
        one()
    finally:
        target.close()
    wall, cpu = time.monotonic() - w0, time.process_time() - c0
    sent = sum(v for k, v in counts.items() if isinstance(k, str))
    print(f"HTTP fuzz of every dashboard endpoint ({len(target.routes)} routes): {sent} requests in {wall:.0f} s "
          f"(CPU {cpu:.0f} s, server and client in this process)")
    print("  answers: " + ", ".join(f"{k}: {counts[k]}" for k in ("2xx", "3xx", "4xx", "5xx")) +
          f"; hangs: {counts['hang']}; connections dropped by werkzeug: {counts['dropped']}")
    print("  by status: " + ", ".join(f"{k}: {v}" for k, v in sorted((k, v) for k, v in counts.items()
                                                                      if isinstance(k, int))))
    for line in bad[:20]:
        print("   ", line)
    print(f"  goal: 0 answers 5xx and 0 hangs -> {'met' if not counts['5xx'] and not counts['hang'] else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
