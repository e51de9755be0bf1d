"""Regression gate: does the new translator score worse than the old one beyond a bound?

Before any criterion: the gate judges only when enough pairs were compared (matched pairs
with a score in at least one version): at least ``min_matched`` of them and at least
``min_matched_share`` of the ids of either version; else its outcome is ``insufficient``
(``transted regress`` exits 4; ``assert_no_regression`` raises), never a silent pass.

Four criteria (``fail_on``) over the matched pairs of a :class:`~transted.studies.regression.compare.Regression`:

* ``"worse"``: a pair scored in both versions dropped by more than ``max_pair_drop`` (default
  0: any drop), or a pair the old version scored has no score in the new one (``broke``:
  an ``error``, ``timeout``, ``unavailable``, ``too_large`` or ``invalid`` result). A
  **timeout counts as broken**: the gate cannot vouch for a pair it could not score (give a
  larger ``--pair-timeout`` if the machine was loaded). A mean that rose never hides a pair
  that got worse.
* ``"mean"``: the mean score over pairs scored in both versions dropped by more than
  ``max_drop`` (``mean(new - old) < -max_drop``), or a pair broke as above.
* ``"verdict-flip"``: more than ``max_drop`` (a fraction of the matched pairs) went from
  ``equivalent`` to ``not-equivalent``. Verdicts are the metric's own (``MetricResult.verdict``,
  :func:`transted.pipeline.verdict.rules.decide`); with ``threshold`` the same rule with that fallback
  threshold: evidence and residual edits decide first, then ``score >= threshold`` (a pair that
  failed to score is not-equivalent, as in ``transted eval``). Without verdicts and without a
  threshold the gate refuses to run (``ValueError``) rather than guess one.
* ``"equivalent@k"`` (sampled outputs, :mod:`transted.running.samples`): the share of problems with an
  equivalent sample among their first ``k`` dropped by more than ``max_drop`` (problems both
  versions have; verdicts as for ``verdict-flip``); with ``alpha``, the one-sided exact sign
  test on the problems that lost / gained it.

With ``alpha`` the gate fails only when the drop is also significant (one-sided Wilcoxon
signed-rank p < alpha for ``mean``; ``worse`` judges each pair and takes no ``alpha``, one-sided exact sign test on the flipped pairs, i.e. exact
McNemar, for ``verdict-flip``). Every report carries the paired figures whatever the criterion:
a seeded paired bootstrap of the mean difference (percentile interval, and the share of
resamples whose mean difference is >= 0 as a one-sided p for "new is worse"), the Wilcoxon
signed-rank p and the sign-test p (scipy).
"""

from __future__ import annotations

import difflib
import math
from dataclasses import asdict, dataclass, field
from typing import Literal

from scipy.stats import binomtest

from transted.pipeline.verdict.rules import passes
from transted.running.samples import SampleFigures
from transted.studies.evaluation.outcome import to_json_safe
from transted.studies.regression.compare import PairDelta, Regression
from transted.studies.regression.significance import Significance, paired_significance

__all__ = ["FAIL_ON", "Significance", "GateReport", "paired_significance", "check_regression",
           "parse_fail_on", "check_gate_options"]

FailOn = Literal["worse", "mean", "verdict-flip"]
FAIL_ON: tuple[str, ...] = ("worse", "mean", "verdict-flip", "equivalent@K")
"""The criteria; ``equivalent@K`` stands for ``equivalent@1``, ``equivalent@2``, …"""


def parse_fail_on(value: str) -> tuple[str, int | None]:
    """``"worse"`` → ``("worse", None)``; ``"equivalent@3"`` → ``("equivalent", 3)``; anything
    else is a ``ValueError`` listing the criteria."""
    if value in ("worse", "mean", "verdict-flip"):
        return value, None
    name, sep, k = value.partition("@")
    if name == "equivalent" and sep and k.isdigit() and int(k) >= 1:
        return "equivalent", int(k)
    near = difflib.get_close_matches(value, ["worse", "mean", "verdict-flip", "equivalent@1"],
                                     n=1)
    hint = f" (did you mean {near[0]}?)" if near else ""
    raise ValueError(f"`fail_on` must be worse, mean, verdict-flip or equivalent@K (K >= 1), "
                     f"got {value!r}{hint}")


