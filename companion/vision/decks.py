"""Deck profiles: what a table's physical deck looks like, learned from one photo per face.

A profile is a folder a user can copy between tables::

    ~/.local/share/companion/decks/NAME/      ($COMPANION_DECKS, $COMPANION_DATA/decks or $XDG_DATA_HOME/companion/decks)
        manifest.json   name, kind, alphabet, deck size, faces [{label, name, count}], format
        features.npz    one feature vector per face and orientation (float32), see FEATURE_*

Kinds:

* ``picture`` — picture cards with named kinds ("Верю — не верю", RULINGS §2: a table registers
  its own deck by showing the camera one card of each kind). Labels are the kinds.
* ``numbered`` — numbered cards (the 6100 game, RULINGS §4: values read from the face, one
  Infinity card). Labels are the values (``10``, ``333``, ``Infinity``).
* ``standard`` — a physical standard deck; labels are card codes (``QH``, ``10S``, ``JK``). The
  reader matches the learned faces first and falls back to reading the corner index.

A face labelled ``back`` teaches the back; the reader then reports face-down cards.

Matching: each detected card is rectified to :data:`FEATURE_SIZE` and compared (normalised
correlation of grey levels and of colour) with every learned face in both orientations, so an
upside-down card matches too. The answer carries a confidence from the similarity and the margin
to the best other label; below :data:`MIN_SIMILARITY` or :data:`MIN_MARGIN` the reader abstains.

Open set: a profile that lacks a face must not name its nearest learned face. Each learned face
is left out in turn and matched against the rest; the highest such similarity (an unknown face
as the profile itself would see it), plus :data:`OPEN_SET_SLACK`, is the profile's acceptance
line (:meth:`DeckProfile.open_set_threshold`); a weaker best match abstains (a ``standard``
profile then falls back to the corner index).
"""

from __future__ import annotations

import csv
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from companion.i18n import M
from companion.errors import CompanionError, VisionError
from companion.vision.images import IMAGE_SUFFIXES, image_files, load_image

FORMAT = "companion-deck/1"
KINDS = ("picture", "numbered", "standard")
#: Rectified card size (w, h) px for the grey feature; colour uses half of it.
FEATURE_SIZE = (40, 56)
#: Size (w, h) of the card-centre feature (values and names printed large).
CENTRE_SIZE = (64, 40)
#: Minimum similarity (0–1) and margin to the runner-up label for a confident match.
MIN_SIMILARITY, MIN_MARGIN = 0.6, 0.1
#: Open-set rejection: a match must beat the closest that any learned face comes to the *other*
#: learned faces when it is left out of the profile (leave-one-out, see
#: :meth:`DeckProfile.open_set_threshold`) by this much, else the card is an unknown face.
OPEN_SET_SLACK = 0.02
IMAGE_EXTS = set(IMAGE_SUFFIXES)  # companion.vision.images
#: :meth:`DeckProfile.read_value`'s answer for a clean printed number that is none of the
#: deck's values (a face the profile never learned).
UNKNOWN_VALUE = "?"
#: A numbered face's value read by OCR at this score or more is taken whatever the picture match.
SURE_VALUE = 0.95
_NAME_RE = re.compile(r"^[\w.-]{1,64}$")


class DeckArgumentError(CompanionError, ValueError):
    """A deck name, kind or card code that cannot be used (its words: :meth:`CompanionError.words`)."""


class DeckExistsError(CompanionError, FileExistsError):
    """A deck profile of that name is already there."""
_CODE_RE = re.compile(r"^(A|K|Q|J|10|[2-9])[SHDC]$|^JK$")


def decks_root() -> Path:
    """Where profiles live: ``$COMPANION_DECKS``, else ``$COMPANION_DATA/decks`` (the table's own
    data folder, as every other command uses it), else ``$XDG_DATA_HOME/companion/decks``, else
    ``~/.local/share/companion/decks``."""
    env = os.environ.get("COMPANION_DECKS")
    if env:
        return Path(env)
    data = os.environ.get("COMPANION_DATA")
    if data:
        return Path(data) / "decks"
    xdg = os.environ.get("XDG_DATA_HOME")
    base = Path(xdg) if xdg else Path.home() / ".local" / "share"
    return base / "companion" / "decks"


