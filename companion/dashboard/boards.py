"""The games' board scripts: ``GET /games/<game id>/<name>.js``, the ES modules a game's package
ships (:attr:`~companion.games.spec.GameSpec.board_script` and the ``.js`` files beside it),
looked up in the registry, so a game registered from anywhere draws its own board.

``web/static/js/board.js`` imports ``/games/<id>/board.js``; a game without a board script (or
an unknown id, or a name that is not a plain ``.js`` file beside it) is a 404 and the page draws
the generic board. The dashboard and the club board (whose tiles are a table's public page) both
serve it.
"""

from __future__ import annotations

import re

from flask import Blueprint, abort, send_from_directory

from companion.games import registry

bp = Blueprint("games", __name__)

#: a module's file name: no folder, no dot but the extension's
SCRIPT_NAME = re.compile(r"[a-z][a-z0-9_]*\.js")


@bp.route("/games/<game_id>/<name>")
def script(game_id: str, name: str):
    """A game's board module ``name`` (``board.js``, or a module beside it), as JavaScript.

    Raises:
        NotFound: no such game, the game has no board script, or no such module beside it.
    """
    spec = registry.find(game_id)
    if spec is None or spec.board_script is None or not SCRIPT_NAME.fullmatch(name):
        abort(404, description=f"no board script {name!r} for game {game_id!r}")
    board = spec.board_script
    return send_from_directory(board.parent, board.name if name == "board.js" else name,
                               mimetype="text/javascript")
