"""Texts no template produced (issue 26): hand-written pairs for formulas outside FOLIO, FOLIO
test-split human sentences, and length-controlled pairs where the natural text is the longer;
there the regressor must beat the length-only baseline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transted.errors import ParseError, ResourceLimitError
from transted.fol.formulaicness.features import tokens
from transted.fol.formulaicness.model import load_shipped_model
from transted.fol.formulaicness.report import build_report
from transted.fol.formulaicness.tiers import read_folio
from transted.fol.formulaicness.training import FOLIO_FILES, rebuild
from transted.fol.syntax import format_formula, parse_formula

DATA = Path(__file__).parent / "data"
HELD_OUT = DATA / "formulaicness"


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def _words(text: str) -> int:
    return sum(t[0].isalnum() for t in tokens(text))


@pytest.fixture(scope="module")
def handwritten() -> list[dict]:
    return _jsonl(HELD_OUT / "handwritten.jsonl")


@pytest.fixture(scope="module")
def report(handwritten) -> dict:
    """The report on the shipped model (rebuilds the dataset: about 20 s)."""
    run = rebuild(DATA / "fol" / "folio")
    cases = [r["text"] for r in _jsonl(HELD_OUT / "case_sentences.jsonl")]
    return build_report(run, handwritten, cases)


def test_handwritten_formulas_parse_and_are_not_in_folio(handwritten) -> None:
    pairs, _ = read_folio([DATA / "fol" / "folio" / name for name in FOLIO_FILES])
    folio = set()
    for pair in pairs:
        try:
            folio.add(format_formula(parse_formula(pair.formula)))
        except (ParseError, ResourceLimitError):
            continue
    ours = [format_formula(parse_formula(r["formula"])) for r in handwritten]
    assert len(set(ours)) == len(ours) == 40
    assert not set(ours) & folio


def test_length_controlled_pairs_have_the_longer_natural_text(handwritten) -> None:
    controlled = [r for r in handwritten if r["id"].startswith("l")]
    assert len(controlled) == 16
    assert all(_words(r["natural"]) > _words(r["literal"]) for r in controlled)


@pytest.mark.slow
def test_regressor_beats_length_on_length_controlled_pairs(report) -> None:
    for check in (report["handwritten"]["length_controlled"],
                  report["held_out_folio"]["length_controlled"]):
        assert check["n"] >= 16
        assert check["length"] == 0.0  # longer is always "more formulaic" for length
        assert check["model"] > check["length"]
        assert check["model"] >= 0.75  # at least three pairs in four ordered right


@pytest.mark.slow
def test_regressor_orders_held_out_texts(report) -> None:
    assert report["handwritten"]["general"]["model"] >= 0.9
    assert report["held_out_folio"]["all"]["model"] > report["held_out_folio"]["all"]["length"]
    test = report["test"]
    assert test["model"]["pearson"] > test["length"]["pearson"] + 0.3
    assert test["model"]["spearman"] > test["length"]["spearman"] + 0.3
    assert test["model"]["pearson"] <= test["tier_ceiling_pearson"] + 0.02


@pytest.mark.slow
def test_case_outside_not_the_case_is_not_formulaic(report) -> None:
    """Paper 004 Table 10: *case* in ordinary sentences scores low."""
    assert all(row["formulaicness"] < 0.3 for row in report["case_sentences"])


@pytest.mark.slow
def test_tier_means_are_ordered(report) -> None:
    for split in ("train", "validation", "test"):
        rows = {r["tier"]: r for r in report["tiers"] if r["split"] == split}
        assert rows["literal"]["model"][1] > rows["optimised"]["model"][2]  # CIs apart
        assert rows["optimised"]["model"][1] > rows["human"]["model"][2]
    examples = report["examples"]
    assert len(examples) == 9 and all(0 <= e["formulaicness"] <= 1 for e in examples)


def test_shipped_model_scores_handwritten_deterministically(handwritten) -> None:
    model = load_shipped_model()
    texts = [r["literal"] for r in handwritten] + [r["natural"] for r in handwritten]
    assert model.predict(texts).tolist() == model.predict(texts).tolist()
