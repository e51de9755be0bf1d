"""The metric interface: a pair in, a :class:`MetricResult` with a signature out.

Subclasses implement :meth:`Metric._score` (and declare their options); the public template
:meth:`Metric.score_pair` turns expected failures into result values: a
:class:`~transted.errors.TranstedError` becomes ``error`` (score null) and
:class:`~transted.errors.LeanUnavailable` becomes ``status="unavailable"``, so a batch records
the failure for that pair and goes on.
"""

from __future__ import annotations

import hashlib
import json
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict

from transted.errors import LeanUnavailable, TranstedError
from transted.pairs import Pair
from transted.signature import Signature

__all__ = ["Metric", "MetricResult", "PairScore", "pair_hash"]

Status = Literal["ok", "error", "unavailable"]


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


@dataclass
class PairScore:
    """What :meth:`Metric._score` returns: the value and optional explanation fields."""

    value: float | bool
    details: dict[str, Any] = field(default_factory=dict)


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

    def options(self) -> dict[str, object]:
        """The options that can change a score, in a stable order (go into the signature)."""
        return {}

    @property
    def signature(self) -> Signature:
        return Signature.build(self.name, {"v": self.version, **self.options()})

    @abstractmethod
    def _score(self, pair: Pair) -> PairScore:
        """Score one pair; raise a TranstedError for input the metric cannot handle."""

    def score_pair(self, pair: Pair) -> MetricResult:
        base: dict[str, Any] = {"id": pair.id, "metric": self.name, "signature": str(self.signature),
                "input": pair_hash(pair)}
        try:
            scored = self._score(pair)
        except LeanUnavailable as e:
            return MetricResult(**base, score=None, error=f"unavailable: {e}", status="unavailable")
        except TranstedError as e:
            return MetricResult(**base, score=None, error=str(e), status="error")
        return MetricResult(**base, score=float(scored.value), details=scored.details)


def pair_hash(pair: Pair) -> str:
    """12 hex digits of SHA-256 over the two statements (text, header, pretty)."""
    payload = json.dumps([pair.reference.model_dump(), pair.candidate.model_dump()],
                         ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:12]
