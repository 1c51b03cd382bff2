"""The one catalogue (web/translations) against the code: every message id the code can say has
its Russian, no entry is stale or fuzzy, placeholders agree, and the shipped .mo is the .po's."""

from __future__ import annotations

from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[2]
PO = ROOT / "web/translations/ru/LC_MESSAGES/messages.po"
MO = ROOT / "web/translations/ru/LC_MESSAGES/messages.mo"
# the Makefile's `catalogue` keywords (Babel's defaults, `_`, `gettext`, `ngettext`…, stay on)
KEYWORDS = {"M": None, "MP": ((1, "c"), 2), "MN": (1, 2), "MPN": ((1, "c"), 2, 3), "N_": None,
            "NC_": ((1, "c"), 2), "_l": None}


def _key(msgid, context):
    return (context, msgid[0] if isinstance(msgid, (tuple, list)) else msgid)


def _extracted() -> dict:
    from babel.messages.extract import DEFAULT_KEYWORDS

    with open(ROOT / "web/babel.cfg", encoding="utf-8") as f:
        method_map, options_map = parse_mapping_cfg(f)
    out = {}
    for filename, lineno, msgid, _comments, context in extract_from_dir(
            str(ROOT), method_map, options_map, keywords={**DEFAULT_KEYWORDS, **KEYWORDS}):
        out.setdefault(_key(msgid, context), f"{filename}:{lineno}")
    return out


EXTRACTED = _extracted()
CATALOGUE = read_po(PO.open("rb"))


def _translated(message) -> bool:
    s = message.string
    return bool(s) if isinstance(s, str) else bool(s) and all(s)


def test_extraction_finds_the_presenters_words():
    # a check that can fail: the converted presenters' ids are found by the extraction
    assert (None, "%(name)s leads") in EXTRACTED
    assert ("one card", "Check: turned up %(kinds)s — %(told)s; %(end)s") in EXTRACTED
    assert (None, "%(n)s chip") in EXTRACTED


@pytest.mark.parametrize("key", sorted(EXTRACTED, key=lambda k: (k[0] or "", k[1])),
                         ids=lambda k: f"{k[0]}|{k[1][:60]}")
def test_every_id_in_the_code_has_its_russian(key):
    context, msgid = key
    message = CATALOGUE.get(msgid, context=context)
    assert message is not None, f"{EXTRACTED[key]}: {msgid!r} is not in the catalogue: make catalogue"
    assert _translated(message), f"{EXTRACTED[key]}: {msgid!r} has no Russian in {PO.name}"
    assert not message.fuzzy, f"{msgid!r} is fuzzy: check it and remove the flag"


def test_no_stale_or_fuzzy_entry():
    stale = [_key(m.id, m.context) for m in CATALOGUE if m.id and _key(m.id, m.context) not in EXTRACTED]
    assert not stale, f"catalogue entries no code uses (make catalogue drops them): {stale}"
    assert not [m.id for m in CATALOGUE if m.id and m.fuzzy]
    assert not CATALOGUE.obsolete


def test_placeholders_agree():
    problems = [(m.id, [str(e) for e in errors]) for m, errors in CATALOGUE.check() if errors]
    assert not problems


def test_compiled_catalogue_is_the_po():
    mo = read_mo(MO.open("rb"))
    def forms(s):
        return tuple(s) if isinstance(s, (list, tuple)) else s

    want = {_key(m.id, m.context): forms(m.string) for m in CATALOGUE if m.id}
    got = {_key(m.id, m.context): forms(m.string) for m in mo if m.id}
    assert got == want, "messages.mo is older than messages.po: pybabel compile -d web/translations"
