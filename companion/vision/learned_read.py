"""Reading one found card with the learned index classifier (:mod:`companion.vision.card_index`).

Every corner of a card frame that may show an index is cut (:func:`companion.vision.card_patches.corner_patch`)
and classified in one batch: a whole card's four corners (a standard card prints its index at
two, a Continental deck at four; which two is unknown when the card lies upside down); a partly
hidden card's observed corners, each also through a wider patch and with the sides swapped
(a hypothesised corner can be a few px off, or take the long side for the short one).

Decision (the numbers are in docs/vision-cards.md, chosen on rendered validation scenes only):

* a corner *reads* a card when its calibrated probability (glyph × suit) is at least
  :data:`ACCEPT_P`; corners reading different cards at :data:`DISSENT_P` or more make the card
  ``corners_disagree``;
* the card's confidence is the best reading corner's probability;
* a numbered rank on a whole card whose centre is a picture is refused (``rank_picture_mismatch``,
  as with the templates);
* with ``cross_check``, the template reader must not read another card at any of the reading
  corners (``corners_disagree``).
"""

from __future__ import annotations

import numpy as np

from companion.vision import card_index as CI
from companion.vision.card_centre import NUMBERED_RANKS, centre_is_picture, is_back
from companion.vision.card_frames import CardRead, _frame_quads
from companion.vision.card_patches import PARTIAL_GROW, _sides_swapped, corner_patch, rectify
from companion.vision.card_segments import segment_index

#: Calibrated probability at or above which a corner's read is a card.
ACCEPT_P = 0.97
#: A corner reading another card with at least this probability vetoes the card.
DISSENT_P = 0.5
#: A learned corner reading another card with at least this probability vetoes a card only the
#: templates read (chosen on the validation scenes, docs/vision-cards.md).
VETO_P = 0.9
#: A card only the templates read needs a learned corner reading it too (with probability
#: ≥ :data:`SEEN_P`): on tables unlike the ones the templates were fitted to, they read a card
#: surely and wrongly where the classifier sees nothing sure.
NEED_SUPPORT = False
#: Corner reads below this probability count as nothing printed there for the reason code.
SEEN_P = 0.3


def corner_views(frame, retry: bool):
    """The (quad, corner, grow) views of a frame to classify."""
    if frame.complete:
        return [(frame.quad, k, 1.0) for k in range(4)]
    views = [(q, k, 1.0) for q, ks in _frame_quads(frame) for k in ks]
    if retry:
        views += [(q, k, PARTIAL_GROW) for q, ks in _frame_quads(frame) for k in ks]
        views += [(_sides_swapped(q, k), 0, g) for q, ks in _frame_quads(frame) for k in ks
                  for g in (1.0, PARTIAL_GROW)]
    return views


def _facts(patches, guesses, reads, good) -> dict:
    """What the calibration (:mod:`companion.vision.card_calib`) needs of a learned read: each
    code's best probability over the views (``probs``), the number of views reading a card
    surely (``good``), and the pip's measured redness (``red``, None without a segmented pip) at
    the view most likely to show an index (the best read, else the least "none")."""
    probs: dict = {}
    for c, p, _i in reads:
        probs[c] = max(p, probs.get(c, 0.0))
    if reads:
        best = max(reads, key=lambda r: r[1])[2]
    else:
        none = CI.GLYPHS.index("none")
        best = int(np.argmin([g.glyph_p[none] for g in guesses]))
    sg = segment_index(patches[best])
    red = None if isinstance(sg, str) or sg.pip is None else float(sg.red)
    return {"probs": probs, "good": len(good), "red": red}


