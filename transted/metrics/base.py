"""The metric interface: a pair in, a :class:`MetricResult` with a signature out.

Subclasses implement :meth:`Metric._score` (and declare their options); the public template
:meth:`Metric.score_pair` turns expected failures into result values: a
:class:`~transted.errors.TranstedError` becomes ``error`` (score null) and
:class:`~transted.errors.LeanUnavailable` becomes ``status="unavailable"`` and
:class:`~transted.errors.TooLarge` ``status="too_large"`` (with the sizes and the bound), so a batch records
the failure for that pair and goes on.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, Protocol, runtime_checkable

from pydantic import BaseModel, ConfigDict

from transted.errors import InvalidCandidate, LeanUnavailable, PairTimeout, TooLarge, TranstedError
from transted.pipeline.verdict.rules import Decision, DecisionRule, decide, with_threshold
from transted.pipeline.verdict.thresholds import rule_for
from transted.reading.pairs import Pair
from transted.signature import Signature

__all__ = ["Metric", "MetricResult", "PairScore", "pair_hash", "Explains", "PairExplanation"]

Status = Literal["ok", "invalid", "error", "unavailable", "too_large", "timeout"]
"""``invalid``: the candidate is confidently not valid Lean 4 against a reference that parses
(:class:`~transted.errors.InvalidCandidate`) — an answer: verdict ``not-equivalent``,
``decided_by="invalid"``, no score, the positioned parse error; evaluation counts it as a
prediction. ``timeout``: a wall-clock limit ended the pair, so it has no score: the metric's own
deadline (:class:`~transted.errors.PairTimeout`: ``max_time``, an evidence engine's safety net)
or a batch's ``pair_timeout`` passed twice, its worker killed
(:class:`~transted.running.executors.LocalExecutor`); evaluation treats it like ``error``."""


class MetricResult(BaseModel):
    """One result line. Other tools read exactly ``id, metric, score, signature, error``."""

    model_config = ConfigDict(extra="forbid")

    id: str
    metric: str
    score: float | None
    """Similarity (higher = closer); a binary metric gives 1.0 / 0.0; null on error."""
    signature: str
    error: str | None = None
    status: Status = "ok"
    input: str | None = None
    """Short hash of the pair's two statements (resume refuses a result made from other text)."""
    details: dict[str, Any] = {}
    verdict: Literal["equivalent", "not-equivalent"] | None = None
    """The metric's decision (:func:`transted.pipeline.verdict.rules.decide`): definite evidence
    (``details["evidence"]``), the residual edits (``details["residual"]``), the shipped
    threshold, or a verdict metric's own answer; null when none applies (no score, or a
    fallback to a threshold that is not shipped)."""
    decided_by: Literal["evidence", "invalid", "edits", "threshold", "binary"] | None = None


@dataclass
class PairScore:
    """What :meth:`Metric._score` returns: the value, optional explanation fields and, for a
    metric whose verdict comes from what differs (the pair pipeline's decision stage), the
    decision that evidence or edits force — its verdict None where the shipped fallback
    threshold must decide (:func:`transted.pipeline.verdict.rules.with_threshold`)."""

    value: float | bool
    details: dict[str, Any] = field(default_factory=dict)
    forced: Decision | None = None


@dataclass(frozen=True)
class PairExplanation:
    """What ``--explain`` shows of one scored pair: a rich renderable when the metric has one
    (the search: d*, the script, the tree diff) and plain lines (the costed edits, the residual
    edits, the auto-bound names)."""

    renderable: Any = None
    lines: tuple[str, ...] = ()


@runtime_checkable
class Explains(Protocol):
    """A metric that can say how it reached a result (``score REF CAND --explain``)."""

    def explain_pair(self, pair: Pair, result: MetricResult) -> PairExplanation:
        """The explanation of ``result``, the metric's own result for ``pair``."""
        ...


class Metric(ABC):
    """Base class of all metrics.

    Class attributes
    ----------------
    name : registry name (``ted``, ``bleu``, ``fol-le`` ...)
    version : version of this metric's implementation; bump when scores can change
    binary : the metric yields a verdict (True/False) rather than a graded score
    """

    name: ClassVar[str]
    version: ClassVar[str] = "1"
    binary: ClassVar[bool] = False
    construction: tuple[str, dict[str, Any]] | None = None
    """``(name, options)`` as :func:`~transted.metrics.registry.get_metric` was called."""

    @property
    def runs_lean(self) -> bool:
        """The metric talks to a Lean REPL, which costs seconds per pair and gigabytes per
        process: a batch with the CLI's default ``--jobs`` then starts its worker pool at
        once instead of scoring the first pairs in the driver (a REPL there would idle)."""
        return False

    def options(self) -> dict[str, object]:
        """The options that can change a score, in a stable order (go into the signature)."""
        return {}

    @property
    def base_signature(self) -> Signature:
        """The signature without the decision-rule field (what a shipped threshold keys on)."""
        return Signature.build(self.name, {"v": self.version, **self.options()})

    @property
    def signature(self) -> Signature:
        return self._signature_and_rule()[0]

    def _signature_and_rule(self) -> tuple[Signature, DecisionRule | None]:
        """The signature and the decision rule, from one call to :meth:`options`."""
        fields: dict[str, object] = {"v": self.version, **self.options()}
        if self.binary:
            return Signature.build(self.name, fields), None
        rule = rule_for(self.name, str(Signature.build(self.name, fields)))
        fields["threshold"] = rule.field() if rule is not None else "none"
        return Signature.build(self.name, fields), rule

    def decision_rule(self) -> DecisionRule | None:
        """The shipped :class:`~transted.pipeline.verdict.rules.DecisionRule` for exactly this
        computation, or None (other options, or not derived yet)."""
        return rule_for(self.name, str(self.base_signature))

    @abstractmethod
    def _score(self, pair: Pair) -> PairScore:
        """Score one pair; raise a TranstedError for input the metric cannot handle."""

    def score_pair(self, pair: Pair) -> MetricResult:
        signature, rule = self._signature_and_rule()
        base: dict[str, Any] = {"id": pair.id, "metric": self.name, "signature": str(signature),
                                "input": pair_hash(pair)}
        try:
            scored = self._score(pair)
        except LeanUnavailable as e:
            return MetricResult(**base, score=None, error=f"unavailable: {e}", status="unavailable")
        except PairTimeout as e:
            return MetricResult(**base, score=None, error=str(e), status="timeout")
        except TooLarge as e:
            return MetricResult(**base, score=None, error=str(e), status="too_large",
                                details=e.details())
        except InvalidCandidate as e:  # an answer, decided before any search or evidence
            return MetricResult(**base, score=None, error=str(e), status="invalid",
                                details={"invalid": e.details()}, verdict="not-equivalent",
                                decided_by="invalid")
        except TranstedError as e:
            return MetricResult(**base, score=None, error=str(e), status="error")
        score = float(scored.value)
        threshold = rule.threshold if rule is not None else None
        if scored.forced is not None:
            decision = with_threshold(scored.forced, score, threshold)
        else:
            decision = decide(score, scored.details,
                              binary=self.binary or bool(scored.details.get("binary")),
                              threshold=threshold,
                              convention=getattr(self, "convention", "strict"))
        if decision.reason is not None:
            scored.details["verdict_reason"] = decision.reason
        return MetricResult(**base, score=score, details=scored.details,
                            verdict=decision.verdict, decided_by=decision.decided_by)


def pair_hash(pair: Pair) -> str:
    """12 hex digits of SHA-256 over the two statements (text, header, pretty)."""
    payload = json.dumps([pair.reference.model_dump(), pair.candidate.model_dump()],
                         ensure_ascii=False, sort_keys=True)
    # surrogatepass: a lone surrogate (invalid text) still hashes, so its pair gets an error line
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:12]
