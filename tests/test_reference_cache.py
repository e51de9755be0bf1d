"""The per-process reference cache: a repeated reference is read once, and the results are the
ones a fresh reading gives (the cache is invisible in outputs)."""

from __future__ import annotations

import copy

import pytest

from transted.errors import ParseError
from transted.metrics.registry import get_metric
from transted.pipeline import reference_cache
from transted.pipeline.opt import OptOptions
from transted.pipeline.reference_cache import BoundedCache
from transted.pipeline.sides import pair_trees
from transted.reading.pairs import Pair, Statement, read_pairs

REFERENCE = "theorem t (x : ℝ) (h : 0 < x) : f x ≤ x ^ 2"
HELPER = "def f (x : ℝ) : ℝ := x + 1"
CANDIDATES = ["theorem t (x : ℝ) (h : 0 < x) : f x ≤ x ^ 2",
              "theorem t (x : ℝ) (h : 0 < x) : f x < x ^ 2",
              "```lean\ntheorem t (y : ℝ) (hy : 0 < y) : f y ≤ y * y := by sorry\n```",
              "theorem t (x : ℝ) : f x ≤ x ^ 2"]


def _pair(i: int, candidate: str, *, header: str | None = None,
          helper: str = HELPER) -> Pair:
    return Pair(id=f"p{i}", reference=Statement(statement=REFERENCE, header=header),
                candidate=Statement(statement=candidate, header=header),
                meta={"reference_helper": helper})


@pytest.fixture(autouse=True)
def _fresh_cache():
    reference_cache.enable_reference_cache(True)
    yield
    reference_cache.enable_reference_cache(True)


def _results(metric_name: str, pairs: list[Pair]) -> list[str]:
    metric = get_metric(metric_name)
    return [metric.score_pair(p).model_dump_json() for p in pairs]


@pytest.mark.parametrize("metric", ["ted", "transted"])
def test_repeated_reference_hits_and_gives_the_uncached_results(metric):
    pairs = [_pair(i, c) for i, c in enumerate(CANDIDATES)]
    reference_cache.enable_reference_cache(False)
    uncached = _results(metric, pairs)
    assert reference_cache.PREPARED.hits == reference_cache.PREPARED.misses == 0
    reference_cache.enable_reference_cache(True)
    cached = _results(metric, pairs)
    assert cached == uncached
    assert reference_cache.PREPARED.misses == 1
    assert reference_cache.PREPARED.hits == len(pairs) - 1
    assert reference_cache.PARSED.hits >= len(pairs) - 1


def test_dev_pairs_with_repeated_references_score_as_without_cache():
    dev = read_pairs("tests/data/gted/proofnet.jsonl")[:6]
    # every reference against every candidate: each reference read 6 times
    pairs = [d.model_copy(update={"id": f"{d.id}#{c.id}", "candidate": c.candidate})
             for d in dev for c in dev]
    reference_cache.enable_reference_cache(False)
    uncached = _results("ted", pairs)
    reference_cache.enable_reference_cache(True)
    assert _results("ted", pairs) == uncached
    assert reference_cache.PREPARED.hits == len(pairs) - len(dev)


@pytest.mark.parametrize("change", [{"header": "open Real"},
                                    {"helper": "def f (x : ℝ) : ℝ := x + 2"}])
def test_a_different_header_or_helper_misses(change):
    pair_trees(_pair(0, CANDIDATES[1]), OptOptions())
    other = pair_trees(_pair(1, CANDIDATES[1], **change), OptOptions())
    assert reference_cache.PREPARED.misses == 2 and reference_cache.PREPARED.hits == 0
    reference_cache.enable_reference_cache(False)
    assert other == pair_trees(_pair(1, CANDIDATES[1], **change), OptOptions())


def test_different_tree_options_miss():
    pair_trees(_pair(0, CANDIDATES[0]), OptOptions())
    pair_trees(_pair(0, CANDIDATES[0]), OptOptions(canonical_names=True))
    assert reference_cache.PARSED.hits == 0 and reference_cache.PARSED.misses == 2


def test_cached_reading_is_not_changed_by_the_pairs_that_use_it():
    pair_trees(_pair(0, CANDIDATES[0]), OptOptions())
    kept = copy.deepcopy(list(reference_cache.PARSED._entries.items()))
    for i, candidate in enumerate(CANDIDATES):
        get_metric("transted").score_pair(_pair(i, candidate))
    now = dict(reference_cache.PARSED._entries)
    assert all(now[key] == value for key, value in kept)


def test_a_failing_reference_is_not_kept_and_names_each_pair():
    broken = [Pair(id=f"b{i}", reference=Statement(statement="theorem t : (1 +"),
                   candidate=Statement(statement=CANDIDATES[0])) for i in range(2)]
    for pair in broken:
        with pytest.raises(ParseError, match=f"{pair.id} reference"):
            pair_trees(pair, OptOptions())
    assert len(reference_cache.PREPARED) == 0


def test_bounded_cache_drops_the_least_recently_used():
    cache: BoundedCache[int] = BoundedCache(size=2)
    cache.get_or_compute("a", lambda: 1)
    cache.get_or_compute("b", lambda: 2)
    cache.get_or_compute("a", lambda: 0)  # a hit: "a" is now the most recent
    cache.get_or_compute("c", lambda: 3)
    assert cache.get_or_compute("a", lambda: -1) == 1
    assert cache.get_or_compute("b", lambda: -2) == -2  # "b" was dropped
    assert len(cache) == 2 and cache.hits == 2
