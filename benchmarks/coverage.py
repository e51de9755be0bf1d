"""Parse coverage on real inputs, every failure classified.

Run: ``python benchmarks/coverage.py [--failures]`` (from the repository root, package on the
path). Data sets, all bundled in tests/data: the 859 miniF2F/ProofNet release statements with
their headers, the 93 GTED pairs, the 240 strict dev pairs (BEq, ProofNet-Verified) and the 166
raw LLM outputs of ``llm_outputs/corpus.jsonl``.

Each text goes through the pipeline the tree metrics use: extraction
(:func:`transted.pipeline.extraction.statement.prepare`), its context read
(:func:`transted.pipeline.opt.context.read_context`), the statement parsed in it
(:func:`transted.pipeline.opt.in_context.parse_in_context`); each pair through
:meth:`transted.pipeline.PairPipeline.read` (the reference's helper included), whose
outcome is the result status: ``ok`` (scored), ``invalid`` (the candidate is confidently not
Lean 4: an answer, not equivalent) or ``error``.

A failure is classified by what the extractor found (no statement, which invalid rule) or, for
a statement that fails to parse, by the construct the parser lacks. For the corpus, whose lines
record whether the output is valid Lean (``expected.lean``), the table also says how many valid
outputs end as an error (our gaps) and whether any output judged invalid is valid Lean.
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from transted.errors import InvalidCandidate, TranstedError
from transted.metrics.ted import TEDSimilarity
from transted.pipeline.extraction.statement import prepare
from transted.pipeline.opt.context import read_context
from transted.pipeline.opt.in_context import parse_in_context
from transted.reading.pairs import Pair, read_pairs

DATA = Path(__file__).resolve().parent.parent / "tests" / "data"

KNOWN_GAPS = (
    ("not Lean: LaTeX command", re.compile(r"\\[a-zA-Z]+")),
)


@dataclass(frozen=True)
class Text:
    dataset: str
    key: str
    text: str
    header: str | None
    reference_name: str | None = None
    lean: str | None = None
    """The corpus's own judgement of the output (valid / invalid / unknown)."""


def outcome(item: Text) -> tuple[str, str | None]:
    """``(parsed | invalid | error, failure class)`` of one text through the pipeline."""
    prepared = prepare(item.text, item.header, reference_name=item.reference_name)
    ex = prepared.extraction
    if not prepared.ok:
        assert ex.problem is not None
        if ex.status == "invalid":
            return "invalid", f"invalid: {ex.problem.kind}"
        return "error", "no statement: " + re.sub(r" \(found:.*", "", ex.reason)[:60]
    try:
        context = read_context(prepared.context, header=prepared.header)
        parse_in_context(prepared.statement, header=prepared.header, context=context)
    except TranstedError as e:
        return "error", _gap(prepared.statement, str(e))
    return "parsed", None


def _gap(statement: str, error: str) -> str:
    for name, pattern in KNOWN_GAPS:
        if pattern.search(statement):
            return name
    first = error.splitlines()[0]
    return "parser gap: " + re.sub(r"^.*?\d+:\d+: ", "", first)[:80]


def pair_outcome(pair: Pair, metric: TEDSimilarity) -> tuple[str, str | None]:
    """``(ok | invalid | error, failure class)`` of one pair as the tree metrics read it."""
    try:
        metric.pipeline.read(pair)
    except InvalidCandidate as e:
        return "invalid", f"candidate invalid: {e.kind}"
    except TranstedError as e:
        side = "reference" if " reference:" in str(e).splitlines()[0] else "candidate"
        return "error", f"{side}: " + re.sub(r"^.*?\d+:\d+: ", "", str(e).splitlines()[0])[:80]
    return "ok", None


