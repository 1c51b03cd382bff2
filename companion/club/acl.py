"""``companion club acl``: the broker's password file and ACL for one club.

Each table gets its own broker user (its table id) and password; the ACL lets a table **write only
under its own topic** ``companion/<club>/tables/<table>/#`` and the board user **only read** the
tables' topics ``companion/<club>/tables/#``. The board's one way to speak is to ask, under
``companion/<club>/board/`` (its hello, and a request to one table to send a game again:
:mod:`companion.club.topics`); a table reads the hello and its own requests only. Mosquitto denies whatever the ACL file does not allow, so a table
publishing another table's topic is refused by the broker (MQTT 5: PUBACK «Not authorized»).

The folder written (``--dir``)::

    passwords          mosquitto password_file (PBKDF2-SHA512, mosquitto's own «$7$» format)
    acl                mosquitto acl_file
    mosquitto.conf     a listener with both files (include it, or copy it into /etc/mosquitto/conf.d/)
    credentials.json   every user's password (mode 0600): run again to add tables, the old ones stay

Docs: ``docs/club.md`` "Security".
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
from dataclasses import dataclass, field
from pathlib import Path

from companion.club.url import CLUB_NAME, TABLE_ID, ClubError, check_name
from companion.durable import write_file
from companion.i18n import M

ITERATIONS = 10_000
"""PBKDF2 rounds of each password hash (mosquitto_passwd uses 101; a broker checks a hash once per
connection, so more rounds cost nothing that matters)."""

BOARD_USER = "board"


def hash_password(password: str, *, iterations: int = ITERATIONS, salt: bytes | None = None) -> str:
    """Mosquitto 2's password hash: ``$7$<rounds>$<base64 salt>$<base64 PBKDF2-HMAC-SHA512>``."""
    salt = salt if salt is not None else secrets.token_bytes(12)
    digest = hashlib.pbkdf2_hmac("sha512", password.encode("utf-8"), salt, iterations, 64)
    return f"$7${iterations}${base64.b64encode(salt).decode()}${base64.b64encode(digest).decode()}"


def acl_text(club: str, tables: list[str], board: str = BOARD_USER) -> str:
    """The ACL file: the board reads the club, each table writes its own topic only."""
    lines = [f"# companion club acl: club {club} (docs/club.md). Anything not allowed here is denied.", "",
             f"user {board}", f"topic read companion/{club}/tables/#", f"topic write companion/{club}/board/#", ""]
    for t in tables:
        lines += [f"user {t}", f"topic write companion/{club}/tables/{t}/#",
                  f"topic read companion/{club}/board/hello", f"topic read companion/{club}/board/resync/{t}", ""]
    return "\n".join(lines)


def conf_text(folder: Path, port: int = 1883, bind: str = "", persistence: Path | None = None,
              tls: tuple[Path, Path] | None = None, run_as: str | None = None) -> str:
    """A mosquitto configuration for the club: one listener with password and ACL, persistence
    (retained messages, the board's queued messages) saved every 10 s and at a clean stop — the
    tables send their night again at every connection, so a broker's crash costs no result.
    ``run_as``: the user mosquitto keeps (started as root it otherwise becomes ``mosquitto``)."""
    lines = ["# companion club: mosquitto configuration (docs/club.md)", "per_listener_settings false",
             *([f"user {run_as}"] if run_as else []),
             f"listener {port}{' ' + bind if bind else ''}", "allow_anonymous false",
             f"password_file {folder / 'passwords'}", f"acl_file {folder / 'acl'}",
             "max_queued_messages 100000", "persistent_client_expiration 1d"]
    if tls is not None:
        lines += [f"certfile {tls[0]}", f"keyfile {tls[1]}"]
    if persistence is not None:
        lines += ["persistence true", f"persistence_location {persistence}/", "autosave_interval 10"]
    return "\n".join(lines) + "\n"


@dataclass
class Credentials:
    """A club's broker users: the board's and one per table (``{table id: password}``)."""

    club: str
    board_password: str
    tables: dict[str, str] = field(default_factory=dict)
    board: str = BOARD_USER

    def url(self, table: str | None, host: str = "HOST", port: int = 1883, scheme: str = "mqtt") -> str:
        """The address a table (or, with ``None``, the board) is started with."""
        user, pw = (self.board, self.board_password) if table is None else (table, self.tables[table])
        return f"{scheme}://{user}:{pw}@{host}:{port}/{self.club}"


def load(folder: str | Path) -> Credentials | None:
    """The credentials kept in ``folder`` (``None`` when there are none yet).

    Raises:
        ClubError: ``credentials.json`` is there but not readable as one.
    """
    path = Path(folder) / "credentials.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return Credentials(str(data["club"]), str(data["board_password"]),
                           {str(k): str(v) for k, v in dict(data["tables"]).items()}, str(data.get("board", BOARD_USER)))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ClubError(M("%(path)s is not a club's credentials file (%(error)s)", path=str(path), error=str(exc))) from None


def generate(folder: str | Path, club: str, tables: list[str], *, port: int = 1883,
             persistence: Path | None = None) -> Credentials:
    """Write (or extend) the club's files in ``folder`` (see module docstring).

    Tables already in ``credentials.json`` keep their passwords; new ones get random ones.

    Raises:
        ClubError: a bad club or table name, a table called like the board user, or a folder
            holding another club's credentials.
    """
    check_name(club, CLUB_NAME)
    for t in tables:
        check_name(t, TABLE_ID)
        if t == BOARD_USER:
            raise ClubError(M("a table cannot be called %(user)r: that is the board's user", user=BOARD_USER))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    creds = load(folder)
    if creds is not None and creds.club != club:
        raise ClubError(M("%(folder)s holds the club %(have)r, not %(club)r: use another folder", folder=str(folder),
                          have=creds.club, club=club))
    if creds is None:
        creds = Credentials(club, secrets.token_urlsafe(18))
    for t in tables:
        creds.tables.setdefault(t, secrets.token_urlsafe(18))
    users = {creds.board: creds.board_password, **creds.tables}
    write_file(folder / "credentials.json", json.dumps(
        {"club": club, "board": creds.board, "board_password": creds.board_password, "tables": creds.tables},
        ensure_ascii=False, indent=1))
    # the broker (user mosquitto) reads these two: group-readable, never world-readable
    write_file(folder / "passwords", "".join(f"{u}:{hash_password(p)}\n" for u, p in users.items()), mode=0o640)
    write_file(folder / "acl", acl_text(club, sorted(creds.tables), creds.board), mode=0o640)
    write_file(folder / "mosquitto.conf", conf_text(folder.resolve(), port, persistence=persistence), mode=0o644)
    return creds
