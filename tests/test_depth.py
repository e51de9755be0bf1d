"""Trees deeper than the cap are refused once, at parse time, with a positioned ``too_large``
line; trees at the cap go through every stage without recursion trouble (issue 25 item 1)."""

from __future__ import annotations

import pytest

from transted.errors import TooDeep
from transted.metrics.registry import get_metric
from transted.pipeline.evidence import RefuteOptions
from transted.pipeline.opt import parse_statement
from transted.pipeline.opt.parser import MAX_TREE_DEPTH
from transted.reading.pairs import Pair, Statement
from transted.running.batch import load_results, score_pairs


def chain(n: int, last: str = "x") -> str:
    return "theorem t : " + "x + " * n + f"{last} = 0 := sorry"


def _pair(pid: str, ref: str, cand: str) -> Pair:
    return Pair(id=pid, reference=Statement(statement=ref), candidate=Statement(statement=cand))


@pytest.mark.parametrize("name", ["ted", "transted"])
def test_the_24kb_sum_gives_a_positioned_too_large_line_and_the_batch_goes_on(tmp_path, name):
    huge = chain(6000)
    assert len(huge.encode()) > 24_000
    pairs = [_pair("a", chain(3), chain(3, "y")), _pair("huge", huge, chain(6000, "y")),
             _pair("c", chain(5), chain(4))]
    out = tmp_path / "out.jsonl"
    results = score_pairs(pairs, get_metric(name), out, jobs=1)
    assert [r.status for r in load_results(out)] == ["ok", "too_large", "ok"]
    # the chain x + x + … is left-associative: after k operators it is k + 1 deep, so the
    # operator number MAX_TREE_DEPTH makes it MAX_TREE_DEPTH + 1 deep
    offset = len("theorem t : ") + 4 * (MAX_TREE_DEPTH - 1) + 2
    assert results[1].details == {"needed": MAX_TREE_DEPTH + 1, "bound": MAX_TREE_DEPTH,
                                  "resource": "depth", "line": 1, "column": offset + 1}
    assert (results[1].error or "").startswith(f"huge reference:1:{offset + 1}: the term "
                                               f"nests deeper than {MAX_TREE_DEPTH} levels")
    assert huge[offset] == "+"


def test_binders_that_nest_past_the_cap_are_refused_at_a_binder_group():
    groups = [f"(x{i} : ℕ)" for i in range(MAX_TREE_DEPTH + 5)]
    text = "theorem t " + " ".join(groups) + " : x0 = x1 := sorry"
    with pytest.raises(TooDeep) as e:
        parse_statement(text)
    # the conclusion is 2 deep and each binder adds a level: the binder numbered
    # MAX_TREE_DEPTH - 1 (from 1) makes MAX_TREE_DEPTH + 1 levels
    k = MAX_TREE_DEPTH - 2
    assert e.value.offset == text.index(groups[k])
    assert e.value.line == 1 and e.value.column == e.value.offset + 1


def test_a_tree_at_the_cap_is_parsed():
    tree = parse_statement(chain(MAX_TREE_DEPTH - 3), options=None)
    assert tree.depth() <= MAX_TREE_DEPTH


SHAPES = {
    "left chain": chain(MAX_TREE_DEPTH - 5),
    "binders": "theorem t " + " ".join(f"(x{i} : ℕ)" for i in range(MAX_TREE_DEPTH - 5))
               + " : x0 = x1 := sorry",
    "hypotheses": "theorem t (x : ℕ) " + " ".join(f"(h{i} : x > {i})"
                                                  for i in range(MAX_TREE_DEPTH - 6))
                  + " : x = 1 := sorry",
    "forall": "theorem t : ∀ " + " ".join(f"x{i}" for i in range(MAX_TREE_DEPTH - 5))
              + " : ℕ, x0 = x1 := sorry",
    "mixed": "theorem t (x : ℝ) : " + "x * x + " * (MAX_TREE_DEPTH // 2 - 3) + "x = 0 := sorry",
}


def _with_stack(frames: int, call):  # noqa: ANN001 - a deep caller, as pytest or an app is
    return call() if frames == 0 else _with_stack(frames - 1, call)


@pytest.mark.slow
@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_trees_at_the_cap_pass_every_stage_under_a_deep_caller(shape):
    text = SHAPES[shape]
    small = "theorem t (x : ℕ) : x = 0 := sorry"
    # the engines' wall-clock safety net widened: this is about depth, and a loaded machine
    # must not turn the deep evaluation into a `timeout`
    relaxed = RefuteOptions(budget_ms=60_000.0, call_timeout_ms=30_000)
    metrics = [get_metric("ted"), get_metric("transted", max_time=None, evidence_options=relaxed)]
    for metric in metrics:
        for cand in (text, small):
            result = _with_stack(150, lambda m=metric, c=cand: m.score_pair(
                _pair(shape, text, c)))
            assert result.status in ("ok", "too_large"), result.error
            if result.status == "too_large":
                assert result.details["resource"] in ("work", "memory")
