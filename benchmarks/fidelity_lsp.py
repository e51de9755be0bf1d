"""Fidelity to Lean: TED similarity between our offline tree of Lean's pretty-printed statement
and the tree GTED built from Lean's language server (``meta.lsp_trees``), after label mapping.

Run: ``python benchmarks/fidelity_lsp.py [PAIRS.jsonl]`` (default: the bundled dev set).
Three rows: our trees without normalisation; normalised (:mod:`transted.pipeline.opt.normalize`) against
the raw LSP trees, which are Lean's *delaborated* surface (they keep ``≠ > √ |·|``, so the
reducible unfoldings move away from them); and normalised against the LSP trees put through the
same table-driven steps under the same header (its names resolved by the same name table; no
auto-bound binders: the LSP trees' binders are not ours).
Both trees are in statement form (a ``theorem`` root), as GTED's are; GTED's extra ``: <SLOT>``
node above the type is the one structural convention the mapping keeps, so a perfect match
costs at least that node.
"""

from __future__ import annotations

import statistics
import sys
from pathlib import Path

from transted.errors import TranstedError
from transted.pipeline.opt import OptOptions, parse_statement
from transted.pipeline.opt.elaborate import scope_from_header
from transted.pipeline.opt.lsp_trees import lsp_tree_to_node
from transted.pipeline.opt.normalize import normalize
from transted.pipeline.ted import ted_similarity
from transted.reading.pairs import read_pairs

DEFAULT = Path(__file__).resolve().parent.parent / "tests" / "data" / "gted" / "proofnet.jsonl"


def main(path: Path = DEFAULT) -> None:
    for title, norm, norm_lsp in (("normalisation off", False, False),
                                  ("normalised, raw LSP trees", True, False),
                                  ("normalised, LSP trees normalised too", True, True)):
        print(f"== {title}")
        fidelity(path, norm, norm_lsp)


def fidelity(path: Path, norm: bool, norm_lsp: bool) -> None:
    options = OptOptions(proposition=False, split_binders=False, normalize=norm)
    rows = []
    for pair in read_pairs(path):
        for side in ("reference", "candidate"):
            st = getattr(pair, side)
            lsp = lsp_tree_to_node(pair.meta["lsp_trees"][side])
            if norm_lsp:  # Lean printed the names under the header's opens: resolve them there
                lsp = normalize(lsp, scope=scope_from_header(st.header), auto_implicit=False).tree
            try:
                ours = parse_statement(st.pretty, header=st.header, options=options)
            except TranstedError as e:
                print(f"{pair.id} {side}: parse error {e}")
                continue
            r = ted_similarity(ours, lsp)
            rows.append((r.similarity, r.distance, pair.id, side, ours.size(), lsp.size()))
    sims = [r[0] for r in rows]
    print(f"{len(rows)} statements: mean TED similarity {statistics.mean(sims):.3f}, "
          f"median {statistics.median(sims):.3f}, min {min(sims):.3f}; "
          f"{sum(s >= 0.9 for s in sims)} at >= 0.9, {sum(s == 1.0 for s in sims)} identical")
    print("worst cases (similarity, distance, id, side, |ours|, |lsp|):")
    for row in sorted(rows)[:3]:
        print(f"  {row[0]:.3f} d={row[1]:.0f} {row[2]} {row[3]} {row[4]} {row[5]}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT)