def read_frame_learned(reader, image: np.ndarray, frame, retry: bool = True):
    """Read one detected card (a :class:`companion.vision.cards.CardFrame`) with the learned
    classifier; ``reader`` is the :class:`companion.vision.cards.CardReader` (its alphabet,
    deck size, templates). Returns a :class:`companion.vision.cards.CardRead`."""
    box = frame.box
    views = corner_views(frame, retry)
    if not views:
        return CardRead(None, box, 0.0, "no_corner_visible", frame, None)
    patches = [corner_patch(image, q, k, g) for q, k, g in views]
    guesses = (getattr(reader, "index_net", None) or CI.shared()).classify(patches)
    alphabet = reader.index.alphabet
    ranks = reader.index.deck_ranks
    reads = []  # (code, p, view index)
    outside = []
    for i, g in enumerate(guesses):
        code, p = g.card(alphabet)
        if code is None:
            if g.glyph != "none" and g.glyph_conf >= ACCEPT_P:
                outside.append(g.glyph)  # a glyph of another alphabet
            continue
        rank = "JK" if code == "JK" else code[:-1]
        if rank != "JK" and rank not in ranks:
            if p >= ACCEPT_P:
                return CardRead(None, box, 0.0, "not_in_deck", frame, True, {"corners": [code]})
            continue
        reads.append((code, p, i))
    good = [r for r in reads if r[1] >= ACCEPT_P]
    facts = _facts(patches, guesses, reads, good)
    facts["dist"] = (alphabet, np.stack([g.glyph_p for g in guesses]), np.stack([g.suit_p for g in guesses]))
    dissent_p = {}
    for c, p, _i in reads:
        if p >= DISSENT_P:
            dissent_p[c] = max(p, dissent_p.get(c, 0.0))
    if not good:
        best_p = max((r[1] for r in reads), default=0.0)
        if frame.complete and all(g.glyph == "none" for g in guesses) and is_back(rectify(image, frame.quad, 84, 118)):
            return CardRead(None, box, 0.0, "face_down", frame, False, dict(facts))
        if outside and not reads:
            reason = "not_an_index"
        elif best_p >= SEEN_P:
            reason = "weak_index"
        else:
            reason = "no_index"
        return CardRead(None, box, best_p, reason, frame, None,
                        {"corners": sorted({r[0] for r in reads if r[1] >= SEEN_P}), "dissent": dissent_p, **facts})
    codes = {r[0] for r in good}
    dissent = {r[0] for r in reads if r[1] >= DISSENT_P}
    if len(codes) > 1 or len(dissent) > 1:
        return CardRead(None, box, 0.0, "corners_disagree", frame, True,
                        {"corners": sorted(dissent | codes), "dissent": dissent_p, **facts})
    (code,) = codes
    conf = max(r[1] for r in good)
    rank = "JK" if code == "JK" else code[:-1]
    if frame.complete and rank in NUMBERED_RANKS and centre_is_picture(image, frame.quad):
        return CardRead(None, box, 0.0, "rank_picture_mismatch", frame, True, {"corners": [code], **facts})
    if reader.cross_check:
        for _code, _p, i in good:
            t = reader.index.read_patch(patches[i])
            if t.code and t.code != code and t.confidence >= 0.5:
                return CardRead(None, box, 0.0, "corners_disagree", frame, True,
                                {"corners": [code], "template": t.code, **facts})
    return CardRead(code, box, conf, None, frame, True, {"corners": len(good), "learned": True, **facts})


#: Classic reasons that are a verdict on the card, not a lack of evidence: a learned read alone
#: does not overrule them.
CLASSIC_VETO = frozenset({"corners_disagree", "rank_picture_mismatch", "alphabet_lookalike", "not_in_deck"})


#: A card only the templates name, with no learned read of any card, needs at least this
#: template confidence (the templates' own floor is 0.5), else it is reported unsure. Chosen in
#: the seventh pass on the calibration scenes 0–899 and validation scenes 0–299 with the v1
#: classifier (and kept unchanged for v3): on v3's reads there it abstains on 36 of 76 and 4 of 8
#: wrong cards for 18 of 431 and 0 of 381 right ones (docs/vision-cards.md, "Seventh pass").
CLASSIC_ALONE_MIN = 0.52


