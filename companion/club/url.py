"""The club's broker address: ``mqtt://[user:pass@]HOST[:PORT]/CLUB[?table=ID&ca=FILE]``.

``mqtts://`` is the same over TLS (port 8883 by default; the system's certificate authorities, or
``ca=FILE`` for a club's own). A table's id is its broker user name (the ACL lets that user write
only under its own topic, :mod:`companion.club.acl`) unless ``table=ID`` names it. Names of clubs
and tables are 1–40 of ``a-z A-Z 0-9 _ -`` (they are topic levels: no ``/``, ``+`` or ``#``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import parse_qs, unquote, urlsplit

from companion.errors import CompanionError
from companion.i18n import M, N_

NAME = re.compile(r"^[A-Za-z0-9_-]{1,40}$")
"""A club's or a table's name: one topic level, readable in a log line."""

PORTS = {"mqtt": 1883, "mqtts": 8883}


class ClubError(CompanionError, ValueError):
    """A club address or name that cannot be used (the message says which part and why, in
    English and Russian: :meth:`CompanionError.words`)."""


@dataclass(frozen=True)
class ClubURL:
    """A parsed club address.

    Attributes:
        scheme: ``mqtt`` or ``mqtts`` (TLS).
        host, port: the broker.
        club: the club's name (the topic prefix ``companion/<club>/``).
        user, password: broker credentials (``None`` when not given).
        table: this table's id (``None`` for the board).
        ca: a certificate authority file for ``mqtts`` (``None``: the system's).
    """

    scheme: str
    host: str
    port: int
    club: str
    user: str | None = None
    password: str | None = None
    table: str | None = None
    ca: Path | None = None

    @property
    def tls(self) -> bool:
        return self.scheme == "mqtts"

    def shown(self) -> str:
        """The address without its password, for the console, logs and status chips."""
        who = f"{self.user}@" if self.user else ""
        return f"{self.scheme}://{who}{self.host}:{self.port}/{self.club}"

    def __repr__(self) -> str:  # never the password
        return f"<ClubURL {self.shown()} table={self.table}>"


#: what :func:`check_name` checks (message ids)
CLUB_NAME, TABLE_ID = N_("the club name"), N_("the table id")


def check_name(value: str, what: str) -> str:
    """``value`` if it is a usable club or table name (``what``: :data:`CLUB_NAME` or
    :data:`TABLE_ID`).

    Raises:
        ClubError: empty, too long, or holding anything but ``a-z A-Z 0-9 _ -``.
    """
    if not isinstance(value, str) or not NAME.match(value):
        raise ClubError(M("%(what)s %(value)r must be 1-40 letters, digits, '_' or '-' (it is an MQTT topic level)",
                          what=M(what), value=value))
    return value


def parse(text: str, *, table_required: bool = True) -> ClubURL:
    """Parse a club address (see module docstring).

    Args:
        text: the address, e.g. ``mqtt://table3:secret@192.168.1.10:1883/vecher``.
        table_required: a table needs an id (its user name or ``?table=``); the board does not.

    Raises:
        ClubError: not ``mqtt://`` or ``mqtts://``, no host, a bad port, no club name, a bad name,
            a missing table id, an unknown query key, or a ``ca`` file that is not there.
    """
    if not isinstance(text, str) or not text.strip():
        raise ClubError(M("the club address is empty; it looks like mqtt://USER:PASSWORD@HOST:1883/CLUB"))
    parts = urlsplit(text.strip())
    if parts.scheme not in PORTS:
        raise ClubError(M("the club address must start with mqtt:// or mqtts:// (TLS), got %(text)r", text=text))
    try:
        port = parts.port or PORTS[parts.scheme]
    except ValueError:
        raise ClubError(M("the club address has a bad port: %(text)r", text=text)) from None
    if not parts.hostname:
        raise ClubError(M("the club address names no broker host: %(text)r", text=text))
    club = parts.path.strip("/")
    if not club:
        raise ClubError(M("the club address names no club: add /CLUB at its end (%(text)r)", text=text))
    check_name(club, CLUB_NAME)
    query = parse_qs(parts.query, keep_blank_values=True)
    unknown = sorted(set(query) - {"table", "ca"})
    if unknown:
        raise ClubError(M("the club address has unknown keys %(keys)s; known: table, ca", keys=", ".join(unknown)))
    user = unquote(parts.username) if parts.username else None
    password = unquote(parts.password) if parts.password is not None else None
    table = query.get("table", [None])[-1] or user
    if table is not None:
        check_name(table, TABLE_ID)
    elif table_required:
        raise ClubError(M("the club address names no table: give the table's broker user "
                          "(mqtt://table3:PASSWORD@HOST/CLUB) or ?table=ID"))
    ca = None
    if query.get("ca", [""])[-1]:
        ca = Path(query["ca"][-1]).expanduser()
        if parts.scheme != "mqtts":
            raise ClubError(M("ca= is for mqtts:// (TLS) addresses"))
        if not ca.is_file():
            raise ClubError(M("the certificate authority file %(ca)s is not there", ca=str(ca)))
    return ClubURL(parts.scheme, parts.hostname, port, club, user, password, table, ca)
