"""Verdicts: when a score means *equivalent* (:mod:`transted.verdict.rules`), and the shipped
per-metric thresholds (``thresholds.yaml``)."""
