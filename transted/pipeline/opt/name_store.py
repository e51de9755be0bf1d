"""The bundled name table's file (``data/mathlib_names.sqlite``): its layout, reader and writer.

:class:`transted.pipeline.opt.names.NameTable` answers from here. The file is a read-only
SQLite database opened lazily, read-only and immutable (``file:…?mode=ro&immutable=1``: no
locking, no journal) from the installed package's real path, one connection per process (a
child of ``fork`` opens its own). A process pays for what it asks: the header (for the
version string) is one row; a declaration is found in its block of consecutive names.

Layout (format ``transted-names-sqlite/1``):

- ``meta(key, value)``: ``format``; ``header``, the table's header as JSON (commits, coverage,
  ``content_sha256``); ``zdict``, the preset deflate dictionary of the blocks.
- ``decl_blocks(id, first, rows)``: the declaration rows ``name<TAB>kind<TAB>flags<TAB>file
  <TAB>line`` in name order, :data:`BLOCK_ROWS` to a block, joined by newlines and deflated
  against ``zdict``; ``first`` is the block's first name (read whole once: a lookup bisects
  them, then inflates its block once). A row alone is ~45 bytes,
  too short for deflate; neighbours in name order share their namespaces, and the preset
  dictionary (rows sampled across the table) primes every block. Measured on the bundled table:
  2.9 MB, against 12.6 MB for one ``name TEXT PRIMARY KEY … WITHOUT ROWID`` row per name.
- ``lists(name, data)``: ``files``, ``aliases``, ``notations``: small lists, each deflated
  JSON, read whole on first use.

The content is the JSON table :mod:`scripts.name_table.build` computes; :func:`content_digest`
recomputes its ``content_sha256`` from the file, exactly as the generator hashed it
(:func:`body_digest`).
"""

from __future__ import annotations

import bisect
import hashlib
import json
import os
import sqlite3
import zlib
from collections.abc import Iterator
from functools import cached_property
from pathlib import Path

from transted.errors import InputError
from transted.loading import ReadOnlyDatabase, bundled_file

__all__ = ["NameStore", "name_table_path", "write_store", "body_digest", "content_digest", "TABLE_FILE", "FORMAT",
           "BLOCK_ROWS"]

TABLE_FILE = "mathlib_names.sqlite"
FORMAT = "transted-names-sqlite/1"
BLOCK_ROWS = 128
"""Rows per block: 128 keeps a lookup to one ~6 kB inflate; 256 saves only 4% of the file."""
_PAGE_SIZE = 16384  # a block (~1.2 kB deflated) fits a page's cell: no overflow pages
_ZDICT_SIZE = 32 * 1024  # zlib's window: a longer preset dictionary is not used
_LISTS = ("files", "aliases", "notations")

_Block = tuple[list[str], dict[str, str]]
"""An inflated block: its names in order, and name → the rest of its row."""


class NameStore:
    """Queries on one name-table file (:func:`name_table_path` is the bundled one)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._db = ReadOnlyDatabase(path, missing=self._missing, check=self._check_format)
        # inflated blocks stay for the process: at most the whole table, which the JSON
        # table this replaces held from the start
        self._blocks: dict[int, _Block] = {}

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        return self._db.query(sql, args)

    def _missing(self) -> Exception:
        return FileNotFoundError(
            f"name table {self.path} is missing: regenerate it with "
            "`python -m scripts.name_table.build` (docs/NAMES.md)")

    def _check_format(self, connection: sqlite3.Connection) -> None:
        try:
            found = connection.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        except sqlite3.DatabaseError as exc:
            raise InputError(f"{self.path}: not a name table ({exc})") from exc
        if found is None or found[0] != FORMAT:
            raise InputError(f"{self.path}: format {found and found[0]!r}, expected {FORMAT!r}")

    @cached_property
    def header(self) -> dict:
        return json.loads(self._query("SELECT value FROM meta WHERE key = 'header'")[0][0])

    @cached_property
    def _zdict(self) -> bytes:
        return bytes(self._query("SELECT value FROM meta WHERE key = 'zdict'")[0][0])

    def _list(self, name: str) -> list:
        return json.loads(zlib.decompress(self._query(
            "SELECT data FROM lists WHERE name = ?", (name,))[0][0]))

    @cached_property
    def files(self) -> tuple[str, ...]:
        return tuple(self._list("files"))

    @cached_property
    def aliases(self) -> tuple[tuple[str, str, int, int], ...]:
        """``(alias, target, file, line)`` in the table's order."""
        return tuple((a, t, f, line) for a, t, f, line in self._list("aliases"))

    @cached_property
    def notations(self) -> tuple[dict, ...]:
        return tuple(self._list("notations"))

    # -- declarations ---------------------------------------------------------------------------
    @cached_property
    def _firsts(self) -> list[str]:
        """Each block's first name, in order (~2,000 names: a lookup then bisects in memory
        and asks SQLite only for a block not yet inflated)."""
        return [first for (first,) in self._query("SELECT first FROM decl_blocks ORDER BY id")]

    def row(self, name: str) -> str | None:
        """``kind<TAB>flags<TAB>file<TAB>line`` of the declaration ``name``, or None."""
        at = bisect.bisect_right(self._firsts, name) - 1
        return self._block(at)[1].get(name) if at >= 0 else None

    def has_name_under(self, prefix: str) -> bool:
        """Some declaration's name starts with ``prefix``: names sharing a prefix are
        consecutive in name order, so the first name ≥ ``prefix`` decides."""
        at = bisect.bisect_right(self._firsts, prefix) - 1
        if at >= 0:
            names = self._block(at)[0]
            inside = bisect.bisect_left(names, prefix)
            if inside < len(names):
                return names[inside].startswith(prefix)
        return at + 1 < len(self._firsts) and self._firsts[at + 1].startswith(prefix)

    def _block(self, block_id: int) -> _Block:
        block = self._blocks.get(block_id)
        if block is None:  # two threads may both inflate it: the same value either way
            (blob,), = self._query("SELECT rows FROM decl_blocks WHERE id = ?", (block_id,))
            block = self._blocks[block_id] = _parse_block(_inflate(blob, self._zdict))
        return block

    def rows(self) -> Iterator[str]:
        """Every declaration row, in name order (a full scan: for checks, not lookups)."""
        for (blob,) in self._query("SELECT rows FROM decl_blocks ORDER BY id"):
            yield from _inflate(blob, self._zdict).split("\n")


