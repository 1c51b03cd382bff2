"""Serial lines read by the project's recogniser (:mod:`companion.vision.serialnet`) under the
currency formats, and the decision over every line of a frame.

A *line fit* is one line image decoded with the format-constrained CTC beam
(:func:`companion.vision.ctc.constrained_beam`) under each format of the reader's currencies:
the best format-valid strings with their CTC log-probabilities, and the *gap* between the
recogniser's own best path and the best of them (a large gap: the format forces characters in
or out — the line is no serial of these currencies).

The *joint decision* treats the lines of a frame (the two printed copies of a note, a second
note, legends) together: for every candidate serial ``s`` each line's log-probability of ``s``
(summed over CTC alignments) is computed, and the frame's log-probability of ``s`` is the sum
over the lines that read a serial. The copies are so reconciled character by character: a letter
one copy reads and the other cannot (a flat distribution there) costs the second copy little,
so the first decides it; a line that reads another serial confidently (its own best far above
its probability of ``s``) is a *contradiction*: a misread copy or a second note.

Arrays: ``probs`` T×K (:mod:`companion.vision.serialnet` layout).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from companion.vision import ctc
from companion.vision import serialnet as SN
from companion.vision import serials as S

#: A line's best format-valid string may be at most this many nats below its free best path
#: (a sorter crop whose first glyph is cut by the crop's edge needs ≈ 8: the recogniser drops
#: the glyph, the format puts it back; ``docs/vision-notes.md``).
MAX_FORMAT_GAP = 10.0
#: Beam width and kept candidates per format.
BEAM = 12
KEEP = 6


def alphabets(currency: str) -> list[tuple[str, ...]]:
    """The formats of ``currency`` per position, in the recogniser's characters."""
    return SN.rub_alphabets() if currency == "RUB" else S.position_alphabets(currency)


def to_serial(text: str, currency: str) -> str:
    """A decoded string (model characters) as a canonical serial of ``currency``."""
    return SN.from_model_rub(text) if currency == "RUB" else text


def to_model(serial: str) -> str:
    return SN.label_text(serial)


@dataclass
class LineFit:
    """One line decoded under the formats.

    Attributes:
        probs: the line's T×K probabilities (in the orientation that fits), one array per
            rendering of the line (renderings average: test-time augmentation).
        cands: canonical serial → log-probability (best format-valid strings).
        currency_of: canonical serial → currency.
        free: log-probability of the recogniser's best path (sum of per-step maxima).
        gap: ``free`` minus the best candidate's log-probability (``inf`` when nothing fits).
        turned: the line was read turned 180°.
        line: the line's index in the frame.
        misread: readings with a euro serial's shape that fail its check rule → their
            log-probability (kept apart from ``cands``: the check rule rules them out as
            serials, but a misread likelier than every valid serial is never "corrected").
    """

    probs: list[np.ndarray]
    cands: dict[str, float] = field(default_factory=dict)
    currency_of: dict[str, str] = field(default_factory=dict)
    free: float = 0.0
    gap: float = math.inf
    turned: bool = False
    line: int = 0
    misread: dict = field(default_factory=dict)

    @property
    def fits(self) -> bool:
        return bool(self.cands) and self.gap <= MAX_FORMAT_GAP

    @property
    def best(self) -> str | None:
        return max(self.cands, key=self.cands.get) if self.cands else None

    def posterior(self) -> dict[str, float]:
        """The candidates normalised to a posterior (0..1)."""
        if not self.cands:
            return {}
        top = max(self.cands.values())
        z = sum(math.exp(v - top) for v in self.cands.values())
        return {k: math.exp(v - top) / z for k, v in self.cands.items()}

    def logp(self, serial: str) -> float:
        """log P(serial | this line), summed over CTC alignments (cached candidates first)."""
        if serial in self.cands:
            return self.cands[serial]
        if serial in self.misread:
            return self.misread[serial]
        return _mean_logp([ctc.logprob(p, SN.CHARSET, to_model(serial)) for p in self.probs])


def _greedy_len(probs: np.ndarray) -> int:
    return len(ctc.greedy(probs, SN.CHARSET))


def _mean_logp(lps: list[float]) -> float:
    """log of the mean of exp(lps) (renderings of one line averaged)."""
    top = max(lps)
    if top == -math.inf:
        return top
    return top + math.log(sum(math.exp(v - top) for v in lps) / len(lps))


