"""Every file of the ``transted eval`` report folder, written in one pass.

``summary.json`` is read by other tools: its per-metric keys are fixed (see
:meth:`transted.studies.evaluation.harness.MetricEvaluation.summary`) and an undefined value is
``null``, never ``NaN`` (which is not JSON) and never 0. ``pairs.csv`` holds every pair's score,
verdict and error per metric. The Markdown files, the kappa curve and ``report.html`` come from
their modules; the pairs' trees they draw are parsed once for all of them (:class:`ReportTrees`).
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from transted.studies.evaluation.outcome import (
    KAPPA_CURVE_CSV,
    KAPPA_CURVE_PNG,
    EvalRun,
    to_json_safe,
)
from transted.studies.evaluation.reports.html import write_html_report
from transted.studies.evaluation.reports.markdown import disagreements_markdown, summary_markdown
from transted.studies.evaluation.reports.plot import write_kappa_curve
from transted.studies.evaluation.reports.trees import ReportTrees

__all__ = ["write_reports"]


def write_reports(run: EvalRun, out: Path) -> dict[str, Path]:
    """Write every report file into ``out``; returns their paths by kind."""

    out.mkdir(parents=True, exist_ok=True)
    trees = ReportTrees()
    files = {"summary.json": out / "summary.json", "summary.md": out / "summary.md",
             "pairs.csv": out / "pairs.csv", "disagreements.md": out / "disagreements.md"}
    files["summary.json"].write_text(
        json.dumps(to_json_safe(run.summary()), indent=2, ensure_ascii=False, allow_nan=False)
        + "\n", encoding="utf-8")
    files["summary.md"].write_text(summary_markdown(run), encoding="utf-8")
    _write_pairs_csv(run, files["pairs.csv"])
    files["disagreements.md"].write_text(disagreements_markdown(run, trees), encoding="utf-8")
    files.update(write_kappa_curve(
        run.evaluations, run.labels, out / KAPPA_CURVE_CSV, out / KAPPA_CURVE_PNG,
        title=f"{run.data.file_name}: n={len(run.pairs)}, threshold mode "
              f"{run.config.threshold_mode}"))
    files.update(write_html_report(run, out, trees=trees))
    return files


def _write_pairs_csv(run: EvalRun, path: Path) -> None:
    header = ["id", "label", "epla_category"]
    for ev in run.evaluations:
        header += [f"{ev.name}:score", f"{ev.name}:verdict", f"{ev.name}:error"]
    with path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(header)
        for i, pair in enumerate(run.pairs):
            row: list[object] = [pair.id, bool(run.labels[i]), pair.meta.get("epla_category", "")]
            for ev in run.evaluations:
                score = ev.scores[i]
                verdict = "" if ev.predictions is None else bool(ev.predictions[i])
                row += ["" if np.isnan(score) else repr(float(score)), verdict,
                        ev.errors.get(pair.id) or ev.invalid.get(pair.id, "")]
            writer.writerow(row)
