"""Regression mode: two translator versions, the same references, one metric.

Pairs are matched by ``id`` (:func:`match_runs`, cheap: before any scoring); ids present in
only one file are listed, never silently dropped, and a matched id whose reference statement
differs between the files is flagged (its delta is still shown, but it compares different
tasks). Per matched pair: ``delta = new - old``; a pair is ``improved`` / ``worse`` / ``same``
by the sign of the delta (beyond ``tolerance``), ``broke`` when only the new version fails to
score, ``fixed`` when only the old one did, ``both-error`` otherwise (not compared).

Sampled outputs (ids ``<problem>#<i>``, :mod:`transted.running.samples`): every sample of a problem
present in both versions is scored, matched or not, so each version's per-problem figures
(``equivalent@k``, pass@k, best and mean score) use all its samples.
"""

from __future__ import annotations

import json
import math
import tempfile
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from transted.metrics.base import Metric, MetricResult
from transted.pipeline.verdict.rules import forced_decision
from transted.reading.pairs import Pair, read_pairs
from transted.running.executors import Executor
from transted.running.health import ANSWERED
from transted.running.samples import SampleFigures, problem_of, sample_figures
from transted.studies.evaluation.harness import resolve_metric, score_metric, scores_path
from transted.studies.evaluation.outcome import to_json_safe

__all__ = ["PairDelta", "Matching", "Regression", "match_runs", "compare_runs",
           "compare_matched", "write_regression"]

Progress = Callable[[str, int], Callable[[MetricResult, bool], None] | None]
"""``progress(version, n_pairs)`` → a per-result hook (``old`` then ``new``)."""

STATUSES = ("worse", "broke", "improved", "fixed", "same", "both-error")


@dataclass(frozen=True)
class PairDelta:
    """One matched pair: old and new score (None = error) and what changed."""

    id: str
    old: float | None
    new: float | None
    status: str
    old_error: str | None = None
    new_error: str | None = None
    old_verdict: str | None = None
    new_verdict: str | None = None
    """The metric's own verdicts (``MetricResult.verdict``) when it gives them."""
    old_forced: bool | None = None
    new_forced: bool | None = None
    """The verdicts decided before any threshold (evidence, invalid, residual edits;
    :func:`transted.pipeline.verdict.rules.forced_decision`), None where a threshold decides."""

    @property
    def delta(self) -> float | None:
        return None if self.old is None or self.new is None else self.new - self.old


@dataclass
class Matching:
    """Two versions' pairs by id, before anything is scored: the matched ids (in the old
    file's order), the ids of one version only, the union's size."""

    old: dict[str, Pair]
    new: dict[str, Pair]
    old_name: str = "old"
    new_name: str = "new"

    @property
    def common(self) -> list[str]:
        return [i for i in self.old if i in self.new]

    @property
    def only_old(self) -> list[str]:
        return [i for i in self.old if i not in self.new]

    @property
    def only_new(self) -> list[str]:
        return [i for i in self.new if i not in self.old]

    @property
    def n_union(self) -> int:
        return len(self.old) + len(self.only_new)

    def problems(self) -> set[str]:
        """Problems (of sample ids ``<problem>#<i>``) with a matched sample."""
        return {key[0] for i in self.common if (key := problem_of(i)) is not None}

    def to_score(self, side: dict[str, Pair]) -> list[Pair]:
        """``side``'s matched pairs and the other samples of matched problems."""
        problems = self.problems()
        return [p for i, p in side.items() if i in self.old and i in self.new
                or ((key := problem_of(i)) is not None and key[0] in problems)]

    def unmatched_text(self, limit: int = 10) -> str:
        """``only in old (2): a#1, b#0; only in new (0)`` (at most ``limit`` ids each)."""
        parts = []
        for label, ids in (("only in old", self.only_old), ("only in new", self.only_new)):
            shown = ", ".join(ids[:limit]) + (f", … ({len(ids) - limit} more)"
                                              if len(ids) > limit else "")
            parts.append(f"{label} ({len(ids)})" + (f": {shown}" if ids else ""))
        return "; ".join(parts)


def _pairs_of(run: str | Path | Sequence[Pair]) -> dict[str, Pair]:
    return {p.id: p for p in (read_pairs(run) if isinstance(run, (str, Path)) else run)}


def match_runs(old: str | Path | Sequence[Pair], new: str | Path | Sequence[Pair]) -> Matching:
    """Read (or take) both versions' pairs and match them by id; nothing is scored."""
    return Matching(_pairs_of(old), _pairs_of(new),
                    str(old) if isinstance(old, (str, Path)) else "old",
                    str(new) if isinstance(new, (str, Path)) else "new")