def check_gate_options(*, fail_on: str = "worse", max_drop: float = 0.0,
                       alpha: float | None = None, n_boot: int = 10000,
                       min_matched: int = 1, min_matched_share: float = 0.0,
                       max_pair_drop: float | None = None) -> None:
    """Every gate option checked (``ValueError`` naming it), so a caller can refuse a bad
    value before anything is scored. ``worse`` bounds each pair (``max_pair_drop``), the
    others a mean or a share (``max_drop``, ``alpha``): a bound given to the wrong criterion
    is refused rather than ignored."""
    criterion, _ = parse_fail_on(fail_on)
    for name, value in (("max_drop", max_drop), ("max_pair_drop", max_pair_drop)):
        if value is not None and not (isinstance(value, (int, float)) and math.isfinite(value)
                                      and value >= 0):
            raise ValueError(f"`{name}` must be a number >= 0, got {value}")
    if criterion == "worse" and max_drop:
        raise ValueError("`max_drop` bounds a mean or a share, not `fail_on` worse, which "
                         "fails on any pair that got worse: give `max_pair_drop` (each pair's "
                         "allowed drop), or `fail_on` mean for the mean score")
    if criterion == "worse" and alpha is not None:
        raise ValueError("`alpha` tests a mean or a share; `fail_on` worse judges each pair: "
                         "use `fail_on` mean for a significance-tested mean drop")
    if criterion != "worse" and max_pair_drop is not None:
        raise ValueError(f"`max_pair_drop` bounds each pair under `fail_on` worse, not "
                         f"{fail_on} (whose bound is `max_drop`)")
    if criterion not in ("worse", "mean") and max_drop > 1:
        raise ValueError(f"`max_drop` is a share for {fail_on}: it must be in [0, 1], got "
                         f"{max_drop}")
    if alpha is not None and not 0 < alpha < 1:
        raise ValueError(f"`alpha` must be in (0, 1), got {alpha}")
    if not isinstance(n_boot, int) or n_boot < 1:
        raise ValueError(f"`n_boot` must be >= 1, got {n_boot}")
    if not isinstance(min_matched, int) or isinstance(min_matched, bool) or min_matched < 0:
        raise ValueError(f"`min_matched` must be an int >= 0, got {min_matched!r}")
    if not 0 <= min_matched_share <= 1:
        raise ValueError(f"`min_matched_share` must be in [0, 1], got {min_matched_share}")


