"""The pair format: the dev set reads and writes back unchanged; bad files name line and field."""

from __future__ import annotations

import json

import pytest

from transted.errors import InputError
from transted.reading.pairs import Pair, read_pairs, write_pairs


def test_dev_set_round_trips_exactly(data_dir, tmp_path):
    src = data_dir / "gted" / "proofnet.jsonl"
    pairs = read_pairs(src)
    assert len(pairs) == 93 and sum(p.label for p in pairs) == 49
    out = tmp_path / "copy.jsonl"
    write_pairs(pairs, out)
    original = [json.loads(line) for line in src.read_text(encoding="utf-8").splitlines()]
    written = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert written == original


@pytest.mark.parametrize("line,message", [
    ('{"id": "a", "reference": {"statement": "s"}}', "field `candidate`"),
    ('{"id": "a", "reference": {"statment": "s"}, "candidate": {"statement": "t"}}', "field `reference.statment`"),
    ('{"id": "a", "reference": {"statement": "s"}, "candidate": {"statement": "t"}, "extra": 1}', "field `extra`"),
    ('{"id": "a", "reference": {"statement": "s"}, "candidate": {"statement": "t"}, "label": "maybe"}', "field `label`"),
    ("not json", "invalid JSON"),
    ("[1, 2]", "expected a JSON object"),
])
def test_bad_records_are_reported_with_file_line_and_field(tmp_path, line, message):
    path = tmp_path / "bad.jsonl"
    good = '{"id": "ok", "reference": {"statement": "s"}, "candidate": {"statement": "t"}}'
    path.write_text(good + "\n\n" + line + "\n", encoding="utf-8")
    with pytest.raises(InputError) as info:
        read_pairs(path)
    assert f"{path}:3" in str(info.value) and message in str(info.value)


def test_duplicate_ids_are_refused(tmp_path):
    good = '{"id": "x", "reference": {"statement": "s"}, "candidate": {"statement": "t"}}'
    path = tmp_path / "dup.jsonl"
    path.write_text(good + "\n" + good + "\n", encoding="utf-8")
    with pytest.raises(InputError, match="duplicate id 'x'"):
        read_pairs(path)


def test_missing_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot open"):
        read_pairs(tmp_path / "nope.jsonl")


def test_optional_fields_default():
    pair = Pair.model_validate({"id": "a", "reference": {"statement": "s"}, "candidate": {"statement": "t"}})
    assert pair.label is None and pair.meta == {} and pair.reference.header is None
