"""Durable writes of the table's small state files (``table.json``, ``secret.key``, the operator
PIN, ``sim-seeds.json``).

A power cut on an SD card must leave each file either as it was or as it was meant to be, never
empty or half written: :func:`write_file` writes a temporary file beside the target, flushes and
syncs it (``os.fsync``), renames it over the target (``os.replace``, atomic on POSIX) and syncs
the folder so the rename itself is on disk — the usual POSIX sequence for a crash-safe
replacement (without the data sync, delayed allocation can leave a renamed file empty after a
power cut; without the folder sync, the rename itself may be lost). The table logs are SQLite
(``companion.log``: WAL journal, ``synchronous=FULL``) and need none of this.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

TMP_SUFFIX = ".tmp"
"""Suffix of the temporary files :func:`write_file` leaves behind only when killed mid-write
(names start with ``.<target name>.``; :func:`remove_leftovers` deletes them)."""


def fsync_dir(folder: str | os.PathLike) -> None:
    """``fsync`` a folder so that the names created, renamed or deleted in it are on disk.

    A file system that cannot sync a folder (some network or FAT mounts answer ``EINVAL``) is
    left alone: there is nothing more a program can do there.
    """
    try:
        fd = os.open(os.fspath(folder), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def write_file(path: str | os.PathLike, data: bytes | str, mode: int = 0o600) -> None:
    """Replace ``path`` with ``data`` durably: temp file, flush, fsync, rename, fsync the folder.

    Args:
        path: the file to write (its folder must exist).
        data: the whole new content (``str`` is written as UTF-8).
        mode: permission bits of the new file (default ``0o600``: owner only — the state files
            hold the dashboard's signing key, the PIN and the seat tokens).

    Raises:
        OSError: the folder is not writable or the disk is full (``path`` is then unchanged and
            no temporary file is left).
    """
    path = Path(path)
    if isinstance(data, str):
        data = data.encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=TMP_SUFFIX)
    try:
        try:
            os.fchmod(fd, mode)
        except OSError:  # a file system without modes (FAT): the content still counts
            pass
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.fsync(fd)
    except BaseException:
        os.close(fd)
        _unlink(tmp)
        raise
    os.close(fd)
    try:
        os.replace(tmp, path)
    except BaseException:
        _unlink(tmp)
        raise
    fsync_dir(path.parent)


def remove_leftovers(folder: str | os.PathLike, name: str) -> None:
    """Delete the temporary files a killed :func:`write_file` of ``folder/name`` left behind."""
    for leftover in Path(folder).glob(f".{name}.*{TMP_SUFFIX}"):
        _unlink(leftover)


def _unlink(path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass
