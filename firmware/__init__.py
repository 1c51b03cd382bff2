"""The button-box firmware (MicroPython on the Pico), shipped in the host package as
``companion.devices.firmware`` (see setup.py): the host driver parses frames with the very same
``wire.py`` and the virtual box runs the very same ``boxfw.py``, so host and firmware cannot
disagree on a byte. ``main.py`` is the Pico's entry point and is not imported on the host.

The Pico gets these files flat, with the pin map beside them (docs/hardware.md)::

    mpremote cp firmware/wire.py firmware/boxfw.py firmware/main.py hardware/pinmap.json :
"""

import json
from importlib import resources


def load_pinmap() -> dict:
    """The one pin map (``hardware/pinmap.json``, shipped as package ``companion.hardware``)."""
    text = resources.files("companion.hardware").joinpath("pinmap.json").read_text(encoding="utf-8")
    return json.loads(text)
