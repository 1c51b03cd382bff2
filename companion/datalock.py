"""One table per data folder: the lock that keeps a second ``companion run`` or ``companion
dashboard`` out of a folder another process is refereeing from.

Two processes appending to one table log interleave their games and leave lines the engine
rejects, so the folder is locked with ``flock`` on ``<data folder>/table.lock`` for as long as the
command runs. The lock belongs to the open file: the kernel drops it when the process ends, even
by ``kill -9``, so a crash never leaves a folder locked. The file keeps the holder's pid for the
refusal's words.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import Iterator

from companion.errors import CompanionError
from companion.i18n import M

LOCK_FILE = "table.lock"


class DataFolderBusy(CompanionError):
    """Another process holds the data folder (``folder``; ``pid`` when it could be read)."""

    def __init__(self, folder: Path, pid: int | None) -> None:
        who = M(" (process %(pid)s)", pid=pid) if pid else ""
        super().__init__(M("the data folder %(folder)s is in use by another table%(who)s: stop it first, or give "
                           "this one a folder of its own (COMPANION_DATA=… or --data-dir)", folder=str(folder), who=who))
        self.folder = folder
        self.pid = pid


def _holder(path: Path) -> int | None:
    try:
        text = path.read_text(encoding="ascii").strip()
    except (OSError, UnicodeDecodeError):
        return None
    return int(text) if text.isdigit() else None


@contextlib.contextmanager
def hold(folder: str | os.PathLike) -> Iterator[Path]:
    """Hold ``folder`` (created when missing) for this process until the block ends.

    Raises:
        DataFolderBusy: another process holds it.
        OSError: the folder or its lock file cannot be created.
    """
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / LOCK_FILE
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise DataFolderBusy(folder, _holder(path)) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n".encode("ascii"))
        yield folder
    finally:
        os.close(fd)  # drops the lock
