"""published:<key> re-scores the per-pair values stored in meta.published_scores."""

from __future__ import annotations

import math

import pytest

from transted.metrics.registry import get_metric
from transted.reading.pairs import Pair, Statement

S = Statement(statement="theorem a : True")


def pair(scores: object) -> Pair:
    return Pair(id="p1", reference=S, candidate=S, meta={"published_scores": scores})


def test_float_value() -> None:
    r = get_metric("published:gted").score_pair(pair({"gted": 0.25}))
    assert r.score == 0.25 and r.metric == "published:gted" and not r.details.get("binary")
    assert r.signature.startswith("metric:published:gted|")


@pytest.mark.parametrize(("value", "score"), [(True, 1.0), (False, 0.0)])
def test_bool_value_is_a_verdict(value: bool, score: float) -> None:
    r = get_metric("published:beq").score_pair(pair({"beq": value}))
    assert r.score == score and r.details == {"binary": True}


@pytest.mark.parametrize("scores", [{}, {"other": 1.0}, None, {"gted": "high"},
                                    {"gted": math.nan}])
def test_missing_or_bad_value_is_a_pair_error(scores: object) -> None:
    r = get_metric("published:gted").score_pair(pair(scores))
    assert r.score is None and r.status == "error" and "p1" in (r.error or "")


def test_empty_key_rejected() -> None:
    with pytest.raises(ValueError, match="key"):
        get_metric("published:")