def card_feature(card: np.ndarray) -> np.ndarray:
    """Feature of a rectified card image (H×W×3 BGR, portrait): normalised grey levels and
    normalised colour (Lab a, b) and the ink of the card's centre at a higher resolution,
    concatenated; float32, norm √3."""
    inner = card[card.shape[0] // 25: -max(1, card.shape[0] // 25), card.shape[1] // 25: -max(1, card.shape[1] // 25)]
    small = cv2.resize(inner, FEATURE_SIZE, interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (3, 3), 0)
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    # local contrast normalisation: lighting gradients and white balance cancel out
    gray = gray - cv2.GaussianBlur(gray, (0, 0), 8)
    lab = cv2.cvtColor(cv2.resize(small, (FEATURE_SIZE[0] // 2, FEATURE_SIZE[1] // 2)), cv2.COLOR_BGR2LAB)
    ab = lab[..., 1:].astype(np.float32).ravel()
    # the centre at higher resolution, binarised ink: printed values and names (numbered decks)
    h, w = inner.shape[:2]
    centre = cv2.cvtColor(inner[int(h * 0.25):int(h * 0.75), int(w * 0.08):int(w * 0.92)], cv2.COLOR_BGR2GRAY)
    centre = cv2.resize(centre, CENTRE_SIZE, interpolation=cv2.INTER_AREA).astype(np.float32)
    centre = centre - cv2.GaussianBlur(centre, (0, 0), 6)
    centre = cv2.GaussianBlur(np.minimum(centre, 0), (0, 0), 1.0)
    parts = []
    for v in (gray.ravel(), ab, centre.ravel()):
        v = v - v.mean()
        n = np.linalg.norm(v)
        parts.append(v / n if n > 1e-6 else v)
    return np.concatenate(parts).astype(np.float32)


@dataclass
class Face:
    """One learned face: ``label`` (kind, value or card code), a display ``name`` and how many
    such cards the deck holds (``count``)."""
    label: str
    name: str = ""
    count: int = 1


@dataclass
class DeckProfile:
    """A learned deck (see the module docstring).

    Attributes:
        name: profile name (letters, digits, ``_ . -``).
        kind: ``picture``, ``numbered`` or ``standard``.
        faces: the learned faces.
        features: N×D float32, rows in ``feature_labels`` order (two per face: 0° and 180°).
        alphabet: index alphabet for ``standard`` decks (``auto``, ``en``, ``ru``, ``de``).
        deck_size: 52, 36 or 32 for ``standard`` decks.
    """
    name: str
    kind: str
    faces: list[Face]
    features: np.ndarray
    feature_labels: list[str]
    alphabet: str = "auto"
    deck_size: int = 52
    meta: dict = field(default_factory=dict)

    # ------------------------------------------------------------------ matching
    def match(self, card: np.ndarray) -> tuple[str | None, float, bool | None]:
        """Match a rectified card (H×W×3 BGR, portrait, from :func:`companion.vision.cards.rectify`).

        Returns:
            (label or None, confidence 0–1, face_up): ``face_up`` is False when the best match
            is the learned back, None when nothing matched.
        """
        if self.kind == "numbered":
            value, score = self.read_value(card)
            if value == UNKNOWN_VALUE:
                # a printed value the deck does not have: an unlearned face, never its nearest
                return None, 0.0, None
            if value is not None:
                # the printed value decides; the picture match must not contradict it strongly
                label, conf, up = self._match_features(card)
                # a value read this surely stands even when the picture match differs (a table
                # or light unlike the learning photo's moves the picture feature, not the digits)
                if label in (None, value) or score >= SURE_VALUE:
                    return value, float(min(1.0, score)), True
                return None, 0.0, None
        return self._match_features(card)

    def _match_features(self, card: np.ndarray) -> tuple[str | None, float, bool | None]:
        F, centre = self._centred()
        f = card_feature(card) - centre
        f /= max(1e-6, float(np.linalg.norm(f)))
        sims = F @ f
        best: dict[str, float] = {}
        for lab, s in zip(self.feature_labels, sims):
            if s > best.get(lab, -1):
                best[lab] = float(s)
        order = sorted(best.items(), key=lambda kv: -kv[1])
        top, sim = order[0]
        margin = sim - order[1][1] if len(order) > 1 else sim
        line = self.open_set_threshold()
        a = 0.5 + (sim - line) / (2 * (1 - line))
        b = 0.5 + (margin - MIN_MARGIN) / (4 * MIN_MARGIN)
        conf = float(max(0.0, min(1.0, a, b)))
        if conf < 0.5:
            return None, conf, None
        if top == "back":
            return None, conf, False
        return top, conf, True

    def read_value(self, card: np.ndarray) -> tuple[str | None, float]:
        """Numbered decks: read the printed value in the card's centre with RapidOCR (both ways
        up); returns (label, score) when the digits read are one of the deck's values,
        (:data:`UNKNOWN_VALUE`, score) for a clean number of two digits or more that is not,
        else (None, 0). About 0.1–0.3 s a card on 2 cores: for still images and settled cards."""
        from companion.vision.cards import rapid_text
        values = {f.label for f in self.faces if f.label != "back"}
        h, w = card.shape[:2]
        found: dict[str, float] = {}
        unknown = 0.0
        for rot in (card, cv2.rotate(card, cv2.ROTATE_180)):
            text, score = rapid_text(rot[int(h * 0.3):int(h * 0.7), int(w * 0.08):int(w * 0.92)])
            digits = "".join(ch for ch in text if ch.isdigit())
            if digits in values and score >= 0.8:
                found[digits] = max(found.get(digits, 0.0), score)
            elif len(digits) >= 2 and score >= 0.9 and digits == text.strip():
                unknown = max(unknown, score)  # a clean number, but none of the deck's values
        if len(found) == 1:
            return next(iter(found.items()))
        if not found and unknown:
            return UNKNOWN_VALUE, unknown
        return None, 0.0

    def _centred(self) -> tuple[np.ndarray, np.ndarray]:
        """Features minus the deck's mean face, unit norm: what all faces share (paper, frame,
        layout) is taken out, so faces that differ only in a value or a picture stand apart."""
        if getattr(self, "_cache", None) is None:
            centre = self.features.mean(axis=0) if len(set(self.feature_labels)) > 2 else np.zeros_like(self.features[0])
            F = self.features - centre
            F /= np.maximum(1e-6, np.linalg.norm(F, axis=1, keepdims=True))
            self._cache = (F.astype(np.float32), centre.astype(np.float32))
        return self._cache

    def open_set_threshold(self) -> float:
        """The similarity (0–1) a best match must exceed to name a learned face.

        Calibrated on the learned faces themselves, leave-one-out: each face (both
        orientations) is removed from the profile, the rest re-centred on their own mean face,
        and the removed face matched against them; that similarity is what an unknown face
        resembling the learned ones scores. The line is the highest of these plus
        :data:`OPEN_SET_SLACK`, and never below :data:`MIN_SIMILARITY`. A profile of fewer
        than three faces keeps :data:`MIN_SIMILARITY`. Derived from ``features`` only, so a
        copied or older profile gets the same line.
        """
        if getattr(self, "_open_line", None) is None:
            labs = np.array(self.feature_labels)
            faces = sorted({lb for lb in self.feature_labels if lb != "back"})
            worst = -1.0
            if len(faces) >= 3:
                for lab in faces:
                    keep = labs != lab
                    rest = self.features[keep]
                    centre = rest.mean(axis=0) if len(set(labs[keep])) > 2 else np.zeros_like(rest[0])
                    G = rest - centre
                    G /= np.maximum(1e-6, np.linalg.norm(G, axis=1, keepdims=True))
                    q = self.features[labs == lab] - centre
                    q /= np.maximum(1e-6, np.linalg.norm(q, axis=1, keepdims=True))
                    worst = max(worst, float((q @ G.T).max()))
            self._open_line = float(min(0.98, max(MIN_SIMILARITY, worst + OPEN_SET_SLACK)))
        return self._open_line

    def labels(self) -> list[str]:
        return [f.label for f in self.faces]

    # ------------------------------------------------------------------ files
    def save(self, root: Path | None = None, overwrite: bool = False) -> Path:
        """Write the profile folder under ``root`` (default :func:`decks_root`); returns it.

        Raises:
            FileExistsError: the profile exists and ``overwrite`` is False.
        """
        folder = Path(root or decks_root()) / self.name
        if folder.exists() and not overwrite:
            raise DeckExistsError(M("deck profile %(name)r already exists at %(folder)s", name=self.name,
                                    folder=str(folder)))
        folder.mkdir(parents=True, exist_ok=True)
        manifest = {
            "format": FORMAT, "name": self.name, "kind": self.kind, "alphabet": self.alphabet,
            "deck_size": self.deck_size,
            "faces": [{"label": f.label, "name": f.name or f.label, "count": f.count} for f in self.faces],
            "feature": {"size": list(FEATURE_SIZE), "centre": list(CENTRE_SIZE), "orientations": [0, 180]},
            # informative only: recomputed from features.npz when loaded
            "open_set": {"method": "leave-one-out", "threshold": round(self.open_set_threshold(), 4)},
            **self.meta,
        }
        np.savez_compressed(folder / "features.npz", features=self.features,
                            labels=np.array(self.feature_labels))
        (folder / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False, indent=2) + "\n",
                                              encoding="utf-8")
        return folder

    @classmethod
    def load(cls, name_or_path: str | Path, root: Path | None = None) -> "DeckProfile":
        """Load a profile by name (under ``root``) or by folder path.

        Raises:
            VisionError: no such profile, or its files are malformed.
        """
        p = Path(name_or_path)
        folder = p if (p.is_dir() and (p / "manifest.json").is_file()) else Path(root or decks_root()) / str(name_or_path)
        mf = folder / "manifest.json"
        if not mf.is_file():
            raise VisionError(M("no deck profile %(name)r (looked in %(folder)s; the list: companion deck list)",
                                name=str(name_or_path), folder=str(folder)))
        try:
            m = json.loads(mf.read_text(encoding="utf-8"))
            if m.get("format") != FORMAT:
                raise ValueError(f"unknown format {m.get('format')!r}")
            data = np.load(folder / "features.npz", allow_pickle=False)
            feats = data["features"].astype(np.float32)
            labels = [str(x) for x in data["labels"]]
            if (tuple(m["feature"]["size"]) != FEATURE_SIZE or feats.shape[0] != len(labels)
                    or tuple(m["feature"].get("centre", ())) != CENTRE_SIZE):
                raise ValueError("feature data does not match this version")
            faces = [Face(f["label"], f.get("name", ""), int(f.get("count", 1))) for f in m["faces"]]
            if m["kind"] not in KINDS:
                raise ValueError(f"unknown kind {m['kind']!r}")
        except (OSError, ValueError, KeyError, TypeError) as e:
            raise VisionError(M("deck profile %(folder)s is malformed: %(error)s", folder=str(folder), error=str(e))) from e
        meta = {"merged_photos": m["merged_photos"]} if isinstance(m.get("merged_photos"), dict) else {}
        return cls(m["name"], m["kind"], faces, feats, labels, m.get("alphabet", "auto"),
                   int(m.get("deck_size", 52)), meta)


def list_profiles(root: Path | None = None) -> list[str]:
    """Names of the profiles under ``root`` (default :func:`decks_root`), sorted."""
    r = Path(root or decks_root())
    if not r.is_dir():
        return []
    return sorted(p.name for p in r.iterdir() if (p / "manifest.json").is_file())


def _largest_card(image: np.ndarray) -> np.ndarray:
    """The rectified largest whole card in a photo (or the photo itself if it is a card scan)."""
    from companion.vision.cards import detect_cards, rectify, check_image
    image = check_image(image)
    frames = [f for f in detect_cards(image) if f.complete]
    H, W = image.shape[:2]
    if frames:
        f = max(frames, key=lambda f: f.size[0] * f.size[1])
        if f.size[0] * f.size[1] > 0.05 * H * W:
            return rectify(image, f.quad)
    asp = max(H, W) / min(H, W)
    if 1.25 <= asp <= 1.75:
        if W > H:
            image = cv2.rotate(image, cv2.ROTATE_90_CLOCKWISE)
        from companion.vision.render_cards import CARD_W, CARD_H
        return cv2.resize(image, (CARD_W, CARD_H), interpolation=cv2.INTER_AREA)
    raise VisionError(M("no whole card found in the photo"))


def check_name(name: str) -> str:
    """Refuse a deck profile name that cannot name a folder of the decks root: empty, longer
    than 64 characters, other characters than letters, digits, ``_ . -``, or only dots (``.``,
    ``..`` would name the decks folder itself or its parent). Returns ``name``.

    Raises:
        ValueError: the bad name, quoted, and what a name may hold (one line).
    """
    if not isinstance(name, str) or not _NAME_RE.match(name) or not name.strip("."):
        raise DeckArgumentError(M("bad deck name %(name)r: 1-64 letters, digits, '_', '.' or '-' (not only dots)",
                                  name=name))
    return name


def profile_from_images(name: str, images: dict[str, np.ndarray], kind: str = "picture",
                        names: dict[str, str] | None = None, counts: dict[str, int] | None = None,
                        alphabet: str = "auto", deck_size: int = 52) -> DeckProfile:
    """Build a profile from ``label → photo`` (H×W×3 BGR uint8, one card per photo).

    Raises:
        ValueError: a bad name, kind or (for ``standard``) card code.
        VisionError: a photo holds no whole card.
    """
    check_name(name)
    if kind not in KINDS:
        raise DeckArgumentError(M("unknown deck kind %(kind)r (%(kinds)s)", kind=kind, kinds=", ".join(KINDS)))
    if not images:
        raise DeckArgumentError(M("no photos to learn from"))
    feats, flabels, faces = [], [], []
    for label, img in images.items():
        if kind == "standard":
            check_code(label)
        card = _largest_card(img)
        for rot in (card, cv2.rotate(card, cv2.ROTATE_180)):
            feats.append(card_feature(rot))
            flabels.append(label)
        if label != "back":
            faces.append(Face(label, (names or {}).get(label, ""), int((counts or {}).get(label, 1))))
        else:
            faces.append(Face("back", "back", 0))
    return DeckProfile(name, kind, faces, np.array(feats, np.float32), flabels, alphabet, deck_size)


def check_code(label: str) -> None:
    """Raise :class:`DeckArgumentError` when ``label`` is neither ``back`` nor a card code (a
    ``standard`` deck's labels: ``QH``, ``10S``, ``JK``)."""
    if label != "back" and not _CODE_RE.match(label):
        raise DeckArgumentError(M("%(label)r is not a card code (QH, 10S, JK) for a standard deck", label=label))


def read_labels_file(path: Path) -> dict[str, tuple[str, str, int]]:
    """Parse a labels file: one line per photo, tab- or comma-separated:
    ``filename, label[, name[, count]]``; ``#`` starts a comment.

    Raises:
        VisionError: a malformed line (with its number).
    """
    out = {}
    text = Path(path).read_text(encoding="utf-8")
    delim = "\t" if "\t" in text else ","
    for n, row in enumerate(csv.reader(text.splitlines(), delimiter=delim), 1):
        if not row or not row[0].strip() or row[0].lstrip().startswith("#"):
            continue
        row = [c.strip() for c in row]
        if len(row) < 2 or not row[1]:
            raise VisionError(M("%(path)s:%(n)s: expected 'filename, label[, name[, count]]'", path=str(path), n=n))
        try:
            count = int(row[3]) if len(row) > 3 and row[3] else 1
        except ValueError:
            raise VisionError(M("%(path)s:%(n)s: count %(count)r is not a number", path=str(path), n=n,
                                count=row[3])) from None
        out[row[0]] = (row[1], row[2] if len(row) > 2 else "", count)
    return out


def learn(name: str, directory: Path, kind: str = "picture", labels_file: Path | None = None,
          alphabet: str = "auto", deck_size: int = 52, root: Path | None = None,
          overwrite: bool = False) -> tuple[DeckProfile, Path]:
    """``companion deck learn``: build and save a profile from a folder of photos, one per face.

    The label comes from ``labels_file`` (see :func:`read_labels_file`) or else the file name
    without extension (``Грибы.jpg``, ``333.jpg``, ``QH.png``, ``back.jpg``).

    Returns:
        (profile, folder written). Labels from file names that name one face photographed several
        times (``10C_00`` … ``10C_12``) are learned as that one face
        (:mod:`companion.vision.deck_repeats`): ``profile.meta["merged_photos"]`` lists them.

    The name, the kind and an existing profile are checked first, before any photo is read (a
    deck's photos take a while to load and learn).

    Raises:
        ValueError: a bad name (:func:`check_name`) or kind.
        VisionError: no photos, an unreadable photo, or a photo without a card (names the file).
        FileExistsError: the profile exists and ``overwrite`` is False.
    """
    check_name(name)
    if kind not in KINDS:
        raise DeckArgumentError(M("unknown deck kind %(kind)r (%(kinds)s)", kind=kind, kinds=", ".join(KINDS)))
    folder = Path(root or decks_root()) / name
    if folder.exists() and not overwrite:
        raise DeckExistsError(M("deck profile %(name)r already exists at %(folder)s (--force replaces it)", name=name,
                                folder=str(folder)))
    directory = Path(directory)
    if not directory.is_dir():
        raise VisionError(M("%(path)s is not a folder", path=str(directory)))
    table = read_labels_file(labels_file) if labels_file else None
    files = image_files(directory)
    if table is not None:
        files = [p for p in files if p.name in table]
        missing = set(table) - {p.name for p in files}
        if missing:
            raise VisionError(M("the labels file names photos that are not in %(folder)s: %(missing)s",
                                folder=str(directory), missing=", ".join(sorted(missing))))
    if not files:
        raise VisionError(M("no photos (%(kinds)s) in %(folder)s", kinds=", ".join(sorted(IMAGE_EXTS)),
                            folder=str(directory)))
    images, names, counts = {}, {}, {}
    for p in files:
        label, nm, count = table[p.name] if table else (p.stem, "", 1)
        if label in images:
            raise VisionError(M("two photos for the label %(label)r (%(photo)s)", label=label, photo=p.name))
        img = load_image(p)
        images[label] = img
        names[label] = nm
        counts[label] = count
    # labels from file names: one face photographed several times (10C_00 … 10C_12) is one face
    # (companion.vision.deck_repeats); a standard deck's codes are checked once they are merged
    by_name = table is None
    try:
        prof = profile_from_images(name, images, "picture" if by_name and kind == "standard" else kind, names,
                                   counts, alphabet, deck_size)
    except VisionError as e:
        # say which photo failed
        for label, img in images.items():
            try:
                _largest_card(img)
            except VisionError:
                raise VisionError(M("%(label)s: %(why)s", label=label, why=e.message or str(e))) from e
        raise
    if by_name:
        from companion.vision.deck_repeats import merge_repeats, repeated_faces

        groups = repeated_faces(prof)
        if groups:
            prof = merge_repeats(prof, groups)
        if kind == "standard":
            for f in prof.faces:
                check_code(f.label)
        prof.kind = kind
    return prof, prof.save(root, overwrite)
