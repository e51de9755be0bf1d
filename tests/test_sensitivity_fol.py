"""Perturbations of paper 001 §3.1 and the sensitivity table (transted.studies.sensitivity.fol)."""

from __future__ import annotations

import pytest

from transted.fol.syntax import format_formula, parse_formula
from transted.metrics.registry import get_metric
from transted.studies.sensitivity.fol import (
    PERTURBATIONS,
    letter_names,
    perturb,
    perturbation_pairs,
    perturbation_scores,
    sensitivity_table,
)


def show(text: str, kind: str) -> str | None:
    result = perturb(parse_formula(text), kind)
    return None if result is None else format_formula(result)


# Examples quoted in paper 001 §3.1 (its shortened forms, with our spacing).
@pytest.mark.parametrize("text, kind, expected", [
    ("∀x (W(x, c) → A(x, c))", "quantifier", "∃x (W(x, c) → A(x, c))"),
    ("∀x (¬W(x, c) → A(x, c))", "negation", "∀x (W(x, c) → ¬A(x, c))"),
    ("∀x (¬W(x, c) → A(x, c))", "operator", "W(x, c) ∨ A(x, c)"),
    ("¬WantToBeAddictedTo(caffeine)", "predicate", "NotWantToBeAddictedTo(caffeine)"),
    ("∀x (¬WantToBeAddictedTo(x, caffeine) → AwareThatDrug(x, caffeine))", "variable",
     "∀x (¬A(x, C) → B(x, C))"),
    ("P(a) ∧ Q(a) ∨ R(a)", "and_or", "(P(a) ∨ Q(a)) ∧ R(a)"),
    ("P(a) ⊕ Q(a) ∨ R(a)", "or_xor", "P(a) ∨ (Q(a) ⊕ R(a))"),
    ("∃x ∀y L(x, y)", "quantifier", "∀x ∃y L(x, y)"),
    ("¬(P(a) ∧ ¬Q(a))", "negation", "¬(¬P(a) ∧ Q(a))"),        # compound negation kept
])
def test_paper_examples(text, kind, expected):
    assert show(text, kind) == expected


@pytest.mark.parametrize("text, kind", [
    ("P(a) ∧ Q(a)", "quantifier"), ("P(a) → Q(a)", "and_or"), ("P(a) ∧ Q(a)", "or_xor"),
    ("P(a)", "operator"), ("P(a) ∨ Q(a)", "operator"), ("P(a) → Q(a)", "predicate"),
    ("A", "variable"),
])
def test_not_applicable_gives_none(text, kind):
    assert perturb(parse_formula(text), kind) is None


def test_unknown_kind():
    with pytest.raises(ValueError, match="`kind`"):
        perturb(parse_formula("P(a)"), "shuffle")


def test_letter_names():
    names = letter_names()
    first = [next(names) for _ in range(28)]
    assert first[:3] == ["A", "B", "C"] and first[25:] == ["Z", "AA", "AB"]


def test_table_averages_and_normalises():
    texts = ["∀x (P(x) → Q(x))", "R(a) ∧ ¬S(a)", "broken ∧"]
    skipped: list[tuple[str, str]] = []
    pairs = perturbation_pairs(texts, kinds=["quantifier", "and_or"], skipped=skipped)
    assert [p.id for p in pairs] == ["0:match", "0:reformat", "0:quantifier",
                                     "1:match", "1:reformat", "1:and_or"]
    assert skipped and skipped[0][0] == "broken ∧"
    scores = perturbation_scores(pairs, [get_metric("fol-le"), get_metric("fol-bleu")])
    applied = sensitivity_table(pairs, scores, total=2, over="applied")
    assert applied.applied == {"match": 2, "reformat": 2, "quantifier": 1, "and_or": 1}
    # R(a) ∧ ¬S(a) vs R(a) ∨ ¬S(a): they agree on 2 of 4 rows
    assert applied.normalized["and_or"]["fol-le"] == 0.5
    assert applied.normalized["quantifier"]["fol-le"] == 1.0
    every = sensitivity_table(pairs, scores, total=2, over="all")
    # formula 0 is unchanged by and_or and contributes its self-match 1.0
    assert every.normalized["and_or"]["fol-le"] == pytest.approx((1.0 + 0.5) / 2)
    bleu = scores["fol-bleu"]["1:and_or"]
    assert every.combined["and_or"]["fol-le+fol-bleu"] == pytest.approx(
        ((1 + 1) / 2 + (0.5 + bleu) / 2) / 2)
    assert every.rows == ["match", "reformat", "quantifier", "and_or"]
    with pytest.raises(ValueError, match="`over`"):
        sensitivity_table(pairs, scores, total=2, over="some")


def test_registry_order_follows_paper_table():
    assert list(PERTURBATIONS) == ["quantifier", "negation", "and_or", "or_xor", "operator",
                                   "predicate", "variable"]


def test_cli_perturb_and_parse_coverage(tmp_path, capsys):
    import json

    from transted.cli import main

    source = tmp_path / "formulas.txt"
    source.write_text("∀x (¬W(x, c) → A(x, c))\nP(a) ∧ Q(a) ∨ R(a)\nbroken (\n", encoding="utf-8")
    assert main(["fol", "perturb", str(source), "--json", "-m", "fol-le"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["all"]["total"] == 2 and len(payload["skipped"]) == 1
    assert payload["applied"]["applied"]["quantifier"] == 1
    assert payload["applied"]["normalized"]["variable"]["fol-le"] == 1.0
    assert main(["fol", "parse", "--file", str(source), "--json"]) == 0
    coverage = json.loads(capsys.readouterr().out)
    assert coverage["parsed"] == 2 and coverage["rejected"][0]["formula"] == "broken ("
