"""What the parts of :class:`companion.table.Table` share (for the type checker): the state
:meth:`Table.__init__` sets and the methods one part calls on another.

Each mixin (``store``, ``auth``, ``channels``, ``control``, ``inputs``) derives from :class:`TableParts`, so
mypy reads ``self.data_dir`` or ``self._save_state()`` in any of them as the table's. Nothing here
exists at run time beyond the empty class: the annotations make no attributes, and the method
stubs are only seen by the type checker (:data:`typing.TYPE_CHECKING`).
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

if TYPE_CHECKING:
    from companion.i18n import Message
    from companion.referee import Outcome, Referee
    from companion.sessions import Sessions
    from companion.table.channels import Prompt
    from companion.table.store import Notice


class TableParts:
    """The table's shared state and cross-part methods (see module docstring)."""

    data_dir: Path
    notices: list[Notice]
    referee: Referee | None
    epoch: int
    pin: str
    secret_key: bytes
    sessions: Sessions
    _lock: threading.RLock
    _listeners: list[Callable[[str, Any], None]]
    _seat_codes: dict[int, str]
    _status: dict[str, dict]
    _pending: dict[int, int]
    _control: dict[int, str]
    _results: dict[tuple, dict | None]
    _prompts: list[Prompt]

    if TYPE_CHECKING:  # defined by one part (or Table itself), called by another
        def require_referee(self) -> Referee: ...
        def put(self, event: Any) -> Any: ...
        def _bind(self, referee: Referee) -> None: ...
        def _emit(self, kind: str, payload: Any) -> None: ...
        def _notice(self, message: Message) -> None: ...
        def _save_state(self) -> None: ...
        def _read_state_file(self, name: str) -> bytes | None: ...
        def _issue_seat_codes(self, n: int) -> None: ...
        def _seat_directive(self, text: str, seen: int | None) -> Outcome | None: ...
        def _seat_joined(self, seat: int) -> None: ...
        def _seat_left(self, seat: int | None) -> None: ...
