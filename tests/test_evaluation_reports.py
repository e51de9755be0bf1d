"""report.html and the plot files of ``transted eval`` (issue 15 item 5)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import transted
from transted.cli import get_app
from transted.studies.evaluation.reports.html import disagreement_ids

REF = "theorem a (x y : ℕ) (h : x < y) : x ≤ y := sorry"
# (id, candidate, expert label). With ted (its residual edits, the fixed threshold 0.5 for the
# rest) and identity:
# "same" — identical: both metrics say equivalent, experts agree;
# "swap<1>" — x ≤ y restated as x < y + 1 (equivalent on ℕ, Nat.lt_succ_iff): ted's residual
#   holds a relation edit (≤ → <), a meaning edit, so ted says not equivalent → a ted
#   disagreement (identity too: the strings differ);
# "renamed" — bound names changed: experts say equivalent, identity says not → disagreement.
PAIRS = [("same", REF, True),
         ("swap<1>", "theorem a (x y : ℕ) (h : x < y) : x < y + 1 := sorry", True),
         ("renamed", "theorem a (a b : ℕ) (h : a < b) : a ≤ b := sorry", True)]


def _write(path: Path) -> Path:
    path.write_text("".join(json.dumps({"id": i, "reference": {"statement": REF},
                                        "candidate": {"statement": c}, "label": y},
                                       ensure_ascii=False) + "\n" for i, c, y in PAIRS),
                    encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    folder = tmp_path_factory.mktemp("html")
    data = _write(folder / "tiny.jsonl")
    return transted.evaluate(data, metrics=["ted", "identity"], threshold=0.5,
                             out=folder / "out")


def test_report_is_self_contained_and_complete(run):
    out = run.files["report.html"]
    text = out.read_text(encoding="utf-8")
    assert out.name == "report.html" and out.parent == run.files["summary.json"].parent
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", text, re.I)
    assert "<link" not in text and "<script" not in text
    assert 'src="data:image/svg+xml;base64,' in text
    for metric in ("ted", "identity"):
        assert f"<td>{metric}</td>" in text
    ids = disagreement_ids(run)
    assert set(ids) == {"swap<1>", "renamed"}  # derived above
    section = text[text.index("Disagreements with the experts"):text.index("Every pair")]
    for pid in ids:
        assert f"<code>{pid.replace('<', '&lt;').replace('>', '&gt;')}</code>" in section
    assert "<code>same</code>" not in section
    # Every piece of statement text is escaped: no raw '<' from 'x < y' anywhere.
    assert "x &lt; y" in text and "x < y" not in text and "swap<1>" not in text
    # The tree diff marks the relabelled relation; the residual edits say why ted decided
    assert 'class="relabelled"' in section
    assert "Residual edits of <code>ted</code></b> (decided by edits: meaning edit" in section
    assert section.count("Costed edits") == 2  # one list per disagreement
    # The per-pair table shows ted's explanation (details) and the verdict.
    assert "size_reference" in text and "not equivalent" in text


def test_plot_files_title_and_legend(run):
    folder = run.files["report.html"].parent
    for suffix in ("png", "svg", "pdf"):
        assert (folder / f"kappa_curve.{suffix}").stat().st_size > 1000
    svg = (folder / "kappa_curve.svg").read_text(encoding="utf-8")
    assert "tiny.jsonl: n=3, threshold mode fixed" in svg
    assert "ted (fixed t=0.500)" in svg
    assert (folder / "kappa_curve.pdf").read_bytes().startswith(b"%PDF")


def test_cli_eval_writes_report(tmp_path):
    data = _write(tmp_path / "tiny.jsonl")
    result = CliRunner().invoke(get_app(), ["eval", str(data), "-m", "ted", "--threshold",
                                            "0.5", "--out", str(tmp_path / "o")])
    assert result.exit_code == 0, result.output
    assert "report.html" in result.stdout
    html = (tmp_path / "o" / "report.html").read_text(encoding="utf-8")
    assert "swap&lt;1&gt;" in html and "renamed" not in html.split("Every pair")[0]


def test_modes_table_when_summary_has_grouped_cv():
    from transted.studies.evaluation.reports.html import _modes_table

    class Stub:
        def summary(self):
            return {"metrics": {"ted": {"modes": {
                "oracle": {"threshold": 0.61, "accuracy": 0.75, "kappa": 0.5},
                "cv": {"threshold": 0.6, "accuracy": 0.625, "kappa": 0.25}}},
                "identity": {}}}

    html = _modes_table(Stub())  # type: ignore[arg-type]
    assert "<td>ted</td><td class=n>0.6100</td><td class=n>75.0%</td><td class=n>0.500</td>" \
           "<td class=n>62.5%</td><td class=n>0.250</td>" in html
    assert "identity" not in html and "Grouped CV" in html
    assert _modes_table(type("S", (), {"summary": lambda self: {"metrics": {}}})()) == ""


def test_each_pairs_trees_are_parsed_once_per_report_run(run, tmp_path, monkeypatch):
    from collections import Counter

    from transted.metrics.ted import TEDSimilarity
    from transted.studies.evaluation.reports.writer import write_reports

    parsed: Counter[str] = Counter()
    real = TEDSimilarity.trees

    def counting(self, pair, **kwargs):
        parsed[pair.id] += 1
        return real(self, pair, **kwargs)

    monkeypatch.setattr(TEDSimilarity, "trees", counting)
    files = write_reports(run, tmp_path)
    # swap<1>: ted's disagreement, drawn in disagreements.md and report.html (twice there:
    # the tree diff and its costed edits); renamed: identity's, drawn in report.html only
    assert dict(parsed) == {"swap<1>": 1, "renamed": 1}
    assert "Costed edits" in files["disagreements.md"].read_text(encoding="utf-8")
    assert files["report.html"].read_text(encoding="utf-8").count("Costed edits") == 2
