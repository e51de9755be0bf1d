"""Helpers for translator repositories' own test suites (pytest or plain ``assert``).

::

    from transted.testing import assert_no_regression

    def test_translator_did_not_regress():
        assert_no_regression("refs.jsonl", "outputs_v1.jsonl", "outputs_v2.jsonl",
                             metric="ted", max_pair_drop=0.01)

The documented import; the gate lives in :mod:`transted.studies.regression`.
"""

from transted.studies.regression.assertions import assert_no_regression

__all__ = ["assert_no_regression"]
