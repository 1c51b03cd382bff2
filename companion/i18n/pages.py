"""The pages' words through Flask-Babel, read as :func:`companion.i18n.render` reads them: an
English page gets English quotes (:class:`companion.i18n.render.EnglishQuotes`), as the console's
English lines do — the ids keep the «…» they are written with, which the Russian catalogue uses."""

from __future__ import annotations

from flask_babel import Babel, Domain, get_locale

from companion.i18n.render import EnglishQuotes


class PagesDomain(Domain):
    """Flask-Babel's domain with :class:`EnglishQuotes` for an English request."""

    def get_translations(self):
        t = super().get_translations()
        return EnglishQuotes(t) if str(get_locale() or "") == "en" else t


def english_quotes_on(babel: Babel, domain: str = "messages") -> None:
    """Make ``babel`` (the app's :class:`flask_babel.Babel`) serve its words through
    :class:`PagesDomain`."""
    babel.__dict__["domain_instance"] = PagesDomain(domain=domain)
