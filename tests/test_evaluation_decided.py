"""Agreement per ``decided_by`` group (transted.studies.evaluation.decided)."""

import json

import numpy as np

from transted.studies.evaluation.decided import agreement_by_group


def test_a_group_with_one_class_has_no_kappa_and_stays_plain_json():
    labels = np.array([False, False, True, False])
    predictions = np.array([False, False, True, True])
    groups = ["invalid", "invalid", "edits", "edits"]
    got = agreement_by_group(labels, predictions, groups)
    # every invalid pair is labelled not-equivalent: kappa is undefined there, and None (nan
    # would be invalid JSON and unequal to itself in a re-derived thresholds.yaml)
    assert got["invalid"]["kappa"] is None
    assert got["invalid"]["correct"] == 2 and got["invalid"]["accuracy"] == 1.0
    assert got["edits"]["correct"] == 1 and got["edits"]["predicted_equivalent"] == 2
    json.loads(json.dumps(got, allow_nan=False))
