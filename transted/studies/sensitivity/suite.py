"""``transted sensitivity``: what each metric sees of the Lean sensitivity suite.

Per metric and per perturbation kind (:mod:`transted.studies.sensitivity.lean.perturb`): the number of
pairs scored, the mean score, and the share of pairs on the correct side of the metric's
default decision rule (its shipped threshold, :mod:`transted.pipeline.verdict.rules`; a verdict
metric's own answer) — the shape of paper 001's Table 2 with a decision added. Writes
``sensitivity.csv`` (``metric,kind,label,n,mean_score,correct_share``), ``sensitivity.md``
and the heat map ``sensitivity.png`` of the correct shares. Scores stream to
``OUT/scores/<metric>.jsonl`` (resumable). A pair a metric could not score is abstained: it
is left out of ``n`` and counted in the Markdown.
"""

from __future__ import annotations

import csv
import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from transted.errors import InputError
from transted.metrics.base import Metric, MetricResult
from transted.reading.pairs import Pair
from transted.running.batch import score_pairs
from transted.running.executors import Executor
from transted.studies.evaluation.harness import resolve_metric, scores_path
from transted.studies.sensitivity.lean.perturb import (
    GENERATORS,
    generate_suite,
    read_statements,
    suite_summary,
    write_suite,
)

__all__ = ["SensitivityRow", "SensitivityReport", "sample_per_kind", "run_sensitivity",
           "sensitivity_rows", "blind_kinds", "CSV_COLUMNS", "sensitivity"]

CSV_COLUMNS = ("metric", "kind", "label", "n", "mean_score", "correct_share")
BLIND_BELOW = 0.5
"""A kind the metric gets right on fewer than half of the pairs is one it is blind to."""


@dataclass(frozen=True)
class SensitivityRow:
    metric: str
    kind: str
    label: str
    n: int
    mean_score: float | None
    correct_share: float | None
    """None when the metric has no decision rule (graded, no shipped threshold)."""
    abstained: int = 0


@dataclass
class SensitivityReport:
    rows: list[SensitivityRow]
    metrics: list[str]
    kinds: list[str]
    signatures: dict[str, str]
    files: dict[str, Path] = field(default_factory=dict)
    sampled: int | None = None


def sample_per_kind(pairs: Sequence[Pair], k: int | None, *, seed: int = 0) -> list[Pair]:
    """At most ``k`` pairs per ``meta.perturbation.kind`` (seeded, input order kept)."""
    if k is None:
        return list(pairs)
    if k < 1:
        raise ValueError(f"`k` must be a positive int or None, got {k!r}")
    by_kind: dict[str, list[int]] = {}
    for i, p in enumerate(pairs):
        by_kind.setdefault(_kind(p), []).append(i)
    keep: set[int] = set()
    for kind, idx in sorted(by_kind.items()):
        rng = random.Random(f"{seed}:{kind}")
        keep.update(idx if len(idx) <= k else rng.sample(idx, k))
    return [p for i, p in enumerate(pairs) if i in keep]


def _kind(pair: Pair) -> str:
    try:
        return str(pair.meta["perturbation"]["kind"])
    except (KeyError, TypeError):
        raise InputError(f"pair {pair.id!r} has no `meta.perturbation.kind`") from None


def _ordered_kinds(pairs: Sequence[Pair]) -> list[str]:
    """``identical``, then the generators' order (faithful first), then any other kind."""

    order = {k: i for i, k in enumerate(["identical", *GENERATORS])}
    kinds = dict.fromkeys(_kind(p) for p in pairs)
    return sorted(kinds, key=lambda k: order.get(k, len(order)))


