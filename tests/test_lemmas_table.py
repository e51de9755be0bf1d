"""The bundled rewrite-lemma table (transted/pipeline/search/lemmas/data/rewrite_lemmas.sqlite):
its own package data file under its size cap, opened only when the lemma provider runs, its
rows and keys consistent with what the build promises (ids dense, every stored direction has a
head symbol, a generated lemma only with a translated statement)."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from transted.errors import InputError
from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.search.lemmas.dtree import STAR
from transted.pipeline.search.lemmas.table import (
    SIZE_CAP_BYTES,
    LemmaTable,
    lemma_table_path,
    load_table,
)

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from scripts.rewrite_lemmas import build  # noqa: E402


def test_bundled_file_is_package_data_under_its_own_size_cap() -> None:
    path = lemma_table_path()
    assert path == (REPO / "transted" / "pipeline" / "search" / "lemmas" / "data"
                    / "rewrite_lemmas.sqlite")
    assert path.stat().st_size <= SIZE_CAP_BYTES
    assert (path.parent / "LICENSE").read_text().strip().startswith("Apache License")
    assert '"**/*.sqlite"' in (REPO / "pyproject.toml").read_text()  # shipped in the wheel


def test_counts_say_what_was_dropped() -> None:
    counts = json.loads(load_table().meta["counts"])
    kept = sum(counts["kept"].values())
    assert kept > 10_000  # the whole of Mathlib's = / ↔ theorems, not a sample
    assert sum(counts["parsed"].values()) >= kept
    assert sum(counts["indexed"].values()) >= sum(counts["parsed"].values())


def test_rows_are_dense_and_every_stored_direction_has_a_head() -> None:
    table = load_table()
    first_rows = [table.row(i) for i in range(1, 40)]
    assert [r.id for r in first_rows if r is not None] == list(range(1, 40))
    for (blob,) in table._query("SELECT entries FROM keys ORDER BY bucket LIMIT 500"):
        for _lemma, _backward, *keys in json.loads(zlib.decompress(blob)):
            assert keys[0] != STAR


def test_generated_lemmas_only_with_a_translated_statement() -> None:
    # Mathlib/Algebra/Group/Defs.lean: `@[to_additive] theorem mul_comm` generates add_comm,
    # whose translated statement the index keeps: it is in the table. The same record without
    # a translated statement is refused by the build (its statement would be mul_comm's).
    index = load_index()
    add_comm = index.declaration("add_comm")
    assert add_comm is not None and add_comm.generated is not None
    assert add_comm.generated.statement == "translated"
    assert load_table().lemma_id("add_comm") is not None
    build._INDEX = index
    kept = build.compile_declaration((1, add_comm))
    assert kept.row is not None and kept.why_not is None
    untranslated = dataclasses.replace(
        add_comm, generated=dataclasses.replace(add_comm.generated, statement=None,
                                                why_not="test: not translated"))
    refused = build.compile_declaration((1, untranslated))
    assert refused.row is None and refused.why_not == build.UNTRANSLATED


def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    table = LemmaTable(tmp_path / "absent.sqlite")
    with pytest.raises(InputError, match="absent.sqlite.*scripts.rewrite_lemmas.build"):
        table.row(1)


def test_import_and_ted_metric_do_not_open_the_table() -> None:
    code = ("import sys, transted\n"
            "from transted.metrics.registry import get_metric\n"
            "from transted.reading.pairs import read_pairs\n"
            "pair = read_pairs('tests/data/showcase/rewrite_families.jsonl')[0]\n"
            "get_metric('ted').score_pair(pair)\n"
            "print('transted.pipeline.search.lemmas.table' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=REPO, check=True, env={"PYTHONPATH": str(REPO)})
    assert out.stdout.strip().splitlines()[-1] == "False"


def test_ids_round_trip_through_their_meta_text() -> None:
    from transted.pipeline.search.lemmas.table import decode_ids, encode_ids

    ids = [3, 1, 64, 65, 68_400, 3]
    assert decode_ids(encode_ids(ids)) == [1, 3, 64, 65, 68_400]
    assert decode_ids(encode_ids([])) == [] and decode_ids("") == []


def test_stored_unusable_lemmas_are_those_a_search_judges_unusable() -> None:
    from transted.pipeline.opt.elaborate import elaboration_version
    from transted.pipeline.search.lemmas.lemma import Lemma

    table = load_table()
    assert table.meta["unusable_elaboration"] == elaboration_version(), \
        "the elaboration changed since the table was built: rebuild it with " \
        "`python -m scripts.rewrite_lemmas.build --jobs 2` (docs/LEMMAS.md)"
    stored = table.unusable(elaboration_version())
    ((first, blob),) = table._query("SELECT first, records FROM lemmas ORDER BY first DESC "
                                    "LIMIT 1")
    count = first + len(zlib.decompress(blob).decode("utf-8").splitlines()) - 1
    assert 0 < len(stored) < count and max(stored) <= count
    # a sample spread over the table, judged now by the code a search runs
    for lemma_id in range(1, count + 1, 211):
        row = table.row(lemma_id)
        assert row is not None
        lemma = Lemma.from_row(row)
        assert (lemma is None or not lemma.usable) == (lemma_id in stored), row.name
    assert table.unusable("another elaboration") == frozenset()  # then judged when met


def test_an_unusable_list_that_does_not_decode_is_a_clear_error(tmp_path: Path) -> None:
    import sqlite3

    from transted.pipeline.opt.elaborate import elaboration_version

    path = tmp_path / "t.sqlite"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        db.executemany("INSERT INTO meta VALUES (?, ?)", [
            ("unusable", "not hex"), ("unusable_elaboration", elaboration_version())])
    with pytest.raises(InputError, match=r"t\.sqlite: its list of unusable lemmas does not "
                                         r"decode"):
        LemmaTable(path).unusable(elaboration_version())


def test_stored_side_types_are_the_elaboration_a_search_would_run() -> None:
    # the build stores each usable lemma's side types (docs/LEMMAS.md, table version 4); a
    # search reads them instead of elaborating: they must be what the elaboration gives now
    from transted.pipeline.opt.elaborate import elaboration_version
    from transted.pipeline.search.lemmas.lemma import Lemma
    from transted.pipeline.search.lemmas.table import TABLE_VERSION

    table = load_table()
    assert table.meta["table_version"] == str(TABLE_VERSION)
    assert table.judged_by(elaboration_version())
    stored = table.unusable(elaboration_version())
    compared = 0
    for lemma_id in range(1, 68_000, 97):
        row = table.row(lemma_id)
        if row is None:
            break
        assert (row.types is None) == (lemma_id in stored), row.name
        if row.types is None:
            continue
        read = Lemma.from_row(row, judged=True)
        fresh = Lemma.from_row(row)
        assert read is not None and fresh is not None and read.stored and not fresh.stored
        sides = (read.parts.lhs_path, read.parts.rhs_path)
        expected = {p: (t.type, t.coerced_to) for p, t in fresh.elaboration.nodes.items()
                    if any(p[:len(s)] == s for s in sides)}
        assert {p: (t.type, t.coerced_to) for p, t in read.node_types.items()} == expected, \
            row.name
        compared += 1
    assert compared > 50


def test_side_types_that_do_not_decode_are_refused() -> None:
    from transted.pipeline.search.lemmas.side_types import decode_side_types

    for bad in (None, [[0]], [[0], [["ℕ", "x"], 1]], [[[True]], []], [[[{}]], []]):
        with pytest.raises(ValueError):
            decode_side_types(bad)
    assert decode_side_types([[0, ["ℕ"]], [[["Finset", "ℕ"], 3]]]).rhs[0] is not None


def test_retrieval_without_the_unusable_lemmas_keeps_the_order_of_the_rest() -> None:
    # the tries built for the running elaboration leave out the lemmas judged unusable; the
    # search must see the same candidates, in the same order, as when it skipped them itself
    from transted.pipeline.opt import parse_term
    from transted.pipeline.opt.elaborate import elaboration_version

    table = LemmaTable(lemma_table_path())
    running = elaboration_version()
    unusable = table.unusable(running)
    assert unusable
    skipped = 0
    for text in ("a + b * c", "Finset.card (Finset.range n)", "x ≤ y + 1", "¬(p → q)",
                 "(a * b) ^ 2", "Real.sqrt (x ^ 2)", "a ∣ b", "s ∪ t ⊆ u"):
        term = parse_term(text)
        every = table.candidates(term)
        assert table.candidates(term, running) == [c for c in every if c[0] not in unusable]
        skipped += sum(c[0] in unusable for c in every)
    assert skipped > 0  # the filter was exercised
    assert table.candidates(parse_term("a + b"), "another elaboration") == \
        table.candidates(parse_term("a + b"))
