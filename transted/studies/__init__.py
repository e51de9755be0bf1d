"""Studies over results: agreement with expert labels (evaluation), the perturbation suites
(sensitivity), the shipped thresholds (calibration), translator regressions (regression)."""
