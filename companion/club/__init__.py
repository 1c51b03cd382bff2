"""Club mode: many tables on one MQTT broker, one club board, standings across the night.

* :mod:`companion.club.url` — the ``mqtt[s]://[user:pass@]HOST:PORT/CLUB`` address and its checks;
* :mod:`companion.club.topics` — the topic layout and the payload checks both sides share;
* :mod:`companion.club.feed` — a table log turned into the public messages (what the public view
  holds, nothing else);
* :mod:`companion.club.outbox` — the durable cursor: which log records the broker acknowledged;
* :mod:`companion.club.publisher` — the table side (``companion run --club URL``);
* :mod:`companion.club.store`, :mod:`companion.club.board`, :mod:`companion.club.web` — the club
  board (``companion club --broker URL``): receive, store in SQLite, serve;
* :mod:`companion.club.standings` — each finished game's public result and the night's standings;
* :mod:`companion.club.acl`, :mod:`companion.club.broker` — the broker's password and ACL files,
  and a local Mosquitto for a club night, the tests and the bench.

Topics, payloads and the set-up: ``docs/club.md``.
"""
