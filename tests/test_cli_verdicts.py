"""`--convention` on score / eval (and the API), `--explain`'s residual edits, the eval report
per decided_by (issue 21)."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import transted
from transted.cli import get_app, main

REF = "theorem t (s : Finset ℕ) (h : ∀ x ∈ s, x < 6) : s.card ≤ 6 := sorry"
CAND = "theorem t (s : Finset ℕ) (h : ∀ x ∈ s, x < 6) : s.card < 6 := sorry"


def test_explain_lists_the_residual_edits_and_what_decided():
    out = CliRunner().invoke(get_app(), ["score", REF, CAND, "-m", "transted", "--explain"])
    assert out.exit_code == 0, out.output
    assert ("verdict: not-equivalent, decided by the edits left between the trees: meaning "
            "edit (conclusion") in out.stdout
    assert "residual edits (best goal after search and evidence" in out.stdout
    assert "conclusion: [meaning] relation rename: · ≤ · → · < ·" in out.stdout


def test_convention_goes_into_the_signature_and_the_verdict():
    runner = CliRunner()
    strict = json.loads(runner.invoke(get_app(), ["score", REF, CAND, "-m", "ted",
                                                  "--format", "json"]).stdout)
    lenient = json.loads(runner.invoke(get_app(), ["score", REF, CAND, "-m", "ted",
                                                   "--convention", "lenient",
                                                   "--format", "json"]).stdout)
    assert "|convention:strict|" in strict["signature"]
    assert "|convention:lenient|" in lenient["signature"]
    assert strict["decided_by"] == "edits" and strict["verdict"] == "not-equivalent"
    # lenient: the threshold rule plus evidence; the same residual is reported
    assert lenient["decided_by"] in ("threshold", None)
    assert lenient["details"]["residual"] == strict["details"]["residual"]
    assert transted.score(REF, CAND, "ted", convention="lenient").signature == \
        lenient["signature"]
    assert main(["score", REF, CAND, "-m", "ted", "--convention", "loose"]) == 2  # usage error
    # a metric without a convention (a verdict metric) is left alone
    ident = runner.invoke(get_app(), ["score", REF, CAND, "-m", "identity", "--convention",
                                      "lenient", "--format", "json"])
    assert ident.exit_code == 0 and "convention" not in json.loads(ident.stdout)["signature"]


def test_eval_reports_agreement_per_decided_by_under_the_convention(tmp_path):
    data = tmp_path / "d.jsonl"
    rows = [("strict", CAND, False), ("same", REF, True),
            ("renamed", REF.replace("x", "y"), True)]
    data.write_text("".join(json.dumps({"id": i, "reference": {"statement": REF},
                                        "candidate": {"statement": c}, "label": y},
                                       ensure_ascii=False) + "\n" for i, c, y in rows), "utf-8")
    out = CliRunner().invoke(get_app(), ["eval", str(data), "-m", "ted", "--threshold", "0.5",
                                         "--out", str(tmp_path / "o"), "--n-boot", "10"])
    assert out.exit_code == 0, out.output
    summary = json.loads((tmp_path / "o" / "summary.json").read_text("utf-8"))
    entry = summary["metrics"]["ted"]
    # every pair is decided by its residual edits: ≤ → < (meaning), none, a renaming
    assert entry["convention"] == "strict"
    assert entry["decided_by"]["edits"]["n"] == 3 and entry["decided_by"]["edits"]["correct"] == 3
    assert "## Agreement per `decided_by`" in (tmp_path / "o" / "summary.md").read_text("utf-8")
    run = transted.evaluate(data, metrics=["ted"], out=tmp_path / "l", threshold=0.5,
                            convention="lenient", n_boot=10)
    lenient = run.summary()["metrics"]["ted"]
    assert lenient["convention"] == "lenient" and set(lenient["decided_by"]) == {"threshold"}
