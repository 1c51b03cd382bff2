"""PP-OCR's verdict on candidate serial lines (the reader before the project's recogniser, kept
as its second engine and for the benchmark's comparison): orientation, readings matched to the
formats, and the decision over copies and engines — with the RUB letters settled by three
sources (RapidOCR's Latin look-alikes, Tesseract ``rus``, the glyph matcher)."""

from __future__ import annotations

from collections import Counter, defaultdict

import cv2
import numpy as np

from companion.vision import note_lines as NL
from companion.vision import note_read as R
from companion.vision import serials as S
from companion.vision.note_read import CONFLICTS, UNREAD_LETTERS, Evidence, NoteRead
from companion.vision.ocr import LineRead


#: Words printed on the notes of the supported currencies (the legends around the portrait and
#: the denomination, from the notes themselves). A line whose upright reading is confident
#: (:data:`LEGEND_MIN_SCORE`) and holds one of them is a legend read the right way up: it is not
#: read again turned round (an upside-down serial never reads as one of these words).
LEGEND_WORDS = (
    # USD
    "FEDERAL", "RESERVE", "DOLLAR", "WASHINGTON", "AMERICA", "UNITED", "STATES", "TREASURY",
    "TENDER", "LEGAL", "PUBLIC", "PRIVATE", "DEBTS", "TRUST", "SECRETARY",
    # EUR, INR, KRW, JPY
    "EURO", "INDIA", "RUPEES", "GUARANTEED", "GOVERNMENT", "PROMISE", "GOVERNOR", "BEARER",
    "CENTRAL", "KOREA", "NIPPON", "GINKO", "BANK",
    # RUB
    "БИЛЕТ", "БАНКА", "РОССИИ", "РУБЛЕЙ", "ПОДДЕЛКА", "ПРЕСЛЕДУЕТСЯ", "ЗАКОНУ",
)
#: The least recogniser score of a legend line (0..1) for it to be taken as read the right way up.
LEGEND_MIN_SCORE = 0.9


def is_legend(read: LineRead) -> bool:
    """Whether a recognised line is one of the notes' printed legends read the right way up
    (:data:`LEGEND_WORDS`, score at least :data:`LEGEND_MIN_SCORE`): such a line needs no
    reading turned round (the reader's orientation check, :meth:`NoteReader._read_lines`)."""
    if read.score < LEGEND_MIN_SCORE:
        return False
    letters = "".join(ch for ch in read.text.upper() if ch.isalpha())
    return any(w in letters for w in LEGEND_WORDS)


#: Cyrillic capitals whose Latin twin has the same shape (A B E K M H O P C T X): a RapidOCR
#: reading of one of these is a real opinion on the letter, one that may veto the other
#: sources' choice (Г and Т look alike to Tesseract and the glyph matcher both). Its other
#: letters (N→И, 3→З, R→Я, 4→Ч …) stand for several Cyrillic letters and never veto.
_LATIN_TWINS = frozenset("АВЕКМНОРСТХ")
#: ... and only such a reading *backs* a letter too: its ``N`` read for a printed П was counted
#: for И and, with one more source, confirmed a wrong letter (``docs/vision-notes.md``).
RAPID_BACKS_ONLY_TWINS = True


def rub_digits_only(text: str, allow_bare: bool) -> S.SerialMatch | None:
    """A RUB reading whose seven digits fit but whose letter part is unreadable to a Latin
    engine (``"43 8093208"`` for ``ЧЭ 8093208``): up to three stray glyphs, then seven digits.
    The letters become :data:`UNREAD_LETTERS` (two corrections); ``allow_bare`` also accepts the
    seven digits alone (currency RUB given)."""
    t = S.canonical(text)
    if not 7 <= len(t) <= 10:
        return None
    head, tail = t[:-7], t[-7:]
    if not head and not allow_bare:
        return None
    if any(ch.isdigit() for ch in head[-1:]) and len(head) >= 3:
        return None  # a longer number, not letters then digits
    m = S.match("АА" + tail, "RUB")
    if not m:
        return None
    m = m[0]
    return S.SerialMatch("RUB", UNREAD_LETTERS + m.serial[2:], m.corrections + 2,
                         m.digit_corrected, False, m.digit_corrections, False)