def sensitivity_rows(pairs: Sequence[Pair], results: dict[str, list[MetricResult]]
                     ) -> list[SensitivityRow]:
    """Aggregate per metric and kind; ``results[metric]`` is in ``pairs`` order."""
    kinds = _ordered_kinds(pairs)
    rows = []
    for metric, res in results.items():
        for kind in kinds:
            idx = [i for i, p in enumerate(pairs) if _kind(p) == kind]
            label = bool(pairs[idx[0]].label)
            scored = [res[i] for i in idx if res[i].score is not None]
            mean = sum(r.score for r in scored) / len(scored) if scored else None  # type: ignore[misc]
            decided = [r for r in scored if r.verdict is not None]
            want = "equivalent" if label else "not-equivalent"
            share = (sum(r.verdict == want for r in decided) / len(decided)
                     if decided and len(decided) == len(scored) else None)
            rows.append(SensitivityRow(metric, kind, "equivalent" if label else "not-equivalent",
                                       len(scored), mean, share, len(idx) - len(scored)))
    return rows


def blind_kinds(rows: Sequence[SensitivityRow], metric: str) -> list[str]:
    """Kinds on which ``metric``'s default decision is right for under half of the pairs."""
    return [r.kind for r in rows if r.metric == metric and r.correct_share is not None
            and r.correct_share < BLIND_BELOW]


def run_sensitivity(pairs: Sequence[Pair], metrics: Sequence[Metric], out: str | Path, *,
                    per_kind: int | None = None, seed: int = 0, resume: bool = True,
                    progress: Callable[[str, int], Callable[[MetricResult, bool], None] | None]
                    | None = None, executor: Executor | None = None) -> SensitivityReport:
    """Score the suite ``pairs`` with each metric and write the tables into ``out``.

    Parameters
    ----------
    per_kind : score at most this many pairs per kind (seeded sample, see
        :func:`sample_per_kind`); None scores all
    progress : ``progress(metric, n_pairs)`` may return an ``on_result`` callback
    executor : where the pairs are scored (local pool, Ray; None: this process), as for
        :func:`~transted.running.batch.score_pairs`
    """

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    chosen = sample_per_kind(pairs, per_kind, seed=seed)
    results: dict[str, list[MetricResult]] = {}
    for metric in metrics:
        callback = progress(metric.name, len(chosen)) if progress else None
        path = scores_path(out, metric.name)
        path.parent.mkdir(parents=True, exist_ok=True)
        results[metric.name] = score_pairs(chosen, metric, path, resume=resume,
                                           on_result=callback, executor=executor)
    rows = sensitivity_rows(chosen, results)
    report = SensitivityReport(rows, [m.name for m in metrics], _ordered_kinds(chosen),
                               {m.name: str(m.signature) for m in metrics}, sampled=per_kind)
    report.files = write_sensitivity(report, out)
    return report


def _fmt(x: float | None, digits: int = 3) -> str:
    return "" if x is None or not math.isfinite(x) else f"{x:.{digits}f}"


def write_sensitivity(report: SensitivityReport, out: Path) -> dict[str, Path]:
    files = {"csv": out / "sensitivity.csv", "md": out / "sensitivity.md",
             "png": out / "sensitivity.png"}
    with files["csv"].open("w", encoding="utf-8", newline="") as f:
        w = csv.writer(f)
        w.writerow(CSV_COLUMNS)
        for r in report.rows:
            w.writerow([r.metric, r.kind, r.label, r.n, _fmt(r.mean_score, 6),
                        _fmt(r.correct_share, 6)])
    files["md"].write_text(sensitivity_markdown(report), encoding="utf-8")
    plot_heatmap(report, files["png"])
    return files


