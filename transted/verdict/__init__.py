"""Verdicts: when a pair counts as *equivalent* (docs/VERDICTS.md) — its residual edits
(:mod:`~transted.verdict.residual`), the one rule that turns evidence, edits and score into a
verdict (:mod:`~transted.verdict.rules`), the label conventions
(:mod:`~transted.verdict.conventions`) and the shipped fallback thresholds
(:mod:`~transted.verdict.thresholds`, ``thresholds.yaml``)."""
