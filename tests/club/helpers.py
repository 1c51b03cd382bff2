"""Helpers of the club-mode tests: bots playing a table through its real path, a raw MQTT listener,
waiting for a condition."""

from __future__ import annotations

import threading
import time
from pathlib import Path

from companion.club.mqtt import mqtt_client
from companion.club.url import parse


def wait_until(cond, timeout: float = 15.0, step: float = 0.05, what: str = "condition"):
    """Poll ``cond()`` until it is truthy; returns its value. Fails the test with ``what``."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        value = cond()
        if value:
            return value
        time.sleep(step)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


class Bots:
    """The simulated table's bots of ``game_id`` playing ``table``'s current game through
    :meth:`Table.submit` (the referee's queue, the log, the listeners), one action per call."""

    def __init__(self, table, game_id: str, names, seed: int = 1, options: dict | None = None) -> None:
        from companion.games import new_game
        from companion.sim import get_sim_class

        self.table = table
        self.shadow = new_game(game_id, list(names), options)
        self.sim = get_sim_class(game_id)(self.shadow, seed)
        self.done = 0

    @property
    def over(self) -> bool:
        return self.shadow.is_over()

    def step(self) -> str:
        action, source = self.sim.next_action()
        outcome = self.table.submit(action, source)
        assert outcome.accepted, outcome
        self.shadow.apply(action)
        self.sim.applied(action)
        self.done += 1
        return action

    def play(self, n: int | None = None, pause: float = 0.0) -> None:
        while not self.over and (n is None or n > 0):
            self.step()
            n = None if n is None else n - 1
            if pause:
                time.sleep(pause)


class Listener:
    """A raw MQTT subscriber (the board's read-only user) keeping every message it gets."""

    def __init__(self, url: str, topic: str = "companion/#", client_id: str = "test-listener") -> None:
        self.messages: list[tuple[str, bytes, bool]] = []
        self._lock = threading.Lock()
        self.client = mqtt_client(parse(url, table_required=False), client_id)
        self.subscribed = threading.Event()
        self.client.on_message = self._on_message
        self.client.on_connect = lambda c, u, f, rc, p=None: c.subscribe(topic, qos=1)
        self.client.on_subscribe = lambda *a: self.subscribed.set()
        u = parse(url, table_required=False)
        self.client.connect(u.host, u.port)
        self.client.loop_start()
        assert self.subscribed.wait(10), "the listener could not subscribe"

    def _on_message(self, client, userdata, msg) -> None:
        with self._lock:
            self.messages.append((msg.topic, bytes(msg.payload), bool(msg.retain)))

    def of(self, suffix: str) -> list[bytes]:
        with self._lock:
            return [p for t, p, _r in self.messages if t.endswith(suffix)]

    def close(self) -> None:
        self.client.disconnect()
        self.client.loop_stop()


def logs_of(data_dir: Path) -> list[Path]:
    return sorted((Path(data_dir) / "games").glob("*.sqlite"))
