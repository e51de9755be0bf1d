"""Build the rewrite-lemma table from the Mathlib index (issue 33; docs/LEMMAS.md).

Usage (from the repository root, after ``python -m scripts.mathlib_index.build``)::

    python -m scripts.rewrite_lemmas.build [--index transted/pipeline/opt/data/mathlib_index.sqlite]
        [--out transted/pipeline/search/lemmas/data/rewrite_lemmas.sqlite]
        [--jobs 2] [--limit N] [--report FILE]

Every theorem of the index whose statement is ``lhs = rhs`` or ``lhs ↔ rhs`` and parses, and the
curated Lean core lemmas (``transted/pipeline/search/lemmas/core_lemmas.yaml``), is elaborated and
normalised under its own scope (:mod:`transted.pipeline.search.lemmas.compile`), split into variables,
instances, hypotheses and sides, and written with the discrimination-tree keys of each usable
direction (:mod:`transted.pipeline.search.lemmas.table`). A deprecated theorem whose replacement is in the
table is left out (the replacement is kept); one whose replacement is not keeps its own name
(Lean still accepts it, with a warning). A theorem ``@[to_additive]`` generated is used only
when the index kept its translated statement. Only what the provider can use is stored: a
direction whose source pattern has no head symbol (a bare variable, ``?f x``) would be tried at
every subterm and is dropped, and so is a lemma left with no direction. The counts per family
(indexed, parsed, kept, why not) go into the table's meta and ``--report``, and so do the ids of
the lemmas a search would judge unusable (the elaborator does not read their sides or conditions
cleanly), with the elaboration that judged them (retrieval skips them), and each usable
lemma's row gets its sides' types by that elaboration (a search reads them instead of
elaborating the lemma, :mod:`transted.pipeline.search.lemmas.side_types`). The output is
deterministic: the same index gives the same table, whatever ``--jobs``.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import multiprocessing
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from scripts.mathlib_index.core import read_core
from transted.pipeline.opt import PARSER_VERSION
from transted.pipeline.opt.elaborate import ELABORATION_VERSION, elaboration_version
from transted.pipeline.opt.mathlib import load_index
from transted.pipeline.opt.mathlib.index import MathlibIndex
from transted.pipeline.opt.mathlib.records import IndexedDeclaration
from transted.pipeline.opt.mathlib.statements import statement_of
from transted.pipeline.opt.normalize import NORMALIZE_VERSION
from transted.pipeline.search.lemmas.compile import (
    instance_arrows,
    normalised_statement,
    numeral_variables,
    peel,
    usable_directions,
)
from transted.pipeline.search.lemmas.dtree import STAR, pattern_keys
from transted.pipeline.search.lemmas.lemma import Lemma
from transted.pipeline.search.lemmas.side_types import SideTypes, side_types_of
from transted.pipeline.search.lemmas.table import (
    TABLE_FILE,
    TABLE_VERSION,
    KeyEntry,
    LemmaRow,
    encode_ids,
    family,
    write_table,
)

CORE_LEMMAS = Path("transted/pipeline/search/lemmas/core_lemmas.yaml")
OUT = Path("transted/pipeline/search/lemmas/data") / TABLE_FILE
NO_HEAD = "no direction whose source has a head symbol"
UNTRANSLATED = "generated (to_additive) without a translated statement"


@dataclass(frozen=True)
class Compiled:
    declaration: str
    family: str
    row: LemmaRow | None
    keys: tuple[KeyEntry, ...]
    why_not: str | None


_INDEX: MathlibIndex | None = None


def _is_class(name: str) -> bool:
    assert _INDEX is not None
    return _INDEX.kind(name) == "class"


def compile_declaration(item: tuple[int, IndexedDeclaration]) -> Compiled:
    """One theorem → its row and keys, or why it is not usable."""
    lemma_id, d = item
    fam = family(d.name, d.simp)
    if d.generated is not None and d.generated.statement != "translated":
        return Compiled(d.name, fam, None, (), UNTRANSLATED)
    found = normalised_statement(d)
    if isinstance(found, str):
        return Compiled(d.name, fam, None, (), found)
    tree, _elaboration = found
    numerals = _numerals_of(d)
    parts = peel(tree, instance_arrows(tree, _is_class), numerals)
    if parts is None:
        return Compiled(d.name, fam, None, (), "normalised conclusion is not = or ↔")
    directions = usable_directions(parts)
    if not directions:
        return Compiled(d.name, fam, None, (), "no usable direction")
    row = LemmaRow(lemma_id, d.name, parts.relation, d.simp, fam, tree,
                   instance_arrows(tree, _is_class), numerals,
                   tuple(name for name, _ in directions), str(d.source), d.name)
    names = {n for n, _ in parts.variables}
    keys = tuple(k for k in (KeyEntry(lemma_id, name == "backward",
                                      pattern_keys(pattern, names.__contains__))
                             for name, pattern in directions) if k.keys[:1] != (STAR,))
    if not keys:
        return Compiled(d.name, fam, None, (), NO_HEAD)
    kept = tuple(name for name, _ in directions if any(k.backward == (name == "backward")
                                                       for k in keys))
    return Compiled(d.name, fam, dataclasses.replace(row, directions=kept), keys, None)


def renumbered(compiled: list[Compiled]) -> tuple[list[LemmaRow], list[KeyEntry]]:
    """The kept rows with ids 1..N in name order (the table's blocks are dense), their keys
    pointing at the new ids."""
    rows: list[LemmaRow] = []
    keys: list[KeyEntry] = []
    for c in compiled:
        if c.row is None:
            continue
        new_id = len(rows) + 1
        rows.append(dataclasses.replace(c.row, id=new_id))
        keys.extend(dataclasses.replace(k, lemma=new_id) for k in c.keys)
    return rows, keys


def judged(row: LemmaRow) -> SideTypes | None:
    """The types of the lemma's sides by the running elaboration, or None when a search would
    never use the lemma: no sides, or sides and conditions the elaborator does not read
    cleanly (:attr:`Lemma.usable`, the same code a search runs)."""
    lemma = Lemma.from_row(row)
    if lemma is None or not lemma.usable:
        return None
    return side_types_of(lemma.elaboration.nodes, row.statement, lemma.parts.lhs_path,
                         lemma.parts.rhs_path)


def _numerals_of(d: IndexedDeclaration) -> tuple[str, ...]:
    return tuple(numeral_variables(d))


def rewrite_theorems(index: MathlibIndex, limit: int | None) -> Iterator[IndexedDeclaration]:
    """The index's theorems whose statement is ``=``/``↔`` and parsed, in name order."""
    count = 0
    for d in index.declarations("theorem"):
        s = statement_of(d)
        if s is None or s.relation is None:
            continue
        yield d
        count += 1
        if limit is not None and count >= limit:
            return


def replaced(d: IndexedDeclaration, index: MathlibIndex, names: set[str]) -> bool:
    """A deprecated theorem whose current name is another theorem of the table."""
    if d.deprecated is None:
        return False
    current = index.current_name(d.name)
    return current != d.name and current in names


def main(argv: list[str] | None = None) -> int:
    global _INDEX
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--index", type=Path, default=None,
                        help="the index file (default: the bundled one)")
    parser.add_argument("--out", type=Path, default=OUT, help=f"the table file (default {OUT})")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--limit", type=int, default=None, help="first N theorems (testing)")
    parser.add_argument("--report", type=Path, default=None, help="per-lemma reasons (JSON)")
    args = parser.parse_args(argv)
    index = MathlibIndex(args.index) if args.index is not None else load_index()
    _INDEX = index
    t0 = time.perf_counter()
    theorems = list(rewrite_theorems(index, args.limit))
    core = [d for f in read_core(CORE_LEMMAS) for d in f.declarations
            if statement_of(d) is not None and statement_of(d).relation is not None]
    indexed_names = {d.name for d in theorems}
    core = [d for d in core if d.name not in indexed_names]  # the index's own record wins
    everything = theorems + core
    names = {d.name for d in everything}
    kept = [d for d in everything if not replaced(d, index, names)]
    items = list(enumerate(sorted(kept, key=lambda d: d.name), start=1))
    print(f"{len(theorems)} rewrite theorems, {len(core)} curated core, "
          f"{len(everything) - len(kept)} deprecated with a replacement; "
          f"read in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            compiled = list(pool.imap(compile_declaration, items, chunksize=64))
    else:
        compiled = [compile_declaration(i) for i in items]
    rows, keys = renumbered(compiled)
    if args.jobs > 1:
        with multiprocessing.get_context("fork").Pool(args.jobs) as pool:
            types = list(pool.imap(judged, rows, chunksize=64))
    else:
        types = [judged(r) for r in rows]
    rows = [dataclasses.replace(r, types=t) for r, t in zip(rows, types, strict=True)]
    flags = [t is None for t in types]
    counts = _counts(everything, kept, compiled)
    counts["unusable"] = sum(flags)
    content = hashlib.sha256("\n".join(r.to_json() for r in rows).encode("utf-8")).hexdigest()
    meta = {"table_version": str(TABLE_VERSION), "content_sha256": content,
            "index_version": str(index.version), "parser": str(PARSER_VERSION),
            "normalize": NORMALIZE_VERSION, "elaboration": ELABORATION_VERSION,
            "counts": json.dumps(counts, sort_keys=True),
            "unusable": encode_ids(r.id for r, bad in zip(rows, flags, strict=True) if bad),
            "unusable_elaboration": elaboration_version()}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    partial = args.out.with_suffix(".partial")
    partial.unlink(missing_ok=True)
    db = sqlite3.connect(partial)
    try:
        with db:
            write_table(db, rows, keys, meta)
        db.execute("VACUUM")
    finally:
        db.close()
    partial.replace(args.out)
    print(json.dumps(counts, indent=1, sort_keys=True), file=sys.stderr)
    print(f"{len(rows)} lemmas, {len(keys)} directions, {args.out.stat().st_size} bytes in "
          f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)
    if args.report is not None:
        args.report.write_text(json.dumps(
            {c.declaration: c.why_not for c in compiled if c.why_not}, indent=0,
            ensure_ascii=False, sort_keys=True), encoding="utf-8")
    return 0


def _counts(everything: list[IndexedDeclaration], kept: list[IndexedDeclaration],
            compiled: list[Compiled]) -> dict[str, object]:
    indexed = Counter(family(d.name, d.simp) for d in everything)
    parsed = Counter(c.family for c in compiled if c.row is not None or c.why_not == NO_HEAD)
    stored = Counter(c.family for c in compiled if c.row is not None)
    why = Counter((c.why_not or "").split(":")[0] for c in compiled if c.why_not)
    directions = Counter(d for c in compiled if c.row is not None for d in c.row.directions)
    conditional = sum(1 for c in compiled if c.row is not None and "h" in
                      "".join("i" if a else "h" for a in c.row.instance_arrows))
    return {"indexed": dict(indexed), "parsed": dict(parsed), "kept": dict(stored),
            "why_not": dict(why),
            "directions": dict(directions), "conditional": conditional,
            "deprecated_replaced": len(everything) - len(kept)}


if __name__ == "__main__":
    sys.exit(main())
