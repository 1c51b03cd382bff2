"""The operator's browser against a running dashboard, over real HTTP (urllib): cookies, the
page's CSRF token, form and JSON posts. For tests that go through the served endpoints rather
than Flask's test client."""

from __future__ import annotations

import http.cookiejar
import json
import re
import urllib.error
import urllib.parse
import urllib.request

CSRF_RE = re.compile(r'name="csrf_token" value="([^"]+)"')


class Operator:
    """One browser: ``Operator(server.url)``; :meth:`login` with the PIN, then pages and posts."""

    def __init__(self, base: str) -> None:
        self.base = base if base.endswith("/") else base + "/"
        self.http = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def _open(self, req) -> tuple[int, str]:
        try:
            with self.http.open(req, timeout=60) as r:
                return r.status, r.read().decode("utf-8")
        except urllib.error.HTTPError as e:
            return e.code, e.read().decode("utf-8")

    def page(self, path: str) -> str:
        status, text = self._open(self.base + path)
        return text

    def token(self) -> str:
        """The session's CSRF token, from the console (or the login form before a login)."""
        return CSRF_RE.search(self.page("operator")).group(1)

    def post(self, path: str, form: dict) -> tuple[int, str]:
        """A form post, as the page's form sends it (redirects followed)."""
        data = urllib.parse.urlencode({**form, "csrf_token": self.token()}).encode()
        return self._open(urllib.request.Request(self.base + path, data=data))

    def login(self, pin: str) -> tuple[int, str]:
        return self.post("operator/login", {"pin": pin})

    def get_json(self, path: str) -> tuple[int, dict]:
        status, text = self._open(self.base + path)
        return status, json.loads(text)

    def post_json(self, path: str, body) -> tuple[int, dict]:
        """A JSON post with the CSRF header, as the page's scripts send it."""
        req = urllib.request.Request(self.base + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": self.token()})
        status, text = self._open(req)
        return status, json.loads(text)
