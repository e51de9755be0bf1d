"""Write the index: one SQLite file, replaced whole (never appended to).

Schema (read by :mod:`transted.opt.mathlib.index`)::

    meta(key, value)              format, commits, versions, coverage, zdict, block size, licence
    blocks(first, records)        BLOCK_SIZE consecutive declarations in name order (a deflated
                                  JSON array), keyed by the first name: a lookup finds the last
                                  block whose first name is ≤ the name, and looks inside
    hierarchy(child, parent, via, origin)   class/structure edges (extends, instance)
    instances(class, names)       the instance declarations providing a class (deflated list)
    rewrites(head, lemmas)        theorems whose conclusion is = or ↔, by lhs key: a deflated
                                  list of [name, relation, simp], simp first

Names are stored once, inside the compressed blocks (an index of 300,000 names would be a
third of the file). Every table is ``WITHOUT ROWID`` with its lookup key first, so a query is
one B-tree descent. Rows are inserted in key order and the file is ``VACUUM``ed: the same
records give the same bytes (with the same SQLite library). The file is written beside the
target and moved over it (:func:`os.replace`), so a regeneration replaces the previous index in
one step and no history piles up.
"""

from __future__ import annotations

import hashlib
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from transted.opt.mathlib.codec import ZDICT_SIZE, deflate, dumps, encode_block, to_plain
from transted.opt.mathlib.records import Declaration, HierarchyEdge
from transted.opt.mathlib.statements import statement_of

__all__ = ["SCHEMA", "BLOCK_SIZE", "Meta", "write_index", "canonical_json", "build_zdict"]

FORMAT = "transted-mathlib-index/2"
BLOCK_SIZE = 16
"""Records per block: 16 compress to about half their separate size (32 gain 8% more) while a
lookup inflates ~20 kB (well under a millisecond)."""
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE blocks (first TEXT PRIMARY KEY, records BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE hierarchy (child TEXT NOT NULL, parent TEXT NOT NULL, via TEXT NOT NULL,
                        origin TEXT NOT NULL, PRIMARY KEY (child, parent, via)) WITHOUT ROWID;
CREATE INDEX hierarchy_by_parent ON hierarchy (parent);
CREATE TABLE instances (class TEXT PRIMARY KEY, names BLOB NOT NULL) WITHOUT ROWID;
CREATE TABLE rewrites (head TEXT PRIMARY KEY, lemmas BLOB NOT NULL) WITHOUT ROWID;
"""


@dataclass(frozen=True)
class Meta:
    mathlib_commit: str
    batteries_commit: str
    lean_version: str
    generator: int
    parser: str
    coverage: dict
    licence: str


def canonical_json(record: Declaration) -> str:
    return dumps(to_plain(record))


def build_zdict(texts: list[str]) -> bytes:
    """A preset dictionary: evenly spaced sample records (deterministic), the last ones nearest
    the end (zlib finds a match best near the end of its window)."""
    step = max(1, len(texts) // 400)
    sample = "".join(texts[::step]).encode()
    return sample[-ZDICT_SIZE:]


def write_index(out: Path, records: list[Declaration], edges: list[HierarchyEdge],
                heads: dict[str, str], meta: Meta) -> str:
    """Write ``records`` to ``out`` (replacing it); return the content hash."""
    records = sorted(records, key=lambda r: r.name)
    texts = [canonical_json(r) for r in records]
    digest = hashlib.sha256()
    for text in texts:
        digest.update(text.encode() + b"\n")
    for e in edges:
        digest.update(dumps(to_plain(e)).encode() + b"\n")
    content = digest.hexdigest()
    zdict = build_zdict(texts)
    tmp = out.with_name(out.name + ".tmp")
    tmp.unlink(missing_ok=True)
    out.parent.mkdir(parents=True, exist_ok=True)
    db = sqlite3.connect(tmp)
    try:
        db.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; PRAGMA page_size=4096;"
                         + SCHEMA)
        db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(_meta_rows(meta, content, zdict)))
        db.executemany("INSERT INTO blocks VALUES (?, ?)", (
            (records[i].name, encode_block(records[i:i + BLOCK_SIZE], zdict))
            for i in range(0, len(records), BLOCK_SIZE)))
        db.executemany("INSERT INTO hierarchy VALUES (?, ?, ?, ?)",
                       sorted({(e.child, e.parent, e.via, e.by) for e in edges}))
        db.executemany("INSERT INTO instances VALUES (?, ?)", _instance_rows(records, zdict))
        db.executemany("INSERT INTO rewrites VALUES (?, ?)", _rewrite_rows(records, heads, zdict))
        db.commit()
        db.execute("VACUUM")
    finally:
        db.close()
    os.replace(tmp, out)
    return content


def _instance_rows(records: list[Declaration], zdict: bytes) -> list[tuple[str, bytes]]:
    by_class: dict[str, list[str]] = {}
    for r in records:
        if r.instance is not None:
            by_class.setdefault(r.instance.class_name, []).append(r.name)
    return [(c, deflate(dumps(sorted(names)), zdict)) for c, names in sorted(by_class.items())]


def _rewrite_rows(records: list[Declaration], heads: dict[str, str],
                  zdict: bytes) -> list[tuple[str, bytes]]:
    by_head: dict[str, list[tuple[str, str, bool]]] = {}
    for r in records:
        s = statement_of(r)
        head = heads.get(r.name)
        if s is None or s.relation is None or head is None:
            continue
        by_head.setdefault(head, []).append((r.name, s.relation, r.simp))
    return [(h, deflate(dumps(sorted(rows, key=lambda x: (not x[2], x[0]))), zdict))
            for h, rows in sorted(by_head.items())]


def _meta_rows(meta: Meta, content: str, zdict: bytes) -> Iterable[tuple[str, bytes | str]]:
    yield "format", FORMAT
    yield "block_size", str(BLOCK_SIZE)
    yield "mathlib_commit", meta.mathlib_commit
    yield "batteries_commit", meta.batteries_commit
    yield "lean_version", meta.lean_version
    yield "generator", str(meta.generator)
    yield "parser", meta.parser
    yield "coverage", dumps(meta.coverage)
    yield "licence", meta.licence
    yield "content_sha256", content
    yield "zdict", zdict