class PpocrDecision:
    """:class:`companion.vision.notes.NoteReader`'s verdict with PP-OCR (a mixin: it uses the
    reader's engines, currency, thresholds and Tesseract budget)."""

    def _read_lines_ppocr(self, cands: list["NL.Line"]) -> NoteRead:
        """The verdict from candidate lines with PP-OCR's recogniser (the earlier reader)."""
        lines = [c.image for c in cands]
        # the angle classifier turns upside-down lines round (≈ 5 ms a line) ...
        turned = [flip for flip, _ in self.engine.upside_down(lines)]
        up = [cv2.rotate(l, cv2.ROTATE_180) if flip else l for l, flip in zip(lines, turned)]
        ids = list(range(len(up)))
        reads = self.engine.read_lines(up)
        ev = self._evidence(reads, "rapidocr", ids)
        # a printed legend read confidently the right way up is not read turned round
        done: set[int] = {i for i in ids if is_legend(reads[i])}
        if ev:
            # ... but the classifier is sometimes sure and wrong (short digit strings): a line it
            # turned the wrong way reads as gibberish and would hide a disagreeing copy or a
            # second note. Before anything is decided, the lines that fit no format are read
            # the other way up too (measured: two-note hard negatives decided otherwise).
            matched = {e.line for e in ev}
            rest = [i for i in ids if i not in matched and i not in done]
            if rest:
                imgs = [cv2.rotate(up[i], cv2.ROTATE_180) for i in rest]
                ev += self._evidence(self.engine.read_lines(imgs), "rapidocr", rest,
                                     offset=len(up))
                up = up + imgs
                done |= set(rest)
            res = self._decide(self._one_way_up(ev), up, same_line=False, final=False)
            if res.decided or (res.reason in CONFLICTS and not rest):
                self._remember(cands, res)
                return res
        # ... and only when that decided nothing (or found a conflict that may rest on a line
        # read the wrong way up) is every other line read the other way up too (the classifier
        # errs on short digit strings; a misread orientation must not cost a note)
        again = [i for i in ids if i not in done]
        base = len(up)
        flipped = [cv2.rotate(up[i], cv2.ROTATE_180) for i in again]
        ev += self._evidence(self.engine.read_lines(flipped), "rapidocr", again, offset=base)
        res = self._decide(self._one_way_up(ev), up + flipped, same_line=False)
        self._remember(cands, res)
        return res

    @staticmethod
    def _one_way_up(ev: list[Evidence]) -> list[Evidence]:
        """Keep, for each physical line, only the readings of its better orientation (fewest
        corrections, then highest score): gibberish read upside down must not compete."""
        best: dict[int, tuple] = {}
        for e in ev:
            key = (e.match.corrections, -e.score)
            if e.line not in best or key < best[e.line][0]:
                best[e.line] = (key, e.image)
        return [e for e in ev if best[e.line][1] == e.image]

    # decision --------------------------------------------------------------------------
    def _evidence(self, reads: list[LineRead], engine: str, line_ids: list[int],
                  offset: int = 0) -> list[Evidence]:
        out = []
        for k, (r, i) in enumerate(zip(reads, line_ids)):
            for m in self._matches(r.text, rub_digits=engine == "rapidocr"):
                out.append(Evidence(r.text, r.score, engine, m, i, k + offset))
        return out

    def _matches(self, text: str, rub_digits: bool = False) -> list[S.SerialMatch]:
        ms = S.match(text, self.currency, allow_trim=True)
        if not ms and rub_digits and self.currency in ("RUB", "auto"):
            m = rub_digits_only(text, allow_bare=self.currency == "RUB")
            ms = [m] if m else []
        if not ms:
            return []
        best = ms[0].corrections
        return [m for m in ms if m.corrections == best]

    def _decide(self, ev: list[Evidence], lines: list[np.ndarray], same_line: bool,
                final: bool = True) -> NoteRead:
        """The verdict from the matching readings ``ev`` of the images ``lines``.

        With ``final=False`` (a cheap first round) no Tesseract process is started for the
        digits: a decision then rests on RapidOCR alone, and anything short of it comes back
        as ``low_confidence`` for the caller to try harder. At most one Tesseract process runs
        per call (the digits' second opinion and the RUB letters share it).
        """
        if not ev:
            return NoteRead(None, None, 0.0, "no_serial")
        by_serial: dict[tuple[str, str], list[Evidence]] = defaultdict(list)
        for e in ev:
            by_serial[R.group_key(e.match)].append(e)

        def support(items: list[Evidence]) -> float:
            return sum(e.score for e in items)

        ranked = sorted(by_serial.items(), key=lambda kv: -support(kv[1]))
        (cur, serial), items = ranked[0]
        key = (cur, serial)
        rapid_letters: Counter = Counter()
        if cur == "RUB":
            # RUB copies are grouped by their digits; the letters are settled below
            for e in items:
                if e.match.serial[:2] != UNREAD_LETTERS:
                    rapid_letters[e.match.serial[:2]] += e.score
            best_letters = rapid_letters.most_common(1)[0][0] if rapid_letters else UNREAD_LETTERS
            serial = best_letters + serial
        candidate = serial
        others = ranked[1:]
        # the same text fitting several currencies: fine if the digits agree, else ambiguous
        same_text_other = [k for k, v in others
                           if {e.image for e in v} & {e.image for e in items}]
        if any(S.last_digit(k[1]) != S.last_digit(serial) for k in same_text_other):
            return NoteRead(None, None, 0.0, "ambiguous_currency", candidate, ev)
        lines_other = {k: v for k, v in others if k not in same_text_other}
        if lines_other:
            if same_line:
                # variants of one strip disagree: the strip is not clear enough
                best_other = max(support(v) for v in lines_other.values())
                if best_other >= 0.5 * support(items):
                    return NoteRead(None, None, 0.0, "low_confidence", candidate, ev)
            else:
                # another line holds another valid serial: a copy misread, or a second note
                close = [k for k in lines_other if k[0] == cur and R.hamming_close(k[1], key[1])]
                return NoteRead(None, None, 0.0, "copies_disagree" if close else "several_notes",
                                candidate, ev)
        match = items[0].match
        # confidence: distinct lines (or strip variants) are the printed copies / renderings
        per_line: dict[int, float] = {}
        for e in items:
            per_line[e.line] = max(per_line.get(e.line, 0.0), e.score)
        scores = sorted(per_line.values(), reverse=True)
        if same_line:
            # renderings of one strip are not independent (they share the print and its flaws)
            conf = R.combine([scores[0]] + [s * self.VARIANT_WEIGHT for s in scores[1:]])
        else:
            conf = R.combine(scores)
        if not same_line and len(per_line) < 2:
            # one copy seen in a whole frame: never enough alone (hard negatives look like one)
            conf = min(conf, self.SINGLE_COPY_CAP)
        best = min(items, key=lambda e: (e.match.corrections, e.match.digit_corrections))
        letter_corr = best.match.corrections - best.match.digit_corrections
        conf *= self.CORRECTION_FACTOR ** best.match.digit_corrections
        conf *= self.LETTER_CORRECTION_FACTOR ** letter_corr
        if match.checked:
            conf = 1.0 - (1.0 - conf) * 0.5  # a single wrong digit breaks the EUR check
        tess_agrees = False
        tess_matches: list[S.SerialMatch] | None = None
        need_digits = conf < self.min_confidence
        if not final and need_digits:
            return NoteRead(None, None, round(conf, 3), "low_confidence", candidate, ev)
        # a Tesseract process only where it can change the verdict: its agreement must be able
        # to lift the digits to the threshold (else the read abstains whatever it says)
        hopeless = need_digits and R.combine([conf, 0.9]) < self.min_confidence
        if (not hopeless and (need_digits or cur == "RUB") and self._tess_budget > 0
                and self.tesseract is not None):
            if not same_line:
                self._tess_budget -= 1
            # one process: the best image of each line holding this serial (both RUB copies)
            if same_line:
                imgs = [lines[0]]
            else:
                best_img: dict[int, Evidence] = {}
                for e in items:
                    if e.line not in best_img or e.score > best_img[e.line].score:
                        best_img[e.line] = e
                imgs = [lines[e.image] for e in list(best_img.values())[:3]]
            if cur == "RUB" and not same_line:
                # even glyph heights: measured to let Tesseract read both RUB copies far more
                # often (the horizontal copy's lower-case second letter grows to a capital)
                imgs = [NL.even_glyph_heights(im) for im in imgs]
            treads = self.tesseract.read_lines(imgs)
            tess_matches = [m for r in treads for m in self._matches(r.text)]
            tess_serials = {R.group_key(m) for m in tess_matches}
            tess_agrees = key in tess_serials
            if need_digits:
                if tess_agrees:
                    conf = R.combine([conf, 0.9])
                elif tess_serials:
                    # Tesseract read a different valid serial: no decision
                    conf = min(conf, self.min_confidence - 0.01)
        if all(e.match.digit_corrected for e in items) and not tess_agrees:
            return NoteRead(None, None, round(conf, 3), "corrected_parity_digit", candidate, ev)
        if conf < self.min_confidence:
            return NoteRead(None, None, round(conf, 3), "low_confidence", candidate, ev)
        letters_confirmed = True
        if cur == "RUB":
            glyph_votes = self._glyph_letters(items, lines, same_line)
            serial, letters_confirmed = self._rub_letters(key[1], rapid_letters, tess_matches or [],
                                                          glyph_votes)
            if serial is None:
                return NoteRead(None, None, round(conf, 3), "letters_unread", candidate, ev)
        return NoteRead(serial, cur, round(conf, 3), None, candidate, ev, letters_confirmed)

    #: A glyph-matched letter counts as a vote only with at least this correlation margin over
    #: the best other letter (:class:`companion.vision.letters.LetterVote`).
    GLYPH_MIN_MARGIN = 0.05

    def _glyph_letters(self, items: list[Evidence], lines: list[np.ndarray],
                       same_line: bool) -> list[Counter]:
        """Per letter position, the glyph matcher's votes over the lines holding the serial
        (best image of each line); only votes with :attr:`GLYPH_MIN_MARGIN`."""
        from companion.vision.letters import shared_matcher

        best_img: dict[int, Evidence] = {}
        for e in items:
            if e.line not in best_img or e.score > best_img[e.line].score:
                best_img[e.line] = e
        imgs = [lines[0]] if same_line else [lines[e.image] for e in best_img.values()]
        votes = [Counter(), Counter()]
        try:
            matcher = shared_matcher()
        except FileNotFoundError:
            return votes
        for im in imgs:
            got = matcher.rub_letters(im)
            for pos, v in enumerate(got or []):
                if v.margin >= self.GLYPH_MIN_MARGIN:
                    votes[pos][v.letter] += 1
        return votes

    @staticmethod
    def _rub_letters(digits: str, rapid: Counter, tess: list[S.SerialMatch],
                     glyphs: list[Counter] | None = None) -> tuple[str | None, bool]:
        """The two Cyrillic letters of a RUB serial whose seven ``digits`` are settled.

        Three independent sources vote per position: RapidOCR's letters (Latin look-alikes
        mapped to Cyrillic — no Cyrillic model is shipped: ``B`` may be В or Б, ``N`` И or П),
        Tesseract ``rus`` (misreads the small second letter often), and the glyph matcher
        (:mod:`companion.vision.letters`, ``glyphs[pos]``). A letter that is the first choice of
        **two sources**, with neither Cyrillic-aware source (Tesseract, the glyph matcher)
        preferring another letter, is *confirmed* (RapidOCR's letters back or veto a letter
        only when they are true Latin twins (:data:`_LATIN_TWINS`; its ``N`` stands
        for И, П and Л alike); the glyph matcher counts twice
        when both printed copies match the same letter); otherwise the letter first for
        most sources (then most votes, then RapidOCR's) is a best guess and the serial
        is returned with ``letters_confirmed = False``. No letter at all
        → ``None``.
        """
        t_reads = [m.serial[:2] for m in tess
                   if m.currency == "RUB" and m.serial[2:] == digits]
        r_reads = list(rapid)
        glyphs = glyphs or [Counter(), Counter()]
        if not t_reads and not r_reads and not (glyphs[0] and glyphs[1]):
            return None, False
        letters, confirmed = "", True
        for pos in (0, 1):
            r_set = Counter(x[pos] for x in r_reads)
            t_set = Counter(x[pos] for x in t_reads)
            g_set = glyphs[pos]
            top = [{c for c in src if src[c] == max(src.values())} if src else set()
                   for src in (r_set, t_set, g_set)]
            # one vote per reading of each source (RapidOCR's readings weigh by their score
            # only to break ties)
            votes = Counter({c: 1 for c in r_set}) + t_set + g_set
            if not votes:
                return None, False
            backers = {c: sum(c in t for t in top[1:]) for c in votes}
            for c in top[0]:
                if c in _LATIN_TWINS or not RAPID_BACKS_ONLY_TWINS:
                    backers[c] += 1
            if top[2] and g_set.most_common(1)[0][1] >= 2 and len(top[2]) == 1:
                # both printed copies matched to one letter: two independent prints
                backers[next(iter(top[2]))] += 1
            r_score = {c: max(v for k, v in rapid.items() if k[pos] == c) for c in r_set}
            best = max(votes, key=lambda c: (backers[c], votes[c], r_score.get(c, 0.0)))
            # confirmed: the first choice of two sources, and neither Cyrillic-aware source
            # (Tesseract rus, the glyph matcher) prefers another letter; RapidOCR's letter
            # vetoes only when it is a true Latin twin (its N stands for И, П and Л alike)
            vetoes = top[1:] + ([top[0]] if top[0] <= _LATIN_TWINS else [])
            if backers[best] < 2 or any(t and best not in t for t in vetoes):
                confirmed = False
            letters += best
        return letters + digits, confirmed
