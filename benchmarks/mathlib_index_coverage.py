"""Coverage of the bundled Mathlib declaration index (docs/MATHLIB_INDEX.md).

Per kind: declarations, signatures parsed, values (def/abbrev/irreducible_def/instance) present,
parsed and unfoldable; theorems that are equations/iffs; what does not parse, grouped by the
parser's reason and by the token it stopped at. Prints the tables; with ``--write-docs`` also
replaces the generated part of docs/MATHLIB_INDEX.md (between its ``coverage`` markers);
``--failures FILE`` writes the full list (one declaration a line: name, kind, file:line, error).

    python benchmarks/mathlib_index_coverage.py [--write-docs] [--failures FILE] [--index PATH]
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

from transted.opt.mathlib import MathlibIndex, load_index
from transted.opt.mathlib.records import Declaration
from transted.opt.mathlib.statements import statement_of

DOCS = Path(__file__).resolve().parents[1] / "docs" / "MATHLIB_INDEX.md"
BEGIN, END = "<!-- coverage:begin -->", "<!-- coverage:end -->"
BODY_KINDS = ("def", "abbrev", "irreducible_def", "instance")
_POSITION = re.compile(r"^\d+:\d+: ")
_TOKEN = re.compile(r"(?:found|unexpected|after) '([^']+)'")


def reason(error: str) -> str:
    return _POSITION.sub("", error)


def token(error: str) -> str:
    """The token the parser stopped at (``⟶`` in ``expected ')', found '⟶'``), or the reason."""
    m = _TOKEN.search(error)
    if error.startswith("uses variable"):
        return "(a `variable` it uses does not parse)"
    return f"`{m.group(1)}`" if m else reason(error)


def _pct(part: int, whole: int) -> str:
    return f"{part:,} ({part / whole:.1%})" if whole else "0"


def tables(index: MathlibIndex) -> tuple[str, list[Declaration]]:
    counts: dict[str, Counter] = {}
    failures: list[Declaration] = []
    for d in index.declarations():
        c = counts.setdefault(d.kind, Counter())
        c["n"] += 1
        c["sig"] += d.parse_error is None
        if d.parse_error is not None:
            failures.append(d)
        if d.kind in BODY_KINDS and d.body is not None:
            c["body"] += 1
            c["body_parsed"] += d.body.value.tree is not None or (
                d.body.form == "where" and all(f.value.tree is not None or
                                               f.value.text.startswith("by")
                                               for f in d.body.fields))
            c["unfold"] += d.body.unfoldable
            if d.body.error is not None:
                failures.append(d)
        s = statement_of(d)
        c["eq"] += s is not None and s.relation is not None
        c["generated"] += d.generated is not None
    lines = ["| kind | declarations | signatures parsed | values | values parsed | unfoldable "
             "| `=`/`↔` statements | generated (to_additive/to_dual) |",
             "|---|---|---|---|---|---|---|---|"]
    total = Counter()
    for kind, c in sorted(counts.items(), key=lambda kv: -kv[1]["n"]):
        total.update(c)
        values = (f"{c['body']:,}", _pct(c["body_parsed"], c["body"]), f"{c['unfold']:,}") \
            if kind in BODY_KINDS else ("", "", "")
        lines.append(f"| {kind} | {c['n']:,} | {_pct(c['sig'], c['n'])} | "
                     + " | ".join(values) + f" | {c['eq']:,} | {c['generated']:,} |")
    lines.append(f"| **all** | {total['n']:,} | {_pct(total['sig'], total['n'])} | "
                 f"{total['body']:,} | {_pct(total['body_parsed'], total['body'])} | "
                 f"{total['unfold']:,} | {total['eq']:,} | {total['generated']:,} |")
    return "\n".join(lines), failures


def failure_tables(failures: list[Declaration], top: int) -> str:
    signature = [d for d in failures if d.parse_error is not None]
    bodies = [d for d in failures if d.parse_error is None and d.body and d.body.error]
    by_token = Counter(token(d.parse_error or "") for d in signature)
    by_reason = Counter(reason(d.parse_error or "") for d in signature)
    examples: dict[str, Declaration] = {}
    for d in signature:
        examples.setdefault(reason(d.parse_error or ""), d)
    out = [f"Signatures that do not parse: {len(signature):,}; values that do not parse (of "
           f"declarations whose signature does): {len(bodies):,}.", "",
           f"By the token the parser stopped at (top {top}):", "",
           "| token | declarations |", "|---|---|"]
    out += [f"| {t.replace('|', '&#124;')} | {n:,} |" for t, n in by_token.most_common(top)]
    out += ["", f"By reason (top {top}), with an example:", "",
            "| reason | declarations | example |", "|---|---|---|"]
    for r, n in by_reason.most_common(top):
        d = examples[r]
        text = r.replace("|", "&#124;")
        out.append(f"| {text} | {n:,} | `{d.name}` ({d.source}) |")
    body_tokens = Counter(token(d.body.error or "") for d in bodies if d.body)
    out += ["", f"Values (def/abbrev/instance) by token (top {min(top, 15)}):", "",
            "| token | values |", "|---|---|"]
    out += [f"| {t.replace('|', '&#124;')} | {n:,} |" for t, n in body_tokens.most_common(min(top, 15))]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--index", type=Path)
    parser.add_argument("--write-docs", action="store_true")
    parser.add_argument("--failures", type=Path)
    parser.add_argument("--top", type=int, default=25)
    args = parser.parse_args()
    index = MathlibIndex(args.index) if args.index else load_index()
    kinds, failures = tables(index)
    c = index.coverage
    header = (f"Index `{index.version}` ({index.path.stat().st_size / 2**20:.1f} MiB), from "
              f"{c.files:,} files; {c.private_skipped:,} `private` declarations skipped; "
              f"{c.translated:,} declarations generated by `@[to_additive]`/`@[to_dual]`; "
              f"{c.lean_core_curated} curated Lean core entries.")
    report = "\n\n".join([header, kinds, failure_tables(failures, args.top)])
    print(report)
    if args.failures:
        args.failures.write_text("".join(
            f"{d.name}\t{d.kind}\t{d.source}\t{d.parse_error or (d.body.error if d.body else '')}\n"
            for d in sorted(failures, key=lambda d: d.name)), encoding="utf-8")
    if args.write_docs:
        text = DOCS.read_text(encoding="utf-8")
        start, end = text.index(BEGIN) + len(BEGIN), text.index(END)
        DOCS.write_text(text[:start] + "\n" + report + "\n" + text[end:], encoding="utf-8")


if __name__ == "__main__":
    main()
