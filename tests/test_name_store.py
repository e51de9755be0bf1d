"""The name table's SQLite file (transted.pipeline.opt.name_store), on small tables written here."""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
from pathlib import Path

import pytest

from transted.errors import InputError
from transted.pipeline.opt.name_store import (
    FORMAT,
    NameStore,
    body_digest,
    content_digest,
    write_store,
)
from transted.pipeline.opt.names import NameTable

DECLS = sorted([
    "Nat.succ\td\t\t0\t5", "Nat.succ_le\tt\t\t0\t9", "Nat.zero\tk\tp\t0\t3", "Real.pi\td\tp\t1\t127",
    "Real.sqrt\td\t\t1\t40", "Real.sqrt_nonneg\tt\t\t1\t50", "add_comm\tt\t\t2\t0",
    "«Weird.name»\td\t\t2\t1",
])


def small_table() -> dict:
    body = {"files": ["mathlib:Mathlib/Nat.lean", "mathlib:Mathlib/Real.lean", "lean4:src/Init.lean"],
            "decls": DECLS,
            "aliases": [["Export.sqrt", "Real.sqrt", 1, 7], ["Export.sqrt", "Nat.succ", 0, 8]],
            "notations": [{"keyword": "notation", "atoms": ["π"], "pattern": '"π"',
                           "expansion": "Real.pi", "namespace": "Real", "file": 1, "line": 131}]}
    header = {"format": "transted-names/1", "sources": {"mathlib": {"commit": "0123456789abcdef"}},
              "content_sha256": body_digest(body)}
    return {"header": header, **body}


@pytest.fixture()
def path(tmp_path: Path) -> Path:
    out = tmp_path / "names.sqlite"
    write_store(small_table(), out, block_rows=2)  # four blocks: lookups cross block boundaries
    return out


def test_rows_lists_and_header_read_back(path):
    store = NameStore(path)
    assert store.header == small_table()["header"]
    for row in DECLS:
        name, rest = row.split("\t", 1)
        assert store.row(name) == rest
    for absent in ("", "A", "Nat", "Nat.succ_l", "Real.sqrt_nonneg.x", "zzz", "Real.pi "):
        assert store.row(absent) is None
    assert store.files == tuple(small_table()["files"])
    assert store.aliases == (("Export.sqrt", "Real.sqrt", 1, 7), ("Export.sqrt", "Nat.succ", 0, 8))
    assert list(store.rows()) == DECLS
    assert content_digest(store) == small_table()["header"]["content_sha256"]


def test_prefix_queries_find_the_first_name_at_or_after_the_prefix(path):
    store = NameStore(path)
    # "Real.sqrt" starts the third block; "Real." is reached from the block before it
    assert [r.split("\t")[0] for r in DECLS].index("Real.sqrt") == 4
    for prefix, expected in [("Nat.", True), ("Real.", True), ("Real.sqrt", True),
                             ("Real.sqrt_", True), ("Real.sqrt.", False), ("add", True),
                             ("«Weird.", True), ("Weird.", False), ("A", False), ("zzz", False),
                             ("Nat.succ_le.", False)]:
        assert store.has_name_under(prefix) is expected, prefix


def test_table_answers_from_the_file(path):
    table = NameTable(NameStore(path))
    assert table.version == f"mathlib-01234567-{small_table()['header']['content_sha256'][:8]}"
    assert table.is_namespace("Nat") and table.is_namespace("Real") and table.is_namespace("Export")
    assert not table.is_namespace("Real.sqrt") and not table.is_namespace("") \
        and not table.is_namespace("Weird")
    assert table.is_protected("Real.pi") and not table.is_protected("Real.sqrt")
    assert table.constant("Real.pi").source == "mathlib:Mathlib/Real.lean:127"
    assert table.constant("add_comm").source == "lean4:src/Init.lean"  # line 0: the file alone
    assert table.constant("Real.sqrt").kind == "def" and "Nat.zero" in table
    assert table.resolve("sqrt", opens=("Real",)).name == "Real.sqrt"
    assert table.resolve("Export.sqrt").names == {"Real.sqrt", "Nat.succ"}
    (pi,) = table.notations_for("π")
    assert pi.source == "mathlib:Mathlib/Real.lean:131" and pi.namespace == "Real"


def test_same_table_same_bytes(tmp_path, path):
    again = tmp_path / "again.sqlite"
    write_store(small_table(), again, block_rows=2)
    assert again.read_bytes() == path.read_bytes()


def test_unsorted_rows_are_refused(tmp_path):
    table = small_table()
    table["decls"] = list(reversed(DECLS))
    with pytest.raises(InputError, match="sorted"):
        write_store(table, tmp_path / "x.sqlite")


def test_missing_or_foreign_files_are_named(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.sqlite"):
        NameStore(tmp_path / "missing.sqlite").row("Nat")
    text = tmp_path / "text.sqlite"
    text.write_text("not a database\n" * 100)
    with pytest.raises(InputError, match="text.sqlite: not a name table"):
        NameStore(text).row("Nat")
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE meta(key TEXT PRIMARY KEY, value)")
        connection.execute("INSERT INTO meta VALUES ('format', 'something-else/9')")
    connection.close()
    with pytest.raises(InputError, match=f"'something-else/9', expected '{FORMAT}'"):
        NameStore(other).row("Nat")


_FORKED: NameStore | None = None


def _lookup_in_child(name: str) -> tuple[str | None, bool]:
    assert _FORKED is not None
    row = _FORKED.row(name)
    return row, _FORKED._db._pid == os.getpid()


def test_a_forked_child_opens_its_own_connection(path):
    global _FORKED
    _FORKED = NameStore(path)
    assert _FORKED.row("Nat.succ") is not None  # the parent's connection is open
    parent = _FORKED._db._connection
    try:
        with multiprocessing.get_context("fork").Pool(1) as pool:
            row, own = pool.apply(_lookup_in_child, ("Real.sqrt_nonneg",))
    finally:
        _FORKED = None
    assert row == "t\t\t1\t50" and own
    assert parent is not None and parent.execute("SELECT 1").fetchone() == (1,)
