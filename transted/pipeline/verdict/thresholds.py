"""The shipped fallback thresholds (``thresholds.yaml`` beside this module).

A user grading new translations has no labels to tune a threshold on, so each graded metric
ships one per convention: the threshold the verdict rule falls back to when neither evidence
nor the residual edits decide (:mod:`transted.pipeline.verdict.rules`). Each entry records the metric,
the convention, the threshold, its version and the signature of the metric computation it was
derived for (the metric's signature without its threshold field, so the convention and the
verdict rule are part of it); the procedure that derives it is :mod:`transted.studies.calibration`, this
module only reads the file. A metric run with other options, or changed since, has no shipped
threshold (``threshold:none`` in its signature) until the file is re-derived.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import yaml

from transted import yaml_text
from transted.errors import InputError

__all__ = ["DecisionRule", "THRESHOLDS_FILE", "load_decision_rules", "rule_for"]

THRESHOLDS_FILE = Path(__file__).with_name("thresholds.yaml")


@dataclass(frozen=True)
class DecisionRule:
    metric: str
    threshold: float
    version: str
    signature: str
    """Signature of the metric computation (without the threshold field) it was derived for."""
    convention: str = "strict"
    data: tuple[str, ...] = ()
    """Digests (12 hex digits of SHA-256) of the labelled files it was derived from: an
    evaluation on one of them is in-sample."""

    def field(self) -> str:
        """The value of the ``threshold`` signature field, e.g. ``0.8125@1``."""
        return f"{self.threshold!r}@{self.version}"


@lru_cache(maxsize=4)
def load_decision_rules(path: str | None = None) -> tuple[DecisionRule, ...]:
    """Every shipped rule of ``thresholds.yaml`` (or ``path``); a missing file gives none.

    The file lists ``rules`` (metric, convention, threshold, version, signature, figures); the
    former per-metric ``metrics`` mapping (one rule per metric, no convention) is read too."""
    file = Path(path) if path else THRESHOLDS_FILE
    if not file.exists():
        return ()
    try:
        data = yaml_text.safe_load(file.read_text(encoding="utf-8")) or {}
        entries = list(data.get("rules") or [])
        entries += [{"metric": name, **entry} for name, entry in (data.get("metrics") or {}).items()]
        return tuple(DecisionRule(str(e["metric"]), float(e["threshold"]), str(e["version"]),
                                  str(e["signature"]), str(e.get("convention", "strict")),
                                  tuple(str(d) for d in e.get("data") or ()))
                     for e in entries)
    except (yaml.YAMLError, KeyError, TypeError, ValueError, AttributeError) as e:
        raise InputError(f"{file}: not a thresholds file: {e}") from e


def rule_for(metric: str, base_signature: str) -> DecisionRule | None:
    """The shipped rule of ``metric`` derived for exactly ``base_signature`` (which carries the
    convention), or None."""
    return next((r for r in load_decision_rules() if r.metric == metric and r.signature == base_signature),
                None)