@dataclass
class GateReport:
    """The gate's decision, the reasons for it and the pairs behind it."""

    metric: str
    signature: str
    fail_on: str
    max_drop: float
    alpha: float | None
    significance: Significance
    failed: bool
    reasons: list[str]
    worse: list[PairDelta] = field(default_factory=list)
    """Pairs that got worse or broke, the largest drop first."""
    verdict_source: str | None = None
    """``"threshold <t>"`` or ``"metric"`` for ``verdict-flip`` and ``equivalent@k``; None
    otherwise."""
    flipped_down: list[str] = field(default_factory=list)
    """Pairs (``verdict-flip``) or problems (``equivalent@k``) that lost equivalence."""
    flipped_up: list[str] = field(default_factory=list)
    p_flip: float | None = None
    insufficient: bool = False
    """Too few pairs compared (``min_matched``): the gate did not judge (``failed`` False)."""
    n_compared: int = 0
    equivalent_at: tuple[float | None, float | None] | None = None
    """``equivalent@k`` of the old and the new version (criterion ``equivalent@k``)."""
    max_pair_drop: float | None = None
    """Each pair's allowed drop (criterion ``worse``)."""

    @property
    def outcome(self) -> str:
        """``passed``, ``failed`` or ``insufficient``."""
        return "insufficient" if self.insufficient else "failed" if self.failed else "passed"

    def summary(self) -> dict[str, object]:
        return to_json_safe({
            "metric": self.metric, "signature": self.signature, "fail_on": self.fail_on,
            "max_drop": self.max_drop, "max_pair_drop": self.max_pair_drop,
            "alpha": self.alpha, "failed": self.failed,
            "outcome": self.outcome, "n_compared": self.n_compared,
            "equivalent_at": self.equivalent_at,
            "reasons": self.reasons, "significance": asdict(self.significance),
            "worse": [{"id": d.id, "old": d.old, "new": d.new, "delta": d.delta,
                       "status": d.status} for d in self.worse],
            "verdict_source": self.verdict_source, "flipped_down": self.flipped_down,
            "flipped_up": self.flipped_up, "p_flip": self.p_flip,
        })

    def significance_line(self) -> str:
        """The paired figures in one line."""
        s = self.significance
        if not s.n:
            return "paired: no pair scored in both versions"
        return (f"paired over {s.n} pairs: mean delta {s.mean_delta:+.4f}, "
                f"{100 * s.confidence:.0f}% bootstrap CI [{s.ci_low:+.4f}, {s.ci_high:+.4f}] "
                f"({s.n_boot} resamples, seed {s.seed}), P(boot mean >= 0) = "
                f"{s.p_bootstrap:.4f}; Wilcoxon p = {s.p_wilcoxon:.4g}; sign test p = "
                f"{s.p_sign:.4g} ({s.n_worse} worse, {s.n_improved} better)")

    def message(self, *, top: int = 10) -> str:
        """A readable account: decision, reasons, paired figures, the pairs that got worse."""
        head = {"failed": "FAILED", "passed": "passed",
                "insufficient": "could not judge"}[self.outcome]
        bound = (f"max-pair-drop {self.max_pair_drop:g}" if self.max_pair_drop is not None
                 else f"max-drop {self.max_drop:g}")
        lines = [f"regression gate {head} ({self.metric}, fail-on {self.fail_on}, {bound}"
                 + (f", alpha {self.alpha:g}" if self.alpha is not None else "") + ")"]
        lines += [f"  - {r}" for r in self.reasons]
        lines.append("  " + self.significance_line())
        if self.verdict_source is not None:
            what = "problems" if self.equivalent_at is not None else "pairs"
            lines.append(f"  verdicts from {self.verdict_source}: {len(self.flipped_down)} "
                         f"{what} equivalent → not-equivalent, {len(self.flipped_up)} the "
                         "other way" + (f"; sign test p = {self.p_flip:.4g}"
                                        if self.p_flip is not None else ""))
        for d in self.worse[:top]:
            old = "error" if d.old is None else f"{d.old:.4f}"
            new = f"error ({d.new_error})" if d.new is None else f"{d.new:.4f}"
            lines.append(f"  worse: {d.id}: {old} → {new}")
        if len(self.worse) > top:
            lines.append(f"  … and {len(self.worse) - top} more")
        return "\n".join(lines)


def _verdicts(reg: Regression, threshold: float | None) -> tuple[str, list[tuple[bool, bool]]]:
    """(source, [(old equivalent, new equivalent)]) per matched pair."""
    if threshold is not None:
        def eq(score: float | None, forced: bool | None) -> bool:
            if forced is not None:
                return forced
            return score is not None and bool(passes(score, threshold))
        return f"the verdict rule with fallback threshold {threshold:g}", \
            [(eq(d.old, d.old_forced), eq(d.new, d.new_forced)) for d in reg.deltas]
    given = [d for d in reg.deltas if d.old_verdict is not None or d.new_verdict is not None]
    if not given:
        raise ValueError(
            f"`fail_on='verdict-flip'` needs verdicts: metric {reg.metric!r} gave none (it has "
            f"no shipped threshold); give a threshold (--threshold T on the CLI)")
    return "metric", [(d.old_verdict == "equivalent", d.new_verdict == "equivalent")
                      for d in reg.deltas]


