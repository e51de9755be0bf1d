"""FOL metric speed (pairs/s) with same-run baselines, and LE's worst-case guards.

Pairs: for every example of ``tests/data/fol/folio/folio-validation.jsonl``, each premise
against the next premise of the same example (different formulas over shared vocabulary),
plus each premise against its paper-001 perturbations. Metrics: ``fol-bleu``, ``fol-le``,
``fol-rougeL`` and ``fol-sim`` when they are registered and importable (Sim's model load is
excluded: one warm-up pair per metric).

Baselines, measured in the same run on the same pairs:

* FOL-BLEU vs nltk's ``sentence_bleu`` on the same tokens with weights ``1/N``;
* LE vs a truth table built as LogicLLaMA builds it (a numpy boolean array of
  ``itertools.product([False, True], repeat=n)``, evaluated per binding), reusing our parser
  and binding order so only the truth-table representation differs.

Then the guards: a 30-atom formula with the default cap (clean error, no table built), and a
24-atom pair at the ceiling with a short timeout, each with its peak traced memory.

Usage: ``.venv/bin/python benchmarks/bench_fol.py [--max-pairs N] [--timeout S]``
"""

from __future__ import annotations

import argparse
import importlib.util
import itertools
import json
import time
import tracemalloc
import warnings
from pathlib import Path

import numpy as np

from transted.errors import ResourceLimitError, TranstedError
from transted.fol import le as le_module
from transted.fol.tokens import fol_tokens
from transted.metrics.registry import METRICS, get_metric
from transted.reading.pairs import Pair, Statement
from transted.studies.sensitivity.fol import perturbation_pairs

FOLIO = Path(__file__).resolve().parent.parent / "tests" / "data" / "fol" / "folio"


def bench_pairs(limit: int) -> list[Pair]:
    pairs: list[Pair] = []
    premises: dict[str, None] = {}
    with (FOLIO / "folio-validation.jsonl").open(encoding="utf-8") as f:
        for n, line in enumerate(f):
            fols = json.loads(line)["premises-FOL"]
            for i, (a, b) in enumerate(itertools.pairwise(fols)):
                pairs.append(Pair(id=f"{n}.{i}", reference=Statement(statement=a),
                                  candidate=Statement(statement=b)))
            premises.update(dict.fromkeys(fols))
    pairs += [p for p in perturbation_pairs(list(premises)) if p.meta["perturbation"] != "match"]
    return pairs[:limit]


def rate(fn, pairs: list[Pair]) -> tuple[float, int]:
    """Pairs per second over ``pairs`` and the number of pairs that raised a TranstedError."""
    errors = 0
    start = time.perf_counter()
    for p in pairs:
        try:
            fn(p)
        except TranstedError:
            errors += 1
    return len(pairs) / (time.perf_counter() - start), errors


def nltk_bleu(pair: Pair) -> float:
    from nltk.translate.bleu_score import sentence_bleu

    r, c = fol_tokens(pair.reference.statement), fol_tokens(pair.candidate.statement)
    n = min(4, len(r), len(c))
    if n == 0:
        return 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return sentence_bleu([r], c, weights=(1 / n,) * n)


def _numpy_value(tree, index: dict[str, int], table: np.ndarray) -> np.ndarray:
    from transted.fol.ast import Not, Pred

    if isinstance(tree, Pred):
        return table[:, index[tree.name]]
    if isinstance(tree, Not):
        return ~_numpy_value(tree.body, index, table)
    p, q = _numpy_value(tree.left, index, table), _numpy_value(tree.right, index, table)
    return {"∧": p & q, "∨": p | q, "⊕": p ^ q, "→": ~p | q, "↔": ~(p ^ q)}[tree.op]


