"""The formulaicness report (issue 26): tables for docs/FORMULAICNESS.md, JSON and figure.

    PYTHONPATH=. python benchmarks/formulaicness_report.py [--folio DIR] [--out DIR]

Evaluates the shipped model (``transted/fol/formulaicness/model.json``) on the dataset rebuilt
from FOLIO with the training seed, and on the hand-written texts of
``tests/data/formulaicness``; writes ``formulaicness_report.json`` and ``formulaicness.png`` to ``--out`` (default
``docs/figures``) and prints the Markdown tables.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from transted.fol.formulaicness.report import build_report, markdown, plot, write_json
from transted.fol.formulaicness.training import rebuild

ROOT = Path(__file__).resolve().parent.parent
HELD_OUT = ROOT / "tests/data/formulaicness"


def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--folio", type=Path, default=ROOT / "tests/data/fol/folio")
    parser.add_argument("--out", type=Path, default=ROOT / "docs/figures")
    args = parser.parse_args()
    run = rebuild(args.folio)
    report = build_report(run, _jsonl(HELD_OUT / "handwritten.jsonl"),
                          [r["text"] for r in _jsonl(HELD_OUT / "case_sentences.jsonl")])
    args.out.mkdir(parents=True, exist_ok=True)
    write_json(report, args.out / "formulaicness_report.json")
    plot(run, report, args.out / "formulaicness.png")
    print(markdown(report))
    for row in report["case_sentences"]:
        print(f"{row['formulaicness']:.3f}  {row['text']}")


if __name__ == "__main__":
    main()
