"""The tiered dataset: for each formula with a human sentence, a Literal, an Optimised and the
Human text, each with a formulaicness score from its tier's bin (paper 004 §2 a–b, App. B).

Bins (:data:`TIER_BINS`). Paper 004 places each system's texts in a bin centred on its
TrueSkill fluency mean μ (normalised to [0, 1]) with half-width θ, from pairwise human
judgements of Calò et al. (2022), and takes formulaicness as 1 − the sampled value. We have no
judgements, so we take the paper's published bins (its Table 7) for the systems our
verbalisers re-implement: Literal [0.0, 0.295), LoLa [0.424, 0.815) for Optimised (LoLa is
Ranta's syntax plus logical simplification, as ours), Human [0.8, 1.0) (which the paper itself
set by assumption). A score is drawn uniformly within the bin from a seeded generator, as the
paper does; so within a tier the score carries no information and the best any text-only
model can do is recover the tier (:func:`tier_ceiling` gives that bound on a split).

Near-duplicates (App. B): a synthetic text within Levenshtein distance 10 of a text of a less
formulaic tier of the same formula is dropped, so a text keeps the least formulaic label that
produced it (a one-atom formula's "Rina is a student." stays Human only).

Split: 70/15/15, grouped so that all texts of one formula, and of formulas sharing a human
sentence, fall in one split; stratified by tier and token-length quartile within the tier (the paper
stratifies by score and length) with scikit-learn's ``StratifiedGroupKFold`` over 20 folds
(14 train, 3 validation, 3 test).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from transted.errors import ParseError, ResourceLimitError
from transted.fol.formulaicness.literal import verbalise_literal
from transted.fol.formulaicness.optimised import verbalise_optimised
from transted.fol.syntax import format_formula, parse_formula
from transted.reading.pairs import iter_jsonl

__all__ = ["Tier", "TIERS", "TIER_BINS", "SPLIT_FOLDS", "NEAR_DUPLICATE", "SourcePair",
           "TieredText", "Dataset", "read_folio", "build_dataset", "tier_ceiling",
           "near_duplicates", "tier_texts"]

Tier = Literal["literal", "optimised", "human"]
TIERS: tuple[Tier, ...] = ("literal", "optimised", "human")
TIER_BINS: dict[Tier, tuple[float, float]] = {
    "literal": (0.705, 1.0), "optimised": (0.185, 0.576), "human": (0.0, 0.2)}
"""Formulaicness bins (1 − paper 004 Table 7's naturalness bins)."""
SPLIT_FOLDS = {"train": range(0, 14), "validation": range(14, 17), "test": range(17, 20)}
NEAR_DUPLICATE = 10
"""Character Levenshtein distance under which two texts of one formula count as the same."""


@dataclass(frozen=True)
class SourcePair:
    """A formula and a human sentence for it, with where they were read."""

    formula: str
    sentence: str
    where: str


@dataclass(frozen=True)
class TieredText:
    """One dataset text: its formula group, tier, score and split."""

    text: str
    tier: Tier
    score: float
    formula: str
    group: int
    split: str = ""


@dataclass
class Dataset:
    """The texts, and the source pairs left out (formula does not parse) with the reason."""

    texts: list[TieredText]
    skipped: list[tuple[SourcePair, str]]

    def split(self, name: str) -> list[TieredText]:
        return [t for t in self.texts if t.split == name]


def read_folio(paths: Iterable[str | Path], *,
               conclusions: bool = True) -> tuple[list[SourcePair], list[str]]:
    """(formula, sentence) pairs of FOLIO files (each premise with its FOL, and the conclusion
    with its FOL when ``conclusions``), and the lines left out with why (FOLIO v0.0 has
    examples whose ``premises`` and ``premises-FOL`` differ in length: no alignment is
    guessed). Unreadable files and non-JSON lines raise errors naming file and line."""

    pairs: list[SourcePair] = []
    left_out: list[str] = []
    for path in paths:
        for number, obj in iter_jsonl(path):
            sentences, formulas = obj.get("premises"), obj.get("premises-FOL")
            if not isinstance(sentences, list) or not isinstance(formulas, list) \
                    or len(sentences) != len(formulas):
                left_out.append(f"{path}:{number}: `premises` and `premises-FOL` are not "
                                "lists of one length")
                continue
            items = list(zip(formulas, sentences, strict=True))
            if conclusions and "conclusion-FOL" in obj:
                items.append((obj["conclusion-FOL"], obj.get("conclusion", "")))
            pairs += [SourcePair(str(f).strip(), _sentence(str(s)), f"{path}:{number}")
                      for f, s in items if _sentence(str(s))]
    return pairs, left_out


def _sentence(text: str) -> str:
    """A FOLIO sentence with whitespace collapsed and without the ``[BG]`` marker FOLIO puts
    before background-knowledge premises (an annotation, not part of the sentence)."""
    text = " ".join(text.split())
    return text[4:].lstrip() if text.startswith("[BG]") else text


def _groups(keys: list[tuple[str, str]]) -> list[int]:
    """Connected components over (formula, sentence): shared formula or shared sentence."""
    parent: dict[str, str] = {}

    def find(a: str) -> str:
        while parent.setdefault(a, a) != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        return a

    for formula, sentence in keys:
        parent[find("f:" + formula)] = find("s:" + sentence.lower())
    roots: dict[str, int] = {}
    return [roots.setdefault(find("f:" + f), len(roots)) for f, _ in keys]


def near_duplicates(a: str, b: str, bound: int = NEAR_DUPLICATE) -> bool:
    """Whether the character Levenshtein distance of ``a`` and ``b`` is below ``bound``.

    Written out because only "below the bound" is needed: cells farther than ``bound`` from
    the diagonal cannot lead below it, so the table is a band, linear in the length (nltk's
    ``edit_distance`` fills the whole table, 80 % of the dataset build)."""
    if abs(len(a) - len(b)) >= bound:
        return False
    previous = list(range(len(b) + 1))
    for i, ca in enumerate(a, start=1):
        current = [i] + [bound] * len(b)
        for j in range(max(1, i - bound), min(len(b), i + bound) + 1):
            current[j] = min(previous[j] + 1, current[j - 1] + 1,
                             previous[j - 1] + (ca != b[j - 1]))
        if min(current) >= bound:
            return False
        previous = current
    return previous[-1] < bound


def tier_texts(formula: str, sentences: list[str]) -> list[tuple[Tier, str]]:
    """The kept (tier, text) of one formula (its human ``sentences`` first), after the
    near-duplicate rule."""

    tree = parse_formula(formula)
    kept: list[tuple[Tier, str]] = [("human", s) for s in sentences]
    for tier, text in (("optimised", verbalise_optimised(tree)), ("literal", verbalise_literal(tree))):
        if not any(near_duplicates(text.lower(), other.lower()) for _, other in kept):
            kept.append((tier, text))  # type: ignore[arg-type]
    return kept


def build_dataset(pairs: Iterable[SourcePair], *, seed: int = 0) -> Dataset:
    """Tiered texts of ``pairs`` with scores and splits (see the module docstring); a formula
    that does not parse is listed in ``skipped`` with its error."""
    import numpy as np


    by_formula: dict[str, list[str]] = {}
    skipped: list[tuple[SourcePair, str]] = []
    for pair in pairs:
        try:
            canonical = format_formula(parse_formula(pair.formula))
        except (ParseError, ResourceLimitError) as e:
            skipped.append((pair, str(e).splitlines()[0]))
            continue
        sentences = by_formula.setdefault(canonical, [])
        if pair.sentence not in sentences:
            sentences.append(pair.sentence)
    formulas = sorted(by_formula)
    if len(formulas) < len(SPLIT_FOLDS["train"]) + 6:
        raise ValueError(f"{len(formulas)} distinct formulas parse; a 70/15/15 split over 20 "
                         "folds needs at least 20")
    keys = [(f, by_formula[f][0]) for f in formulas]
    extra = [(f, s) for f in formulas for s in by_formula[f][1:]]
    group_of = dict(zip(formulas, _groups(keys + extra)[:len(keys)], strict=True))
    rng = np.random.default_rng(seed)
    texts: list[TieredText] = []
    for formula in formulas:
        for tier, text in tier_texts(formula, by_formula[formula]):
            low, high = TIER_BINS[tier]
            score = float(high - rng.uniform(0.0, high - low))  # (low, high], as 1 - [a, b)
            texts.append(TieredText(text, tier, score, formula, group_of[formula]))
    return Dataset(_assign_splits(texts, seed), skipped)


def _assign_splits(texts: list[TieredText], seed: int) -> list[TieredText]:
    import numpy as np
    from sklearn.model_selection import StratifiedGroupKFold

    lengths = np.array([len(t.text.split()) for t in texts])
    strata = [""] * len(texts)
    for tier in TIERS:  # length quartiles within each tier, so that no stratum is tiny
        rows = [i for i, t in enumerate(texts) if t.tier == tier]
        if not rows:
            continue
        cuts = np.quantile(lengths[rows], [0.25, 0.5, 0.75])
        for i in rows:
            strata[i] = f"{tier}-{int(np.searchsorted(cuts, lengths[i], side='right'))}"
    folds = StratifiedGroupKFold(n_splits=20, shuffle=True, random_state=seed)
    split_of: dict[int, str] = {}
    for fold, (_, held) in enumerate(folds.split(texts, strata, [t.group for t in texts])):
        name = next(n for n, r in SPLIT_FOLDS.items() if fold in r)
        split_of.update({texts[i].group: name for i in held})
    return [TieredText(t.text, t.tier, t.score, t.formula, t.group, split_of[t.group])
            for t in texts]


def tier_ceiling(texts: list[TieredText]) -> float:
    """Pearson r of the scores with their tier's bin centre: what a model that recovers the
    tier exactly (and knows nothing else) reaches, since scores are uniform within a bin."""
    import numpy as np

    scores = np.array([t.score for t in texts])
    centres = np.array([sum(TIER_BINS[t.tier]) / 2 for t in texts])
    return float(np.corrcoef(scores, centres)[0, 1])