def release_texts() -> list[Text]:
    out = []
    for name in ("minif2f", "proofnet"):
        lines = (DATA / "statements" / f"{name}.jsonl").read_text("utf-8").splitlines()
        for i, line in enumerate(lines):
            row = json.loads(line)
            out.append(Text(f"statements/{name}", f"{row['name']}#{i}", row["formal_statement"],
                            row["header"]))
    return out


def corpus_texts() -> list[Text]:
    rows = [json.loads(line) for line in
            (DATA / "llm_outputs" / "corpus.jsonl").read_text("utf-8").splitlines()]
    return [Text("llm_outputs", r["id"], r["text"], None, r.get("reference_name"),
                 r["expected"].get("lean")) for r in rows]


@dataclass
class Tally:
    outcomes: Counter = field(default_factory=Counter)
    classes: Counter = field(default_factory=Counter)
    valid_as_error: int = 0
    valid_as_invalid: list[str] = field(default_factory=list)


PAIR_SETS = (("gted/proofnet", DATA / "gted" / "proofnet.jsonl"),
             ("strict/beq", DATA / "strict" / "beq_human_dev.jsonl"),
             ("strict/pnv", DATA / "strict" / "proofnet_verified_dev.jsonl"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--failures", action="store_true", help="list every failure")
    args = parser.parse_args()
    texts: dict[str, Tally] = {}
    failures: list[str] = []
    for item in [*release_texts(), *corpus_texts()]:
        tally = texts.setdefault(item.dataset, Tally())
        result, cls = outcome(item)
        tally.outcomes[result] += 1
        if cls is not None:
            tally.classes[(result, cls)] += 1
            failures.append(f"[{result}] {item.dataset} {item.key}: {cls}")
        if item.lean == "valid" and result == "error":
            tally.valid_as_error += 1
        if item.lean == "valid" and result == "invalid":
            tally.valid_as_invalid.append(item.key)
    pairs: dict[str, Tally] = {}
    metric = TEDSimilarity()
    for name, path in PAIR_SETS:
        tally = pairs.setdefault(name, Tally())
        for pair in read_pairs(path):
            result, cls = pair_outcome(pair, metric)
            tally.outcomes[result] += 1
            if cls is not None:
                tally.classes[(result, cls)] += 1
                failures.append(f"[{result}] {name} {pair.id}: {cls}")
    print_tables(texts, pairs)
    if args.failures:
        print("\n## Every failure\n")
        print("\n".join(failures))


def print_tables(texts: dict[str, Tally], pairs: dict[str, Tally]) -> None:
    print("## Texts (statements under their headers; raw LLM outputs)\n")
    print("| data set | texts | parsed | invalid | error |")
    print("|---|---:|---:|---:|---:|")
    for name, t in texts.items():
        print(f"| {name} | {sum(t.outcomes.values())} | {t.outcomes['parsed']} | "
              f"{t.outcomes['invalid']} | {t.outcomes['error']} |")
    corpus = texts.get("llm_outputs")
    if corpus is not None:
        print(f"\nLLM outputs judged valid Lean by the corpus that end as an error: "
              f"{corpus.valid_as_error}; judged invalid by us although valid: "
              f"{len(corpus.valid_as_invalid)} {corpus.valid_as_invalid or ''}")
    print("\n## Pairs (as the tree metrics read them)\n")
    print("| data set | pairs | scored | candidate invalid | error |")
    print("|---|---:|---:|---:|---:|")
    for name, t in pairs.items():
        print(f"| {name} | {sum(t.outcomes.values())} | {t.outcomes['ok']} | "
              f"{t.outcomes['invalid']} | {t.outcomes['error']} |")
    print("\n## Failure classes\n")
    print("| data set | outcome | class | count |")
    print("|---|---|---|---:|")
    for name, t in [*texts.items(), *pairs.items()]:
        for (result, cls), n in sorted(t.classes.items(), key=lambda kv: (kv[0][0], -kv[1])):
            print(f"| {name} | {result} | {cls} | {n} |")


if __name__ == "__main__":
    main()
