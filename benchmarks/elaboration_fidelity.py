"""The offline elaborator against Lean's own goals (tests/data/statements, 859 statements).

Every statement there compiled in Lean, and its ``goal`` field is Lean's pretty-printed goal,
which shows a ``↑`` for each coercion the elaborator inserted. So:

* a statement with an issue of :data:`~transted.pipeline.opt.elaborate.MEANING_KINDS` (Lean rejects it,
  or a name is an auto-bound variable) is, on these statements, a difference of the pinned
  Mathlib from the statements' (renamed/removed names), an overload the tables cannot settle,
  or a modelling error to fix: each is listed by ``--show KIND``; a statement whose only
  issues are such is counted "rejected (false alarm)"; ``unsupported``/``undecided-instance``/
  ``uninferred`` are abstentions;
* on statements elaborated without an issue, the number of ``↑`` Lean printed should equal
  the number of coercions the model inserted; the same for the dev pairs' sides against their
  ``pretty`` field (Lean's pretty-printed statement).

Run from the repository root: ``PYTHONPATH=. python benchmarks/elaboration_fidelity.py``
(``--show KIND`` prints the statements with that issue kind, ``--show casts`` the cast-count
disagreements).
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

from transted.errors import TranstedError
from transted.pipeline.opt import OptOptions, parse_statement_normalized
from transted.pipeline.opt.elaborate.types import coe_steps
from transted.reading.pairs import read_pairs

FILES = ("tests/data/statements/minif2f.jsonl", "tests/data/statements/proofnet.jsonl")
DEV = "tests/data/gted/proofnet.jsonl"
_REJECTING = ("missing-instance", "type-mismatch", "ambiguous", "scoped-notation", "unknown-name",
              "auto-bound")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    ap.add_argument("--show", default=None, help="an issue kind, or `casts`")
    args = ap.parse_args()
    outcome: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    casts = Counter[str]()
    for file in FILES:
        for line in Path(file).read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            try:
                # the elaboration of the statement as written, under its header
                e = parse_statement_normalized(row["formal_statement"], header=row.get("header"),
                                               options=OptOptions(normalize=False)).elaboration
            except TranstedError:
                outcome["parse error"] += 1
                continue
            assert e is not None
            found = sorted({i.kind for i in e.issues})
            kinds.update(found)
            if found and all(k in _REJECTING for k in found):
                outcome["rejected (false alarm)"] += 1
            elif found:
                outcome["abstained"] += 1
            else:
                outcome["elaborated"] += 1
                lean = row["goal"].count("↑")
                ours = sum(coe_steps(n.type, n.coerced_to) for _p, _n, n in e.walk()
                           if n is not None and n.coerced_to is not None)
                casts["equal" if lean == ours else "differ"] += 1
                casts["with ↑ (Lean)"] += lean > 0
                if args.show == "casts" and lean != ours:
                    print(f"{row['name']}: Lean ↑×{lean}, ours ×{ours}\n  {e.render()}\n"
                          f"  {row['goal'].splitlines()[-1]}")
            if args.show in found:
                print(f"{row['name']}: " + "; ".join(str(i) for i in e.issues
                                                     if i.kind == args.show))
    print("statements:", dict(outcome))
    print("issue kinds (statements with at least one):", dict(kinds.most_common()))
    meaning = sum(kinds[k] for k in _REJECTING)
    print(f"statements with an issue that says Lean rejects or re-reads them: {meaning} "
          "(every statement here compiled in Lean; see --show KIND)")
    print("↑ count vs Lean's goal, on elaborated statements:", dict(casts))
    print("↑ count vs Lean's `pretty` text of the dev pairs (tests/data/gted), on sides "
          "elaborated with no issue:", dict(dev_pretty_casts(args.show == "casts")))


def dev_pretty_casts(show: bool) -> Counter[str]:
    """Each dev side's statement elaborated under its header against Lean's pretty-printed
    form of it (the ``pretty`` field shows a ``↑`` for every coercion Lean inserted)."""
    out: Counter[str] = Counter()
    for pair in read_pairs(DEV):
        for side in ("reference", "candidate"):
            st = getattr(pair, side)
            if st.pretty is None:
                continue
            try:
                e = parse_statement_normalized(st.statement, header=st.header,
                                               options=OptOptions(normalize=False)).elaboration
            except TranstedError:
                out["parse error"] += 1
                continue
            assert e is not None
            if e.issues:
                out["with an issue"] += 1
                continue
            lean = st.pretty.count("↑")
            ours = sum(coe_steps(n.type, n.coerced_to) for _p, _n, n in e.walk()
                       if n is not None and n.coerced_to is not None)
            out["equal" if lean == ours else "differ"] += 1
            out["with ↑ (Lean)"] += lean > 0
            if show and lean != ours:
                print(f"{pair.id} {side}: Lean ↑×{lean}, ours ×{ours}\n  {e.render()}\n"
                      f"  {st.pretty}")
    return out


if __name__ == "__main__":
    main()
