"""Per-problem figures for sampled outputs, as autoformalization papers report them.

A translator asked for several samples per problem gives pairs ``<problem>#0``,
``<problem>#1``, … (:mod:`transted.reading.inputs` numbers them by their position among the
problem's candidates). Per problem, with ``n`` samples of which ``c`` are judged equivalent:

* ``equivalent@k``: at least one of the first ``k`` samples (in sample order) is judged
  equivalent, for ``k = 1`` and ``k = K``, the largest sample count (a problem with fewer
  samples uses all of them);
* ``pass@k``: the unbiased estimator ``1 - C(n-c, k) / C(n, k)`` of Chen et al. (2021,
  "Evaluating Large Language Models Trained on Code", eq. 1), for the same ``k`` where the
  counts allow (``k <= n``): the chance that ``k`` samples drawn without replacement hold an
  equivalent one;
* the best and the mean score of the samples (errors have no score and are left out).

A sample is judged equivalent by its verdict (``MetricResult.verdict``, the metric's own, which
:mod:`transted.pipeline.verdict` gives), or, with a ``threshold``, by the same rule with that fallback
threshold (evidence and residual edits first, :func:`transted.pipeline.verdict.rules.forced_decision`,
then ``score >= threshold``); a sample that failed to score, or an ``invalid``
candidate, is not equivalent. A metric that gives no verdicts (no shipped threshold) and no
``threshold``: the equivalence figures are None, the scores are still reported. Overall
figures are means over problems.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from transted.pipeline.verdict.rules import forced_decision, passes

__all__ = ["ProblemFigures", "SampleFigures", "sample_figures", "problem_of", "pass_at_k",
           "problems_path"]


def problem_of(pair_id: str) -> tuple[str, int] | None:
    """``"p1#0"`` → ``("p1", 0)``; None for an id that is not a sample's."""
    key, sep, index = pair_id.rpartition("#")
    if not sep or not key or not index.isdigit():
        return None
    return key, int(index)


def pass_at_k(n: int, c: int, k: int) -> float | None:
    """The unbiased pass@k estimator ``1 - C(n-c, k) / C(n, k)``; None when ``k > n``."""
    if not 0 <= c <= n or k < 1:
        raise ValueError(f"pass@k needs 0 <= c <= n and k >= 1, got n={n}, c={c}, k={k}")
    if k > n:
        return None
    if n - c < k:
        return 1.0
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


@dataclass(frozen=True)
class ProblemFigures:
    """One problem's samples and figures (``equivalent_at``/``pass_at`` keyed by k)."""

    problem: str
    samples: tuple[str, ...]
    """Pair ids in sample order."""
    scored: int
    equivalent: int | None
    equivalent_at: dict[int, bool] = field(default_factory=dict)
    pass_at: dict[int, float] = field(default_factory=dict)
    best: float | None = None
    mean: float | None = None

    @property
    def n(self) -> int:
        return len(self.samples)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"problem": self.problem, "n": self.n, "scored": self.scored,
                               "equivalent": self.equivalent}
        out.update({f"equivalent@{k}": v for k, v in self.equivalent_at.items()})
        out.update({f"pass@{k}": v for k, v in self.pass_at.items()})
        return {**out, "best": self.best, "mean": self.mean, "samples": list(self.samples)}


