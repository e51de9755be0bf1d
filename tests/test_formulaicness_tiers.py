"""The tiered dataset (issue 26 item 2): bins, near-duplicate rule, split grouped by formula."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from transted.fol.formulaicness.tiers import (
    TIER_BINS,
    TIERS,
    SourcePair,
    build_dataset,
    read_folio,
    tier_ceiling,
    tier_texts,
)

FOLIO = Path(__file__).parent / "data" / "fol" / "folio"


@pytest.fixture(scope="module")
def folio_pairs() -> tuple[list[SourcePair], list[str]]:
    return read_folio([FOLIO / "folio-train.jsonl", FOLIO / "folio-validation.jsonl"])


def test_read_folio_reports_unaligned_lines(folio_pairs) -> None:
    pairs, left_out = folio_pairs
    assert len(pairs) > 6000
    assert left_out and all("not lists of one length" in m for m in left_out)
    assert not any(p.sentence.startswith("[BG]") for p in pairs)


def test_dataset_bins_splits_and_groups(folio_pairs) -> None:
    data = build_dataset(folio_pairs[0][:900], seed=1)
    assert data.texts and all(p.formula for p, _ in data.skipped)
    for t in data.texts:
        low, high = TIER_BINS[t.tier]
        assert low < t.score <= high
    split_of_formula: dict[str, set[str]] = {}
    for t in data.texts:
        split_of_formula.setdefault(t.formula, set()).add(t.split)
    assert all(len(s) == 1 for s in split_of_formula.values())  # grouped by formula
    sizes = Counter(t.split for t in data.texts)
    n = len(data.texts)
    assert abs(sizes["train"] / n - 0.70) < 0.05
    assert abs(sizes["validation"] / n - 0.15) < 0.05 and abs(sizes["test"] / n - 0.15) < 0.05
    assert {t.tier for t in data.split("test")} == set(TIERS)
    assert 0.5 < tier_ceiling(data.texts) <= 1.0


@pytest.mark.filterwarnings("ignore:The least populated class")
def test_dataset_is_deterministic(folio_pairs) -> None:
    subset = folio_pairs[0][:300]
    assert build_dataset(subset, seed=3).texts == build_dataset(subset, seed=3).texts
    assert build_dataset(subset, seed=3).texts != build_dataset(subset, seed=4).texts


def test_near_duplicate_keeps_the_least_formulaic_label() -> None:
    assert tier_texts("Student(rina)", ["Rina is a student."]) == [("human", "Rina is a student.")]
    # "Every cube is small." is 9 edits from "All cubes are small.": Optimised dropped
    kept = tier_texts("∀x (Cube(x) → Small(x))", ["All cubes are small."])
    assert [tier for tier, _ in kept] == ["human", "literal"]
    kept = tier_texts("∀x (Cube(x) → Small(x))", ["Cubes, without exception, are small ones."])
    assert [tier for tier, _ in kept] == ["human", "optimised", "literal"]


def test_unparsed_formulas_are_listed_and_tiny_inputs_refused() -> None:
    pairs = [SourcePair(f"P{i}(a) ∧ Q{i}(a)", f"A is p{i} and q{i}.", f"t:{i}") for i in range(25)]
    data = build_dataset([*pairs, SourcePair("∀x (", "broken", "t:x")])
    assert [(p.where, reason.split(",")[0]) for p, reason in data.skipped] == \
        [("t:x", "1:5: expected a formula")]
    with pytest.raises(ValueError, match="at least 20"):
        build_dataset(pairs[:5])
