"""How much of the statements' vocabulary the bundled name table resolves (docs/NAMES.md).

For every statement in tests/data/statements/*.jsonl and both sides of tests/data/gted, the free
names of its operator tree (parsed without the header, so no prefix is dropped) are resolved
under the statement's own header: a constant, an overload (ambiguous), a notation symbol (active
under the header's opens; a scoped symbol whose namespace is
not opened is an identifier), or unknown (bound/auto-bound variables, dot-notation field
names the parser turns into heads such as ``card``, names Mathlib no longer has).

    python benchmarks/name_coverage.py [--show 30]
"""

from __future__ import annotations

import argparse
import collections
import json
import re
from collections.abc import Iterator
from pathlib import Path

from transted.errors import TranstedError
from transted.pipeline.opt.declaration import OptOptions, declaration_tree, parse_declaration
from transted.pipeline.opt.names import Ambiguous, Constant, load_name_table
from transted.pipeline.opt.scope import free_names

DATA = Path(__file__).resolve().parents[1] / "tests" / "data"
IDENT = re.compile(r"^[^\W\d][\w'.!?₀-₉]*$")


def statements() -> Iterator[tuple[str, str, str]]:
    for name in ("minif2f", "proofnet"):
        for line in (DATA / "statements" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines():
            row = json.loads(line)
            yield f"statements/{name}", row["formal_statement"], row["header"]
    for line in (DATA / "gted" / "proofnet.jsonl").read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        for side in ("reference", "candidate"):
            yield "gted", row[side]["statement"], row[side]["header"]


def classify(show: int) -> dict:
    table = load_name_table()
    counts: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    unknown: collections.Counter = collections.Counter()
    ambiguous: collections.Counter = collections.Counter()
    inactive: collections.Counter = collections.Counter()
    for corpus, text, header in statements():
        try:
            tree = declaration_tree(parse_declaration(text), OptOptions(normalize=False))
        except TranstedError:
            counts[corpus]["unparsed statements"] += 1
            continue
        scope = table.scope(header)
        for name in sorted(free_names(tree)):
            if name == "sorry":
                continue
            if table.notations(scope, symbol=name):
                counts[corpus]["notation"] += 1
                continue
            if table.notations_for(name):  # a scoped symbol the header does not open: an identifier
                inactive[(name, header.count("\n"))] += 1
            if not IDENT.match(name):
                continue
            result = table.resolve(name, scope=scope)
            if isinstance(result, Constant):
                counts[corpus]["constant"] += 1
            elif isinstance(result, Ambiguous):
                counts[corpus]["ambiguous"] += 1
                ambiguous[(name, tuple(sorted(result.names)))] += 1
            else:
                counts[corpus]["unknown"] += 1
                unknown[name] += 1
    return {"table": table.version, "counts": {k: dict(v) for k, v in counts.items()},
            "unknown": unknown.most_common(show),
            "inactive_notation_symbols": sorted({n for n, _ in inactive}),
            "ambiguous": [[n, list(c), k] for (n, c), k in ambiguous.most_common(show)]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--show", type=int, default=30)
    print(json.dumps(classify(parser.parse_args().show), ensure_ascii=False, indent=1))


if __name__ == "__main__":
    main()
