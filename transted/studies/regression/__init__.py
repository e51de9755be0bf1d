"""Regression between two translator versions: :mod:`~transted.studies.regression.compare` scores and
compares them pair by pair, :mod:`~transted.studies.regression.gate` decides whether the new one is worse
(``transted regress --fail-on``), :mod:`~transted.studies.regression.assertions` is the same gate for
translators' own test suites (``transted.testing.assert_no_regression``)."""

from transted.studies.regression.compare import (
           PairDelta,
           Regression,
           compare_runs,
           write_regression,
)
from transted.studies.regression.gate import GateReport, check_regression

__all__ = ["GateReport", "PairDelta", "Regression", "check_regression", "compare_runs",
           "write_regression"]
