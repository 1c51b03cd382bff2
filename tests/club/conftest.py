"""Club-mode fixtures: a real Mosquitto on a free loopback port with a generated configuration
(passwords, ACL, persistence), started and stopped per test — never a mock of the broker."""

from __future__ import annotations

import logging

import pytest

from companion.club.broker import LocalBroker, mosquitto_path

TABLES = ["t1", "t2", "t3"]


@pytest.fixture
def broker(fast_dir):
    """A running :class:`LocalBroker` of the club ``vecher`` with the tables t1, t2, t3."""
    if mosquitto_path() is None:
        pytest.skip("mosquitto is not installed (make test installs it: apt-get install mosquitto)")
    b = LocalBroker(fast_dir / "broker", "vecher", TABLES).start()
    yield b
    b.stop()


@pytest.fixture(autouse=True)
def _quiet_werkzeug():
    logging.getLogger("werkzeug").setLevel(logging.ERROR)
