"""One Russian word for each thing in the catalogue: the simulated parts are «имитация» (never
«симуляция»), the table's phone dashboard is «панель» and the club's page for many tables is
«табло клуба» (never the bare «табло» for the table's own dashboard); «пульт» is the operator
console only, the players' buttons are «кнопки» on the «коробка кнопок»; a technical name (pty,
gpiozero) stands only in parentheses, after the plain word."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po

from companion.i18n import render, M
from companion.i18n.render import catalogue_dir


def _entries():
    with open(catalogue_dir() / "ru" / "LC_MESSAGES" / "messages.po", "rb") as fh:
        for m in read_po(fh):
            if not m.id:
                continue
            ids = m.id if isinstance(m.id, tuple) else (m.id,)
            strings = m.string if isinstance(m.string, tuple) else (m.string,)
            yield " ".join(ids), " ".join(strings)


def test_simulated_parts_are_imitatsiya_only():
    said = [(i, s) for i, s in _entries() if re.search(r"[Сс]имуляц", s)]
    assert not said, said


def test_the_tables_dashboard_is_panel_and_the_club_board_is_tablo_kluba():
    for msgid, ru in _entries():
        if re.search(r"\bdashboard", msgid, re.I):
            assert "табло" not in ru.lower(), (msgid, ru)
        if re.search(r"\bboard\b", msgid) and "табло" in ru.lower() and "club" not in msgid.lower():
            assert "табло клуба" in ru.lower(), (msgid, ru)
    assert render(M("Dashboard: %(url)s", url="http://x/"), "ru") == "Панель: http://x/"


def test_technical_names_only_in_parentheses():
    for msgid, ru in _entries():
        for name in ("pty", "gpiozero"):
            for hit in re.finditer(rf"\b{name}\b", ru):
                before = ru[:hit.start()]
                assert before.count("(") > before.count(")"), (msgid, ru)


def test_the_lotterys_play_off_is_one_term():
    """The phase chip said «Переигровка», the history «Розыгрыш оставшихся карт», the option
    «Вариант розыгрыша»: one term, the seed's (004: «Так разыгрываются все карты», «Второй способ»),
    «розыгрыш оставшихся карт», its variant a «способ»; «переигровка» nowhere."""
    assert not [(i, s) for i, s in _entries() if re.search(r"[Пп]ереигр", s)]
    for msgid in ("play-off", "playoff", "playoff stalled", "playoff variant", "Play-off variant",
                  "The play-off is void: the cards went back, it is played again"):
        assert re.search(r"розыгрыша? оставшихся карт", render(M(msgid), "ru").lower()), msgid
    assert render(M("Play-off variant"), "ru").startswith("Способ")
    line = render(M("Play-off of the cards left (%(how)s): %(leader)s leads", how=M("way 1: cover or take"),
                    leader="Аня"), "ru")
    assert line.lower().startswith("розыгрыш оставшихся карт") and "способ" in line, line


def test_pult_is_the_operator_console_and_the_players_have_buttons():
    """«Пульт» meant both the operator console («Пульт оператора», «Взять на пульт») and a
    player's button pad («игроки ходят со своих пультов»). It is the operator console only; a
    seat's pad is its «кнопки» on the «коробка кнопок»."""
    for msgid, ru in _entries():
        if re.search(r"\b(button )?pads?\b", msgid):
            assert "пульт" not in ru.lower().replace("пульта оператора", ""), (msgid, ru)
    assert render(M("This phone or button pad may act only for its own seat."), "ru") == \
        "С этого телефона или с этих кнопок можно ходить только за своё место."
    assert render(M("The operator enters table actions (table …); players act from their button pads or phones."),
                  "ru") == "Оператор вводит действия стола; игроки ходят кнопками своих мест или с телефонов."
    assert render(M("unknown seat %(n)s: seats are numbered 1..%(seats)s, as on the pads and the dashboard", n=9,
                    seats=4), "ru") == "нет места 9: места нумеруются 1..4, как на коробке кнопок и на панели"
    # the operator console keeps its word
    assert render(M("Take onto the console"), "ru") == "Взять на пульт"
    assert render(M("Operator console (logs in by itself): %(url)s", url="u"), "ru").startswith("Пульт оператора")
