"""Write the index: one SQLite file, replaced whole (never appended to).

Schema (read by :mod:`transted.pipeline.opt.mathlib.index`)::

    meta(key, value)              format, commits, versions, coverage, zdict, block size, licence
    blocks(id, first, records)    BLOCK_SIZE consecutive declarations in name order (deflated
                                  ``name<TAB>json`` lines), keyed by the first name: a lookup
                                  finds the last block whose first name is ≤ the name, and
                                  parses the one line
    hierarchy(child, parent, via, origin)   class/structure edges (extends, instance)
    instances(class, names)       the instance declarations providing a class (deflated list)
    rewrites(head, lemmas)        theorems whose conclusion is = or ↔, by lhs key: a deflated
                                  list of [name, relation, simp], simp first

Names are stored once, inside the compressed blocks (an index of 300,000 names would be a
third of the file); a query is one descent of a key index. Rows are inserted in key order and the file is ``VACUUM``ed: the same
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

from transted.pipeline.opt.mathlib.codec import ZDICT_SIZE, block_text, deflate, dumps, to_plain
from transted.pipeline.opt.mathlib.records import HierarchyEdge, IndexedDeclaration

__all__ = ["SCHEMA", "BLOCK_SIZE", "Meta", "RewriteRow", "write_index", "build_zdict"]

FORMAT = "transted-mathlib-index/3"
BLOCK_SIZE = 32
"""Records per block: a block of 32 compresses to about 45% of its records deflated apart, and
a lookup inflates ~30 kB of JSON (a fraction of a millisecond)."""
PAGE_SIZE = 16384
"""SQLite page: blocks of a few kilobytes leave a third of a 4 KiB page unused, an eighth of a
16 KiB one (measured on 30,000 records: 4.07 MB at 4 KiB, 3.18 MB at 16 KiB with 32-blocks)."""
SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value BLOB NOT NULL);
CREATE TABLE blocks (id INTEGER PRIMARY KEY, first TEXT NOT NULL UNIQUE, records BLOB NOT NULL);
CREATE TABLE hierarchy (child TEXT NOT NULL, parent TEXT NOT NULL, via TEXT NOT NULL,
                        origin TEXT NOT NULL, PRIMARY KEY (child, parent, via)) WITHOUT ROWID;
CREATE INDEX hierarchy_by_parent ON hierarchy (parent);
CREATE TABLE instances (class TEXT PRIMARY KEY, names BLOB NOT NULL);
CREATE TABLE rewrites (head TEXT PRIMARY KEY, lemmas BLOB NOT NULL);
"""
"""Tables holding blobs are rowid tables with a unique index on their key: a row of a few
kilobytes then stays on its page (a ``WITHOUT ROWID`` row over ~1 kB spills into overflow
pages, which tripled the file)."""


@dataclass(frozen=True)
class RewriteRow:
    head: str
    name: str
    relation: str
    simp: bool


@dataclass(frozen=True)
class Meta:
    mathlib_commit: str
    batteries_commit: str
    lean_version: str
    generator: int
    parser: str
    coverage: dict
    licence: str


def build_zdict(texts: list[str]) -> bytes:
    """A preset dictionary: the first 2 KiB of 64 records spread evenly over the alphabet
    (deterministic), the last 32 KiB of them (zlib's window)."""
    step = max(1, len(texts) // 64)
    sample = b"".join(t.encode()[:2048] for t in texts[::step])
    return sample[-ZDICT_SIZE:]


def write_index(out: Path, records: list[IndexedDeclaration], edges: list[HierarchyEdge],
                rewrites: list[RewriteRow], meta: Meta) -> str:
    """Write ``records`` to ``out`` (replacing it); return the content hash."""
    records = sorted(records, key=lambda r: r.name)
    plains = [to_plain(r) for r in records]
    texts = [dumps(p) for p in plains]
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
        db.executescript(f"PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF; "
                         f"PRAGMA page_size={PAGE_SIZE};" + SCHEMA)
        db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(_meta_rows(meta, content, zdict)))
        names = [r.name for r in records]
        db.executemany("INSERT INTO blocks (first, records) VALUES (?, ?)", (
            (names[i], deflate(block_text(names[i:i + BLOCK_SIZE], texts[i:i + BLOCK_SIZE]),
                               zdict))
            for i in range(0, len(records), BLOCK_SIZE)))
        edge_rows = {}
        for e in sorted(edges, key=lambda e: (e.child, e.parent, e.via, e.by != "extends")):
            edge_rows.setdefault((e.child, e.parent, e.via), e.by)  # `extends` first
        db.executemany("INSERT INTO hierarchy VALUES (?, ?, ?, ?)",
                       [(*key, by) for key, by in sorted(edge_rows.items())])
        db.executemany("INSERT INTO instances VALUES (?, ?)", _instance_rows(records, zdict))
        db.executemany("INSERT INTO rewrites VALUES (?, ?)", _rewrite_rows(rewrites, zdict))
        db.commit()
        db.execute("VACUUM")
    finally:
        db.close()
    os.replace(tmp, out)
    return content


def _instance_rows(records: list[IndexedDeclaration], zdict: bytes) -> list[tuple[str, bytes]]:
    by_class: dict[str, list[str]] = {}
    for r in records:
        if r.instance is not None:
            by_class.setdefault(r.instance.class_name, []).append(r.name)
    return [(c, deflate(dumps(sorted(names)), zdict)) for c, names in sorted(by_class.items())]


def _rewrite_rows(rewrites: list[RewriteRow], zdict: bytes) -> list[tuple[str, bytes]]:
    by_head: dict[str, list[tuple[str, str, bool]]] = {}
    for row in rewrites:
        by_head.setdefault(row.head, []).append((row.name, row.relation, row.simp))
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