@dataclass
class Regression:
    """Everything ``transted regress`` reports."""

    metric: str
    signature: str
    old_path: str
    new_path: str
    deltas: list[PairDelta]
    only_old: list[str]
    only_new: list[str]
    reference_changed: list[str]
    pairs_new: dict[str, Pair] = field(default_factory=dict)
    pairs_old: dict[str, Pair] = field(default_factory=dict)
    results_old: list[MetricResult] = field(default_factory=list)
    results_new: list[MetricResult] = field(default_factory=list)
    """Every scored result of each version (matched pairs and the other samples of matched
    problems)."""
    convention: str = "strict"
    """The metric's label convention: the verdict rule's steps before a given threshold."""

    @property
    def n_compared(self) -> int:
        """Matched pairs answered in at least one version (:data:`transted.running.health.ANSWERED`:
        a score, or an ``invalid`` candidate); a pair that failed in both compares nothing."""
        if not self.results_old and not self.results_new:  # made by hand: scores only
            return sum(d.status != "both-error" for d in self.deltas)
        answered = {r.id for r in (*self.results_old, *self.results_new)
                    if r.status in ANSWERED}
        return sum(d.id in answered for d in self.deltas)

    @property
    def n_union(self) -> int:
        return len(self.deltas) + len(self.only_old) + len(self.only_new)

    def sample_figures(self, threshold: float | None = None
                       ) -> tuple[SampleFigures, SampleFigures] | None:
        """Each version's per-problem figures over the problems both have (None when the
        ids are not sample ids); verdicts from ``threshold`` if given, else the metric's."""
        old = sample_figures(self.results_old, threshold=threshold, convention=self.convention)
        new = sample_figures(self.results_new, threshold=threshold, convention=self.convention)
        if old is None or new is None:
            return None
        both = set(old.by_problem()) & set(new.by_problem())
        return old.restricted(both), new.restricted(both)

    def counts(self) -> dict[str, int]:
        c = Counter(d.status for d in self.deltas)
        return {s: c.get(s, 0) for s in STATUSES}

    def worst(self) -> list[PairDelta]:
        """Pairs that got worse or broke, the largest drop first (broken ones first of all)."""
        bad = [d for d in self.deltas if d.status in ("worse", "broke")]
        return sorted(bad, key=lambda d: -math.inf if d.delta is None else d.delta)

    def summary(self) -> dict[str, object]:
        both = [d for d in self.deltas if d.delta is not None]
        return to_json_safe({
            "metric": self.metric, "signature": self.signature,
            "old": self.old_path, "new": self.new_path,
            "n_matched": len(self.deltas), "n_compared": self.n_compared,
            "n_scored_both": len(both),
            "mean_old": _mean([d.old for d in both]), "mean_new": _mean([d.new for d in both]),
            "mean_delta": _mean([d.delta for d in both]),
            **{f"n_{k.replace('-', '_')}": v for k, v in self.counts().items()},
            "only_old": self.only_old, "only_new": self.only_new,
            "reference_changed": self.reference_changed,
        })


def _mean(values: list) -> float | None:
    return sum(values) / len(values) if values else None


def _forced(old: MetricResult, new: MetricResult, convention: str
            ) -> tuple[bool | None, bool | None]:
    """The verdict rule's decisions before the threshold, old and new (the gate's fallback
    threshold applies to the rest)."""
    out = []
    for r in (old, new):
        d = forced_decision(r.details or {}, status=r.status, convention=convention)
        out.append(None if d.verdict is None else d.verdict == "equivalent")
    return out[0], out[1]


def _classify(old: MetricResult, new: MetricResult, tolerance: float) -> str:
    if old.score is None and new.score is None:
        return "both-error"
    if new.score is None:
        return "broke"
    if old.score is None:
        return "fixed"
    delta = new.score - old.score
    return "improved" if delta > tolerance else "worse" if delta < -tolerance else "same"


def compare_runs(old: str | Path | Sequence[Pair], new: str | Path | Sequence[Pair],
                 metric: str | Metric, *, out: str | Path | None = None, resume: bool = True,
                 tolerance: float = 1e-12, executor: Executor | None = None,
                 progress: Progress | None = None) -> Regression:
    """Score both files' matched pairs with ``metric`` and compare them pair by pair.

    Parameters
    ----------
    old, new : pair files (or pairs) of the two translator versions (same references, matched
        by id); pairs in memory are named ``old``/``new`` in the report
    metric : a registry name or a :class:`~transted.metrics.base.Metric`
    out : folder for the streamed scores (``scores/old/``, ``scores/new/``) and the report;
        without it the scores are kept in a temporary folder and not resumable.
    tolerance : a delta within ``±tolerance`` counts as ``same``
    progress : ``progress(version, n)`` returns the per-result hook of that version's run
    """
    return compare_matched(match_runs(old, new), metric, out=out, resume=resume,
                           tolerance=tolerance, executor=executor, progress=progress)


