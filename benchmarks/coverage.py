"""Parse coverage on real inputs, every failure classified.

Run: ``python benchmarks/coverage.py [--failures]`` (from the repository root, package on the
path). Data sets, all bundled in tests/data: the 859 miniF2F/ProofNet release statements with
their headers, the 93 GTED pairs, the 240 strict dev pairs (BEq, ProofNet-Verified) and the 166
raw LLM outputs of ``llm_outputs/corpus.jsonl``.

Two paths are measured on each text:

* **today** — the text as the pipeline reads it now: a pair's statement under its header, a raw
  output split by :func:`transted.inputs.split_lean_file` (as ``--candidates`` does), then
  :func:`transted.opt.parse_statement_normalized`;
* **extracted** — :func:`transted.extraction.extract` first: ``invalid`` and ``error`` are its
  answers; an ``ok`` statement is parsed under the header plus the extracted context.

Failures are classified by what the output contains (helper definitions, prose, several
theorems, …) or, for a statement that fails on its own, by the construct our parser lacks.
Classes marked ``invalid`` are answers (not equivalent); every other failure must stay an error.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

from transted.errors import TranstedError
from transted.extraction import Extraction, extract
from transted.inputs import split_lean_file
from transted.opt import parse_statement_normalized

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"

SYNTAX_GAPS = (
    ("syntax: ∀ᶠ/∃ᶠ (Filter.Eventually/Frequently)", re.compile(r"[∀∃]ᶠ")),
    ("syntax: →ᵇ (BoundedContinuousFunction)", re.compile(r"→ᵇ")),
    ("syntax: ⋃/⋂ with several binder groups", re.compile(r"[⋃⋂]\s*\([^()]*\)\s*\(")),
    ("syntax: `let … :=` value ended by a newline", re.compile(r"\blet\b[^\n]*:=[^\n]*\n")),
    ("not Lean: LaTeX command", re.compile(r"\\[a-zA-Z]+")),
)


@dataclass(frozen=True)
class Text:
    dataset: str
    key: str
    text: str
    header: str | None
    raw: bool
    """A raw output (split like ``--candidates``) rather than a pair's statement field."""


def _parse(statement: str, header: str | None) -> str | None:
    """``None`` when the statement parses, else the first line of the error."""
    try:
        parse_statement_normalized(statement, header=header)
    except TranstedError as e:
        return str(e).splitlines()[0]
    return None


def today(item: Text) -> str | None:
    if not item.raw:
        return _parse(item.text, item.header)
    header, statement = split_lean_file(item.text)
    return _parse(statement, header)


def _gap(statement: str, error: str) -> str:
    for name, pattern in SYNTAX_GAPS:
        if pattern.search(statement):
            return name
    return "parser gap: " + re.sub(r"^\d+:\d+: ", "", error)[:70]


def shape_class(ex: Extraction, statement_error: str | None) -> str:
    """What in the output explains a failure of today's path."""
    if statement_error and "U+FEFF" in statement_error:
        return "byte-order mark"
    if ex.status != "ok":
        kind = ex.problem.kind if ex.problem else None
        return f"invalid: {kind}" if ex.status == "invalid" else "no statement: " + ex.reason[:50]
    kinds = {c.kind for c in ex.context if c.kind not in ("import", "open", "set_option")}
    prefixes = {c.kind for c in ex.context if c.only_next}
    for test, name in ((ex.prose or ex.fences, "fences/prose around the code"),
                       (kinds & {"def", "abbrev", "instance", "structure", "class", "inductive"},
                        "helper definition before the theorem"),
                       ("variable" in kinds, "variable line"),
                       ("notation" in kinds, "notation declared in the output"),
                       (kinds & {"namespace", "section"}, "namespace/section"),
                       ("set_option" in prefixes, "set_option … in"),
                       ("open" in prefixes, "open … in"),
                       (ex.other_theorems, "several theorems"),
                       (any("after the statement" in w or "proof is cut off" in w
                             for w in ex.warnings), "cut off after a complete statement"),
                       (kinds, "other command before the theorem (attribute, universe…)")):
        if test:
            return name
    assert ex.theorem is not None
    return _gap(ex.theorem.statement, statement_error or "")


def extracted(item: Text, reference_name: str | None = None) -> tuple[str, str | None, Extraction]:
    """``(outcome, failure class, extraction)``: outcome parsed | invalid | error."""
    ex = extract(item.text, reference_name=reference_name)
    if ex.status != "ok" or ex.theorem is None:
        return ex.status, shape_class(ex, None), ex
    error = _parse(ex.theorem.statement, ex.header(item.header))
    if error is None:
        return "parsed", None, ex
    notation = any(c.kind == "notation" for c in ex.context)
    return "error", ("notation declared in the output" if notation
                     else _gap(ex.theorem.statement, error)), ex


