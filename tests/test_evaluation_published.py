"""Re-scoring the published per-pair results reproduces the published ProofNet rows.

Expected values are read from the published table in ``tests/data/gted/README.md`` (GTED /
ASSESS), not from our own output.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

from transted.api import labelled_pairs
from transted.reading.pairs import read_pairs
from transted.studies.evaluation.harness import EvalConfig
from transted.studies.evaluation.run import run_eval
from transted.studies.evaluation.threshold import select_threshold

DATA = "tests/data/gted/proofnet.jsonl"
README = Path("tests/data/gted/README.md")

# published table row name -> our metric name
ROWS = {
    "Identity match": "published:identity_match",
    "Typecheck": "published:typecheck",
    "BLEU": "published:bleu",
    "Majority voting (LLM)": "published:majority_vote",
    "Definitional equality": "published:definitional_equality",
    "BEq": "published:beq",
    "GTED": "published:gted",
}


def published_table() -> dict[str, dict[str, float | None]]:
    rows = {}
    for line in README.read_text(encoding="utf-8").splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 5 or not cells[1].endswith("%"):
            continue
        name, threshold = cells[0], None
        m = re.match(r"(.*?) \(t=([\d.]+)\)$", name)
        if m:
            name, threshold = m.group(1), float(m.group(2))
        rows[name] = {"precision": float(cells[1].rstrip("%")) / 100,
                      "recall": float(cells[2].rstrip("%")) / 100,
                      "accuracy": float(cells[3].rstrip("%")) / 100,
                      "kappa": float(cells[4]), "threshold": threshold}
    return rows


PUBLISHED = published_table()


@pytest.fixture(scope="module")
def summary(tmp_path_factory: pytest.TempPathFactory) -> dict:
    out = tmp_path_factory.mktemp("published")
    run = run_eval(labelled_pairs(DATA), list(ROWS.values()), out, config=EvalConfig(n_boot=50))
    return run.summary()["metrics"]


def test_table_was_parsed() -> None:
    assert set(PUBLISHED) == set(ROWS)
    assert PUBLISHED["BLEU"]["threshold"] == 0.251 and PUBLISHED["GTED"]["threshold"] == 0.501


@pytest.mark.parametrize("row", list(ROWS))
def test_published_row_is_reproduced(summary: dict, row: str) -> None:
    ours, published = summary[ROWS[row]], PUBLISHED[row]
    assert round(100 * ours["accuracy"], 2) == pytest.approx(100 * published["accuracy"])
    assert round(ours["kappa"], 3) == pytest.approx(published["kappa"])
    assert round(100 * ours["recall"], 2) == pytest.approx(100 * published["recall"])
    if ours["precision"] is None:
        # No positive verdict at all: precision is 0/0. GTED prints 0.0 for it; we say undefined.
        assert ours["tp"] + ours["fp"] == 0 and published["precision"] == 0.0
    else:
        assert round(100 * ours["precision"], 2) == pytest.approx(100 * published["precision"])


def test_identity_kappa_is_a_real_zero_not_an_undefined_one(summary: dict) -> None:
    # One rater constant: observed agreement equals expected agreement, kappa = 0 exactly.
    ident = summary["published:identity_match"]
    assert ident["kappa"] == 0.0 and ident["tp"] + ident["fp"] == 0


@pytest.mark.parametrize(("row", "key"), [("BLEU", "bleu"), ("GTED", "gted")])
def test_gted_rule_reproduces_published_thresholds(row: str, key: str) -> None:
    pairs = read_pairs(DATA)
    scores = np.array([p.meta["published_scores"][key] for p in pairs])
    labels = np.array([bool(p.label) for p in pairs])
    assert select_threshold(scores, labels, rule="gted") == pytest.approx(
        PUBLISHED[row]["threshold"], abs=1e-12)
    # Our default rule picks the midpoint of the same interval of thresholds instead.
    ours = select_threshold(scores, labels)
    assert not math.isclose(ours, PUBLISHED[row]["threshold"])
    assert ((scores >= ours) == (scores >= PUBLISHED[row]["threshold"])).all()


def test_published_bleu_equals_our_bleu_row(summary: dict, tmp_path: Path) -> None:
    ours = run_eval(labelled_pairs(DATA), ["bleu"], tmp_path, config=EvalConfig(n_boot=10)).summary()["metrics"]
    for key in ("tp", "tn", "fp", "fn", "threshold"):
        assert ours["bleu"][key] == summary["published:bleu"][key]
