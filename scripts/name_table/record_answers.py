"""Record the bundled name table's answers on a large fixed sample (tests/data/names/answers.json.gz).

Usage (from the repository root)::

    python scripts/name_table/record_answers.py [--out tests/data/names/answers.json.gz]

The sample is drawn from the table itself (seeded): the first declared names and a random
sample, every ``export`` alias and its targets, protected names, their last components, field
accesses ``x.y.z``, ``_root_.`` names, non-names; every namespace prefix of the sampled names and
some that are not; and every notation symbol. Each identifier is resolved under every header of
:data:`HEADERS` (``open Real Nat``, ``namespace``, ``open X in``, ``open X (a)``, ``hiding``,
``renaming``, a header declaration…). tests/test_name_answers.py replays the sample against the
bundled table: the committed answers were recorded with the JSON-backed table the SQLite file
replaced (``transted/pipeline/opt/names.py`` at 9640835), so the test holds the SQLite-backed
one to exactly its answers. Regenerate after a deliberate table change only.

It uses only the public API of :mod:`transted.pipeline.opt.names` (plus the declared names, see
:func:`declared_names`), so it runs on either implementation.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import hashlib
import json
import random
from pathlib import Path
from typing import Any

from transted.errors import TranstedError
from transted.pipeline.opt.names import Ambiguous, Constant, NameTable, load_name_table

DEFAULT_OUT = Path("tests/data/names/answers.json.gz")
SEED = 34
FIRST, RANDOM, FIELDS, ROOTED, PROTECTED = 1500, 3000, 400, 200, 600
HEADERS = (
    "",
    "import Mathlib\nopen Real Nat\n",
    "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat\n\n",
    "namespace Nat\nopen Real\n",
    "namespace Finset\nopen Function\nnamespace Nat\nend Nat\n",
    "open Real in\n",
    "open Real in\ndef f := 1\n",
    "open Real (sqrt exp)\nopen Nat (succ factorial)\n",
    "open Real hiding sqrt\nopen Nat hiding succ\n",
    "open Real renaming sqrt → rsqrt\n",
    "open scoped BigOperators Real\nopen Set Finset Complex Polynomial\n",
    "open Int Rat Function\nsection\nopen Real\nend\n",
    "import Mathlib\nopen Set\n\ndef is_topology (X : Type*) (T : Set (Set X)) := True\n",
    "open NoSuchNamespace Real\n",
)
COMMON = ("sqrt", "exp", "log", "sin", "cos", "pi", "π", "choose", "factorial", "gcd", "lcm",
          "succ", "pred", "card", "range", "sum", "prod", "Prime", "closure", "span", "Normal",
          "max", "min", "abs", "floor", "ceil", "id", "comp", "cast", "x", "h", "h₀", "f", "n",
          "Nat", "Real", "Int", "Finset", "Set", "Function", "rsqrt", "is_topology", "Foo.bar",
          "_root_.Nat", "x.", ".x", "", "Real.", "Real..sqrt", "add_comm", "mul_comm",
          "Nat.sqrt.foo", "Real.sqrt.foo.bar")


def declared_names(table: NameTable) -> list[str]:
    """Every declared name, in name order (the sample's universe)."""
    store = getattr(table, "_store", None)
    if store is not None:
        return [row.split("\t", 1)[0] for row in store.rows()]
    return list(table._decls)  # type: ignore[attr-defined]  # the JSON-backed table (≤ 9640835)


def identifiers(names: list[str], table: NameTable, rng: random.Random) -> list[str]:
    sample = names[:FIRST] + rng.sample(names, RANDOM)
    protected = [n for n in names if table.is_protected(n)]
    sample += rng.sample(protected, min(PROTECTED, len(protected)))
    aliases = sorted(table._aliases)
    targets = sorted({t for a in aliases for t in table._aliases[a]})
    last = [n.rpartition(".")[2] for n in sample]
    fields = [f"{n}.foo" for n in rng.sample(sample, FIELDS // 2)]
    fields += [f"{n}.foo.bar" for n in rng.sample(sample, FIELDS // 2)]
    rooted = [f"_root_.{n}" for n in rng.sample(sample, ROOTED)]
    absent = [f"{n}_nonexistent" for n in rng.sample(sample, ROOTED)]
    return list(dict.fromkeys([*COMMON, *sample, *aliases, *targets, *last, *fields, *rooted,
                               *absent]))


def prefixes(names: list[str]) -> list[str]:
    out: dict[str, None] = {}
    for name in names:
        parts = name.split(".")
        for cut in range(1, len(parts)):
            out[".".join(parts[:cut])] = None
    return list(out)


def namespace_queries(names: list[str], table: NameTable, rng: random.Random) -> list[str]:
    every = prefixes([*names, *table._aliases])
    near = [f"{p}Zz" for p in rng.sample(every, 500)] + [f"{p}." for p in rng.sample(every, 100)]
    return list(dict.fromkeys(["", "Nat", "Real", "NoSuchNamespace", *every, *near,
                               *rng.sample(names, 1000)]))


def plain(value: Any) -> Any:
    """JSON-ready, order-stable (frozensets sorted)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, frozenset):
        return sorted(plain(v) for v in value)
    if isinstance(value, tuple | list):
        return [plain(v) for v in value]
    return value


def resolution(table: NameTable, identifier: str, scope: Any) -> str:
    """``U`` (unknown), ``C name[|field…]`` (a constant: its kind and source are recorded with
    the constants), ``A name,name…`` (ambiguous), or ``E error``."""
    try:
        found = table.resolve(identifier, scope=scope)
    except TranstedError as exc:
        return f"E {type(exc).__name__}: {exc}"
    if isinstance(found, Constant):
        return "C " + "|".join((found.name, *found.fields))
    if isinstance(found, Ambiguous):
        return "A " + ",".join("|".join((c.name, *c.fields)) for c in found.candidates)
    return "U"


def checked_names(idents: list[str], resolved: list[str]) -> list[str]:
    """The names whose membership, protection and constant are recorded: every identifier
    that is a name, then every constant a resolution names."""
    valid = [i for i in idents if i and not i.startswith(".") and not i.endswith(".")]
    return list(dict.fromkeys([*valid, *resolved]))


def resolved_names(answers: list[list[str]]) -> list[str]:
    """The constants the resolutions name (their kinds and sources are recorded too)."""
    out: dict[str, None] = {}
    for row in answers:
        for answer in row:
            if answer[0] in "CA":
                for hit in answer[2:].split(","):
                    out[hit.split("|")[0]] = None
    return list(out)


def digest(value: Any) -> str:
    text = json.dumps(plain(value), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def record(table: NameTable) -> dict:
    rng = random.Random(SEED)
    names = declared_names(table)
    idents = identifiers(names, table, rng)
    scopes = [table.scope(header) for header in HEADERS]
    # identifier-major: an identifier's answers under the headers sit together (they repeat)
    resolved = [[resolution(table, i, scope) for scope in scopes] for i in idents]
    symbols = sorted({n.symbols[0] for n in table._notations if n.symbols})
    checked = checked_names(idents, resolved_names(resolved))
    queries = namespace_queries(names, table, rng)
    return {
        "version": table.version,
        "headers": list(HEADERS),
        "scopes": [plain(scope) for scope in scopes],
        "identifiers": idents,
        "resolutions": resolved,
        "resolved_names": resolved_names(resolved),
        "constants": [[i in table, table.is_protected(i), table.constant(i).kind,
                       table.constant(i).source] for i in checked],
        "namespace_queries": queries,
        "namespaces": [table.is_namespace(q) for q in queries],
        "symbols": symbols,
        "notations": [{"all": digest(table.notations(scope)),
                       "by_symbol": [digest(table.notations(scope, symbol=s)) for s in symbols]}
                      for scope in scopes],
        "notations_for": [digest(table.notations_for(s)) for s in symbols],
        "global_notations": plain(table.notations()),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args(argv)
    data = json.dumps(record(load_name_table()), ensure_ascii=False, separators=(",", ":"))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0,
                                                   compresslevel=9, filename="") as gz:
        gz.write(data.encode())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
