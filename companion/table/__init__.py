"""The table session: one physical table, the game it plays now, and who may act on it.

One concern per module; :class:`Table` (``session``) is put together from them:

* :mod:`companion.table.session` — :class:`Table`: the current referee, the game's lifecycle
  (new, resumed, ended);
* :mod:`companion.table.inputs` — the inputs to the game's queue, consistent views (:class:`NoGame`);
* :mod:`companion.table.store` — the data folder: ``table.json``, the logs' table notes, recovery
  at start (:class:`TableStateError`, :class:`Notice`);
* :mod:`companion.table.auth` — the operator PIN and logins, ``secret.key``, the seat codes;
* :mod:`companion.table.channels` — part status, pending pad counts, console prompts, listeners;
* :mod:`companion.table.control` — who plays each seat on the simulated table (bots or console).

Everything other code uses is importable from here (``from companion.table import Table``).
"""

from companion.table.auth import PIN_FILE, SECRET_FILE
from companion.table.channels import STATUS_PARTS, Listener, Prompt
from companion.table.inputs import NoGame
from companion.table.session import Table, TableUpdate
from companion.table.store import (
           MISSING_LOG,
           PROBLEMS,
           STATE_FILE,
           Notice,
           TableStateError,
)

__all__ = ["MISSING_LOG", "PIN_FILE", "PROBLEMS", "SECRET_FILE", "STATE_FILE", "STATUS_PARTS", "Listener",
           "NoGame", "Notice", "Prompt", "Table", "TableStateError", "TableUpdate"]
