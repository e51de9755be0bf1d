"""The formulaicness metric, eq. 1, the Python API and `transted fol formulaicness` (resume,
bad input with positions, one signature on every line and path)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from transted.api import score_formulaicness
from transted.cli import main
from transted.fol.formulaicness import combine, naturalness
from transted.fol.formulaicness.naturalness import ALPHA, BETA, flesch_reading_ease
from transted.metrics.formulaicness import Formulaicness, formulaicness

LITERAL = "For all x, if x is a cube, then it is not the case that x is small."
NATURAL = "No cube is small."


def _write(path: Path, rows: list[dict]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines()]


# -- eq. 1 and M ----------------------------------------------------------------------------

def test_combination_is_equation_one() -> None:
    assert combine(0.8, 0.2, alpha=1, beta=1) == pytest.approx(0.8)     # (0.8 + 0.8) / 2
    assert combine(0.5, 1.0) == pytest.approx(ALPHA * 0.5 / (ALPHA + BETA))
    assert combine(0.0, 0.0, alpha=0, beta=2) == 1.0                     # formulaicness only
    assert combine(0.3, 0.9, alpha=5, beta=0) == pytest.approx(0.3)      # M only
    for bad in ({"m": 1.5, "f": 0.0}, {"m": 0.5, "f": -0.1}):
        with pytest.raises(ValueError):
            combine(**bad)
    with pytest.raises(ValueError, match="positive"):
        combine(0.5, 0.5, alpha=0, beta=0)
    with pytest.raises(ValueError, match="alpha"):
        combine(0.5, 0.5, alpha=-1)


def test_flesch_reading_ease_by_hand() -> None:
    # 4 one-syllable words, 1 sentence: 206.835 - 1.015 * 4 - 84.6 * 1
    assert flesch_reading_ease(NATURAL) == pytest.approx(118.175)
    assert naturalness(NATURAL) == 1.0 and naturalness("") == 0.0
    long_words = "Incomprehensibility characterises institutionalisation."
    assert naturalness(long_words) == 0.0  # far below 0 on Flesch's scale: clipped


# -- API --------------------------------------------------------------------------------------

def test_api_scores_strings_dicts_and_files(tmp_path: Path) -> None:
    results = score_formulaicness([LITERAL, {"text": NATURAL, "id": "n",
                                             "formula": "∀x (Cube(x) → ¬Small(x))"}])
    assert [r.id for r in results] == ["1", "n"]
    lit, nat = results
    assert lit.score > 0.7 > 0.4 > nat.score
    assert lit.details["formulaicness"] == lit.score == formulaicness(LITERAL)
    assert lit.details["combined"] == pytest.approx(
        combine(lit.details["naturalness"], lit.score))
    assert nat.details["literal"]["text"] == LITERAL
    assert nat.details["optimised"] == {"text": NATURAL, "formulaicness": nat.score}
    assert len({r.signature for r in results}) == 1
    path = _write(tmp_path / "t.jsonl", [{"text": LITERAL}, {"text": NATURAL, "id": "n"}])
    again = score_formulaicness(path)
    assert [r.score for r in again] == [r.score for r in results]


def test_signature_names_every_option() -> None:
    signature = str(Formulaicness(alpha=1, beta=2).signature)
    assert signature.startswith("metric:formulaicness|transted:")
    for part in ("|model:ridge-", "|features:1|", "|m:fre-pyphen-", "|alpha:1.0|beta:2.0|",
                 "|verbalisers:1"):
        assert part in signature
    assert str(Formulaicness().signature) != signature
    with pytest.raises(ValueError):
        Formulaicness(alpha=-1)


def test_bad_formula_in_api_gives_an_error_result() -> None:
    result = score_formulaicness([{"text": "Hi.", "formula": "∀x ("}])[0]
    assert result.status == "error" and result.score is None and "expected" in result.error


# -- CLI --------------------------------------------------------------------------------------

def test_cli_writes_one_line_per_text_with_the_signature(tmp_path: Path) -> None:
    texts = _write(tmp_path / "t.jsonl", [{"text": LITERAL, "id": "a"}, {"text": NATURAL}])
    out = tmp_path / "out.jsonl"
    assert main(["fol", "formulaicness", str(texts), "--out", str(out)]) == 0
    lines = _lines(out)
    assert [line["id"] for line in lines] == ["a", "2"]
    api = score_formulaicness(texts)
    assert [line["score"] for line in lines] == [r.score for r in api]
    assert {line["signature"] for line in lines} == {api[0].signature}
    assert all(0 <= line["details"]["formulaicness"] <= 1 for line in lines)


def test_cli_resumes_without_recomputing_or_duplicating(tmp_path: Path, capsys) -> None:
    texts = _write(tmp_path / "t.jsonl", [{"text": LITERAL, "id": "a"}])
    out = tmp_path / "out.jsonl"
    assert main(["fol", "formulaicness", str(texts), "--out", str(out)]) == 0
    first = out.read_text("utf-8")
    _write(texts, [{"text": LITERAL, "id": "a"}, {"text": NATURAL, "id": "b"}])
    assert main(["fol", "formulaicness", str(texts), "--out", str(out)]) == 0
    assert "1 already done" in capsys.readouterr().out
    assert out.read_text("utf-8").startswith(first)
    assert [line["id"] for line in _lines(out)] == ["a", "b"]
    # a killed run's half-written last line is recomputed
    out.write_text(out.read_text("utf-8")[:-25], "utf-8")
    assert main(["fol", "formulaicness", str(texts), "--out", str(out)]) == 0
    assert [line["id"] for line in _lines(out)] == ["a", "b"]
    # other weights are another signature: refused, not mixed
    assert main(["fol", "formulaicness", str(texts), "--out", str(out), "--alpha", "1"]) == 1
    assert "holds results made with" in capsys.readouterr().err
    assert main(["fol", "formulaicness", str(texts), "--out", str(out), "--alpha", "1",
                 "--no-resume"]) == 0
    assert len(_lines(out)) == 2


@pytest.mark.parametrize(("line", "message"), [
    ('{"txt": "x"}', "t.jsonl:2: field `text`: Field required"),
    ('{"text": ""}', "t.jsonl:2: field `text`: String should have at least 1 character"),
    ('{"text": "x", "formula": "∀x (P(x) →"}', "t.jsonl:2: field `formula`: expected a formula"),
    ('{"text": "x", "id": "a"}', "t.jsonl:2: duplicate id 'a' (first on line 1)"),
    ('{"text": "x",', "invalid JSON"),
    ('["x"]', "t.jsonl:2: expected a JSON object"),
])
def test_cli_bad_input_is_refused_with_its_position(tmp_path: Path, capsys, line: str,
                                                     message: str) -> None:
    texts = tmp_path / "t.jsonl"
    texts.write_text('{"text": "fine", "id": "a"}\n' + line + "\n", "utf-8")
    out = tmp_path / "out.jsonl"
    assert main(["fol", "formulaicness", str(texts), "--out", str(out)]) == 1
    error = " ".join(capsys.readouterr().err.split())
    assert message in error and "t.jsonl:2" in error
    assert not out.exists()  # nothing written before the whole input is valid


def test_cli_refuses_to_overwrite_its_input(tmp_path: Path) -> None:
    texts = _write(tmp_path / "t.jsonl", [{"text": NATURAL}])
    assert main(["fol", "formulaicness", str(texts), "--out", str(texts)]) == 2
    assert _lines(texts) == [{"text": NATURAL}]


def test_cli_to_stdout(tmp_path: Path, capsys) -> None:
    texts = _write(tmp_path / "t.jsonl", [{"text": NATURAL}])
    assert main(["fol", "formulaicness", str(texts)]) == 0
    line = json.loads(capsys.readouterr().out.strip())
    assert line["score"] == formulaicness(NATURAL) and line["signature"].startswith("metric:")
