"""Faces photographed several times in a ``companion deck learn`` folder: ``10C_00.jpg`` …
``10C_12.jpg`` are six photos of one card, not six faces.

A photo's label is its file name (:func:`companion.vision.decks.learn`); photos whose labels
differ only by a trailing number after a separator (``10C_00``, ``10C_01``; ``гриб-2``; ``гриб
(2)``) are one face when the pictures agree: each photo's nearest other photo, as the deck's reader
compares them (:meth:`DeckProfile._centred`, both orientations), is one of the group's. A group is
merged only when it is at most half the deck's photos (``card_1`` … ``card_24`` with nothing else
is a naming scheme, not one card) and the deck has other faces to compare with. The merged face
keeps every photo's features (more views of one face) under the shared label. Rules and figures:
``docs/vision-cards.md``, "Faces photographed several times".
"""

from __future__ import annotations

import re

import numpy as np

from companion.vision.decks import DeckProfile, Face

#: a label with a repeat number: ``10C_00``, ``гриб-2``, ``гриб 3``, ``гриб (2)`` → the face's label
_REPEAT = re.compile(r"^(?P<face>.+?)(?:[ _-]\d{1,3}| ?\(\d{1,3}\))$")


def face_of(label: str) -> str:
    """The face a photo's label names once a repeat number is taken off (``10C_00`` → ``10C``);
    the label itself when it has none (``333``, ``QH``)."""
    m = _REPEAT.match(label)
    return m.group("face") if m else label


def repeated_faces(prof: DeckProfile) -> dict[str, list[str]]:
    """``{face: [photo labels, …]}``: the groups of ``prof``'s labels that are one face
    photographed several times (see the module docstring), each group's labels sorted."""
    labels = [f.label for f in prof.faces if f.label != "back"]
    groups: dict[str, list[str]] = {}
    for lab in labels:
        groups.setdefault(face_of(lab), []).append(lab)
    groups = {k: sorted(v) for k, v in groups.items() if len(v) > 1 and 2 * len(v) <= len(labels)}
    if not groups or len(set(map(face_of, labels))) < 2:
        return {}
    F, _ = prof._centred()
    rows = np.array(prof.feature_labels)
    sims = F @ F.T
    index = {lab: np.flatnonzero(rows == lab) for lab in set(prof.feature_labels)}

    def nearest(lab: str) -> str:
        others = [o for o in index if o != lab]
        return max(others, key=lambda o: float(sims[np.ix_(index[lab], index[o])].max()))

    return {face: labs for face, labs in groups.items() if all(nearest(lab) in labs for lab in labs)}


def merge_repeats(prof: DeckProfile, groups: dict[str, list[str]]) -> DeckProfile:
    """``prof`` with each group of ``groups`` (:func:`repeated_faces`) learned as one face under
    its shared label: every photo's features kept, the first photo's name and count; the groups
    recorded in ``meta["merged_photos"]``."""
    into = {lab: face for face, labs in groups.items() for lab in labs}
    faces, seen = [], set()
    for f in prof.faces:
        label = into.get(f.label, f.label)
        if label in seen:
            continue
        seen.add(label)
        faces.append(Face(label, f.name if f.name != f.label else "", f.count))
    meta = dict(prof.meta, merged_photos={face: list(labs) for face, labs in sorted(groups.items())})
    return DeckProfile(prof.name, prof.kind, faces, prof.features, [into.get(x, x) for x in prof.feature_labels],
                       prof.alphabet, prof.deck_size, meta)
