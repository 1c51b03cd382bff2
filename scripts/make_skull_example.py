"""Write a complete 3-player skull game from the simulated table as a JSON Lines table log.

Usage: python scripts/make_skull_example.py [SEED] [OUT]. Timestamps are synthetic (one action per
5 seconds from a fixed start). The shipped ``companion/examples/skull-game.jsonl`` is a golden game
written by this script with an earlier version of the bots (seed 23); the bots' choices have changed
since, so re-running gives another game. Replacing the golden file means updating
``tests/games/skull/test_crash_and_replay.py`` and the walk-through in ``docs/table-log.md``.
"""
from __future__ import annotations

import datetime as dt
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.log import LogHeader, LogRecord, write_jsonl  # noqa: E402
from companion.games.simulator import play_random_game  # noqa: E402

SEATS = ["Аня", "Борис", "Вера"]
START = dt.datetime(2026, 11, 28, 20, 0, tzinfo=dt.timezone.utc)


def main() -> int:
    seed = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    game, actions = play_random_game("skull", SEATS, None, seed)
    header = LogHeader("skull", tuple(SEATS), {}, START.isoformat(timespec="milliseconds"))
    recs = [LogRecord(i + 1, text, src, (START + dt.timedelta(seconds=5 * (i + 1))).isoformat(timespec="milliseconds"))
            for i, (text, src) in enumerate(actions)]
    out = Path(sys.argv[2]) if len(sys.argv) > 2 else Path("skull-game.jsonl")
    write_jsonl(out, header, recs)
    print(f"{out}: {len(recs)} actions, winner {game.result()['winner_name']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