def fit_line(probs: np.ndarray | list[np.ndarray], currencies: list[str], line: int = 0,
             turned: bool = False) -> LineFit:
    """Decode one line's probabilities (one array, or one per rendering of the line) under
    every format of ``currencies``. With several renderings, each candidate's probability is
    the mean over the renderings."""
    renders = [probs] if isinstance(probs, np.ndarray) else list(probs)
    fit = LineFit(renders, line=line, turned=turned)
    fit.free = _mean_logp([float(np.log(np.clip(p.max(axis=1), 1e-30, None)).sum()) for p in renders])
    found: list[dict[str, float]] = [{} for _ in renders]
    failing: list[dict[str, float]] = [{} for _ in renders]
    for r, p in enumerate(renders):
        g_len = _greedy_len(p)
        for cur in currencies:
            rule = (lambda pre: S.last_characters("EUR", pre)) if cur == "EUR" else None
            for alph in alphabets(cur):
                if abs(len(alph) - g_len) > 3 or p.shape[0] < len(alph):
                    continue
                for c in ctc.constrained_beam(p, SN.CHARSET, alph, rule, beam=BEAM, keep=KEEP):
                    serial = to_serial(c.text, cur)
                    found[r][serial] = max(c.logp, found[r].get(serial, -math.inf))
                    fit.currency_of.setdefault(serial, cur)
                if rule is not None:
                    # the same shape without the check rule: the readings that fail it
                    for c in ctc.constrained_beam(p, SN.CHARSET, alph, None, beam=BEAM, keep=3):
                        if not S.eur_check(c.text):
                            failing[r][c.text] = max(c.logp, failing[r].get(c.text, -math.inf))
    for serial in {k for f in failing for k in f}:
        lps = [f[serial] if serial in f else ctc.logprob(p, SN.CHARSET, to_model(serial))
               for f, p in zip(failing, renders)]
        fit.misread[serial] = _mean_logp(lps)
    for serial in fit.currency_of:
        lps = [f[serial] if serial in f else ctc.logprob(p, SN.CHARSET, to_model(serial))
               for f, p in zip(found, renders)]
        fit.cands[serial] = _mean_logp(lps)
    if fit.cands:
        fit.gap = fit.free - max(fit.cands.values())
    return fit


def looks_like_text(probs: np.ndarray) -> bool:
    """Whether the free reading holds enough digits to be worth decoding (≥ 5)."""
    return sum(c.isdigit() for c in ctc.greedy(probs, SN.CHARSET)) >= 5


@dataclass
class Joint:
    """The decision over a frame's fitting lines.

    Attributes:
        serial: the best serial (``None`` when no line fits).
        currency: its currency.
        posterior: its share of the frame's candidates (0..1).
        flip: posterior mass of serials whose last digit has the other parity.
        other_currency: posterior mass of serials of another currency.
        support: lines whose own best reading is (or is within reach of) ``serial``.
        contradict: lines that read another serial confidently.
        close: every contradicting line reads a serial close to ``serial`` (a misread copy,
            not a second note).
        letters: for RUB, the posterior of ``serial``'s two letters given its digits.
        digits: for RUB, the posterior of ``serial``'s seven digits (any letters): what the
            parity rests on; the letters are settled apart (``notes_net.letter_choice``).
            Otherwise ``posterior``.
        shares: every candidate serial → its share of the frame's posterior.
        misread: a reading that fails the check rule (:attr:`LineFit.misread`) scores at
            least as high on the frame as ``serial``: the rule would be "correcting" a misread
            (or a fake) into a serial — never decided.
    """

    serial: str | None
    currency: str | None = None
    posterior: float = 0.0
    flip: float = 0.0
    other_currency: float = 0.0
    support: list[int] = field(default_factory=list)
    contradict: list[int] = field(default_factory=list)
    close: bool = True
    letters: float = 1.0
    digits: float = 0.0
    shares: dict = field(default_factory=dict)
    misread: bool = False


#: A line supports a serial when its log-probability of it is at most this far below the
#: line's own best; a line contradicts it when it is this far below *and* the line's own best
#: holds at least :data:`CONTRADICT_POSTERIOR` of its posterior.
SUPPORT_GAP = 4.0
CONTRADICT_GAP = 8.0
CONTRADICT_POSTERIOR = 0.6
#: ... and only when the serial holds at least this share of the line's own posterior.
SUPPORT_SHARE = 0.3
#: A line that reads another serial costs the joint score at most this (it may be a second
#: note's serial, judged by the contradiction rule instead).
LINE_PENALTY_CAP = 12.0
#: A valid serial must score this many nats above every reading that fails the check rule.
MISREAD_MARGIN = 0.0
#: Candidates below this posterior on every line are not scored on the frame.
MIN_LINE_POSTERIOR = 1e-4


