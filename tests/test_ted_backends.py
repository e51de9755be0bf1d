"""Every backend gives exactly the zss reference distance on every dev pair.

Trees: the Lean LSP trees of the 93 dev pairs (``meta.lsp_trees``) and our parser's trees of
both sides (as written and Lean's ``pretty`` form). zss is pure Python and takes up to 5 s on
one pair of our (deeper) parsed trees, so on those the fast tier checks the two
independent fast implementations (edist's Cython Zhang–Shasha, APTED) against each other and
the full tier (``pytest --full``) adds zss. The fast tier takes every fourth pair for the
parsed trees and every eighth for the LSP trees; the full tier takes them all.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from tiers import every_nth_fast

from transted.pipeline.opt.lsp_trees import lsp_tree_to_node
from transted.pipeline.opt.node import Node
from transted.pipeline.ted import BACKENDS, TreeEditDistance
from transted.reading.pairs import Pair, Statement, read_pairs

DEV = Path(__file__).parent / "data" / "gted" / "proofnet.jsonl"
PAIRS = read_pairs(DEV)


def _agree(t1: Node, t2: Node, reference: str = "zss") -> None:
    expected = TreeEditDistance(backend=reference, cache_size=0)(t1, t2)
    others = [name for name in BACKENDS if name != reference]
    got = {name: TreeEditDistance(backend=name, cache_size=0)(t1, t2) for name in others}
    assert got == dict.fromkeys(others, expected)


def test_dev_set_is_complete() -> None:
    assert len(PAIRS) == 93
    assert all("lsp_trees" in p.meta for p in PAIRS)


@pytest.mark.parametrize("pair", every_nth_fast(PAIRS, 8), ids=[p.id for p in PAIRS])
def test_backends_agree_on_lsp_trees(pair: Pair) -> None:
    trees = pair.meta["lsp_trees"]
    _agree(lsp_tree_to_node(trees["reference"]), lsp_tree_to_node(trees["candidate"]))


def _parse(side: Statement, field: str) -> Node:
    opt = pytest.importorskip("transted.pipeline.opt")
    if not hasattr(opt, "parse_statement"):  # only until the parser lands
        pytest.skip("transted.pipeline.opt.parse_statement does not exist yet")
    from transted.errors import TranstedError

    text = getattr(side, field) or side.statement
    try:
        return opt.parse_statement(text, header=side.header)
    except TranstedError as e:  # parse coverage is the parser's test; named here, not hidden
        pytest.skip(f"parser fails on this pair ({field}): {e}")


@pytest.mark.parametrize("field", ["statement", "pretty"])
@pytest.mark.parametrize("pair", every_nth_fast(PAIRS, 4), ids=[p.id for p in PAIRS])
def test_fast_backends_agree_on_parsed_trees(pair: Pair, field: str) -> None:
    t1, t2 = _parse(pair.reference, field), _parse(pair.candidate, field)
    assert (TreeEditDistance(backend="edist", cache_size=0)(t1, t2)
            == TreeEditDistance(backend="apted", cache_size=0)(t1, t2))


@pytest.mark.slow  # zss on parsed trees takes ~40 s of CPU: the full tier (`pytest --full`)
@pytest.mark.parametrize("field", ["statement", "pretty"])
@pytest.mark.parametrize("pair", PAIRS, ids=[p.id for p in PAIRS])
def test_backends_agree_with_zss_on_parsed_trees(pair: Pair, field: str) -> None:
    _agree(_parse(pair.reference, field), _parse(pair.candidate, field))