#: A card only the templates name, with a template confidence below this, stands only when the
#: classifier, sure or not, gives it at least the probability it gives any other card (eighth
#: pass: chosen on the calibration scenes 0–899 — of their 73 template-only reads, it abstains on
#: 10 of 26 wrong for 4 of 47 right; docs/vision-cards.md, "Eighth pass").
CLASSIC_SURE = 0.68
def card_probability(learned, code: str) -> float:
    """The classifier's best probability, over the views of ``learned`` (a learned
    :class:`companion.vision.cards.CardRead`), of the card ``code`` (its rank's glyphs × its
    suit); 0 without the distributions."""
    dist = learned.detail.get("dist")
    if dist is None or not code:
        return 0.0
    alphabet, gp, sp = dist
    rank = "JK" if code == "JK" else code[:-1]
    gi = [CI.GLYPHS.index(g) for g, r in CI.GLYPH_RANKS[alphabet].items() if r == rank]
    pg = gp[:, gi].sum(axis=1)
    if code == "JK" or code[-1] not in CI.SUITS:
        return float(pg.max())
    return float((pg * sp[:, CI.SUITS.index(code[-1])]).max())


def combine(classic, learned, contest: bool = False, classic_alone_min: float = 0.0,
            classic_sure: float = 0.0):
    """One card's answer from the classic (glyph templates) and the learned read of the same
    frame (both :class:`companion.vision.cards.CardRead`). Only a *sure* contradiction vetoes:

    * both name the same card: that card, with the learned confidence;
    * one names a card and the other names another: ``corners_disagree``;
    * only the learned read names it: the card, unless the classic read is a verdict against it
      (:data:`CLASSIC_VETO`: two corners read differently, a picture under a numbered rank …);
    * only the classic read names it: the card, unless a corner of the learned read reads
      another card with probability ≥ :data:`VETO_P`, or no learned corner reads it at all
      (:data:`NEED_SUPPORT`), or the learned read is a verdict (``not_in_deck``,
      ``rank_picture_mismatch``, ``corners_disagree``);
    * neither: the classic verdict if it has one, else the learned reason.

    A classic read that the learned read neither names nor contradicts, with a template
    confidence below ``classic_alone_min`` (:data:`CLASSIC_ALONE_MIN`), is reported unsure
    (``weak_index``, its card in ``detail["unsure"]``); so is one below ``classic_sure``
    (:data:`CLASSIC_SURE`) to which the classifier gives less probability than to another card.

    With ``contest``, a classic read that only a learned corner's sure other card vetoes is
    returned named, marked ``detail["contested"]``: the calibration
    (:mod:`companion.vision.card_calib`) decides it, and abstains on it without a model.
    """
    if classic.card and learned.card:
        if classic.card == learned.card:
            return learned
        return CardRead(None, learned.box, 0.0, "corners_disagree", learned.frame, True,
                        {"classic": classic.card, "learned": learned.card})
    if learned.card:
        if classic.reason in CLASSIC_VETO:
            return classic
        return learned
    if classic.card:
        sure_other = sorted(c for c, p in learned.detail.get("dissent", {}).items()
                            if c != classic.card and p >= VETO_P)
        support = classic.card in learned.detail.get("corners", ()) or not NEED_SUPPORT
        verdict = learned.reason in ("not_in_deck", "rank_picture_mismatch", "corners_disagree")
        if contest and sure_other and not verdict and support:
            return CardRead(classic.card, classic.box, classic.confidence, None, classic.frame, True,
                            {**classic.detail, "contested": sure_other})
        if verdict or sure_other or not support:
            return CardRead(None, classic.box, 0.0, "corners_disagree", classic.frame, True,
                            {"classic": classic.card, "learned": sure_other})
        other = max((p for c, p in learned.detail.get("probs", {}).items() if c != classic.card), default=0.0)
        if classic.confidence < classic_alone_min or (
                classic.confidence < classic_sure and card_probability(learned, classic.card) < other):
            return CardRead(None, classic.box, classic.confidence, "weak_index", classic.frame, True,
                            {"corners": [classic.card], "unsure": classic.card})
        return classic
    if classic.reason in CLASSIC_VETO or classic.reason == "face_down":
        return classic
    return learned
