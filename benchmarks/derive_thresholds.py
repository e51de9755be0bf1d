"""Re-derive transted/pipeline/verdict/thresholds.yaml from the labelled data shipped in the repository.

    python benchmarks/derive_thresholds.py [--metrics "ted;bleu;transted"] [--per-kind 80]
        [--seed 0] [--folds 5] [--work .cache/thresholds] [--out transted/pipeline/verdict/thresholds.yaml]

``--metrics`` is a ``;``-separated list of metric specs, ``name`` or ``name:key=value,…``
(an item without ``=`` continues the previous value: ``transted:providers=offline,lemmas,decide``).
One fallback threshold per metric (per option set) and label convention: `strict` from tests/data/strict/*.jsonl,
`lenient` from the GTED dev pairs (tests/data/gted/proofnet.jsonl); grouped CV by ProofNet
exercise across files. Procedure and data: transted.studies.calibration.derive /
transted.studies.calibration.procedure. Scores are kept in --work, so a re-run after a metric change
only re-scores that metric.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_pair import parse_spec  # noqa: E402

from transted.studies.calibration.derive import derive_thresholds, write_thresholds  # noqa: E402

SHIPPED = ["ted", "bleu", "transted", "transted:providers=offline,decide"]
"""The metric specs a threshold is shipped for (``transted`` searches with the rewrite lemmas by
default; the last is its search without them, docs/LEMMAS.md)."""

LABELLED = {"strict": [ROOT / "tests/data/strict/beq_human_dev.jsonl",
                       ROOT / "tests/data/strict/proofnet_verified_dev.jsonl"],
            "lenient": [ROOT / "tests/data/gted/proofnet.jsonl"]}
STATEMENTS = [ROOT / "tests/data/statements/minif2f.jsonl",
              ROOT / "tests/data/statements/proofnet.jsonl"]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--metrics", default=";".join(SHIPPED))
    ap.add_argument("--per-kind", type=int, default=80)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--work", type=Path, default=ROOT / ".cache/thresholds")
    ap.add_argument("--out", type=Path, default=ROOT / "transted/pipeline/verdict/thresholds.yaml")
    args = ap.parse_args(argv)
    content = derive_thresholds([parse_spec(m.strip()) for m in args.metrics.split(";")
                                 if m.strip()],
                                labelled=LABELLED, statements=STATEMENTS, work=args.work,
                                seed=args.seed, per_kind=args.per_kind, folds=args.folds)
    write_thresholds(content, args.out)
    print(json.dumps(content["rules"], indent=1, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
