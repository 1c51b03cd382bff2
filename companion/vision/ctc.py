"""Format-constrained CTC decoding of a recogniser's per-time-step probabilities.

A CTC recogniser (PP-OCR's, :meth:`companion.vision.rapid_engine.RapidEngine.line_probs`) outputs, for
each time step, a probability for the blank and for every character. The usual *greedy* reading
takes the likeliest symbol at every step; it can return a string that fits no serial format (a
doubled digit collapsed: ``EE331140A`` for ``EE3311440A``) and says nothing about the runner-up.

Here the decoder searches only strings that fit a serial format *position by position* (a
digit where the format has a digit, an allowed letter where it has a letter, and for EUR a last
digit that satisfies the check rule), with a CTC prefix beam search (Graves 2006; Hannun et al.
2014), and returns the best such strings with their total probability (summed over alignments).
This is "correct only by the format" done with the recogniser's own evidence: a letter read in
a digit position becomes the digit the recogniser itself found next likeliest there, never a
fixed look-alike table, and the probabilities of the alternatives give the reader its margin.

Arrays: ``probs`` is T×K float (rows sum to 1): column 0 the CTC blank, columns 1..K-2 the
characters of ``charset``, column K-1 the mass of every other character (junk).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

#: A character with a smaller probability at a time step is not tried there.
MIN_PROB = 1e-3


@dataclass(frozen=True)
class Candidate:
    """One decoded string and its CTC probability (summed over alignments) for one line."""

    text: str
    logp: float


def greedy(probs: np.ndarray, charset: str) -> str:
    """The best-path reading of ``probs`` (T×K, see the module doc): likeliest symbol per step,
    repeats merged, blanks and junk dropped."""
    idx = probs.argmax(axis=1)
    out, prev = [], -1
    for i in idx:
        if i != prev and 0 < i <= len(charset):
            out.append(charset[i - 1])
        prev = i
    return "".join(out)


def logprob(probs: np.ndarray, charset: str, text: str) -> float:
    """log P(``text`` | ``probs``) summed over all CTC alignments (forward algorithm); junk
    (the last column) may stand before the first and after the last character, like a blank.
    ``-inf`` for a text holding a character outside ``charset`` or too long for ``probs``."""
    if any(c not in charset for c in text):
        return -math.inf
    T = probs.shape[0]
    lab = [charset.index(c) + 1 for c in text]
    S = 2 * len(lab) + 1
    if not lab:
        return float(np.log(np.clip(probs[:, 0] + probs[:, -1], 1e-30, None)).sum())
    ext = np.zeros(S, int)
    ext[1::2] = lab
    edge = np.zeros(S, bool)
    edge[0] = edge[-1] = True
    skip = np.zeros(S, bool)  # s may be reached from s-2 (different neighbours, not a blank)
    for s in range(3, S, 2):
        skip[s] = ext[s] != ext[s - 2]
    alpha = np.zeros(S)
    p0 = probs[0]
    alpha[0] = p0[0] + p0[-1]
    alpha[1] = p0[ext[1]]
    log_scale = 0.0
    for t in range(1, T):
        p = probs[t]
        emit = p[ext]
        emit = np.where(ext == 0, p[0], emit)
        emit = np.where(edge, p[0] + p[-1], emit)
        new = alpha.copy()
        new[1:] += alpha[:-1]
        new[2:] += np.where(skip[2:], alpha[:-2], 0.0)
        alpha = new * emit
        z = alpha.max()
        if z <= 0:
            return -math.inf
        alpha /= z
        log_scale += math.log(z)
    tail = alpha[-1] + alpha[-2]
    return -math.inf if tail <= 0 else log_scale + math.log(tail)


def constrained_beam(probs: np.ndarray, charset: str, alphabets: Sequence[str],
                     last_rule: Callable[[str], str] | None = None, beam: int = 16,
                     keep: int = 8, edge_junk: float = 0.0) -> list[Candidate]:
    """The likeliest strings of exactly ``len(alphabets)`` characters, character ``i`` taken
    from ``alphabets[i]``, best first (at most ``keep``).

    Args:
        probs: T×K probabilities (module doc).
        charset: the characters of columns 1..K-2.
        alphabets: allowed characters per position (each a subset of ``charset``).
        last_rule: given the first ``n-1`` characters, the characters allowed last (a check
            rule, e.g. the EUR mod-9 sum); ``None``: ``alphabets[-1]``.
        beam: prefixes kept per time step.
        edge_junk: before the first and after the last character, a time step may also spend
            this fraction of its characters' probability as junk: a glyph cut by the crop's
            edge (a neighbour's print, a border mark) is skipped at a price of
            ``edge_junk`` per time step (≈ 2–3 steps a glyph), not forced into the serial.
    """
    L = len(alphabets)
    T = probs.shape[0]
    if L == 0 or T < L:
        return []
    cols = [frozenset(charset.index(c) + 1 for c in a) for a in alphabets]
    # the characters worth trying at each step (most steps: one to three)
    likely = [np.flatnonzero(row[1:-1] >= MIN_PROB) + 1 for row in probs]
    # prefix → [p ending in blank, p ending in its last character]; probabilities are rescaled
    # per step (log_scale) so long lines do not underflow
    beams: dict[str, list[float]] = {"": [1.0, 0.0]}
    log_scale = 0.0
    for t in range(T):
        p = probs[t]
        blank, junk = float(p[0]), float(p[-1])
        outside = blank + junk + edge_junk * float(p[1:-1].sum())
        nxt: dict[str, list[float]] = {}

        def add(key: str, pb: float, pnb: float) -> None:
            cell = nxt.get(key)
            if cell is None:
                nxt[key] = [pb, pnb]
            else:
                cell[0] += pb
                cell[1] += pnb

        for prefix, (pb, pnb) in beams.items():
            n = len(prefix)
            stay = outside if n in (0, L) else blank
            add(prefix, (pb + pnb) * stay, 0.0)
            if n:
                last = charset.index(prefix[-1]) + 1
                add(prefix, 0.0, pnb * float(p[last]))
            if n == L:
                continue
            if n == L - 1 and last_rule is not None:
                allowed = frozenset(charset.index(c) + 1 for c in last_rule(prefix))
            else:
                allowed = cols[n]
            for c in likely[t]:
                if c not in allowed:
                    continue
                pc = float(p[c])
                ch = charset[c - 1]
                if n and ch == prefix[-1]:
                    add(prefix + ch, 0.0, pb * pc)  # a repeat needs a blank between
                else:
                    add(prefix + ch, 0.0, (pb + pnb) * pc)
        if not nxt:
            return []
        best = sorted(nxt.items(), key=lambda kv: -(kv[1][0] + kv[1][1]))[:beam]
        z = best[0][1][0] + best[0][1][1]
        if z <= 0:
            return []
        beams = {k: [v[0] / z, v[1] / z] for k, v in best}
        log_scale += math.log(z)
    done = [(k, v[0] + v[1]) for k, v in beams.items() if len(k) == L and v[0] + v[1] > 0]
    done.sort(key=lambda kv: -kv[1])
    return [Candidate(k, log_scale + math.log(v)) for k, v in done[:keep]]