@dataclass
class SampleFigures:
    """Every problem's figures and the means over problems."""

    problems: list[ProblemFigures]
    ks: tuple[int, ...]
    """``(1, K)`` with K the largest sample count (just ``(1,)`` when K is 1)."""
    verdicts: bool
    """Whether samples were judged (verdicts or a threshold); else no equivalence figures."""
    source: str = "metric"
    """Where the verdicts came from: ``metric`` or ``threshold <t>``."""
    _equivalent: dict[str, list[bool]] = field(default_factory=dict, repr=False)
    """Per problem, whether each sample (in order) was judged equivalent."""

    def by_problem(self) -> dict[str, ProblemFigures]:
        return {p.problem: p for p in self.problems}

    def restricted(self, problems: Iterable[str]) -> SampleFigures:
        """The same figures over ``problems`` only (in this object's order)."""
        wanted = set(problems)
        rows = [p for p in self.problems if p.problem in wanted]
        return SampleFigures(rows, self.ks, self.verdicts, self.source,
                             {p.problem: self._equivalent[p.problem] for p in rows})

    def equivalent_at(self, k: int, problems: Iterable[str] | None = None) -> float | None:
        """Share of problems (of ``problems``, default all) with an equivalent sample among
        their first ``k``."""
        if not self.verdicts:
            return None
        rows = self._rows(problems)
        hits = [any(self._judged(p)[:k]) for p in rows]
        return sum(hits) / len(hits) if hits else None

    def overall(self) -> dict[str, Any]:
        """Means over problems: ``equivalent@k``, ``pass@k`` (over the problems with at least
        k samples; ``pass@k_problems`` says how many), best and mean score."""
        out: dict[str, Any] = {"problems": len(self.problems),
                               "samples": sum(p.n for p in self.problems),
                               "verdicts": self.source if self.verdicts else None}
        for k in self.ks:
            out[f"equivalent@{k}"] = self.equivalent_at(k)
        for k in self.ks:
            values = [p.pass_at[k] for p in self.problems if k in p.pass_at]
            out[f"pass@{k}"] = sum(values) / len(values) if values else None
            out[f"pass@{k}_problems"] = len(values)
        out["best"] = _mean([p.best for p in self.problems if p.best is not None])
        out["mean"] = _mean([p.mean for p in self.problems if p.mean is not None])
        return out

    def summary_line(self) -> str:
        """``per problem (3 problems, 2 samples each): equivalent@1 0.6667, …``."""
        o = self.overall()
        counts = sorted({p.n for p in self.problems})
        each = (f"{counts[0]} sample{'s' if counts[0] != 1 else ''} each" if len(counts) == 1
                else f"{counts[0]}-{counts[-1]} samples")
        parts = []
        for name in [*(f"equivalent@{k}" for k in self.ks), *(f"pass@{k}" for k in self.ks)]:
            if o[name] is not None:
                parts.append(f"{name} {o[name]:.4f}" + self._over(name, o))
        if not self.verdicts:
            parts.append("equivalent@k: none (no verdicts: the metric has no shipped threshold)")
        parts.append(f"best {_fmt(o['best'])}, mean {_fmt(o['mean'])} (means over problems)")
        problems = f"{o['problems']} problem{'s' if o['problems'] != 1 else ''}"
        return f"per problem ({problems}, {each}): " + "; ".join(parts)

    def _over(self, name: str, overall: dict[str, Any]) -> str:
        """`` (over 1 problem with >= 3 samples)`` when a figure is a mean over fewer problems
        than the line's count (pass@k needs k samples; equivalent@k counts every problem)."""
        if not name.startswith("pass@"):
            return ""
        n, k = overall[f"{name}_problems"], name.partition("@")[2]
        if n == overall["problems"]:
            return ""
        return f" (over {n} problem{'s' if n != 1 else ''} with >= {k} samples)"

    def write_jsonl(self, path: str | Path, *, metric: str, signature: str) -> Path:
        """One line per problem (``metric`` and ``signature`` on each), then nothing else;
        written whole (a temporary file renamed over ``path``)."""
        path = Path(path)
        tmp = path.with_name(path.name + ".tmp")
        with tmp.open("w", encoding="utf-8") as f:
            for p in self.problems:
                f.write(json.dumps({**p.as_dict(), "metric": metric, "signature": signature},
                                   ensure_ascii=False) + "\n")
        tmp.replace(path)
        return path

    def _rows(self, problems: Iterable[str] | None) -> list[ProblemFigures]:
        if problems is None:
            return self.problems
        wanted = set(problems)
        return [p for p in self.problems if p.problem in wanted]

    def _judged(self, problem: ProblemFigures) -> list[bool]:
        return self._equivalent[problem.problem]


def _mean(values: Sequence[float]) -> float | None:
    return sum(values) / len(values) if values else None


def _fmt(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.4f}"


def _judge(result: Any, threshold: float | None, convention: str) -> bool:
    if threshold is not None:

        forced = forced_decision(getattr(result, "details", None) or {},
                                 status=getattr(result, "status", "ok"), convention=convention)
        if forced.verdict is not None:
            return forced.verdict == "equivalent"
        return result.score is not None and bool(passes(result.score, threshold))
    return getattr(result, "verdict", None) == "equivalent"


def sample_figures(results: Iterable[Any], *, threshold: float | None = None,
                   convention: str = "strict") -> SampleFigures | None:
    """The per-problem figures of ``results`` (anything with ``id``, ``score`` and
    ``verdict``: :class:`~transted.metrics.base.MetricResult`), grouped by the ids'
    ``<problem>#<sample>`` form; None when no id has that form (not sampled outputs)."""
    grouped: dict[str, list[tuple[int, Any]]] = {}
    for result in results:
        key = problem_of(result.id)
        if key is None:
            continue
        grouped.setdefault(key[0], []).append((key[1], result))
    if not grouped:
        return None
    rows = {problem: [r for _, r in sorted(group, key=lambda item: item[0])]
            for problem, group in grouped.items()}
    verdicts = threshold is not None or any(getattr(r, "verdict", None) is not None
                                            for group in rows.values() for r in group)
    top = max(len(group) for group in rows.values())
    ks = (1,) if top == 1 else (1, top)
    problems, judged = [], {}
    for problem, group in rows.items():
        hits = [_judge(r, threshold, convention) for r in group]
        judged[problem] = hits
        scores = [r.score for r in group if r.score is not None]
        c = sum(hits)
        problems.append(ProblemFigures(
            problem=problem, samples=tuple(r.id for r in group), scored=len(scores),
            equivalent=c if verdicts else None,
            equivalent_at={k: any(hits[:k]) for k in ks} if verdicts else {},
            pass_at={k: v for k in ks if (v := pass_at_k(len(group), c, k)) is not None}
            if verdicts else {},
            best=max(scores) if scores else None, mean=_mean(scores)))
    source = f"threshold {threshold:g}" if threshold is not None else "metric"
    return SampleFigures(problems, ks, verdicts, source, _equivalent=judged)


def problems_path(out: str | Path) -> Path:
    """Where the per-problem JSONL of result file ``out`` goes: ``x.jsonl`` →
    ``x.problems.jsonl`` beside it."""
    out = Path(out)
    return out.with_name(f"{out.stem}.problems{out.suffix or '.jsonl'}")
