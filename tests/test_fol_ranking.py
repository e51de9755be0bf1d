"""Ranking alignment (transted.fol.ranking) on examples built from paper 001's text."""

from __future__ import annotations

import math

import pytest

from transted.fol.ranking import (
    combine_scores,
    competition_ranks,
    consensus_ranks,
    metric_alignment,
    rank_rmse,
)
from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair, Statement

# Appendix C's example: FOL1 and FOL3 repeat the label, FOL2 is its contrapositive.
SQUARE = ("∀x (Square(x) → Shape(x))",
          ["∀x (Square(x) → Shape(x))", "∀x (¬Shape(x) → ¬Square(x))", "∀x (Square(x) → Shape(x))"])
# Figures 2-3: the eel label and gpt-4o's three samples.
EEL = ("∀x (Eel(x) → Fish(x))",
       ["∀x (E(x) → F(x))", "∀x (IsEel(x) → IsFish(x))", "∀x (Eel(x) → Fish(x))"])
# Hand-made annotators (three per record, as in the paper).
ANNOTATORS = [
    [[1, 2, 3], [1, 3, 2], [2, 3, 1]],   # pairwise: 1>2 (3/3), 1>3 (2/3), 3>2 (2/3) → [1, 3, 2]
    [[3, 2, 1], [2, 3, 1], [3, 2, 1]],   # 2>1 (2/3), 3>1 and 3>2 (3/3) → [3, 2, 1]
]


def scores(metric_name: str, record) -> list[float]:
    metric = get_metric(metric_name)
    label, candidates = record
    return [metric.score_pair(Pair(id=str(i), reference=Statement(statement=label),
                                   candidate=Statement(statement=c))).score
            for i, c in enumerate(candidates)]


def test_paper_tie_rule():
    assert competition_ranks([0.9, 0.9, 0.5]) == [1, 1, 3]   # "[1, 2, 3] → [1, 1, 3]"
    assert competition_ranks([0.2, 0.7, 0.7]) == [3, 1, 1]
    assert competition_ranks([1.0, 1.0, 1.0]) == [1, 1, 1]


def test_consensus_by_two_of_three_pairwise_wins():
    assert consensus_ranks(ANNOTATORS[0]) == [1, 3, 2]
    assert consensus_ranks(ANNOTATORS[1]) == [3, 2, 1]
    # a Condorcet cycle: every candidate wins once, so all share rank 1
    assert consensus_ranks([[1, 2, 3], [2, 3, 1], [3, 1, 2]]) == [1, 1, 1]


def test_metric_ranks_on_paper_examples():
    assert competition_ranks(scores("fol-bleu", SQUARE)) == [1, 3, 1]
    assert competition_ranks(scores("fol-le", SQUARE)) == [1, 1, 1]     # contrapositive is LE 1
    # E/F and IsEel/IsFish change the same tokens: an exact BLEU tie
    assert competition_ranks(scores("fol-bleu", EEL)) == [2, 2, 1]
    assert competition_ranks(scores("fol-le", EEL)) == [1, 1, 1]


def test_rmse_against_consensus_by_hand():
    records = [SQUARE, EEL]
    bleu = metric_alignment([scores("fol-bleu", r) for r in records], ANNOTATORS)
    le = metric_alignment([scores("fol-le", r) for r in records], ANNOTATORS)
    # BLEU ranks [1,3,1], [2,2,1] vs consensus [1,3,2], [3,2,1]: squared errors 0,0,1,1,0,0
    assert bleu == pytest.approx(math.sqrt(2 / 6))
    # LE ranks [1,1,1], [1,1,1]: squared errors 0,4,1,4,1,0
    assert le == pytest.approx(math.sqrt(10 / 6))
    combined = metric_alignment(
        [combine_scores(scores("fol-bleu", r), scores("fol-le", r)) for r in records], ANNOTATORS)
    assert combined == pytest.approx(math.sqrt(2 / 6))


@pytest.mark.parametrize("call, match", [
    (lambda: competition_ranks([]), "`scores`"),
    (lambda: competition_ranks([float("nan")]), "NaN"),
    (lambda: consensus_ranks([]), "`annotator_ranks`"),
    (lambda: consensus_ranks([[1, 2], [1, 2, 3]]), "`annotator_ranks`"),
    (lambda: rank_rmse([[1]], []), "`predicted`"),
    (lambda: rank_rmse([[1, 2]], [[1]]), "record 0"),
    (lambda: combine_scores([1.0], [1.0, 2.0]), "`per_metric`"),
    (lambda: metric_alignment([[1.0]], []), "`records_scores`"),
])
def test_argument_checks(call, match):
    with pytest.raises(ValueError, match=match):
        call()
