"""Evidence on the dev pairs and the candidate-false check on the benchmark statements.

* dev pairs (``tests/data/gted/proofnet.jsonl``): evidence kind per pair, agreement of
  ``proved`` (label true) and ``refuted`` (label false) with the expert labels, every
  disagreement, median/p95 ms per pair;
* ``--perturb``: each benchmark statement against edits of itself (numeral + 1, ``<``/``≤``
  swapped, first hypothesis dropped, ℝ → ℕ; faithful: ``eq_comm``, ``add_comm``): how many
  are refuted/proved; a refuted faithful rewrite would be a soundness bug;
* statements (``tests/data/statements``): each statement alone, per engine (``eval``, ``z3``,
  both): how many are claimed false (each is a soundness bug or a false benchmark statement)
  and how many abstain; median/p95 ms.

Usage: ``.venv/bin/python benchmarks/bench_evidence.py [--pairs-only|--statements-only]
[--out DIR]`` — writes ``DIR/evidence_pairs.jsonl`` / ``DIR/evidence_statements.jsonl``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

from transted.errors import TranstedError
from transted.pipeline.evidence import RefuteOptions, pair_evidence, statement_evidence
from transted.pipeline.opt import Node, parse_statement, parse_statement_normalized
from transted.pipeline.opt.elaborate import Elaboration
from transted.reading.pairs import read_pairs

ROOT = Path(__file__).resolve().parents[1]


def _stats(ms: list[float]) -> str:
    if not ms:
        return "n=0"
    ms = sorted(ms)
    return (f"n={len(ms)} median={statistics.median(ms):.1f} ms "
            f"p95={ms[min(len(ms) - 1, int(0.95 * len(ms)))]:.1f} ms max={ms[-1]:.1f} ms")


def dev_pairs(out: Path, options: RefuteOptions) -> None:
    rows, ms, walls, counts, agree = [], [], [], Counter(), Counter()
    for pair in read_pairs(ROOT / "tests/data/gted/proofnet.jsonl"):
        t0 = time.perf_counter()
        try:  # each side's elaboration under its header, as the metric passes them
            ref = _elaboration(pair.reference.statement, pair.reference.header)
            cand = _elaboration(pair.candidate.statement, pair.candidate.header)
        except TranstedError as e:
            counts["parse-error"] += 1
            rows.append({"id": pair.id, "kind": "parse-error", "reason": str(e)[:200]})
            continue
        ev = pair_evidence(ref, cand, options)
        wall = (time.perf_counter() - t0) * 1000
        ms.append(ev.ms)
        walls.append(wall)
        counts[ev.kind] += 1
        if ev.kind != "none" and pair.label is not None:
            ok = (ev.kind == "proved") == pair.label
            agree[(ev.kind, ok)] += 1
            if not ok:
                print(f"DISAGREE {pair.id} evidence={ev.kind} label={pair.label}\n"
                      f"  ref:  {pair.reference.statement}\n  cand: {pair.candidate.statement}\n"
                      f"  {ev.model_dump(exclude_defaults=True)}")
        rows.append({"id": pair.id, "label": pair.label, "wall_ms": wall,
                     **ev.model_dump(mode="json")})
    (out / "evidence_pairs.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    print(f"dev pairs: {dict(counts)}")
    for kind in ("proved", "refuted"):
        print(f"  {kind}: agree with labels {agree[(kind, True)]}, disagree {agree[(kind, False)]}")
    print(f"  time per pair (evidence): {_stats(ms)}")
    print(f"  time per pair (parse, elaborate and evidence): {_stats(walls)}")


def _elaboration(text: str, header: str | None) -> Elaboration:
    found = parse_statement_normalized(text, header=header).elaboration
    assert found is not None
    return found


def _statement_trees() -> Iterator[tuple[str, int, dict, Node | None]]:
    """(file name, line number, row, tree or None when it does not parse) of every bundled
    miniF2F/ProofNet statement."""
    for f in sorted((ROOT / "tests/data/statements").glob("*.jsonl")):
        for i, line in enumerate(f.read_text(encoding="utf-8").splitlines()):
            d = json.loads(line)
            text = d["formal_statement"]
            try:
                tree = parse_statement(text if ":=" in text else text + " := sorry",
                                       header=d.get("header"))
            except TranstedError:
                tree = None
            yield f.name, i + 1, d, tree


def statements(out: Path, options: RefuteOptions) -> None:
    for engines in (("eval",), ("z3",), ("eval", "z3")):
        opts = RefuteOptions(**{**options.__dict__, "engines": engines})
        counts, ms, rows = Counter(), [], []
        for file, number, d, tree in _statement_trees():
            if tree is None:
                counts["parse-error"] += 1
                continue
            ev = statement_evidence(tree, opts)
            counts[ev.kind] += 1
            ms.append(ev.ms)
            if ev.kind == "refuted":
                print(f"CLAIMED FALSE [{'+'.join(engines)}] {file}:{number} {d['name']} "
                      f"witness={ev.witness} engine={ev.engine}\n  "
                      f"{d['formal_statement'].strip()}")
            rows.append({"file": file, "line": number, "name": d["name"],
                         **ev.model_dump(mode="json")})
        name = "+".join(engines)
        (out / f"evidence_statements_{name}.jsonl").write_text(
            "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
        print(f"statements [{name}]: {dict(counts)}; {_stats(ms)}")


# -- perturbation sanity check (a meaning-changing edit should be refuted; a faithful rewrite
#    must never be) ---------------------------------------------------------------------------
_S = "<SLOT>"


def _spine(tree: Node) -> list[tuple[int, ...]]:
    """Paths of the ∀/→ spine nodes, the conclusion's path last."""
    path: tuple[int, ...] = ()
    out = []
    node = tree
    while node.label in (f"∀ {_S}, {_S}", f"{_S} → {_S}"):
        out.append(path)
        path += (1,)
        node = node.children[1]
    out.append(path)
    return out


