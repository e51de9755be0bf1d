"""Generate ``transted/pipeline/opt/data/mathlib_index.sqlite`` from the pinned Mathlib and Batteries.

Usage (from the repository root; the sources are ``git archive`` tarballs or checkouts)::

    python -m scripts.mathlib_index.build \\
        --mathlib ../shared/data/mathlib/mathlib4-81a5d257.tar.xz \\
        --batteries ../shared/data/mathlib/batteries-023ce7d6.tar.xz [--jobs 2] [--out PATH]

Every ``.lean`` file under ``Mathlib/`` and ``Batteries/`` is read in its context
(:mod:`scripts.mathlib_index.declarations`, one process per core); then, over the whole
index: names resolved, ``attribute [..]`` commands applied, ``@[to_additive]``/``@[to_dual]``
declarations generated, the class hierarchy and the rewrite keys computed, the curated Lean
core entries (``lean_core.yaml``) added, and the SQLite file written (replacing the old one).
See docs/MATHLIB_INDEX.md.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import sys
import time
from pathlib import Path

from scripts.mathlib_index.additive import Request, generate, translation_maps
from scripts.mathlib_index.core import CORE_FILE, read_core
from scripts.mathlib_index.coverage import coverage_counts
from scripts.mathlib_index.declarations import FileIndex, read_file
from scripts.mathlib_index.instance_headers import write_instance_headers
from scripts.mathlib_index.resolution import (
    Resolver,
    apply_attribute_commands,
    hierarchy_edges,
    resolve_records,
    rewrite_head,
)
from scripts.mathlib_index.sources import Source, open_source
from scripts.mathlib_index.store import Meta, RewriteRow, write_index
from scripts.name_table.translate import parse_dictionaries
from transted.pipeline.opt import PARSER_VERSION
from transted.pipeline.opt.mathlib.records import IndexedDeclaration
from transted.pipeline.opt.mathlib.statements import statement_of

GENERATOR_VERSION = 2
DEFAULT_OUT = Path("transted/pipeline/opt/data/mathlib_index.sqlite")
LICENCE = ("Derived from Mathlib and Batteries (Apache-2.0, see LICENSE beside this file) and "
           "Lean 4 core documentation (Apache-2.0)")


def _read(item: tuple[str, str]) -> FileIndex:
    name, text = item
    return read_file(text, name)


def read_sources(sources: list[Source], jobs: int) -> list[FileIndex]:
    items = [item for s in sources for item in s.lean_files()]
    if jobs <= 1:
        return [_read(i) for i in items]
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return list(pool.imap(_read, items, chunksize=4))


def assemble(files: list[FileIndex], core: list[FileIndex], dictionaries: dict) -> tuple:
    """Records (first declaration of a name wins; core entries only where Mathlib and
    Batteries have none), hierarchy edges, rewrite rows, theorem statements, coverage extras."""
    records: dict[str, IndexedDeclaration] = {}
    duplicates = 0
    for f in [*files, *core]:
        for r in f.declarations:
            if r.name in records:
                duplicates += 1
                continue
            records[r.name] = r
    resolver = Resolver(records)
    records = {r.name: r for r in resolve_records(list(records.values()), resolver)}
    commands = [c for f in files for c in f.attribute_commands]
    unresolved_attributes = apply_attribute_commands(records, commands, resolver)
    requests = _requests(files, commands, records, resolver)
    maps = translation_maps(requests, dictionaries)
    for g in list(generate(requests, records, maps, resolver)):
        if g.name not in records:
            records[g.name] = g
    resolver = Resolver(records)
    edges = hierarchy_edges(records, resolver)
    statements = {name: s for name, r in records.items() if (s := statement_of(r)) is not None}
    rewrites = [RewriteRow(h, name, s.relation, records[name].simp)
                for name, s in statements.items()
                if s.relation is not None and (h := rewrite_head(records[name], s, resolver))]
    extra = {"duplicates_dropped": duplicates, "files": len(files),
             "private_skipped": sum(f.private_skipped for f in files),
             "attribute_names_unresolved": unresolved_attributes,
             "hierarchy_edges": len(edges)}
    return list(records.values()), edges, rewrites, statements, extra


def _requests(files: list[FileIndex], commands: list, records: dict[str, IndexedDeclaration],
              resolver: Resolver) -> list[Request]:
    out = [Request(t.source, t.request, t.members) for f in files for t in f.translations]
    for command, scope in commands:
        for written in command.names:
            # a name the index does not declare (Lean core's `Inv`, `HMul`) still maps
            name = resolver.resolve(written, scope) or written.removeprefix("_root_.")
            r = records.get(name)
            members = tuple(m.name for m in r.fields) + r.constructors if r else ()
            out.extend(Request(name, t, members) for t in command.translations)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mathlib", type=Path, required=True)
    parser.add_argument("--mathlib-commit")
    parser.add_argument("--batteries", type=Path, required=True)
    parser.add_argument("--batteries-commit")
    parser.add_argument("--core", type=Path, default=CORE_FILE)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--jobs", type=int, default=multiprocessing.cpu_count())
    args = parser.parse_args(argv)
    started = time.perf_counter()
    mathlib = open_source("mathlib", args.mathlib, "Mathlib", "leanprover-community/mathlib4",
                          args.mathlib_commit)
    batteries = open_source("batteries", args.batteries, "Batteries",
                            "leanprover-community/batteries", args.batteries_commit)
    dictionaries = {
        attr: parse_dictionaries(mathlib.read(f"Mathlib/Tactic/Translate/{file}"), file)
        for attr, file in (("to_additive", "ToAdditive.lean"), ("to_dual", "ToDual.lean"))}
    files = read_sources([mathlib, batteries], args.jobs)
    read_seconds = time.perf_counter() - started
    records, edges, rewrites, statements, extra = assemble(files, read_core(args.core),
                                                           dictionaries)
    coverage = {**coverage_counts(records, statements), **extra}
    meta = Meta(mathlib.commit, batteries.commit, mathlib.read("lean-toolchain").strip(),
                GENERATOR_VERSION, PARSER_VERSION, coverage, LICENCE)
    content = write_index(args.out, records, edges, rewrites, meta)
    write_instance_headers(args.out)
    total = time.perf_counter() - started
    print(json.dumps(coverage, indent=1), file=sys.stderr)
    print(f"{args.out}: {args.out.stat().st_size} bytes, content {content[:16]}; read "
          f"{read_seconds:.0f} s, total {total:.0f} s ({args.jobs} processes)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
