"""The rewrite-lemma table: Mathlib's ``=``/``↔`` theorems, normalised, keyed for retrieval.

Built once from the declaration index by ``python -m scripts.rewrite_lemmas.build``
(normalising ~90,000 statements takes minutes, so it is never done while scoring) into its own
package data file, ``transted/pipeline/search/lemmas/data/rewrite_lemmas.sqlite`` (size cap
:data:`SIZE_CAP_BYTES`, enforced by tests/test_lemmas_table.py), with three tables:

``lemmas(first, records)``
    the lemmas in id order, :data:`BLOCK_SIZE` to a block (one JSON line per lemma,
    :class:`LemmaRow`, the block deflated: neighbours in name order share namespaces and
    notation, which a record deflated alone cannot reuse): the name a script prints (an alias
    or deprecated name followed to the current one), ``@[simp]``, its family, the normalised
    statement (bracket text), which spine arrows are instances, its numeral variables, the
    directions it may be used in, its source, and for a usable lemma its sides' types
    (:mod:`~transted.pipeline.search.lemmas.side_types`);
``keys(bucket, entries)``
    the discrimination-tree keys (:mod:`~transted.pipeline.search.lemmas.dtree`) of each usable
    direction's source pattern, bucketed by their first two keys (the root label and the
    first child's): a term asks for the buckets of its own root and first child (and the
    root with a star), and each bucket's trie is built on first use, so a process pays for
    the symbols its pairs contain, never for the whole table;
``meta(key, value)``
    counts per family (kept, and dropped with why), the versions the statements were
    normalised with, and the ids of the lemmas a search would find unusable
    (:attr:`~transted.pipeline.search.lemmas.lemma.Lemma.usable` false, or no sides), judged by
    the elaboration named beside them: retrieval skips them without reading their rows, and
    when the running elaboration is another one the list (and the stored types) are ignored
    and each lemma is judged, and elaborated, as it is met.

Opened read-only and immutable, lazily (:func:`load_table`: only when the ``lemmas`` provider
runs), one connection per process (as the index itself).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import zlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path

from transted.errors import InputError
from transted.loading import ReadOnlyDatabase, bundled_file
from transted.pipeline.opt.node import Node
from transted.pipeline.search.lemmas.dtree import STAR, DiscriminationTree
from transted.pipeline.search.lemmas.side_types import (
    SideTypes,
    decode_side_types,
    encode_side_types,
)

__all__ = ["FAMILIES", "LemmaRow", "KeyEntry", "LemmaTable", "family", "write_table",
           "TABLE_VERSION", "TABLE_FILE", "SIZE_CAP_BYTES", "BLOCK_SIZE", "lemma_table_path",
           "load_table", "encode_ids", "decode_ids"]

TABLE_VERSION = 4
"""Bump when the stored form of a lemma or its keys changes (also in the table's meta).
2: a file of its own, lemmas in deflated blocks, only directions whose source has a head.
3: the ids of the lemmas the elaborator does not read cleanly, with the elaboration that judged
them (meta ``unusable``, ``unusable_elaboration``).
4: each usable lemma's row holds its sides' types by that elaboration (``types``)."""
TABLE_FILE = "rewrite_lemmas.sqlite"
SIZE_CAP_BYTES = 15 * 1024 * 1024
"""The table file's size cap (repository and wheel; tests/test_lemmas_table.py enforces it)."""
BLOCK_SIZE = 32
"""Lemmas per stored block (a lookup inflates one block: a few kB)."""
_BUILD = "python -m scripts.rewrite_lemmas.build"

FAMILIES = ("simp", "iff", "def", "eq", "mem", "coe", "other")
"""How lemmas are counted: ``@[simp]`` first, then by name (``…_iff``, ``…_def``, ``…_eq…``,
``mem_…``, ``coe_…``/``cast_…``), else ``other``."""

_BUCKET_CACHE = 4096
_ROW_CACHE = 16384
_BLOCK_CACHE = 2048


def family(name: str, simp: bool) -> str:
    """The family a lemma is counted in (:data:`FAMILIES`)."""
    if simp:
        return "simp"
    last = name.rsplit(".", 1)[-1]
    if last.endswith("_iff") or "_iff_" in last:
        return "iff"
    if last.endswith("_def"):
        return "def"
    if last.startswith("mem_") or "_mem_" in last:
        return "mem"
    if last.startswith(("coe_", "cast_")) or "_coe_" in last or "_cast_" in last or \
            last.endswith(("_coe", "_cast", "Cast")):
        return "coe"
    if last.endswith("_eq") or "_eq_" in last or last.startswith("eq_"):
        return "eq"
    return "other"


@dataclass(frozen=True)
class LemmaRow:
    """One stored lemma (see the module docstring)."""

    id: int
    name: str
    relation: str
    simp: bool
    family: str
    statement: Node
    instance_arrows: tuple[bool, ...]
    numerals: tuple[str, ...]
    directions: tuple[str, ...]
    source: str
    declared: str
    """The declaration's own name (differs from ``name`` for a deprecated spelling)."""
    types: SideTypes | None = None
    """The types of its sides by the elaboration that judged the table's unusable list (stored
    for the usable lemmas only, :mod:`~transted.pipeline.search.lemmas.side_types`)."""

    def to_json(self) -> str:
        return json.dumps({"name": self.name, "relation": self.relation, "simp": self.simp,
                           "family": self.family, "statement": str(self.statement),
                           "arrows": "".join("i" if a else "h" for a in self.instance_arrows),
                           "numerals": list(self.numerals), "directions": list(self.directions),
                           "source": self.source,
                           **({"declared": self.declared} if self.declared != self.name else {}),
                           **({"types": encode_side_types(self.types)} if self.types is not None else {})},
                          ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, id_: int, text: str) -> LemmaRow:
        d = json.loads(text)
        types = d.get("types")
        return cls(id_, d["name"], d["relation"], bool(d["simp"]), d["family"],
                   Node.from_text(d["statement"]), tuple(c == "i" for c in d["arrows"]),
                   tuple(d["numerals"]), tuple(d["directions"]), d["source"],
                   d.get("declared", d["name"]),
                   decode_side_types(types) if types is not None else None)


@dataclass(frozen=True)
class KeyEntry:
    """A usable direction of a lemma and its source pattern's keys."""

    lemma: int
    backward: bool
    keys: tuple[str, ...]

    @property
    def bucket(self) -> str:
        return bucket_of(self.keys)


def bucket_of(keys: tuple[str, ...]) -> str:
    return "\t".join(keys[:2])


class LemmaTable:
    """Read access to one rewrite-lemma table file (built by ``scripts/rewrite_lemmas``)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = threading.Lock()
        self._db = ReadOnlyDatabase(path, missing=lambda: InputError(
            f"{path}: no rewrite-lemma table; build it with `{_BUILD}` (docs/LEMMAS.md)"))
        self._buckets: dict[tuple[str, bool], DiscriminationTree[tuple[int, bool]] | None] = {}
        self._rows: dict[int, LemmaRow | None] = {}
        self._blocks: dict[int, list[str]] = {}

    def _query(self, sql: str, args: tuple = ()) -> list[tuple]:
        try:
            return self._db.query(sql, args)
        except sqlite3.DatabaseError as e:
            raise InputError(f"{self.path}: not a rewrite-lemma table ({e}); rebuild it "
                             f"with `{_BUILD}` (docs/LEMMAS.md)") from e

    @cached_property
    def meta(self) -> dict[str, str]:
        return dict(self._query("SELECT key, value FROM meta"))

    @property
    def version(self) -> str:
        """``rw<TABLE_VERSION>-<content hash>``: the table's identity for signatures."""
        return f"rw{self.meta['table_version']}-{self.meta['content_sha256'][:8]}"

    def judged_by(self, elaboration: str) -> bool:
        """Whether what the build judged by elaborating (the unusable list, the usable lemmas'
        side types) was judged by ``elaboration`` (the running one): else a search ignores it
        and elaborates each lemma when it is met."""
        return self.meta.get("unusable_elaboration") == elaboration

    def unusable(self, elaboration: str) -> frozenset[int]:
        """The lemma ids stored as unusable, when they were judged by ``elaboration`` (the
        running one); else none (every lemma is then judged when it is met)."""
        if not self.judged_by(elaboration):
            return frozenset()
        return self._unusable

    @cached_property
    def _unusable(self) -> frozenset[int]:
        try:
            return frozenset(decode_ids(self.meta.get("unusable", "")))
        except (ValueError, zlib.error) as e:
            raise InputError(f"{self.path}: its list of unusable lemmas does not decode ({e}); "
                             f"rebuild it with `{_BUILD}` (docs/LEMMAS.md)") from e

    def row(self, lemma: int) -> LemmaRow | None:
        with self._lock:
            if lemma in self._rows:
                return self._rows[lemma]
        first = (lemma - 1) // BLOCK_SIZE * BLOCK_SIZE + 1
        lines = self._block(first)
        at = lemma - first
        # only the asked row is parsed: a block's other rows are rarely wanted by one search,
        # and parsing all 32 statement trees was most of a lemma search's time
        row = LemmaRow.from_json(lemma, lines[at]) if 0 <= at < len(lines) else None
        with self._lock:
            if len(self._rows) >= _ROW_CACHE:
                self._rows.clear()
            self._rows[lemma] = row
        return row

    def _block(self, first: int) -> list[str]:
        with self._lock:
            hit = self._blocks.get(first)
        if hit is not None:
            return hit
        found = self._query("SELECT records FROM lemmas WHERE first = ?", (first,))
        lines = _block_lines(found[0][0]) if found else []
        with self._lock:
            if len(self._blocks) >= _BLOCK_CACHE:
                self._blocks.clear()
            self._blocks[first] = lines
        return lines

    def lemma_id(self, name: str) -> int | None:
        """The id of the lemma printed as ``name`` (the first, if several); a full scan on
        first use, for tests and reports (the search asks by id)."""
        return self._names.get(name)

    @cached_property
    def _names(self) -> dict[str, int]:
        names: dict[str, int] = {}
        for row in self.rows():
            names.setdefault(row.name, row.id)
        return names

    def rows(self) -> Iterator[LemmaRow]:
        """Every lemma, in id order (a full scan, for reports)."""
        for first, blob in self._query("SELECT first, records FROM lemmas ORDER BY first"):
            yield from _block_rows(first, blob)

    def candidates(self, term: Node, elaboration: str | None = None) -> list[tuple[int, bool]]:
        """``(lemma id, backward)`` of every direction whose source pattern's keys are
        compatible with ``term`` (:class:`~transted.pipeline.search.lemmas.dtree.DiscriminationTree`),
        in a fixed order (bucket, then stored order); with ``elaboration`` (the running one),
        without the lemmas :meth:`unusable` gives for it (the same list in the same order with
        those left out: a trie's walk order does not depend on the values it holds)."""
        if not term.children:
            names = [term.label]
        else:
            names = [f"{term.label}\t{term.children[0].label}", f"{term.label}\t{STAR}"]
        skip = self.unusable(elaboration) if elaboration is not None else frozenset()
        out: list[tuple[int, bool]] = []
        for name in names:
            tree = self._bucket(name, skip)
            if tree is not None:
                out.extend(tree.retrieve(term))
        return out

    def _bucket(self, name: str, skip: frozenset[int]
                ) -> DiscriminationTree[tuple[int, bool]] | None:
        key = (name, bool(skip))  # `skip` is empty or the table's one unusable list
        if key in self._buckets:
            return self._buckets[key]
        found = self._query("SELECT entries FROM keys WHERE bucket = ?", (name,))
        tree: DiscriminationTree[tuple[int, bool]] | None = None
        if found:
            tree = DiscriminationTree()
            for lemma, backward, *keys in json.loads(zlib.decompress(found[0][0])):
                if lemma not in skip:
                    tree.insert(tuple(keys), (lemma, bool(backward)))
        if len(self._buckets) >= _BUCKET_CACHE:
            self._buckets.clear()
        self._buckets[key] = tree
        return tree


def _block_lines(blob: bytes) -> list[str]:
    return zlib.decompress(blob).decode("utf-8").split("\n")


def _block_rows(first: int, blob: bytes) -> list[LemmaRow]:
    return [LemmaRow.from_json(first + i, line) for i, line in enumerate(_block_lines(blob))]


def write_table(connection: sqlite3.Connection, rows: Iterable[LemmaRow],
                keys: Iterable[KeyEntry], meta: dict[str, str]) -> None:
    """Create the three tables in ``connection`` (build time only; a fresh file). Row ids
    must be 1, 2, 3, … in order (a block holds ids ``first … first + BLOCK_SIZE - 1``)."""
    db = connection
    db.execute("CREATE TABLE lemmas (first INTEGER PRIMARY KEY, records BLOB NOT NULL)")
    db.execute("CREATE TABLE keys (bucket TEXT PRIMARY KEY, entries BLOB NOT NULL)")
    db.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    ordered = list(rows)
    if [r.id for r in ordered] != list(range(1, len(ordered) + 1)):
        raise ValueError("lemma ids must be 1..N in order")
    db.executemany("INSERT INTO lemmas VALUES (?, ?)", (
        (i + 1, zlib.compress("\n".join(r.to_json() for r in ordered[i:i + BLOCK_SIZE])
                              .encode("utf-8"), 9))
        for i in range(0, len(ordered), BLOCK_SIZE)))
    buckets: dict[str, list[list[object]]] = {}
    for entry in keys:
        buckets.setdefault(entry.bucket, []).append(
            [entry.lemma, int(entry.backward), *entry.keys])
    db.executemany("INSERT INTO keys VALUES (?, ?)",
                   ((b, zlib.compress(json.dumps(v, ensure_ascii=False,
                                                 separators=(",", ":")).encode("utf-8"), 9))
                    for b, v in sorted(buckets.items())))
    db.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta.items()))


def encode_ids(ids: Iterable[int]) -> str:
    """Sorted ids as deflated, hex-encoded deltas (a meta value: text)."""
    ordered = sorted(set(ids))
    deltas = [b - a for a, b in zip([0, *ordered], ordered, strict=False)]
    return zlib.compress(",".join(map(str, deltas)).encode("ascii"), 9).hex()


def decode_ids(text: str) -> list[int]:
    """The ids :func:`encode_ids` wrote."""
    if not text:
        return []
    plain = zlib.decompress(bytes.fromhex(text)).decode("ascii")
    out: list[int] = []
    at = 0
    for delta in plain.split(",") if plain else ():
        at += int(delta)
        out.append(at)
    return out


def lemma_table_path() -> Path:
    """The bundled table's real file path (extracted once if the package is zipped)."""
    return bundled_file("transted.pipeline.search.lemmas", "data", TABLE_FILE)


@lru_cache(maxsize=1)
def load_table() -> LemmaTable:
    """The bundled table (opened on the first query, shared by the process)."""
    return LemmaTable(lemma_table_path())
