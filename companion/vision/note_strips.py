"""PP-OCR's reading of serial-strip crops (the reader before the project's recogniser, kept as
its second engine and for the benchmark's comparison): the format-constrained CTC decoding of
several renderings (Latin-script currencies) and the greedy readings (RUB)."""

from __future__ import annotations

import math
from collections import defaultdict

import cv2
import numpy as np

from companion.vision import note_lines as NL
from companion.vision import serials as S
from companion.vision.note_read import Evidence, NoteRead


class PpocrStrips:
    """:class:`companion.vision.notes.NoteReader`'s strip reading with PP-OCR (a mixin: it uses
    the reader's engines, currency, thresholds and :meth:`_decide`)."""

    def _strip_variants(self, strip: np.ndarray) -> list[np.ndarray]:
        gray = cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY)
        h, w = gray.shape
        clahe = cv2.createCLAHE(clipLimit=2.0, tileGridSize=(2, 8)).apply(gray)
        big = cv2.resize(clahe, (w * 2, h * 2), interpolation=cv2.INTER_CUBIC)
        k = max(2, h // 8)
        padded = cv2.copyMakeBorder(gray, k, k, k, k, cv2.BORDER_REPLICATE)
        return [strip] + [cv2.cvtColor(v, cv2.COLOR_GRAY2BGR) for v in (big, padded)]

    #: Renderings of a strip for the format-constrained decoder: (name, widening factor). The
    #: sorter crops give the recogniser ≈ 2 time steps per glyph; widened 1.5–2 × it separates
    #: doubled digits and reads thin glyphs better (measured on the dev half of the real crops,
    #: ``docs/vision-notes.md``). ``ink`` is the strip with its printed background flattened
    #: (:func:`NL.ink_on_flat_paper`: guilloche and shading removed), ``ink_blur`` the same smoothed
    #: 3×3 (print texture); ``as_is`` the strip itself and ``blur`` its grey smoothed 3×3.
    CTC_RENDERINGS = (("ink", 1.5), ("ink", 2.0), ("ink_blur", 1.5))
    #: The renderings tried when nothing fits in :attr:`CTC_RENDERINGS` (a strip whose serial
    #: strokes are not its strongest departures from the background, so flattening loses them).
    CTC_FALLBACK_RENDERINGS = (("as_is", 1.5), ("as_is", 2.0), ("blur", 1.5))
    #: Background scale of the ``ink`` renderings (:func:`NL.ink_on_flat_paper`): Gaussian sigma
    #: as a share of the strip's height.
    INK_BACKGROUND_SIGMA = 0.25
    #: A strip decides when the format-valid serials' posterior, averaged over the renderings,
    #: reaches this and at least :attr:`STRIP_AGREE` renderings read that serial first.
    STRIP_MIN_POSTERIOR = 0.5
    STRIP_AGREE = 2
    #: Below :attr:`STRIP_MIN_POSTERIOR` but at least this, Tesseract reading the very same
    #: serial (an independent engine) lets the strip decide.
    STRIP_TESS_POSTERIOR = 0.3
    #: A rendering's best format-valid serial may be at most this many nats (natural log)
    #: less likely than the recogniser's own best reading of the strip (its best path);
    #: further below, the format is forcing characters in or out and the rendering counts as
    #: fitting nothing. Measured: right currency ≤ 0.7 on rendered strips, ≤ 9.3 on the real
    #: crops' dev half (hard JPY crops); a serial read under another currency ≥ 12.7 on
    #: rendered strips (``docs/vision-notes.md``).
    STRIP_MAX_FORMAT_GAP = 11.0
    #: Never decide while the serials whose last digit has the other parity hold this much of
    #: the posterior (a close runner-up that would flip rose/skull).
    STRIP_MAX_FLIP = 0.2
    #: With ``auto``, never decide while serials of another currency hold this much of the
    #: posterior.
    STRIP_MAX_OTHER_CURRENCY = 0.1

    def _ctc_renderings(self, strip: np.ndarray, which=None) -> list[tuple[np.ndarray, float]]:
        gray = None
        made: dict[str, np.ndarray] = {}
        out = []
        for name, stretch in which or self.CTC_RENDERINGS:
            if name == "as_is":
                out.append((strip, stretch))
                continue
            if name not in made:
                if gray is None:
                    gray = cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY)
                base = gray if not name.startswith("ink") else NL.ink_on_flat_paper(
                    gray, self.INK_BACKGROUND_SIGMA * gray.shape[0])
                im = cv2.GaussianBlur(base, (3, 3), 0) if name.endswith("blur") else base
                made[name] = cv2.cvtColor(im, cv2.COLOR_GRAY2BGR)
            out.append((made[name], stretch))
        return out

    def strip_posteriors(self, strip: np.ndarray, upside_down: bool = False, renderings=None
                         ) -> tuple[dict[str, float], dict[str, str], list[str | None]]:
        """The format-constrained decoding of one strip (H×W×3 BGR uint8); ``renderings``
        default :attr:`CTC_RENDERINGS`.

        Each rendering of :attr:`CTC_RENDERINGS` is recognised (:meth:`RapidEngine.line_probs`)
        and decoded with :func:`companion.vision.ctc.constrained_beam` under every format of
        the reader's currency (``auto``: all Latin-script ones); each rendering's candidates are
        normalised to a posterior over the format-valid serials, and the posteriors are averaged.

        Returns:
            ``(posterior, currency_of, tops)``: serial → averaged posterior (0..1), serial →
            currency code, and each rendering's best serial (``None`` where nothing fits).
        """
        from companion.vision import ctc

        charset = self.engine.SERIAL_CHARSET
        currencies = [c for c in (S.CURRENCIES if self.currency == "auto" else (self.currency,))
                      if S.position_alphabets(c)]
        renders = self._ctc_renderings(strip, renderings)
        if upside_down:
            renders = [(cv2.rotate(im, cv2.ROTATE_180), k) for im, k in renders]
        posterior: dict[str, float] = defaultdict(float)
        currency_of: dict[str, str] = {}
        tops: list[str | None] = []
        by_stretch: dict[float, list[int]] = defaultdict(list)
        for i, (_, stretch) in enumerate(renders):
            by_stretch[stretch].append(i)
        all_probs: list[np.ndarray] = [None] * len(renders)  # type: ignore[list-item]
        for stretch, ids in by_stretch.items():
            for i, pr in zip(ids, self.engine.line_probs([renders[i][0] for i in ids], stretch)):
                all_probs[i] = pr
        for probs in all_probs:
            g_len = len(ctc.greedy(probs, charset))
            cands: dict[str, float] = {}
            for cur in currencies:
                rule = (lambda pre, cur=cur: S.last_characters(cur, pre)) if cur == "EUR" else None
                for alph in S.position_alphabets(cur):
                    if abs(len(alph) - g_len) > 3:
                        continue  # the recogniser saw a text of another length altogether
                    for c in ctc.constrained_beam(probs, charset, alph, rule):
                        if c.logp > cands.get(c.text, -math.inf):
                            cands[c.text] = c.logp
                            currency_of[c.text] = cur
            if cands:
                # the best format-valid text must be about as likely as the recogniser's own
                # best path: far below it, the format forced characters in or out (a serial of
                # another currency read under this one) and nothing on the strip fits
                free = float(np.log(np.clip(probs.max(axis=1), 1e-30, None)).sum())
                if free - max(cands.values()) > self.STRIP_MAX_FORMAT_GAP:
                    cands = {}
            if not cands:
                tops.append(None)
                continue
            top = max(cands.values())
            z = sum(math.exp(v - top) for v in cands.values())
            for k, v in cands.items():
                posterior[k] += math.exp(v - top) / z / len(renders)
            tops.append(max(cands, key=cands.get))
        return dict(posterior), currency_of, tops

    def read_strip_ctc(self, strip: np.ndarray) -> NoteRead:
        """Read a strip (H×W×3 BGR uint8) with the format-constrained CTC decoder.

        Decides the serial with the highest averaged posterior (:meth:`strip_posteriors`) when
        it reaches :attr:`STRIP_MIN_POSTERIOR`, at least :attr:`STRIP_AGREE` renderings read it
        first and the other parity holds less than :attr:`STRIP_MAX_FLIP`; between
        :attr:`STRIP_TESS_POSTERIOR` and :attr:`STRIP_MIN_POSTERIOR` Tesseract must read the
        same serial; with ``auto``, serials of another currency must hold less than
        :attr:`STRIP_MAX_OTHER_CURRENCY`. ``confidence`` is the posterior rescaled so that the decision threshold is
        :attr:`min_confidence`. A strip where nothing fits is read again in
        :attr:`CTC_FALLBACK_RENDERINGS`, then both ways turned 180°.
        """
        post: dict[str, float] = {}
        for upside_down in (False, True):
            for which in (self.CTC_RENDERINGS, self.CTC_FALLBACK_RENDERINGS):
                post, currency_of, tops = self.strip_posteriors(strip, upside_down, which)
                if post:
                    break
            if post:
                if upside_down:
                    strip = cv2.rotate(strip, cv2.ROTATE_180)
                break
        if not post:
            return NoteRead(None, None, 0.0, "no_serial")
        best = max(post, key=post.get)
        p = post[best]
        cur = currency_of[best]
        agree = sum(t == best for t in tops)
        flip = sum(v for k, v in post.items() if S.last_digit(k) % 2 != S.last_digit(best) % 2)
        fits = S.match(best, cur)
        match = fits[0] if fits else S.SerialMatch(cur, best, 0, False, cur == "EUR")
        ev = [Evidence(best, p, "rapidocr-ctc", match, 0)]

        def verdict(decided: bool, reason: str | None, tess: bool = False) -> NoteRead:
            p_eff = p if not tess else max(p, self.STRIP_MIN_POSTERIOR)
            p0 = self.STRIP_MIN_POSTERIOR
            if p_eff >= p0:
                conf = self.min_confidence + (1 - self.min_confidence) * (p_eff - p0) / (1 - p0)
            else:
                conf = self.min_confidence * p_eff / p0
            if not decided:
                conf = min(conf, self.min_confidence - 0.01)
                return NoteRead(None, None, round(conf, 3), reason, best, ev)
            return NoteRead(best, cur, round(conf, 3), None, best, ev)

        if flip >= self.STRIP_MAX_FLIP or agree < self.STRIP_AGREE:
            return verdict(False, "low_confidence")
        other = sum(v for k, v in post.items() if currency_of[k] != cur)
        if other >= self.STRIP_MAX_OTHER_CURRENCY:
            # auto: serials of two currencies fit the evidence (an edge mark read as a letter
            # turns a JPY serial into a KRW one) — the table must say which
            return verdict(False, "ambiguous_currency")
        if p >= self.STRIP_MIN_POSTERIOR:
            return verdict(True, None)
        if p >= self.STRIP_TESS_POSTERIOR and self.tesseract is not None:
            tread = self.tesseract.read_lines([strip])[0]
            if any(m.serial == best for m in S.match(tread.text, cur, allow_trim=True)):
                ev.append(Evidence(tread.text, tread.score, "tesseract", match, 0))
                return verdict(True, None, tess=True)
        return verdict(False, "low_confidence")

    def read_strip_greedy(self, strip: np.ndarray, rub_only: bool = False) -> NoteRead:
        """Read a strip (H×W×3 BGR uint8) from the recogniser's greedy readings of three
        renderings, matched against the formats with format-only corrections (the RUB path:
        its Cyrillic letters are outside the recogniser's alphabet). ``rub_only`` keeps only
        RUB matches (``auto`` falling back to RUB).

        Several renderings of the strip are recognised; they must agree on one serial, and
        Tesseract's reading is the independent second opinion.
        """
        strip = NL.as_bgr(strip)
        variants = self._strip_variants(strip)
        keep = (lambda ev: [e for e in ev if e.match.currency == "RUB"]) if rub_only else (lambda ev: ev)
        reads = self.engine.read_lines(variants)
        ev = keep(self._evidence(reads, "rapidocr", list(range(len(reads)))))
        if not ev:
            # a strip can be upside down too
            variants = [cv2.rotate(v, cv2.ROTATE_180) for v in variants]
            reads = self.engine.read_lines(variants)
            ev = keep(self._evidence(reads, "rapidocr", list(range(len(reads)))))
        return self._decide(ev, [strip], same_line=True)
