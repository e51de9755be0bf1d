"""``assert_no_regression``: the regression gate for translator repositories' own test suites.

::

    from transted.testing import assert_no_regression

    def test_translator_did_not_regress():
        assert_no_regression("refs.jsonl", "outputs_v1.jsonl", "outputs_v2.jsonl",
                             metric="ted", max_pair_drop=0.01)
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from transted.metrics.registry import get_metric
from transted.reading.inputs import join_files
from transted.studies.regression.compare import compare_runs
from transted.studies.regression.gate import GateReport, check_gate_options, check_regression

__all__ = ["assert_no_regression"]


def assert_no_regression(references: str | Path | None, old_outputs: str | Path,
                         new_outputs: str | Path, *, metric: str = "ted",
                         max_drop: float = 0.0, fail_on: str = "worse",
                         max_pair_drop: float | None = None,
                         threshold: float | None = None, alpha: float | None = None,
                         key: str | None = None, reference_key: str | None = None,
                         candidate_key: str | None = None, text_field: str | None = None,
                         n_boot: int = 10000, seed: int = 0,
                         min_matched: int = 1, min_matched_share: float = 0.0,
                         **options: Any) -> GateReport:
    """Raise ``AssertionError`` when ``new_outputs`` score worse than ``old_outputs`` (the
    criteria of :func:`transted.studies.regression.gate.check_regression`: by default ``worse``, any
    pair whose score dropped by more than ``max_pair_drop`` (0) or that has no score in the
    new version; ``fail_on="mean"`` with ``max_drop`` for the mean only), or when too few
    pairs were compared to judge (``min_matched``, ``min_matched_share``).

    ``references`` is a references file (miniF2F/ProofNet release lines or pair JSONL) and the
    two outputs files are joined to it by ``key`` (or ``reference_key``/``candidate_key``,
    :mod:`transted.reading.inputs`; ``text_field`` names the outputs' text field); with
    ``references=None`` the two outputs are full pair files
    matched by id. ``options`` go to the metric (as ``-O`` on the CLI). The message names the
    gate's reasons, the paired significance figures and the pairs that got worse. Returns the
    :class:`GateReport` when the gate passes.
    """
    check_gate_options(fail_on=fail_on, max_drop=max_drop, alpha=alpha, n_boot=n_boot,
                       min_matched=min_matched, min_matched_share=min_matched_share,
                       max_pair_drop=max_pair_drop)
    m = get_metric(metric, **options)
    if references is None:
        old: Any = old_outputs
        new: Any = new_outputs
    else:
        old, new = (join_files(references, outputs, key=key, reference_key=reference_key,
                               candidate_key=candidate_key, text_field=text_field).pairs
                    for outputs in (old_outputs, new_outputs))
    reg = compare_runs(old, new, m)
    reg.old_path, reg.new_path = str(old_outputs), str(new_outputs)
    report = check_regression(reg, fail_on=fail_on, max_drop=max_drop, threshold=threshold,
                              alpha=alpha, n_boot=n_boot, seed=seed, min_matched=min_matched,
                              min_matched_share=min_matched_share, max_pair_drop=max_pair_drop)
    if report.failed or report.insufficient:
        what = "regressed against" if report.failed else "cannot be compared with"
        raise AssertionError(f"{new_outputs} {what} {old_outputs}\n" + report.message(top=20))
    return report
