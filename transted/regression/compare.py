"""Regression mode: two translator versions, the same references, one metric.

Pairs are matched by ``id``; ids present in only one file are listed, never silently
dropped, and a matched id whose reference statement differs between the files is flagged
(its delta is still shown, but it compares different tasks). Per matched pair:
``delta = new - old``; a pair is ``improved`` / ``worse`` / ``same`` by the sign of the delta
(beyond ``tolerance``), ``broke`` when only the new version fails to score, ``fixed`` when
only the old one did, ``both-error`` otherwise.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from transted.evaluation.harness import load_metric, score_metric, scores_path
from transted.evaluation.outcome import to_json_safe
from transted.executors import Executor
from transted.metrics.base import Metric, MetricResult
from transted.pairs import Pair, read_pairs

__all__ = ["PairDelta", "Regression", "compare_runs", "write_regression"]

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
    :func:`transted.verdict.rules.forced_decision`), None where a threshold decides."""

    @property
    def delta(self) -> float | None:
        return None if self.old is None or self.new is None else self.new - self.old


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
            "n_matched": len(self.deltas), "n_scored_both": len(both),
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
    from transted.verdict.rules import forced_decision

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
                 metric: str | Metric, *,
                 out: str | Path | None = None, resume: bool = True,
                 tolerance: float = 1e-12, executor: Executor | None = None) -> Regression:
    """Score both files' matched pairs with ``metric`` and compare them pair by pair.

    Parameters
    ----------
    old, new : pair files (or pairs) of the two translator versions (same references, matched
        by id); pairs in memory are named ``old``/``new`` in the report
    metric : a registry name or a :class:`~transted.metrics.base.Metric`
    out : folder for the streamed scores (``scores/old/``, ``scores/new/``) and the report;
        without it the scores are kept in a temporary folder and not resumable.
    tolerance : a delta within ``±tolerance`` counts as ``same``
    """
    import tempfile

    if tolerance < 0:
        raise ValueError(f"`tolerance` must be >= 0, got {tolerance}")
    m = load_metric(metric) if isinstance(metric, str) else metric
    old_pairs = {p.id: p for p in (read_pairs(old) if isinstance(old, (str, Path)) else old)}
    new_pairs = {p.id: p for p in (read_pairs(new) if isinstance(new, (str, Path)) else new)}
    common = [i for i in old_pairs if i in new_pairs]
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(out) if out is not None else Path(tmp)
        old_res = score_metric([old_pairs[i] for i in common], m,
                               scores_path(base, m.name, split="old"), resume=resume,
                               executor=executor)
        new_res = score_metric([new_pairs[i] for i in common], m,
                               scores_path(base, m.name, split="new"), resume=resume,
                               executor=executor)
    deltas = [PairDelta(o.id, o.score, n.score, _classify(o, n, tolerance), o.error, n.error,
                        getattr(o, "verdict", None), getattr(n, "verdict", None),
                        *_forced(o, n, getattr(m, "convention", "strict")))
              for o, n in zip(old_res, new_res, strict=True)]
    changed = [i for i in common
               if old_pairs[i].reference.statement != new_pairs[i].reference.statement]
    old_name = str(old) if isinstance(old, (str, Path)) else "old"
    new_name = str(new) if isinstance(new, (str, Path)) else "new"
    return Regression(m.name, str(m.signature), old_name, new_name, deltas,
                      [i for i in old_pairs if i not in new_pairs],
                      [i for i in new_pairs if i not in old_pairs], changed,
                      pairs_new=new_pairs, pairs_old=old_pairs)


def write_regression(reg: Regression, out: str | Path, *, top: int = 20) -> dict[str, Path]:
    """Write ``regress.json`` (summary + every pair) and ``regress.md`` into ``out``."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    data = {"summary": reg.summary(),
            "pairs": [to_json_safe({"id": d.id, "old": d.old, "new": d.new, "delta": d.delta,
                                    "status": d.status, "old_error": d.old_error,
                                    "new_error": d.new_error}) for d in reg.deltas]}
    paths = {"regress.json": out / "regress.json", "regress.md": out / "regress.md"}
    paths["regress.json"].write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n",
                                     encoding="utf-8")
    paths["regress.md"].write_text(regression_markdown(reg, top=top), encoding="utf-8")
    return paths


def _fmt(x: object) -> str:
    return "n/a" if not isinstance(x, (int, float)) else f"{x:.4f}"


def regression_markdown(reg: Regression, *, top: int = 20) -> str:
    """Summary table, then the pairs that got worse with old and new candidates shown."""
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
    worst = reg.worst()
    lines += [f"## Got worse ({len(worst)}, {min(top, len(worst))} shown)", ""]
    for d in worst[:top]:
        lines += [f"### `{d.id}`: {_fmt(d.old)} → {_fmt(d.new)}"
                  + (f" (new error: {d.new_error})" if d.new_error else ""), "",
                  "Reference:", "```lean", reg.pairs_new[d.id].reference.statement.strip(), "```",
                  "Old candidate:", "```lean", reg.pairs_old[d.id].candidate.statement.strip(),
                  "```", "New candidate:", "```lean",
                  reg.pairs_new[d.id].candidate.statement.strip(), "```", ""]
    lines += [f"Signature: `{reg.signature}`", ""]
    return "\n".join(lines)
