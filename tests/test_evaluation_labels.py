"""Gold labels from `label` or EPLA categories (ASSESS §4.1)."""

from __future__ import annotations

import pytest

from transted.errors import InputError
from transted.reading.pairs import Pair, Statement
from transted.studies.evaluation.labels import gold_labels, parse_positive

S = Statement(statement="theorem a : True")


def pair(pid: str, label: bool | None = None, category: str | None = None) -> Pair:
    meta = {} if category is None else {"epla_category": category}
    return Pair(id=pid, reference=S, candidate=S, label=label, meta=meta)


PAIRS = [pair("1", category="a"), pair("2", category="(b)"), pair("3", category="c"),
         pair("4", category="D"), pair("5", category="e"), pair("6", label=True),
         pair("7", label=False)]


def test_default_is_mutually_provable() -> None:
    assert gold_labels(PAIRS).tolist() == [True, True, False, False, False, True, False]


def test_human_in_the_loop_positive_set() -> None:
    got = gold_labels(PAIRS, positive=parse_positive("a,b,c,d"))
    assert got.tolist() == [True, True, True, True, False, True, False]


def test_category_wins_over_label() -> None:
    assert gold_labels([pair("x", label=True, category="e")]).tolist() == [False]


@pytest.mark.parametrize("spec", ["", "a,f", "x"])
def test_bad_positive_spec(spec: str) -> None:
    with pytest.raises(ValueError, match="`positive`"):
        parse_positive(spec)


@pytest.mark.parametrize(("p", "match"), [(pair("u"), "no `label`"),
                                          (pair("v", category="z"), "epla_category")])
def test_bad_pairs_named(p: Pair, match: str) -> None:
    with pytest.raises(InputError, match=match) as e:
        gold_labels([p], source="data.jsonl")
    assert "data.jsonl" in str(e.value) and repr(p.id) in str(e.value)
