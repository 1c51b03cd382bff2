"""Byte-identical copies of the portable firmware (wire.py, boxfw.py) and hardware/pinmap.json.

Do not edit these copies: edit firmware/ or hardware/ and run ``python firmware/sync.py``.
They are here so an installed wheel has the framing, the firmware logic (for the virtual box)
and the pin map; tests/devices/test_pinmap.py fails when they drift.
"""

import json
from importlib import resources


def load_pinmap() -> dict:
    """The pin map (hardware/pinmap.json) as a dict, read from the packaged copy."""
    return json.loads(resources.files(__name__).joinpath("pinmap.json").read_text(encoding="utf-8"))