def _inflate(blob: bytes, zdict: bytes) -> str:
    inflater = zlib.decompressobj(zdict=zdict)
    return (inflater.decompress(blob) + inflater.flush()).decode()


def _parse_block(text: str) -> _Block:
    rest = dict(line.split("\t", 1) for line in text.split("\n"))
    return list(rest), rest


def body_digest(body: dict) -> str:
    """The ``content_sha256`` of a table's body (files, decls, aliases, notations: the JSON
    value the generator computes), as its header records it."""
    return hashlib.sha256(json.dumps(body, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def content_digest(store: NameStore) -> str:
    """:func:`body_digest` of the table in ``store`` (a full read: for checks)."""
    return body_digest({"files": list(store.files), "decls": list(store.rows()),
                        "aliases": [list(a) for a in store.aliases],
                        "notations": list(store.notations)})


def name_table_path() -> Path:
    """The bundled table's real file path (extracted once if the package is zipped)."""
    return bundled_file("transted.pipeline.opt", "data", TABLE_FILE)


# -- writing (scripts/name_table) -----------------------------------------------------------------
def write_store(table: dict, out: Path, *, block_rows: int = BLOCK_ROWS) -> None:
    """Write ``table`` (the generator's JSON form: header, files, decls, aliases, notations) to
    ``out``, replacing it whole; the same table gives the same bytes."""
    decls: list[str] = table["decls"]
    if decls != sorted(decls) or any("\n" in row for row in decls):
        raise InputError("name table: declaration rows must be sorted and hold no newline")
    zdict = _preset_dictionary(decls)
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".partial")
    partial.unlink(missing_ok=True)
    connection = sqlite3.connect(partial)
    try:
        _fill(connection, table, zdict, block_rows)
    finally:
        connection.close()
    os.replace(partial, out)


def _fill(connection: sqlite3.Connection, table: dict, zdict: bytes, block_rows: int) -> None:
    connection.execute(f"PRAGMA page_size = {_PAGE_SIZE}")
    connection.executescript("""
        CREATE TABLE meta(key TEXT PRIMARY KEY, value NOT NULL);
        CREATE TABLE lists(name TEXT PRIMARY KEY, data BLOB NOT NULL);
        CREATE TABLE decl_blocks(id INTEGER PRIMARY KEY, first TEXT NOT NULL,
                                 rows BLOB NOT NULL);
    """)
    header = json.dumps(table["header"], ensure_ascii=False)
    connection.executemany("INSERT INTO meta VALUES (?, ?)",
                           [("format", FORMAT), ("header", header), ("zdict", zdict)])
    connection.executemany("INSERT INTO lists VALUES (?, ?)", [
        (name, zlib.compress(json.dumps(table[name], ensure_ascii=False,
                                        separators=(",", ":")).encode(), 9))
        for name in _LISTS])
    decls = table["decls"]
    connection.executemany("INSERT INTO decl_blocks VALUES (?, ?, ?)", [
        (i // block_rows, decls[i].split("\t", 1)[0], _deflate("\n".join(decls[i:i + block_rows]), zdict))
        for i in range(0, len(decls), block_rows)])
    connection.commit()
    connection.execute("VACUUM")


def _deflate(text: str, zdict: bytes) -> bytes:
    compressor = zlib.compressobj(9, zlib.DEFLATED, 15, 9, zlib.Z_DEFAULT_STRATEGY, zdict)
    return compressor.compress(text.encode()) + compressor.flush()


def _preset_dictionary(rows: list[str]) -> bytes:
    """Rows sampled evenly across the table, up to zlib's window (the recurring namespaces,
    kind codes and file numbers every block shares)."""
    step = max(1, len(rows) * 48 // _ZDICT_SIZE)
    return "\n".join(rows[::step]).encode()[-_ZDICT_SIZE:]
