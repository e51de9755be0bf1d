"""The shipped decision rule of a graded metric: its default threshold, and verdicts.

A user grading new translations has no labels to tune a threshold on, so each graded metric
ships one: ``thresholds.yaml`` beside this module records, per metric, the threshold, its
version, the signature of the metric computation it was derived for, the procedure and the
digest of the data it was derived from. The procedure that derives it lives with the
evaluation (:mod:`transted.evaluate.decision`); this module only reads the file and applies it.

A rule applies to a metric only if the metric's signature (without the threshold field) is
the one recorded: a metric run with other options, or changed since, has no default threshold
(``threshold:none`` in its signature, verdict null) until the file is re-derived.

**Verdicts**: ``equivalent`` iff ``score >= threshold`` (a verdict metric: iff score is 1.0);
null when the score is null or there is no rule. Definite evidence overrides the threshold:
``details["evidence"] == "proved"`` gives ``equivalent`` and ``"refuted"`` gives
``not-equivalent``, with ``decided_by="evidence"`` so reports count those apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np

__all__ = ["DecisionRule", "THRESHOLDS_FILE", "load_rules", "rule_for", "make_verdict",
           "Verdict", "DecidedBy"]

THRESHOLDS_FILE = Path(__file__).with_name("thresholds.yaml")

Verdict = Literal["equivalent", "not-equivalent"]
DecidedBy = Literal["threshold", "binary", "evidence"]


@dataclass(frozen=True)
class DecisionRule:
    metric: str
    threshold: float
    version: str
    signature: str
    """Signature of the metric computation (without the threshold field) it was derived for."""

    def field(self) -> str:
        """The value of the ``threshold`` signature field, e.g. ``0.8125@1``."""
        return f"{self.threshold!r}@{self.version}"


@lru_cache(maxsize=4)
def load_rules(path: str | None = None) -> dict[str, DecisionRule]:
    """Metric name → rule, from ``thresholds.yaml`` (or ``path``); a missing file gives {}."""
    import yaml

    from transted.errors import InputError

    file = Path(path) if path else THRESHOLDS_FILE
    if not file.exists():
        return {}
    try:
        data = yaml.safe_load(file.read_text(encoding="utf-8")) or {}
        return {name: DecisionRule(name, float(entry["threshold"]), str(entry["version"]),
                                   str(entry["signature"]))
                for name, entry in (data.get("metrics") or {}).items()}
    except (yaml.YAMLError, KeyError, TypeError, ValueError) as e:
        raise InputError(f"{file}: not a thresholds file: {e}") from e


def rule_for(metric: str, base_signature: str) -> DecisionRule | None:
    """The shipped rule of ``metric`` if it was derived for exactly ``base_signature``."""
    rule = load_rules().get(metric)
    return rule if rule is not None and rule.signature == base_signature else None


def make_verdict(score: float | None, *, binary: bool, threshold: float | None,
                 evidence: object = None) -> tuple[Verdict | None, DecidedBy | None]:
    """The verdict of one result and what decided it (see the module docstring)."""
    if evidence == "proved":
        return "equivalent", "evidence"
    if evidence == "refuted":
        return "not-equivalent", "evidence"
    if score is None or not np.isfinite(score):
        return None, None
    if binary:
        return ("equivalent" if score >= 1.0 else "not-equivalent"), "binary"
    if threshold is None:
        return None, None
    return ("equivalent" if score >= threshold else "not-equivalent"), "threshold"
