"""A ``ted`` pair in a fresh process loads none of the heavy libraries (issue 34: start-up
budget), and the engines' and search's budgets load them before their clocks start."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEAVY = ("scipy", "sympy", "z3", "networkx", "torch")


def _loaded_after(code: str) -> dict[str, bool]:
    probe = code + f"\nimport json, sys\nprint(json.dumps({{m: m in sys.modules for m in {HEAVY!r}}}))"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, env=env, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_a_scored_ted_pair_loads_no_heavy_library():
    loaded = _loaded_after(
        "from transted.metrics.registry import get_metric\n"
        "from transted.reading.pairs import Pair, Statement\n"
        "ref = Statement(statement='theorem a (x : ℕ) (h : 0 < x) : x + 0 = x := sorry')\n"
        "cand = Statement(statement='theorem b (y : ℕ) (h : y > 0) : 0 + y = y := sorry')\n"
        "result = get_metric('ted').score_pair(Pair(id='p', reference=ref, candidate=cand))\n"
        "assert result.score is not None, result\n")
    assert loaded == dict.fromkeys(HEAVY, False)


def test_engine_and_search_budgets_load_the_libraries_before_their_clocks_start():
    search = _loaded_after("from transted.pipeline.search.engine import SearchConfig\n"
                           "SearchConfig().budget()\n")
    engines = _loaded_after("from transted.pipeline.evidence.refute import RefuteOptions, "
                            "engine_budget\nengine_budget(RefuteOptions())\n")
    for loaded in (search, engines):
        assert loaded["z3"] and loaded["sympy"] and loaded["networkx"]


POOL = ("multiprocessing", "concurrent.futures.process", "transted.running.executors.local")


def test_the_cli_scoring_one_pair_loads_no_process_pool():
    # the pool's module (multiprocessing, concurrent.futures: ~50 ms) is loaded when a pool
    # is made (transted.running.executors: names loaded on first use), not by `score REF CAND`
    probe = ("import json, sys\n"
             "from transted.cli import main\n"
             "code = main(['-q', 'score', 'theorem a (x : ℕ) : x + 0 = x := sorry',\n"
             "             'theorem b (y : ℕ) : 0 + y = y := sorry', '-m', 'ted'])\n"
             f"print(json.dumps([code, {{m: m in sys.modules for m in {POOL!r}}}]))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          timeout=120, env=env, check=True)
    code, loaded = json.loads(done.stdout.strip().splitlines()[-1])
    assert code == 0
    assert loaded == dict.fromkeys(POOL, False)


def test_the_collector_is_paused_for_a_block_and_restored():
    import gc

    from transted.loading import collector_paused, load_reference

    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # a caller's own pause is kept
    finally:
        gc.enable()
    load_reference("transted.metrics.ted:TEDSimilarity")
    assert gc.isenabled()