def check_regression(reg: Regression, *, fail_on: str = "worse", max_drop: float = 0.0,
                     threshold: float | None = None, alpha: float | None = None,
                     n_boot: int = 10000, seed: int = 0, confidence: float = 0.95,
                     min_matched: int = 1, min_matched_share: float = 0.0,
                     max_pair_drop: float | None = None) -> GateReport:
    """Apply the gate to ``reg`` (see the module docstring for the criteria).

    Parameters
    ----------
    fail_on : ``"worse"`` (any pair's drop beyond ``max_pair_drop``, or a pair broke),
        ``"mean"`` (mean score drop), ``"verdict-flip"`` (equivalent → not) or
        ``"equivalent@k"`` (share of problems with an equivalent sample among the first k)
    max_drop : allowed drop: of the mean score for ``mean``; of the share of matched pairs
        flipping to not-equivalent for ``verdict-flip``; of ``equivalent@k`` (0 = none allowed)
    max_pair_drop : each pair's allowed score drop for ``worse`` (None = 0)
    threshold : verdict threshold for ``verdict-flip`` and ``equivalent@k`` (overrides the
        metric's verdicts)
    alpha : if given, fail only when the drop is also significant at this level (not ``worse``)
    n_boot, seed, confidence : of the paired bootstrap
    min_matched, min_matched_share : the fewest pairs compared, as a count and as a share of
        the ids of either version, for the gate to judge (else ``insufficient``)
    """
    check_gate_options(fail_on=fail_on, max_drop=max_drop, alpha=alpha, n_boot=n_boot,
                       min_matched=min_matched, min_matched_share=min_matched_share,
                       max_pair_drop=max_pair_drop)
    criterion, k = parse_fail_on(fail_on)
    both = [d.delta for d in reg.deltas if d.delta is not None]
    sig = paired_significance(both, n_boot=n_boot, seed=seed, confidence=confidence)
    report = GateReport(reg.metric, reg.signature, fail_on, max_drop, alpha, sig, False, [],
                        worse=reg.worst(), n_compared=reg.n_compared,
                        max_pair_drop=(max_pair_drop or 0.0) if criterion == "worse" else None)
    share = reg.n_compared / reg.n_union if reg.n_union else 0.0
    if reg.n_compared < min_matched or share < min_matched_share:
        report.insufficient = True
        report.reasons.append(
            f"{reg.n_compared} pair(s) compared (matched and scored in at least one version; "
            f"{len(reg.deltas)} matched of {reg.n_union} ids) < --min-matched {min_matched}"
            + (f" or {100 * share:.1f}% < --min-matched-share {100 * min_matched_share:g}%"
               if min_matched_share else "")
            + f"; only in old ({len(reg.only_old)}): {_ids(reg.only_old)}; only in new "
              f"({len(reg.only_new)}): {_ids(reg.only_new)}")
        return report
    if criterion == "equivalent":
        assert k is not None
        _equivalent_at_gate(reg, report, k, threshold)
    elif criterion == "worse":
        _pair_gate(reg, report, max_pair_drop or 0.0)
    elif criterion == "mean":
        _mean_gate(reg, report, sig, max_drop, alpha)
    else:
        _flip_gate(reg, report, threshold, max_drop, alpha)
    if not report.reasons:
        report.reasons.append("within the bound")
    return report


def _broke(reg: Regression, report: GateReport) -> bool:
    """Pairs the old version scored and the new one did not: a regression whatever the
    bound (a timeout included)."""
    broke = [d for d in reg.deltas if d.status == "broke"]
    if broke:
        report.reasons.append(
            f"{len(broke)} pair(s) scored by the old version have no score in the new one "
            "(error, timeout, invalid…; a timeout counts as broken): "
            + ", ".join(f"{d.id} ({(d.new_error or 'no score').splitlines()[0][:60]})"
                        for d in broke[:10]))
    return bool(broke)


def _pair_gate(reg: Regression, report: GateReport, max_pair_drop: float) -> None:
    """``worse``: any pair scored in both versions whose score dropped by more than
    ``max_pair_drop``, or any pair that broke."""
    dropped = [d for d in reg.worst() if d.delta is not None and d.delta < -max_pair_drop]
    if dropped:
        report.reasons.append(
            f"{len(dropped)} pair(s) got worse by more than max-pair-drop {max_pair_drop:g}: "
            + ", ".join(f"{d.id} ({d.old:.4f} → {d.new:.4f})" for d in dropped[:10])
            + (f", … ({len(dropped) - 10} more)" if len(dropped) > 10 else ""))
    within = [d for d in reg.worst() if d.delta is not None and d.delta >= -max_pair_drop]
    if within and not dropped:
        report.reasons.append(f"{len(within)} pair(s) got worse within max-pair-drop "
                              f"{max_pair_drop:g}")
    broke = _broke(reg, report)
    report.failed = bool(dropped) or broke


