"""Banknote serial-number formats, validation and format-only corrections.

A serial's canonical form for the whole system is upper case with no spaces or punctuation
(RUB ``"Ак 2444841"`` → ``"АК2444841"``; INR ``"5HA 852592"`` → ``"5HA852592"``). The skull game
uses only :func:`last_digit` / :func:`parity` of it (seed ``000_*``: the last digit of the serial
decides rose or skull).

Formats (as printed on the notes and as seen in the real crops under
``shared/data/real/banknotes``):

===== ==================================== ==========================================
code  pattern                               example
===== ==================================== ==========================================
RUB   2 Cyrillic letters + 7 digits          ``АК2444841`` (printed twice on the front)
EUR   1 letter + 11 digits (series 1)        ``M23128416391``
      2 letters + 10 digits (Europa series)  ``ZB5458244919``
USD   1–2 letters + 8 digits + letter or *   ``C53381275C``
INR   digit + (letter|digit) + letter        ``5HA852592``, ``82E827702``
      + 6 digits
KRW   2 letters + 7 digits + letter          ``CD1518438E``
JPY   1–2 letters + 6 digits + letter        ``AW503378D``
===== ==================================== ==========================================

EUR check rule (ECB, both series): the ASCII codes of the letters plus all the digits sum to a
multiple of 9 (equivalent to the published "replace letters by their alphabet position, the
digital root is 8" for series 1).

Corrections are made *only by the format*: a character the OCR read as a letter in a position where
the format allows only a digit is mapped to the digit it is confusable with (``O``→``0``,
``I``→``1`` …) and vice versa. A digit is never guessed, and the number of corrections is reported
so that callers can lower their confidence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from companion.lookalikes import LATIN_AS_CYRILLIC
from companion.sanitise import typed

CURRENCIES: tuple[str, ...] = ("RUB", "EUR", "USD", "INR", "KRW", "JPY")


#: A currency's name or sign as a Russian or English speaker types it (folded: lower case, е for ё).
CURRENCY_WORDS: dict[str, str] = {
    **{w: "RUB" for w in ("руб", "руб.", "рубль", "рубли", "рублей", "рубля", "₽", "rouble", "roubles", "ruble",
                          "rubles", "rur")},
    **{w: "EUR" for w in ("евро", "€", "euro", "euros")},
    **{w: "USD" for w in ("доллар", "доллары", "долларов", "доллара", "$", "dollar", "dollars")},
    **{w: "INR" for w in ("рупия", "рупии", "рупий", "₹", "rupee", "rupees")},
    **{w: "KRW" for w in ("вона", "воны", "вон", "₩", "won")},
    **{w: "JPY" for w in ("иена", "иены", "иен", "йена", "йены", "йен", "¥", "yen")},
}


def currency_code(text: str) -> str:
    """A currency as a person types it, in the reader's spelling: ``"auto"`` in any case becomes
    ``"auto"``, a name or sign of :data:`CURRENCY_WORDS` its code (``"руб"`` → ``"RUB"``), anything
    else is stripped and upper-cased (``" eur"`` → ``"EUR"``). Not checked against
    :data:`CURRENCIES` (the caller says what is wrong in its own terms)."""
    from companion.sanitise import fold_words

    t = str(text).strip()
    folded = fold_words(t)
    if folded == "auto":
        return "auto"
    return CURRENCY_WORDS.get(folded, t.upper())

#: Letter read where a digit must be → that digit (shape confusions of OCR engines).
TO_DIGIT: dict[str, str] = {
    "O": "0", "Q": "0", "D": "0", "U": "0", "О": "0",
    "I": "1", "L": "1", "|": "1", "!": "1", "J": "1",
    "Z": "2", "S": "5", "B": "8", "G": "6", "T": "7", "З": "3", "Б": "6",
}
#: Digit read where a letter must be → that letter.
TO_LETTER: dict[str, str] = {"0": "O", "1": "I", "2": "Z", "5": "S", "8": "B", "6": "G"}

#: Latin glyphs that look like Cyrillic capitals (OCR engines trained on Latin return these).
#: The letters that print alike are :data:`companion.lookalikes.LATIN_AS_CYRILLIC` (the table seat
#: names are compared with); the rest are shapes an OCR engine confuses.
LATIN_TO_CYRILLIC: dict[str, str] = {**LATIN_AS_CYRILLIC, "3": "З", "6": "Б", "N": "И", "R": "Я"}
#: Glyphs a Latin/Chinese-trained engine returns for Cyrillic letters it does not know, used only in
#: RUB letter positions and counted as corrections (``г`` prints like ``r``, ``Г`` like ``「``).
CYRILLIC_CONFUSABLE: dict[str, str] = {"「": "Г", "Г": "Г", "9": "Я", "Λ": "Л", "П": "П", "4": "Ч",
                                       "∏": "П", "Π": "П"}

#: Cyrillic capitals the Bank of Russia uses in serial prefixes (no Ё Й Ъ Ы Ь).
CYRILLIC_SERIAL_LETTERS = set("АБВГДЕЖЗИКЛМНОПРСТУФХЦЧШЩЭЮЯ")

# Token classes: L = Latin capital, D = digit, C = Cyrillic capital, X = letter or digit,
# S = USD suffix (letter or star).
_PATTERNS: dict[str, tuple[str, ...]] = {
    "RUB": ("CC" + "D" * 7,),
    "EUR": ("L" + "D" * 11, "LL" + "D" * 10),
    "USD": ("L" + "D" * 8 + "S", "LL" + "D" * 8 + "S"),
    "INR": ("DXL" + "D" * 6,),
    "KRW": ("LL" + "D" * 7 + "L",),
    "JPY": ("L" + "D" * 6 + "L", "LL" + "D" * 6 + "L"),
}

#: Letters a currency never prints in its serials. Bank of Japan: "I" and "O" are not used
#: (confusable with 1 and 0), 24 letters remain (Bank of Japan note-numbering rule, widely
#: documented, e.g. the m-words.jp entry 紙幣記番号).
EXCLUDED_LETTERS: dict[str, str] = {"JPY": "IO"}

DIGITS = "0123456789"
LATIN = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"

_STRIP = re.compile(r"[\s\-_.,:;'\"`№#]+")


@dataclass(frozen=True)
class SerialMatch:
    """A text that fits a currency's serial format.

    Attributes:
        currency: ``RUB`` … ``JPY``.
        serial: the canonical serial (upper case, no spaces).
        corrections: how many characters were changed by the format (0 = read as printed).
        digit_corrected: the parity digit (last digit) itself was changed by the format.
        digit_corrections: how many of the corrections put a digit where a letter was read.
        trimmed: one stray character at an end of the line was dropped (a border mark read as a
            glyph); counted as one correction.
        checked: a check rule exists for the format and passed (EUR); ``False`` when none exists.
    """

    currency: str
    serial: str
    corrections: int
    digit_corrected: bool
    checked: bool = False
    digit_corrections: int = 0
    trimmed: bool = False


def canonical(text: str) -> str:
    """Upper case, no spaces or separators: ``"Ак 2444841"`` → ``"АК2444841"``; compatibility
    forms folded and invisible format characters dropped (full-width ``"ＡＢ１２３４５６７"`` typed on
    a CJK keyboard is ``"AB1234567"``; a pasted zero-width space is nothing)."""
    if not text.isascii():
        text = typed(text)
    return _STRIP.sub("", text).upper()


def last_digit(serial: str) -> int:
    """The last decimal digit of a serial (USD/KRW/JPY end in a letter: the digit before it).

    Raises:
        ValueError: the serial has no digit.
    """
    for ch in reversed(serial):
        if ch.isdigit() and ch.isascii():
            return int(ch)
    raise ValueError(f"serial {serial!r} has no digit")


def parity(serial: str) -> str:
    """``"even"`` or ``"odd"`` from :func:`last_digit` (seed ``000_*``: even = rose, odd = skull).

    Raises:
        ValueError: the serial has no digit.
    """
    return "even" if last_digit(serial) % 2 == 0 else "odd"


def eur_check(serial: str) -> bool:
    """ECB check rule for both euro series: sum of ASCII codes of letters + digits ≡ 0 (mod 9)."""
    total = 0
    for ch in serial:
        if ch.isdigit():
            total += int(ch)
        elif "A" <= ch <= "Z":
            total += ord(ch)
        else:
            return False
    return total % 9 == 0


def _fit(text: str, pattern: str, currency: str) -> SerialMatch | None:
    if len(text) != len(pattern):
        return None
    out = []
    corrections = 0
    digit_corrections = 0
    last_d = max(i for i, t in enumerate(pattern) if t == "D")
    digit_corrected = False
    for i, (ch, tok) in enumerate(zip(text, pattern)):
        if tok == "D" or (tok == "X" and ch.isdigit()):
            if ch.isdigit() and ch.isascii():
                out.append(ch)
            elif ch in TO_DIGIT:
                out.append(TO_DIGIT[ch])
                corrections += 1
                digit_corrections += 1
                digit_corrected |= i == last_d
            else:
                return None
        elif tok in "LXS":
            if tok == "S" and ch == "*":
                out.append(ch)
            elif "A" <= ch <= "Z":
                out.append(ch)
            elif ch in TO_LETTER:
                out.append(TO_LETTER[ch])
                corrections += 1
            else:
                return None
        elif tok == "C":
            if ch in CYRILLIC_SERIAL_LETTERS:
                out.append(ch)
            elif ch in LATIN_TO_CYRILLIC:
                out.append(LATIN_TO_CYRILLIC[ch])  # same glyph, other alphabet: not a correction
            elif ch in CYRILLIC_CONFUSABLE:
                out.append(CYRILLIC_CONFUSABLE[ch])
                corrections += 1
            else:
                return None
    serial = "".join(out)
    banned = EXCLUDED_LETTERS.get(currency, "")
    if banned and any(serial[i] in banned for i, tok in enumerate(pattern) if tok in "LXS"):
        return None
    checked = False
    if currency == "EUR":
        if not eur_check(serial):
            return None
        checked = True
    if currency == "USD":
        district = serial[1] if pattern.startswith("LL") else serial[0]
        if serial[-1] == "O" or not ("A" <= district <= "L"):
            return None  # no "O" suffix; Federal Reserve district letters are A–L
    return SerialMatch(currency, serial, corrections, digit_corrected, checked, digit_corrections)


def match(text: str, currency: str = "auto", allow_trim: bool = False) -> list[SerialMatch]:
    """All readings of an OCR text that fit ``currency`` (or every currency for ``"auto"``),
    fewest corrections first.

    Args:
        text: raw OCR text of one line (spaces and separators are ignored; case is ignored).
        currency: ``auto`` or one of :data:`CURRENCIES`.
        allow_trim: when nothing fits, also try the text without its first or its last
            character (one correction more): a border mark read as a character. Only a
            character that is not a digit (or a stroke-like ``1``) is dropped, and only when the
            rest fits with no correction. A text with a euro format's shape that fails the euro
            check fits nothing (with ``EUR`` or ``auto``).

    Raises:
        ValueError: unknown currency code.
    """
    if currency == "auto":
        currencies = CURRENCIES
    elif currency in CURRENCIES:
        currencies = (currency,)
    else:
        raise ValueError(f"unknown currency {currency!r}; use auto or one of {', '.join(CURRENCIES)}")
    t = canonical(text)
    # a lower-case "r" in a RUB prefix is the printed lower-case "г"
    t_rub = canonical(text.replace("r", "Г"))
    found: dict[tuple[str, str], SerialMatch] = {}
    for cur in currencies:
        for pattern in _PATTERNS[cur]:
            m = _fit(t_rub if cur == "RUB" else t, pattern, cur)
            if m is not None:
                key = (m.currency, m.serial)
                if key not in found or found[key].corrections > m.corrections:
                    found[key] = m
    if "EUR" in currencies and _fails_check_as_printed(t):
        # the text has the shape of a euro serial as read, and the check rule says it is
        # misread: neither a format correction (a J read for a 1 shifts the sum by 73 ≡ 1 mod 9
        # and can repair a genuinely wrong digit) nor a trim into another currency's shape (a
        # euro serial with its last digit dropped and a 5 read as S fits USD) may make it a
        # serial. No other format has a euro format's shape, so nothing fits.
        return []
    if not found and allow_trim and len(t) > 7:
        # a border mark read as an extra character: never a digit other than a stroke-like 1
        # (dropping a real last digit would change the parity), and the rest must fit as read
        cuts = [cut for cut, gone in ((t[1:], t[0]), (t[:-1], t[-1]))
                if not (gone.isdigit() and gone != "1")]
        for cut in cuts:
            for m in match(cut, currency):
                if m.corrections:
                    continue
                m = SerialMatch(m.currency, m.serial, m.corrections + 1, m.digit_corrected,
                                m.checked, m.digit_corrections, True)
                key = (m.currency, m.serial)
                if key not in found or found[key].corrections > m.corrections:
                    found[key] = m
    return sorted(found.values(), key=lambda m: (m.corrections, CURRENCIES.index(m.currency)))


def position_alphabets(currency: str) -> list[tuple[str, ...]]:
    """The serial formats of a Latin-script ``currency`` as the characters allowed at each
    position (one tuple of strings per format), for format-constrained decoding
    (:mod:`companion.vision.ctc`). The check rules that cannot be put per position (EUR) are
    :func:`last_characters`. RUB (Cyrillic letters) has none: ``[]``.

    Raises:
        ValueError: unknown currency code.
    """
    if currency not in CURRENCIES:
        raise ValueError(f"unknown currency {currency!r}")
    if currency == "RUB":
        return []
    letters = "".join(c for c in LATIN if c not in EXCLUDED_LETTERS.get(currency, ""))
    out = []
    for pattern in _PATTERNS[currency]:
        pos: list[str] = []
        for i, tok in enumerate(pattern):
            if tok == "D":
                pos.append(DIGITS)
            elif tok == "L":
                district = currency == "USD" and i == (1 if pattern.startswith("LL") else 0)
                pos.append("ABCDEFGHIJKL" if district else letters)
            elif tok == "X":
                pos.append(DIGITS + letters)
            elif tok == "S":
                pos.append(letters.replace("O", "") + "*")
        out.append(tuple(pos))
    return out


def last_characters(currency: str, prefix: str) -> str | None:
    """The characters that may end a ``currency`` serial beginning with ``prefix`` (all but its
    last character), when a check rule fixes them: EUR — the digits making the ASCII codes of
    the letters plus the digits ≡ 0 (mod 9). ``None`` when the format alone decides."""
    if currency != "EUR":
        return None
    total = sum(int(c) if c.isdigit() else ord(c) for c in prefix)
    return "".join(d for d in DIGITS if (total + int(d)) % 9 == 0)


def _fails_check_as_printed(t: str) -> bool:
    """``t`` (canonical) has a euro format's shape character by character (letters where the
    format has letters, digits where it has digits) and fails the check rule."""
    for pattern in _PATTERNS["EUR"]:
        if len(t) == len(pattern) and all(
                (ch.isdigit() and ch.isascii()) if tok == "D" else ("A" <= ch <= "Z")
                for ch, tok in zip(t, pattern)):
            return not eur_check(t)
    return False


def validate(serial: str, currency: str) -> bool:
    """True when ``serial`` (any spacing/case) fits ``currency`` exactly, with no correction."""
    return any(m.corrections == 0 for m in match(serial, currency))
