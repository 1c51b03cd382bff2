"""Table Companion: a Raspberry Pi card-table referee.

Subpackages: ``games`` (rule engines), ``vision`` (camera sources, note and card readers),
``devices`` (button box, lights), ``dashboard`` (Flask app). See docs/architecture.md.
"""

__version__ = "0.1.0"