def sensitivity_markdown(report: SensitivityReport) -> str:
    """Per kind: mean score / correct share for each metric, then blind kinds, signatures."""
    cell = {(r.metric, r.kind): r for r in report.rows}
    sample = (f"at most {report.sampled} pairs per kind (seeded sample)" if report.sampled
              else "every pair")
    lines = ["# Sensitivity of metrics to faithful rewrites and meaning changes", "",
             f"Scored: {sample}. Cell: mean score / share on the correct side of the "
             "metric's default decision rule (– : no shipped threshold).", "",
             "| kind | label | n | " + " | ".join(report.metrics) + " |",
             "|---|---|---|" + "---|" * len(report.metrics)]
    for kind in report.kinds:
        first = cell[(report.metrics[0], kind)]
        vals = []
        for m in report.metrics:
            r = cell[(m, kind)]
            share = _fmt(r.correct_share, 2) or "–"
            extra = f" ({r.abstained} abstained)" if r.abstained else ""
            vals.append(f"{_fmt(r.mean_score)} / {share}{extra}")
        lines.append(f"| {kind} | {first.label} | {first.n + first.abstained} | "
                     + " | ".join(vals) + " |")
    lines += ["", f"Blind to (correct share < {BLIND_BELOW}):", ""]
    for m in report.metrics:
        blind = blind_kinds(report.rows, m)
        lines.append(f"- `{m}`: {', '.join(blind) if blind else 'none'}")
    lines += ["", "Signatures:", ""] + [f"- `{s}`" for s in report.signatures.values()]
    return "\n".join(lines) + "\n"


def plot_heatmap(report: SensitivityReport, path: Path) -> None:
    """Correct share per metric (rows) and kind (columns); blank where undefined."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    cell = {(r.metric, r.kind): r.correct_share for r in report.rows}
    data = np.array([[np.nan if cell.get((m, k)) is None else cell[(m, k)]
                      for k in report.kinds] for m in report.metrics], dtype=float)
    fig, ax = plt.subplots(figsize=(1.0 + 0.55 * len(report.kinds),
                                    1.6 + 0.5 * len(report.metrics)), dpi=120)
    im = ax.imshow(data, cmap="RdYlGn", vmin=0, vmax=1, aspect="auto")
    ax.set_xticks(range(len(report.kinds)), report.kinds, rotation=60, ha="right", fontsize=8)
    ax.set_yticks(range(len(report.metrics)), report.metrics, fontsize=9)
    for i in range(len(report.metrics)):
        for j in range(len(report.kinds)):
            if np.isfinite(data[i, j]):
                ax.text(j, i, f"{data[i, j]:.2f}", ha="center", va="center", fontsize=7)
    ax.set_title("Share of pairs on the correct side of the default decision rule")
    fig.colorbar(im, ax=ax, fraction=0.03)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)


def sensitivity(statements: Sequence[str | Path], metrics: Sequence[str | Metric], out: str | Path, *,
                pairs_out: str | Path | None = None, seed: int = 0,
                per_kind: int | None = None, resume: bool = True,
                progress: Callable[[str, int], Callable[[MetricResult, bool], None] | None]
                | None = None, validators: Sequence[Any] = (),
                executor: Executor | None = None) -> SensitivityReport:
    """``transted sensitivity`` as a library call: build the suite from statement files
    (``formal_statement`` + ``header`` per line), score it with the named metrics, write
    ``sensitivity.csv/.md/.png`` and ``discards.json`` into ``out`` (and the pairs to
    ``pairs_out``, with ``<pairs_out>.discards.json``). ``validators`` are passed to
    :func:`~transted.studies.sensitivity.lean.perturb.generate_suite` (e.g.
    :class:`~transted.studies.sensitivity.validator.EvidenceValidator`); ``executor`` scores
    the pairs (local pool, Ray), as for :func:`~transted.running.batch.score_pairs`."""


    loaded = [resolve_metric(name) for name in metrics]  # fail fast, before generating
    stmts = [s for path in statements for s in read_statements(path)]
    suite = generate_suite(stmts, seed=seed, validators=validators)
    if pairs_out is not None:
        write_suite(suite, pairs_out)
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "discards.json").write_text(json.dumps(suite_summary(suite), indent=2,
                                                  ensure_ascii=False) + "\n", encoding="utf-8")
    report = run_sensitivity(suite.pairs, loaded, out, per_kind=per_kind, seed=seed,
                             resume=resume, progress=progress, executor=executor)
    report.files["discards"] = out / "discards.json"
    return report
