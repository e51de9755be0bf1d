"""Kappa against threshold for every graded metric on one axis (ASSESS Fig. 3).

Each curve is the metric's verdict rule at every threshold (:func:`verdict_sweep`): the pairs
its evidence, invalidity or residual edits decide keep their verdict, the threshold decides the
rest — the rule the Table-3 row applies at its chosen threshold, so each dot lies on its curve.
The CSV holds the curve (``metric,threshold,kappa,accuracy``; kappa empty where undefined) at
an even grid plus every score of the metric, so it is exact;
the PNG draws the graded metrics as curves, marks each one's chosen threshold, and draws
verdict metrics (identity, BEq ...) as horizontal dotted lines at their kappa for reference.
matplotlib is imported inside :func:`plot_kappa_curve` only, with the Agg backend, so
computing agreement never needs a plotting stack.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from numpy.typing import NDArray

from transted.studies.evaluation.threshold import Sweep, sweep

if TYPE_CHECKING:
    from transted.studies.evaluation.harness import MetricEvaluation

__all__ = ["curve_thresholds", "metric_thresholds", "verdict_sweep", "write_kappa_curve",
           "plot_kappa_curve"]

CURVE_POINTS = 201


def curve_thresholds(evaluations: Sequence[MetricEvaluation]) -> NDArray[np.float64]:
    """An even grid over [0, 1], widened to cover every graded score."""
    lo, hi = 0.0, 1.0
    for ev in evaluations:
        finite = ev.scores[np.isfinite(ev.scores)]
        if not ev.binary and len(finite):
            lo, hi = min(lo, float(finite.min())), max(hi, float(finite.max()))
    return np.linspace(lo, hi, CURVE_POINTS)


def metric_thresholds(ev: MetricEvaluation, grid: NDArray[np.float64]) -> NDArray[np.float64]:
    """The grid plus every distinct score and the chosen threshold of ``ev``, ascending.

    Between two consecutive points of this set the verdicts do not change, so the curve drawn
    through them as a left-open step (``steps-pre``) is exact, not sampled.
    """
    extra = [ev.scores[np.isfinite(ev.scores)]]
    if ev.threshold is not None:
        extra.append(np.array([ev.threshold]))
    return np.unique(np.concatenate([grid, *extra]))


def verdict_sweep(scores: NDArray[np.float64], labels: NDArray[np.bool_],
                  forced: Sequence[bool | None], thresholds: NDArray[np.float64]) -> Sweep:
    """Confusion counts of the verdict rule at each threshold: a pair with a forced verdict
    (``forced[i]`` not None: evidence, invalid, residual edits) keeps it, the others are
    equivalent iff ``score >= t`` (no score: not equivalent). Without forced verdicts this is
    :func:`~transted.studies.evaluation.threshold.sweep`."""
    decided = np.array([f is not None for f in forced], dtype=bool) if len(forced) else \
        np.zeros(len(scores), dtype=bool)
    if decided.all():  # every verdict decided before the threshold: a flat curve
        zero = np.zeros(len(thresholds), dtype=np.int64)
        free = Sweep(np.asarray(thresholds, dtype=float), zero, zero, zero, zero)
    else:
        free = sweep(scores[~decided], labels[~decided], thresholds)
    verdicts = np.array([bool(f) for f in forced if f is not None], dtype=bool)
    truth = labels[decided]
    counts = [int((verdicts & truth).sum()), int((verdicts & ~truth).sum()),
              int((~verdicts & ~truth).sum()), int((~verdicts & truth).sum())]
    return Sweep(free.thresholds, free.tp + counts[0], free.fp + counts[1],
                 free.tn + counts[2], free.fn + counts[3])


def write_kappa_curve(evaluations: Sequence[MetricEvaluation], labels: NDArray[np.bool_],
                      csv_path: Path, png_path: Path, *, title: str | None = None
                      ) -> dict[str, Path]:
    """Write the curve CSV and the plot as PNG, SVG and PDF; returns their paths."""
    grid = curve_thresholds(evaluations)
    curves: dict[str, tuple[NDArray[np.float64], NDArray[np.float64]]] = {}
    with csv_path.open("w", encoding="utf-8", newline="") as f:
        writer = csv.writer(f)
        writer.writerow(["metric", "threshold", "kappa", "accuracy"])
        for ev in evaluations:
            if ev.binary or ev.status != "ok":
                continue
            thresholds = metric_thresholds(ev, grid)
            sw = verdict_sweep(ev.scores, labels, ev.forced, thresholds)
            kappa, accuracy = sw.kappa(), sw.accuracy()
            curves[ev.name] = (thresholds, kappa)
            for t, k, a in zip(thresholds, kappa, accuracy, strict=True):
                writer.writerow([ev.name, repr(float(t)), "" if math.isnan(k) else f"{k:.6f}",
                                 f"{a:.6f}"])
    plots = [png_path.with_suffix(s) for s in (".png", ".svg", ".pdf")]
    plot_kappa_curve(curves, evaluations, plots, title=title)
    return {"kappa_curve.csv": csv_path, **{p.name: p for p in plots}}


def plot_kappa_curve(curves: dict[str, tuple[NDArray[np.float64], NDArray[np.float64]]],
                     evaluations: Sequence[MetricEvaluation], path: Path | Sequence[Path], *,
                     title: str | None = None) -> None:
    """Draw the curves (dots and legend: chosen thresholds) and verdict-metric lines into
    ``path`` (each of several paths: the format follows the suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(9, 4.8), dpi=120)
    colors = iter(plt.rcParams["axes.prop_cycle"].by_key()["color"] * 4)
    for ev in evaluations:
        if ev.name in curves:
            color = next(colors)
            t, k = curves[ev.name]
            median = " median" if ev.fold_thresholds is not None else ""
            chosen = "" if ev.threshold is None else \
                f" ({ev.threshold_mode}{median} t={ev.threshold:.3f})"
            ax.plot(t, k, label=ev.name + chosen, linewidth=1.6, color=color,
                    drawstyle="steps-pre")
            if ev.threshold is not None and ev.agreement is not None:
                ax.plot([ev.threshold], [ev.agreement.kappa], "o", color=color)
        elif ev.agreement is not None and math.isfinite(ev.agreement.kappa):
            ax.axhline(ev.agreement.kappa, linestyle=":", linewidth=1.4, color=next(colors),
                       label=f"{ev.name} (verdict, κ={ev.agreement.kappa:.3f})")
    ax.axhline(0.0, color="black", linewidth=0.6)
    ax.set_xlabel("threshold t: equivalent iff score ≥ t\n(where evidence and residual edits "
                  "have not decided: the verdict rule)")
    ax.set_ylabel("Cohen's kappa")
    ax.set_title(title or "Agreement with expert labels across thresholds", fontsize=10)
    ax.grid(True, alpha=0.3)
    if ax.get_legend_handles_labels()[0]:
        ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=8, frameon=False)
    fig.tight_layout()
    with matplotlib.rc_context({"svg.fonttype": "none"}):  # SVG text stays text (editable)
        for p in [path] if isinstance(path, Path) else path:
            fig.savefig(p, metadata={"Date": None} if p.suffix == ".svg" else None)
    plt.close(fig)