def joint(fits: list[LineFit], rub_by_digits: bool = False) -> Joint:
    """The joint decision over ``fits`` (the lines that fit a format). ``rub_by_digits``: a
    rouble serial is decided, supported and contradicted by its seven digits (the reader's
    currency is RUB; under ``auto`` a line of another note forced into the rouble format has
    letters spread over many pairs, and summing them out would make it look sure)."""
    fits = [f for f in fits if f.fits]
    if not fits:
        return Joint(None)
    cands: dict[str, str] = {}
    for f in fits:
        for s, p in f.posterior().items():
            if p >= MIN_LINE_POSTERIOR:  # the others cannot win the frame
                cands.setdefault(s, f.currency_of[s])
    own = [max(f.cands.values()) for f in fits]
    scores: dict[str, float] = {}
    per_line: dict[str, list[float]] = {}
    for s in cands:
        lps = [f.logp(s) for f in fits]
        per_line[s] = lps
        scores[s] = sum(max(lp, b - LINE_PENALTY_CAP) for lp, b in zip(lps, own))
    top = max(scores.values())
    z = sum(math.exp(v - top) for v in scores.values())
    post = {s: math.exp(v - top) / z for s, v in scores.items()}
    best = max(post, key=post.get)
    if cands[best] == "RUB" and rub_by_digits:
        # a rouble serial is decided by its digits (its letters apart): the likeliest digits
        # over every letter pair, then their likeliest letters
        by_digits: dict[str, float] = {}
        for s, v in post.items():
            if cands[s] == "RUB":
                by_digits[s[2:]] = by_digits.get(s[2:], 0.0) + v
        top_digits = max(by_digits, key=by_digits.get)
        best = max((s for s in post if cands[s] == "RUB" and s[2:] == top_digits), key=post.get)
    cur = cands[best]
    lps = per_line[best]
    res = Joint(best, cur, post[best], shares=post, digits=post[best])
    if cur == "RUB" and rub_by_digits:
        # a line supports (or contradicts) a rouble serial by its digits: the recogniser's
        # letters are unsure on print it never saw (М/Н, А/В split a copy's posterior), and the
        # letters are settled apart; the lines' log-probabilities of the digits, any letters
        group = [s for s in cands if cands[s] == "RUB" and s[2:] == best[2:]]
        lps = [_logsumexp([per_line[s][k] for s in group]) for k in range(len(fits))]
    else:
        group = [best]
    failing = {m for f in fits for m in f.misread}
    if failing:
        worst = max(sum(max(f.logp(m), b - LINE_PENALTY_CAP) for f, b in zip(fits, own))
                    for m in failing)
        res.misread = worst >= scores[best] - MISREAD_MARGIN
    d = S.last_digit(best) % 2
    res.flip = sum(v for s, v in post.items() if S.last_digit(s) % 2 != d)
    res.other_currency = sum(v for s, v in post.items() if cands[s] != cur)
    for f, b, lp in zip(fits, own, lps):
        if b - lp <= SUPPORT_GAP and f.free - lp <= MAX_FORMAT_GAP and _share(f, group, lp) >= SUPPORT_SHARE:
            # the line reads this serial itself (not merely a flat reading that costs every
            # candidate alike: a legend read as gibberish supports nothing)
            res.support.append(f.line)
        elif b - lp >= CONTRADICT_GAP and max(f.posterior().values()) >= CONTRADICT_POSTERIOR:
            res.contradict.append(f.line)
            other = f.best
            if other is None or not _close(other, best):
                res.close = False
    if cur == "RUB":
        same_digits = sum(v for s, v in post.items() if cands[s] == "RUB" and s[2:] == best[2:])
        res.letters = post[best] / same_digits if same_digits > 0 else 0.0
        res.digits = same_digits
    return res


def _logsumexp(vals: list[float]) -> float:
    top = max(vals)
    return top + math.log(sum(math.exp(v - top) for v in vals))


def _share(f: LineFit, group: list[str], lp: float) -> float:
    """The share of line ``f``'s own posterior (its candidates plus ``group``) held by the
    serials of ``group`` (one serial, or a rouble serial's letter variants), whose summed
    log-probability on the line is ``lp``."""
    vals = [v for k, v in f.cands.items() if k not in group] + [lp]
    top = max(vals)
    return math.exp(lp - top) / sum(math.exp(v - top) for v in vals)


def _close(a: str, b: str) -> bool:
    """Two serials that one misread could turn into each other (≤ 3 characters differ)."""
    if len(a) != len(b):
        return abs(len(a) - len(b)) <= 1
    return sum(x != y for x, y in zip(a, b)) <= 3
