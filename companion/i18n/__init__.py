"""The one way words reach a person: code returns :class:`Message` values (an English message id
and its facts); :func:`render` turns one into Russian or English at the edge, through the Babel
catalogue in ``web/translations`` (``docs/architecture.md``, "Words and languages")."""

from companion.i18n.messages import KEYWORDS, M, MN, MP, MPN, DecimalNumber, Message, N_, NC_, decimal
from companion.i18n.render import DEFAULT, LANGUAGES, aside, both, catalogue_dir, fact, render, translations

__all__ = ["Message", "DecimalNumber", "decimal", "M", "MP", "MN", "MPN", "N_", "NC_", "KEYWORDS", "render", "both", "aside", "fact",
           "translations", "catalogue_dir", "LANGUAGES", "DEFAULT"]
