"""Regression between two translator versions: :mod:`~transted.regression.compare` scores and
compares them pair by pair, :mod:`~transted.regression.gate` decides whether the new one is worse
(``transted regress --fail-on``), :mod:`~transted.regression.assertions` is the same gate for
translators' own test suites (``transted.testing.assert_no_regression``)."""

from transted.regression.compare import PairDelta, Regression, compare_runs, write_regression
from transted.regression.gate import GateReport, check_regression

__all__ = ["GateReport", "PairDelta", "Regression", "check_regression", "compare_runs",
           "write_regression"]
