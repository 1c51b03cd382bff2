"""The seams between the table service and the parts other modules provide.

``companion run`` assembles parts that live in their own packages — the Table session and the
Flask dashboard (``companion.table``, ``companion.dashboard``), the button-box driver, virtual box
and lights (``companion.devices``), camera sources and readers (``companion.vision``). Each function
here imports one part and adapts it to the small interface the service uses, so a part that is not
installed, or whose interface changed, fails *here*, loudly, with :class:`MissingPart` naming the
part and what was expected — never a silent fallback to something else.
"""

from __future__ import annotations

import importlib
import inspect
from typing import Any

from companion.errors import CompanionError


class MissingPart(CompanionError, RuntimeError):
    """A part of the table is not installed or does not offer what the service needs.

    Attributes:
        part: which part (``"button box driver"``, ``"note reader"``…).
        need: the module/attribute that was looked for.
    """

    def __init__(self, part: str, need: str, detail: str = "") -> None:
        self.part = part
        self.need = need
        msg = f"{part} is not available: need {need}"
        if detail:
            msg += f" ({detail})"
        super().__init__(msg)


def need(module: str, *names: str, part: str) -> Any:
    """Import ``module`` and return the first of ``names`` it defines (the module itself when no
    names are given).

    Raises:
        MissingPart: the module does not import or defines none of ``names``.
    """
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise MissingPart(part, module, f"import failed: {exc}") from None
    if not names:
        return mod
    for name in names:
        if hasattr(mod, name):
            return getattr(mod, name)
    raise MissingPart(part, f"{module}.{' or '.join(names)}", "not defined")


def call_with(fn, /, **kwargs):
    """Call ``fn`` with those of ``kwargs`` its signature accepts (adapters between parts written in
    parallel; a required parameter we cannot supply raises ``TypeError`` as usual)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return fn(**kwargs)
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values()):
        return fn(**kwargs)
    return fn(**{k: v for k, v in kwargs.items() if k in params})