def _mean_gate(reg: Regression, report: GateReport, sig: Significance, max_drop: float,
               alpha: float | None) -> None:
    """``mean``: the mean score over pairs scored in both dropped by more than ``max_drop``
    (and, with ``alpha``, significantly), or a pair broke."""
    dropped = sig.mean_delta is not None and sig.mean_delta < -max_drop
    significant = alpha is None or (sig.p_wilcoxon is not None and sig.p_wilcoxon < alpha)
    if dropped and significant:
        report.reasons.append(f"mean score dropped by {-sig.mean_delta:.4f} "  # type: ignore[operator]
                              f"> max-drop {max_drop:g}")
    elif dropped:
        report.reasons.append(f"mean score dropped by {-sig.mean_delta:.4f} but not "  # type: ignore[operator]
                              f"significantly (Wilcoxon p = {sig.p_wilcoxon:.4g} >= "
                              f"alpha {alpha:g}); not failing")
    broke = _broke(reg, report)
    report.failed = (dropped and significant) or broke


def _flip_gate(reg: Regression, report: GateReport, threshold: float | None, max_drop: float,
               alpha: float | None) -> None:
    """``verdict-flip``: more than ``max_drop`` of the matched pairs went equivalent →
    not-equivalent (and, with ``alpha``, significantly: exact sign test)."""
    source, verdicts = _verdicts(reg, threshold)
    report.verdict_source = source
    report.flipped_down = [d.id for d, (o, n) in zip(reg.deltas, verdicts, strict=True)
                           if o and not n]
    report.flipped_up = [d.id for d, (o, n) in zip(reg.deltas, verdicts, strict=True)
                         if n and not o]
    down, up = len(report.flipped_down), len(report.flipped_up)
    report.p_flip = 1.0 if down + up == 0 else float(
        binomtest(down, down + up, 0.5, alternative="greater").pvalue)
    share = down / len(reg.deltas) if reg.deltas else 0.0
    significant = alpha is None or report.p_flip < alpha
    if share > max_drop:
        report.reasons.append(
            f"{down} of {len(reg.deltas)} pairs ({100 * share:.1f}%) flipped equivalent → "
            f"not-equivalent > max-drop {100 * max_drop:g}%: "
            + ", ".join(report.flipped_down[:10])
            + ("" if significant else f" (not significant: sign test p = "
               f"{report.p_flip:.4g} >= alpha {alpha:g}; not failing)"))
    report.failed = share > max_drop and significant


def _ids(ids: list[str], limit: int = 10) -> str:
    if not ids:
        return "none"
    return ", ".join(ids[:limit]) + (f", … ({len(ids) - limit} more)" if len(ids) > limit else "")


def _equivalent_at_gate(reg: Regression, report: GateReport, k: int,
                        threshold: float | None) -> None:
    """``equivalent@k``: fail when its share over the problems both versions have dropped by
    more than ``max_drop`` (and, with ``alpha``, significantly: exact sign test on the
    problems that lost / gained it)."""
    figures = reg.sample_figures(threshold)
    if figures is None:
        raise ValueError(f"`fail_on={report.fail_on!r}` needs sampled outputs (ids "
                         "<problem>#<i>, as --references/--candidates joins make)")
    old, new = figures
    if not old.verdicts and not new.verdicts:
        raise ValueError(
            f"`fail_on={report.fail_on!r}` needs verdicts: metric {reg.metric!r} gave none (it "
            "has no shipped threshold); give a threshold (--threshold T on the CLI)")
    before, after = old.equivalent_at(k), new.equivalent_at(k)
    report.equivalent_at = (before, after)
    report.verdict_source = old.source
    problems = [p.problem for p in old.problems]
    lost = [p for p in problems if _hit(old, p, k) and not _hit(new, p, k)]
    gained = [p for p in problems if _hit(new, p, k) and not _hit(old, p, k)]
    report.flipped_down, report.flipped_up = lost, gained
    report.p_flip = 1.0 if not lost and not gained else float(
        binomtest(len(lost), len(lost) + len(gained), 0.5, alternative="greater").pvalue)
    drop = (before or 0.0) - (after or 0.0)
    significant = report.alpha is None or report.p_flip < report.alpha
    if drop > report.max_drop:
        report.reasons.append(
            f"equivalent@{k} dropped from {before:.4f} to {after:.4f} over {len(problems)} "
            f"problems (by {drop:.4f} > max-drop {report.max_drop:g}); lost: "
            + _ids(lost) + ("" if significant else f" (not significant: sign test p = "
                            f"{report.p_flip:.4g} >= alpha {report.alpha:g}; not failing)"))
    report.failed = drop > report.max_drop and significant


def _hit(figures: SampleFigures, problem: str, k: int) -> bool:
    return figures.equivalent_at(k, [problem]) == 1.0