def _at(tree: Node, path: tuple[int, ...]) -> Node:
    for i in path:
        tree = tree.children[i]
    return tree


def _replace(tree: Node, path: tuple[int, ...], new: Node) -> Node:
    if not path:
        return new
    kids = list(tree.children)
    kids[path[0]] = _replace(kids[path[0]], path[1:], new)
    return tree.with_children(tuple(kids))


def _first(tree: Node, path: tuple[int, ...], pred) -> tuple[int, ...] | None:  # noqa: ANN001
    stack = [(path, _at(tree, path))]
    while stack:
        p, n = stack.pop()
        if pred(n):
            return p
        stack.extend((p + (i,), c) for i, c in reversed(list(enumerate(n.children))))
    return None


def perturbations(tree: Node) -> dict[str, Node]:
    spine = _spine(tree)
    concl = spine[-1]
    out: dict[str, Node] = {}
    p = _first(tree, concl, lambda n: n.is_leaf and n.label.isdigit())
    if p is not None:
        out["numeral+1"] = _replace(tree, p, Node(str(int(_at(tree, p).label) + 1)))
    swap = {f"{_S} < {_S}": f"{_S} ≤ {_S}", f"{_S} ≤ {_S}": f"{_S} < {_S}",
            f"{_S} > {_S}": f"{_S} ≥ {_S}", f"{_S} ≥ {_S}": f"{_S} > {_S}"}
    p = _first(tree, concl, lambda n: n.label in swap)
    if p is not None:
        n = _at(tree, p)
        out["strict<->nonstrict"] = _replace(tree, p, Node(swap[n.label], n.children))
    arrows = [q for q in spine[:-1] if _at(tree, q).label == f"{_S} → {_S}"]
    if arrows:
        out["drop-hypothesis"] = _replace(tree, arrows[0], _at(tree, arrows[0]).children[1])
    p = _first(tree, (), lambda n: n.is_leaf and n.label == "ℝ")
    if p is not None:
        out["ℝ->ℕ"] = _replace(tree, p, Node("ℕ"))
    p = _first(tree, concl, lambda n: n.label == f"{_S} = {_S}")
    if p is not None:
        n = _at(tree, p)
        out["faithful:eq_comm"] = _replace(tree, p, Node(n.label, n.children[::-1]))
    p = _first(tree, concl, lambda n: n.label == f"{_S} + {_S}")
    if p is not None:
        n = _at(tree, p)
        out["faithful:add_comm"] = _replace(tree, p, Node(n.label, n.children[::-1]))
    return out


def perturb(out: Path, options: RefuteOptions) -> None:
    counts: Counter = Counter()
    ms: list[float] = []
    rows = []
    for file, number, _, tree in _statement_trees():
        if tree is None:
            continue
        for kind, cand in perturbations(tree).items():
            ev = pair_evidence(tree, cand, options)
            ms.append(ev.ms)
            counts[(kind, ev.kind)] += 1
            rows.append({"file": file, "line": number, "perturbation": kind,
                         **ev.model_dump(mode="json")})
            if kind.startswith("faithful") and ev.kind == "refuted":
                print(f"SOUNDNESS? {file}:{number} {kind} refuted {ev.witness}")
    (out / "evidence_perturbations.jsonl").write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    for kind in sorted({k for k, _ in counts}):
        n = sum(v for (k, _), v in counts.items() if k == kind)
        print(f"{kind:22s} n={n:4d} refuted={counts[(kind, 'refuted')]:4d} "
              f"proved={counts[(kind, 'proved')]:4d} none={counts[(kind, 'none')]:4d}")
    print(f"  time per pair: {_stats(ms)}")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--pairs-only", action="store_true")
    parser.add_argument("--statements-only", action="store_true")
    parser.add_argument("--perturb", action="store_true",
                        help="only the perturbation sanity check on the benchmark statements")
    parser.add_argument("--out", default="/tmp/transted-evidence")
    parser.add_argument("--budget-ms", type=float, default=200.0)
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    options = RefuteOptions(budget_ms=args.budget_ms)
    if args.perturb:
        perturb(out, options)
        return
    if not args.statements_only:
        dev_pairs(out, options)
    if not args.pairs_only:
        statements(out, options)


if __name__ == "__main__":
    main()
