"""Verdicts: when a pair counts as *equivalent* (docs/VERDICTS.md) — its residual edits
(:mod:`~transted.pipeline.verdict.residual`), the one rule that turns evidence, edits and score into a
verdict (:mod:`~transted.pipeline.verdict.rules`), the label conventions
(:mod:`~transted.pipeline.verdict.conventions`) and the shipped fallback thresholds
(:mod:`~transted.pipeline.verdict.thresholds`, ``thresholds.yaml``)."""
