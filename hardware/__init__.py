"""Hardware design files (pin map, BOM, wiring drawing, udev rule), shipped in the host package as
``companion.hardware`` so an installed program reads the same ``pinmap.json`` as the firmware."""
