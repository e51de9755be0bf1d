"""Train the shipped formulaicness regressor (issue 26) and write its model file.

    PYTHONPATH=. python benchmarks/formulaicness_train.py [--folio DIR] [--out FILE] [--seed N]

Defaults: FOLIO from ``tests/data/fol/folio``, seed ``transted.fol.formulaicness.training.SEED``,
output ``transted/fol/formulaicness/model.json`` (package data). Deterministic: the same
inputs and seed give the same file (``tests/test_formulaicness_model.py`` checks it).
"""

from __future__ import annotations

import argparse
from pathlib import Path

from transted.fol.formulaicness.model import MODEL_FILE, write_model
from transted.fol.formulaicness.training import SEED, train

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folio", type=Path, default=ROOT / "tests/data/fol/folio")
    parser.add_argument("--out", type=Path,
                        default=ROOT / "transted/fol/formulaicness" / MODEL_FILE)
    parser.add_argument("--seed", type=int, default=SEED)
    args = parser.parse_args()
    run = train(args.folio, seed=args.seed)
    write_model(run.model, args.out)
    print(f"wrote {args.out} ({args.out.stat().st_size} bytes): alpha {run.model.meta['alpha']}, "
          f"{len(run.model.vocabulary)} n-grams, sizes {run.model.meta['sizes']}, "
          f"{len(run.dataset.skipped)} FOLIO pairs with an unparsed formula, {len(run.left_out)} FOLIO lines "
          "left out (premises and FOL of different lengths)")


if __name__ == "__main__":
    main()