def release_texts() -> list[Text]:
    out = []
    for name in ("minif2f", "proofnet"):
        for i, line in enumerate((DATA / "statements" / f"{name}.jsonl").read_text("utf-8").splitlines()):
            row = json.loads(line)
            out.append(Text(f"statements/{name}", f"{row['name']}#{i}", row["formal_statement"],
                            row["header"], raw=False))
    return out


def pair_texts(path: Path, dataset: str) -> list[tuple[Text, Text]]:
    pairs = []
    for line in path.read_text("utf-8").splitlines():
        obj = json.loads(line)
        ref, cand = (Text(dataset, f"{obj['id']} {side}", obj[side]["statement"],
                          obj[side].get("header"), raw=False)
                     for side in ("reference", "candidate"))
        pairs.append((ref, cand))
    return pairs


def corpus_texts() -> list[tuple[Text, str | None]]:
    rows = [json.loads(line) for line in
            (DATA / "llm_outputs" / "corpus.jsonl").read_text("utf-8").splitlines()]
    return [(Text("llm_outputs", r["id"], r["text"], None, raw=True), r.get("reference_name"))
            for r in rows]


@dataclass
class Tally:
    items: int = 0
    today_failed: int = 0
    outcomes: Counter | None = None
    classes: Counter | None = None

    def __post_init__(self) -> None:
        self.outcomes, self.classes = Counter(), Counter()


def measure(item: Text, tally: Tally, failures: list[str],
            reference_name: str | None = None) -> tuple[str | None, str]:
    """Count one text in ``tally``; return ``(today's error, extracted outcome)``."""
    assert tally.outcomes is not None and tally.classes is not None
    tally.items += 1
    before = today(item)
    outcome, cls, ex = extracted(item, reference_name)
    tally.outcomes[outcome] += 1
    if before is not None:
        tally.today_failed += 1
        tally.classes[("today", shape_class(ex, before))] += 1
        failures.append(f"[today] {item.dataset} {item.key}: {before}")
    if outcome != "parsed":
        tally.classes[(outcome, cls)] += 1
        failures.append(f"[{outcome}] {item.dataset} {item.key}: {cls}")
    return before, outcome


def pair_row(pairs: list[tuple[Text, Text]], tally: Tally, failures: list[str]) -> Counter:
    """Pair-level outcome: today failing, and ok / candidate invalid / error after extraction."""
    rows: Counter = Counter()
    for ref, cand in pairs:
        ref_before, ref_after = measure(ref, tally, failures)
        cand_before, cand_after = measure(cand, tally, failures)
        rows["today failing"] += ref_before is not None or cand_before is not None
        if ref_after == "parsed" and cand_after == "parsed":
            rows["scored"] += 1
        elif ref_after == "parsed" and cand_after == "invalid":
            rows["candidate invalid (answer)"] += 1
        else:
            rows["error"] += 1
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list every failure")
    args = parser.parse_args()
    tallies: dict[str, Tally] = {}
    pair_rows: dict[str, Counter] = {}
    failures: list[str] = []
    for item in release_texts():
        measure(item, tallies.setdefault(item.dataset, Tally()), failures)
    for path, name in ((DATA / "gted" / "proofnet.jsonl", "gted/proofnet"),
                       (DATA / "strict" / "beq_human_dev.jsonl", "strict/beq"),
                       (DATA / "strict" / "proofnet_verified_dev.jsonl", "strict/pnv")):
        pair_rows[name] = pair_row(pair_texts(path, name), tallies.setdefault(name, Tally()),
                                   failures)
    for item, ref_name in corpus_texts():
        measure(item, tallies.setdefault("llm_outputs", Tally()), failures, ref_name)
    print_tables(tallies, pair_rows)
    if args.failures:
        print("\n## Every failure\n")
        print("\n".join(failures))


def print_tables(tallies: dict[str, Tally], pair_rows: dict[str, Counter]) -> None:
    print("## Texts (statements / pair sides / raw outputs)\n")
    print("| data set | texts | today: parsed | today: failed | extracted: parsed | invalid | error |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, t in tallies.items():
        assert t.outcomes is not None
        print(f"| {name} | {t.items} | {t.items - t.today_failed} | {t.today_failed} | "
              f"{t.outcomes['parsed']} | {t.outcomes['invalid']} | {t.outcomes['error']} |")
    print("\n## Pairs\n")
    print("| data set | pairs | today: failing | extracted: scored | candidate invalid | error |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, rows in pair_rows.items():
        total = rows["scored"] + rows["candidate invalid (answer)"] + rows["error"]
        print(f"| {name} | {total} | {rows['today failing']} | {rows['scored']} | "
              f"{rows['candidate invalid (answer)']} | {rows['error']} |")
    print("\n## Failure classes (texts)\n")
    print("| data set | path | class | count |")
    print("|---|---|---|---:|")
    for name, t in tallies.items():
        assert t.classes is not None
        for (path, cls), n in sorted(t.classes.items(), key=lambda kv: (kv[0][0] != "today", -kv[1])):
            print(f"| {name} | {path} | {cls} | {n} |")


if __name__ == "__main__":
    main()
