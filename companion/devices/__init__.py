"""Table devices: the button box and the Pi's lights and buzzer.

* :mod:`companion.devices.protocol` — wire protocol v1, pure (typed messages, frame builders);
  the framing itself is ``firmware/wire.py``, shared with the Pico (packaged copy in
  :mod:`companion.devices.firmware`).
* :mod:`companion.devices.buttonbox` — :class:`~companion.devices.buttonbox.ButtonBox`, the host
  driver over pyserial (device path, ``socket://``, ``loop://``).
* :mod:`companion.devices.virtualbox` — :class:`~companion.devices.virtualbox.VirtualButtonBox`,
  the real firmware logic on a pseudo-terminal (``companion buttonbox-sim``).
* :mod:`companion.devices.lights` — :class:`~companion.devices.lights.TableLights` (gpiozero).

Hardware, pin map and flashing: docs/hardware.md. Protocol: docs/protocol.md.
"""
