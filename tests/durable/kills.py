"""A "kill" in the durability tests: a table dropped as ``kill -9`` drops it, nothing closed or
flushed. The test then starts the table again on the same folder; the dropped table's referee
thread, which a killed process would have taken with it, is stopped after the test
(:func:`stop_dropped`, the autouse fixture of tests/durable/conftest.py) so it does not outlive it."""

from __future__ import annotations

DROPPED: list = []


def drop(table) -> None:
    """Drop ``table`` as a kill would (its referee and log stay open until the test ends)."""
    if table.referee is not None:
        DROPPED.append(table.referee)


def stop_dropped() -> None:
    """Stop the dropped tables' referee threads and close their logs (the test is over)."""
    while DROPPED:
        referee = DROPPED.pop()
        try:
            referee.close()
        except Exception:  # a log the restarted table already closed: nothing left to stop
            referee.stop()
