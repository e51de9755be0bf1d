"""Generate ``transted/pipeline/opt/data/mathlib_names.sqlite`` from a Mathlib (and Batteries) checkout.

Usage (from the repository root; the checkouts are not part of the repository)::

    python -m scripts.name_table.build --mathlib /path/to/mathlib4 --batteries /path/to/batteries \
        --mathlib-commit <sha> --batteries-commit <sha> [--out transted/pipeline/opt/data/mathlib_names.sqlite]

The table lists, for every ``.lean`` file under ``Mathlib/`` and ``Batteries/``: the declared
names (with kind and ``protected`` flag; ``private`` ones are never reachable and are left out),
the names ``@[to_additive]``/``@[to_dual]`` generate, ``export`` aliases, and the notations with
their ``scoped`` namespace; plus the hand-curated Lean core names of ``lean_core.yaml`` (no Lean
core snapshot could be fetched). The table is computed as one JSON value (header, files,
declaration rows, aliases, notations; the header's ``content_sha256`` hashes the rest) and
stored by :func:`transted.pipeline.opt.name_store.write_store`. See docs/NAMES.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import yaml

from scripts.name_table.declarations import FileFacts, read_file_facts
from scripts.name_table.translate import GuessData, load_dictionaries, target_name
from transted.pipeline.opt.name_store import NameStore, body_digest, content_digest, write_store

GENERATOR_VERSION = 1
FORMAT = "transted-names/1"
KIND_CODES = {"def": "d", "theorem": "t", "axiom": "a", "instance": "i", "structure": "s",
              "class": "c", "inductive": "n", "constructor": "k", "field": "f", "alias": "l"}
CORE_SUPPLEMENT = Path(__file__).with_name("lean_core.yaml")
DEFAULT_OUT = Path("transted/pipeline/opt/data/mathlib_names.sqlite")


@dataclass(frozen=True)
class Source:
    label: str
    root: Path
    subdir: str
    repository: str
    commit: str


@dataclass
class Collected:
    files: list[str]
    facts: list[tuple[int, FileFacts]]


def collect(sources: Iterable[Source]) -> Collected:
    files: list[str] = []
    facts: list[tuple[int, FileFacts]] = []
    for source in sources:
        for path in sorted((source.root / source.subdir).rglob("*.lean")):
            rel = f"{source.label}:{path.relative_to(source.root).as_posix()}"
            files.append(rel)
            facts.append((len(files) - 1, read_file_facts(path.read_text(encoding="utf-8"))))
    return Collected(files, facts)


def translated_decls(collected: Collected, dictionaries: dict[str, GuessData]) -> list[tuple]:
    """Rows for the declarations ``@[to_additive]``/``@[to_dual]`` generate."""
    requests = [(file, t) for file, facts in collected.facts for t in facts.translations]
    mapping: dict[str, dict[str, str]] = {attr: {} for attr in dictionaries}
    # A target's namespace is translated through earlier translations (Monoid ↦ AddMonoid):
    # iterate until the mapping is stable (two rounds suffice on Mathlib; four for safety).
    for _ in range(4):
        before = {attr: dict(m) for attr, m in mapping.items()}
        for _file, t in requests:
            table = mapping[t.attribute]
            table[t.source] = target_name(dictionaries[t.attribute], t.source, t.target, table.get)
        if before == mapping:
            break
    rows = []
    for file, t in requests:
        if t.existing or t.kind == "unknown":
            continue
        table = mapping[t.attribute]
        target = table[t.source]
        flag = "x" if t.target else "g"
        rows.append((target, t.kind, t.protected, flag, file, t.line))
        for member in t.fields:
            member_target = target_name(dictionaries[t.attribute], f"{t.source}.{member}", None,
                                        table.get)
            kind = "constructor" if member == "mk" else "field"
            rows.append((member_target, kind, False, "g", file, t.line))
    return rows


def core_rows(path: Path, file_index: dict[str, int], files: list[str]) -> tuple[list, list]:
    """Declaration rows and ``export`` alias rows of the curated Lean core list."""
    entries = yaml.safe_load(path.read_text(encoding="utf-8"))["names"]
    rows, aliases = [], []
    for entry in entries:
        if not isinstance(entry["name"], str):  # YAML reads an unquoted True/false as a bool
            raise ValueError(f"{path}: quote the name {entry['name']!r}")
        rel = f"lean4:{entry['file']}"
        if rel not in file_index:
            file_index[rel] = len(files)
            files.append(rel)
        if entry["kind"] == "alias":
            aliases.append((entry["name"], entry["target"], file_index[rel], 0))
            continue
        rows.append((entry["name"], entry["kind"], bool(entry.get("protected", False)), "c",
                     file_index[rel], 0))
    return rows, aliases


def build(sources: list[Source], mathlib_root: Path, core: Path) -> dict:
    collected = collect(sources)
    dictionaries = {
        "to_additive": load_dictionaries(mathlib_root / "Mathlib/Tactic/Translate/ToAdditive.lean"),
        "to_dual": load_dictionaries(mathlib_root / "Mathlib/Tactic/Translate/ToDual.lean"),
    }
    rows: list[tuple] = [(d.name, d.kind, d.protected, "", file, d.line)
                         for file, facts in collected.facts for d in facts.decls]
    rows += translated_decls(collected, dictionaries)
    file_index = {name: i for i, name in enumerate(collected.files)}
    core_decls, core_aliases = core_rows(core, file_index, collected.files)
    rows += core_decls
    seen: dict[str, str] = {}
    duplicates = 0
    for name, kind, protected, flag, file, line in rows:
        if name in seen:
            duplicates += 1
            continue
        flags = ("p" if protected else "") + flag
        seen[name] = f"{name}\t{KIND_CODES[kind]}\t{flags}\t{file}\t{line}"
    decls = [seen[name] for name in sorted(seen)]
    aliases = sorted({(e.alias, e.target, file, e.line)
                      for file, facts in collected.facts for e in facts.exports} | set(core_aliases))
    notations = [{"keyword": n.keyword, "atoms": list(n.atoms), "pattern": n.pattern,
                  "expansion": n.expansion, "namespace": n.namespace, "file": file, "line": n.line}
                 for file, facts in collected.facts for n in facts.notations]
    kinds = Counter(line.split("\t")[1] for line in decls)
    body = {
        "files": collected.files,
        "decls": decls,
        "aliases": [list(a) for a in aliases],
        "notations": notations,
    }
    coverage = {
        "files": len(collected.files),
        "declarations": len(decls),
        "by_kind": {k: kinds[c] for k, c in KIND_CODES.items()},
        "translated": sum(1 for line in decls if line.split("\t")[2].strip("p") in ("g", "x")),
        "lean_core_curated": sum(1 for line in decls if line.split("\t")[2].endswith("c")),
        "duplicates_dropped": duplicates,
        "private_skipped": sum(f.private for _, f in collected.facts),
        "local_notations_skipped": sum(f.local_notations for _, f in collected.facts),
        "exports": len(aliases),
        "notations": len(notations),
    }
    digest = body_digest(body)
    header = {
        "format": FORMAT,
        "generator": {"script": "scripts/name_table/build.py", "version": GENERATOR_VERSION},
        "sources": {s.label: {"repository": s.repository, "commit": s.commit, "directory": s.subdir}
                    for s in sources},
        "lean_version": (mathlib_root / "lean-toolchain").read_text().strip(),
        "lean_core": "curated: scripts/name_table/lean_core.yaml (no Lean core snapshot fits the "
                     "fetch limit); core theorems and unlisted core definitions are missing",
        "licence": "Derived from Mathlib and Batteries (Apache-2.0, see LICENSE beside this file) "
                   "and Lean 4 core (Apache-2.0)",
        "coverage": coverage,
        "content_sha256": digest,
    }
    return {"header": header, **body}


def write(table: dict, out: Path) -> None:
    """Store ``table`` at ``out`` and read its content hash back from the file."""
    write_store(table, out)
    if content_digest(NameStore(out)) != table["header"]["content_sha256"]:
        raise RuntimeError(f"{out}: the stored table does not hash to its header's content_sha256")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mathlib", type=Path, required=True)
    parser.add_argument("--mathlib-commit", required=True)
    parser.add_argument("--batteries", type=Path, required=True)
    parser.add_argument("--batteries-commit", required=True)
    parser.add_argument("--core", type=Path, default=CORE_SUPPLEMENT)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    sources = [
        Source("mathlib", args.mathlib, "Mathlib", "leanprover-community/mathlib4",
               args.mathlib_commit),
        Source("batteries", args.batteries, "Batteries", "leanprover-community/batteries",
               args.batteries_commit),
    ]
    table = build(sources, args.mathlib, args.core)
    write(table, args.out)
    print(json.dumps(table["header"]["coverage"], indent=1), file=sys.stderr)
    print(f"{args.out}: {args.out.stat().st_size} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
