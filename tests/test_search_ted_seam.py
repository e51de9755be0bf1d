"""The search computes every distance through transted.pipeline.ted's API, with the caller's CostModel."""

from __future__ import annotations

import pytest

from transted.pipeline.opt import parse_term
from transted.pipeline.search.engine import SearchConfig, search
from transted.pipeline.search.explain import explain, tree_diff
from transted.pipeline.search.providers.offline import OfflineProvider
from transted.pipeline.ted.cost import CostModel, PerOperationCost
from transted.pipeline.ted.distance import TreeEditDistance


class NumeralsCheap(CostModel):
    """A label-dependent model the search knows nothing about: numeral renames cost 0.1."""

    def delete(self, label: str) -> float:
        return 1.0

    def insert(self, label: str) -> float:
        return 1.0

    def rename(self, a: str, b: str) -> float:
        if a == b:
            return 0.0
        return 0.1 if a.isdigit() and b.isdigit() else 1.0

    @property
    def symmetric(self) -> bool:
        return True

    def describe(self) -> str:
        return "numerals-cheap"


@pytest.mark.parametrize("cost", [PerOperationCost(rename=0.25), NumeralsCheap()])
def test_search_distance_is_the_cost_models_distance(cost):
    a, b = parse_term("f 2 + x"), parse_term("f 3 + y")
    reference = TreeEditDistance(backend="zss", cost=cost)(a, b)  # independent backend
    result = search(a, b, [], config=SearchConfig(max_expansions=0),
                    ted=TreeEditDistance(cost=cost))
    assert result.start_distance == pytest.approx(reference)
    assert result.distance == pytest.approx(reference)
    # hand-derived: two renames (2→3, x→y)
    expected = 0.5 if isinstance(cost, PerOperationCost) else 1.1
    assert reference == pytest.approx(expected)


def test_search_with_moves_honours_the_cost_model():
    a, b = parse_term("∀ x : ℕ, x + 1 = 2"), parse_term("∀ y : ℕ, 1 + y = 3")
    unit = search(a, b, OfflineProvider())
    cheap = search(a, b, OfflineProvider(), ted=TreeEditDistance(cost=NumeralsCheap()))
    assert unit.distance == 1  # add_comm closes the shape, 2 vs 3 stays
    assert cheap.distance == pytest.approx(0.1)


def test_explain_uses_the_cost_models_alignment_and_similarity():
    a, b = parse_term("f 2 + x"), parse_term("f 3 + y")
    ted = TreeEditDistance(cost=NumeralsCheap())
    result = search(a, b, [], config=SearchConfig(max_expansions=0), ted=ted)
    out = explain(result, a.size(), ted)
    assert out.similarity == pytest.approx(1 - 1.1 / 4)  # 4 nodes: +, f, 2, x
    assert tree_diff(a, b, ted) == (("=", "=", "~", "~"), ("=", "=", "~", "~"))


def test_search_rejects_a_non_ted_object():
    with pytest.raises(TypeError, match="`ted`"):
        search(parse_term("x"), parse_term("y"), [], ted="unit")  # type: ignore[arg-type]