def compare_matched(matching: Matching, metric: str | Metric, *,
                    out: str | Path | None = None, resume: bool = True,
                    tolerance: float = 1e-12, executor: Executor | None = None,
                    progress: Progress | None = None) -> Regression:
    """:func:`compare_runs` of pairs already matched (:func:`match_runs`: a caller checks
    how many matched before scoring)."""
    if tolerance < 0:
        raise ValueError(f"`tolerance` must be >= 0, got {tolerance}")
    m = resolve_metric(metric) if isinstance(metric, str) else metric
    common = matching.common
    results: dict[str, list[MetricResult]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(out) if out is not None else Path(tmp)
        for split, side in (("old", matching.old), ("new", matching.new)):
            pairs = matching.to_score(side)
            hook = progress(split, len(pairs)) if progress is not None else None
            results[split] = score_metric(pairs, m, scores_path(base, m.name, split=split),
                                          resume=resume, executor=executor, on_result=hook)
    by_id = {split: {r.id: r for r in rs} for split, rs in results.items()}
    deltas = []
    for i in common:
        o, n = by_id["old"][i], by_id["new"][i]
        deltas.append(PairDelta(i, o.score, n.score, _classify(o, n, tolerance), o.error,
                                n.error, getattr(o, "verdict", None),
                                getattr(n, "verdict", None),
                                *_forced(o, n, getattr(m, "convention", "strict"))))
    changed = [i for i in common
               if matching.old[i].reference.statement != matching.new[i].reference.statement]
    return Regression(m.name, str(m.signature), matching.old_name, matching.new_name, deltas,
                      matching.only_old, matching.only_new, changed,
                      pairs_new=matching.new, pairs_old=matching.old,
                      results_old=results["old"], results_new=results["new"],
                      convention=getattr(m, "convention", "strict"))


def write_regression(reg: Regression, out: str | Path, *, top: int = 20,
                     threshold: float | None = None) -> dict[str, Path]:
    """Write ``regress.json`` (summary + every pair), ``regress.md`` and, for sampled
    outputs, ``problems.jsonl`` (one line per problem both versions have: its old and new
    figures, verdicts from ``threshold`` if given, else the metric's) into ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    figures = reg.sample_figures(threshold)
    data = {"summary": reg.summary(),
            "problems": None if figures is None else
            {"old": figures[0].overall(), "new": figures[1].overall()},
            "pairs": [to_json_safe({"id": d.id, "old": d.old, "new": d.new, "delta": d.delta,
                                    "status": d.status, "old_error": d.old_error,
                                    "new_error": d.new_error}) for d in reg.deltas]}
    paths = {"regress.json": out / "regress.json", "regress.md": out / "regress.md"}
    paths["regress.json"].write_text(json.dumps(to_json_safe(data), indent=2,
                                                ensure_ascii=False) + "\n", encoding="utf-8")
    paths["regress.md"].write_text(regression_markdown(reg, top=top, threshold=threshold),
                                   encoding="utf-8")
    if figures is not None:
        paths["problems.jsonl"] = out / "problems.jsonl"
        new_rows = figures[1].by_problem()
        with paths["problems.jsonl"].open("w", encoding="utf-8") as f:
            for row in figures[0].problems:
                line = {"problem": row.problem, "old": row.as_dict(),
                        "new": new_rows[row.problem].as_dict(), "metric": reg.metric,
                        "signature": reg.signature}
                f.write(json.dumps(to_json_safe(line), ensure_ascii=False) + "\n")
    return paths


def _fmt(x: object) -> str:
    return "n/a" if not isinstance(x, (int, float)) else f"{x:.4f}"


def regression_markdown(reg: Regression, *, top: int = 20, threshold: float | None = None,
                        signature: str | None = None) -> str:
    """Summary table, the per-problem figures of sampled outputs, then the pairs that got
    worse with old and new candidates shown. ``signature``: the form to print (default the
    full one)."""
    s = reg.summary()
    lines = [f"# Regression: `{reg.new_path}` against `{reg.old_path}` ({reg.metric})", "",
             f"{s['n_matched']} matched pairs; mean {_fmt(s['mean_old'])} → "
             f"{_fmt(s['mean_new'])} (delta {_fmt(s['mean_delta'])}) over "
             f"{s['n_scored_both']} scored in both.", "",
             "| " + " | ".join(STATUSES) + " |", "|" + "---|" * len(STATUSES),
             "| " + " | ".join(str(v) for v in reg.counts().values()) + " |", ""]
    for label, ids in (("Only in old", reg.only_old), ("Only in new", reg.only_new),
                       ("Reference differs", reg.reference_changed)):
        if ids:
            lines += [f"{label} ({len(ids)}): " + ", ".join(f"`{i}`" for i in ids), ""]
    figures = reg.sample_figures(threshold)
    if figures is not None:
        lines += [f"Old {figures[0].summary_line()}.", "",
                  f"New {figures[1].summary_line()}.", ""]
    worst = reg.worst()
    lines += [f"## Got worse ({len(worst)}, {min(top, len(worst))} shown)", ""]
    for d in worst[:top]:
        lines += [f"### `{d.id}`: {_fmt(d.old)} → {_fmt(d.new)}"
                  + (f" (new error: {d.new_error})" if d.new_error else ""), "",
                  "Reference:", "```lean", reg.pairs_new[d.id].reference.statement.strip(), "```",
                  "Old candidate:", "```lean", reg.pairs_old[d.id].candidate.statement.strip(),
                  "```", "New candidate:", "```lean",
                  reg.pairs_new[d.id].candidate.statement.strip(), "```", ""]
    lines += [f"Signature: `{signature or reg.signature}`", ""]
    return "\n".join(lines)