def numpy_le(pair: Pair) -> float:
    """LE with LogicLLaMA's numpy truth table (baseline; same parser and binding order)."""
    try:
        ref = le_module.parse_le(pair.reference.statement)
        cand = le_module.parse_le(pair.candidate.statement)
    except TranstedError:
        return 0.0
    ra, ca = le_module._atom_names(ref), le_module._atom_names(cand)
    n = max(len(ra), len(ca))
    if n > 20:
        raise ResourceLimitError("baseline: too many atoms")
    ra += [f"#DUMMY_{i}" for i in range(n - len(ra))]
    ca += [f"#DUMMY_{i}" for i in range(n - len(ca))]
    table = np.array(list(itertools.product([False, True], repeat=n)))
    truth = _numpy_value(ref, {a: i for i, a in enumerate(ra)}, table)
    dist = [[le_module._distance(r, c) for c in ca] for r in ra]
    best = 0.0
    for binding in le_module._bindings(dist, 1000):
        index = {ca[c]: k for k, c in enumerate(binding)}
        best = max(best, float((_numpy_value(cand, index, table) == truth).mean()))
        if best == 1.0:
            break
    return best


def _measured(metric, pair):
    """Score one pair; return (result, seconds, peak traced bytes)."""
    tracemalloc.start()
    start = time.perf_counter()
    result = metric.score_pair(pair)
    took, peak = time.perf_counter() - start, tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return result, took, peak


def guards(timeout: float) -> None:
    thirty = " ∧ ".join(f"P{i}(a)" for i in range(30))
    pair = Pair(id="30", reference=Statement(statement=thirty), candidate=Statement(statement=thirty))
    result, took, peak = _measured(get_metric("fol-le"), pair)
    print(f"30 atoms, default cap: score={result.score} status={result.status} "
          f"in {took * 1000:.1f} ms, peak {peak / 2**20:.2f} MiB\n  error: {result.error}")
    print(f"  (LogicLLaMA's numpy table for 30 atoms would hold 2**30 × 30 booleans = "
          f"{2**30 * 30 / 2**30:.0f} GiB)")
    ref = " ∧ ".join(f"P{i}(a)" for i in range(24))
    cand = " ∨ ".join(f"P{i}(a)" for i in reversed(range(24)))
    pair = Pair(id="24", reference=Statement(statement=ref), candidate=Statement(statement=cand))
    result, took, peak = _measured(get_metric("fol-le", max_atoms=24, timeout=timeout), pair)
    print(f"24 atoms at the ceiling, timeout {timeout} s: score={result.score} "
          f"status={result.status} after {took:.2f} s, peak {peak / 2**20:.1f} MiB\n"
          f"  error: {result.error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--max-pairs", type=int, default=3000)
    parser.add_argument("--timeout", type=float, default=5.0)
    args = parser.parse_args()
    pairs = bench_pairs(args.max_pairs)
    print(f"{len(pairs)} pairs from FOLIO validation (consecutive premises + perturbations)")
    own = {"fol-bleu": ("nltk sentence_bleu", nltk_bleu), "fol-le": ("numpy table", numpy_le)}
    for name in ("fol-bleu", "fol-le", "fol-rougeL", "fol-sim"):
        module = METRICS[name].split(":")[0]
        if importlib.util.find_spec(module) is None:
            print(f"{name}: not available")
            continue
        metric = get_metric(name)
        metric.score_pair(pairs[0])  # warm-up (model load, caches)
        speed, _ = rate(metric.score_pair, pairs)
        line = f"{name:11s} {speed:9.0f} pairs/s"
        if name in own:
            label, fn = own[name]
            base, errors = rate(fn, pairs)
            line += f"   baseline {label}: {base:9.0f} pairs/s   ratio {speed / base:5.2f}x"
            if name == "fol-le":
                ours = [metric.score_pair(p).score for p in pairs]
                agree = sum(s is not None and abs(s - fn(p)) < 1e-9
                            for s, p in zip(ours, pairs, strict=True))
                scored = sum(s is not None for s in ours)
                line += (f"   same score on {agree} of the {scored} pairs LE scores "
                         f"({len(pairs) - scored} errors: unparseable reference or > max_atoms)")
        print(line)
    guards(args.timeout)


if __name__ == "__main__":
    main()
