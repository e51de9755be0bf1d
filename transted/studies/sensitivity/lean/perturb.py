"""The Lean sensitivity suite: statement pairs labelled by construction (paper 001 §3.1, in Lean 4).

Each generator changes one thing in a statement, edits only that text (the rest stays byte for
byte), and is either *faithful* (label equivalent, justified by a named Lean/Mathlib lemma or
definition, or by alpha-equivalence) or a *meaning change* (label not equivalent, with the
argument why the meaning changes and the textual guards that keep it from changing a
statement into an equivalent one). A generator that finds no site, or only sites its guards
refuse, *discards* the statement with a reason; :func:`generate_suite` counts those reasons.
The guards are stated arguments over the text; where an argument is not a proof, a
:data:`Validator` (the hook for the semantic-evidence engine: ``validate(pair) -> (keep,
reason)``) can discard the pair too, and that is counted separately.

Every generated candidate must parse with our parser under the statement's header; a meaning
change whose tree equals the reference tree (canonical names) is discarded as a bug guard.
Choices are deterministic: one ``random.Random`` seeded with ``"<seed>:<source>:<kind>"``
per (statement, generator), so adding a statement or a generator changes no other pair.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from transted.errors import InputError, TranstedError
from transted.pipeline.opt import OptOptions, parse_statement
from transted.pipeline.opt.spans import declaration_spans
from transted.reading.pairs import Pair, iter_jsonl, write_pairs
from transted.reading.pairs import Statement as PairStatement
from transted.studies.sensitivity.lean import changes as ch
from transted.studies.sensitivity.lean import rewrites as rw
from transted.studies.sensitivity.lean.sites import SpannedStatement

__all__ = ["GENERATOR_VERSION", "GENERATORS", "Generator", "Validator", "Suite",
           "generate_suite", "read_statements", "SourceStatement", "FAITHFUL", "MEANING"]

GENERATOR_VERSION = "2"
"""Bump when any generator can produce a different pair from the same input and seed."""

PROPOSITIONS = ("theorem", "lemma", "example")
"""Declaration keywords whose type is a proposition: the statements the suite perturbs."""

Validator = Callable[[Pair], tuple[bool, str]]
"""The evidence hook: ``validate(pair) -> (keep, reason)``; ``keep=False`` discards the pair
(e.g. the evidence engine proved a meaning change equivalent, or refuted a faithful one)."""


@dataclass(frozen=True)
class Generator:
    kind: str
    label: bool
    """True = the pair is equivalent by construction."""
    justification: str
    make: Callable[[SpannedStatement, random.Random], tuple[str, str]]
    """Returns (candidate text, detail) or raises :class:`~transted.studies.sensitivity.lean.rewrites.Skip`."""


def _g(kind: str, label: bool, make: Callable[[SpannedStatement, random.Random], tuple[str, str]]
       ) -> Generator:
    doc = (make.__doc__ or "").strip()
    return Generator(kind, label, " ".join(doc.split()), make)


FAITHFUL: tuple[Generator, ...] = (
    _g("rename_bound", True, rw.rename_bound),
    _g("reorder_hypotheses", True, rw.reorder_hypotheses),
    _g("flip_relation", True, rw.flip_relation),
    _g("ne_not_eq", True, rw.ne_not_eq),
    _g("curry_conjoin", True, rw.curry_conjoin),
    _g("notation", True, rw.notation),
    _g("namespace", True, rw.namespace),
    _g("commute", True, rw.commute),
    _g("eq_symm", True, rw.eq_symm),
)
MEANING: tuple[Generator, ...] = (
    _g("numeral", False, ch.numeral),
    _g("strictness", False, ch.strictness),
    _g("reverse_relation", False, ch.reverse_relation),
    _g("drop_hypothesis", False, ch.drop_hypothesis),
    _g("add_hypothesis", False, ch.add_hypothesis),
    _g("forall_exists", False, ch.forall_exists),
    _g("and_or", False, ch.and_or),
    _g("imp_iff", False, ch.imp_iff),
    _g("negate_conclusion", False, ch.negate_conclusion),
    _g("change_type", False, ch.change_type),
    _g("swap_operands", False, ch.swap_operands),
)
GENERATORS: dict[str, Generator] = {g.kind: g for g in FAITHFUL + MEANING}
"""Kind → generator, faithful rewrites first."""


@dataclass(frozen=True)
class SourceStatement:
    source: str
    """Stable id of the statement (``<file stem>:<split>:<line>``): the pair's problem group."""
    statement: str
    header: str | None = None


def read_statements(path: str | Path) -> list[SourceStatement]:
    """Statements of a ``tests/data/statements`` file (``formal_statement`` + ``header``).

    Raises :class:`~transted.errors.InputError` naming the file and line of a bad record.
    """

    path = Path(path)
    out = []
    for line, obj in iter_jsonl(path):
        text = obj.get("formal_statement")
        if not isinstance(text, str) or not text.strip():
            raise InputError(f"{path}:{line}: field `formal_statement` is missing or empty")
        header = obj.get("header")
        if header is not None and not isinstance(header, str):
            raise InputError(f"{path}:{line}: field `header` must be a string")
        out.append(SourceStatement(f"{path.stem}:{obj.get('split', '')}:{line}",
                                   text.rstrip(), header))
    return out


@dataclass
class Suite:
    pairs: list[Pair]
    discarded: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(kind, reason) → number of statements the generator discarded; kind ``*`` for a
    statement no generator could read."""
    validated_out: Counter[tuple[str, str]] = field(default_factory=Counter)
    """(kind, reason) → pairs a :data:`Validator` discarded."""
    n_statements: int = 0

    def discard_table(self) -> list[dict[str, object]]:
        rows = [{"kind": k, "reason": r, "n": n, "by": "generator"}
                for (k, r), n in sorted(self.discarded.items())]
        rows += [{"kind": k, "reason": r, "n": n, "by": "validator"}
                 for (k, r), n in sorted(self.validated_out.items())]
        return rows


_TREE = OptOptions(canonical_names=True)


def _tree(text: str, header: str | None) -> object:
    return parse_statement(text, header=header, options=_TREE)


def generate_suite(statements: Iterable[SourceStatement], *, seed: int = 0,
                   kinds: Sequence[str] | None = None, identical: bool = True,
                   validators: Sequence[Validator] = ()) -> Suite:
    """Labelled pairs from every generator applied once to every statement.

    Parameters
    ----------
    kinds : generator kinds to run (default all, in :data:`GENERATORS` order)
    identical : also emit an ``identical`` pair per statement (the self-match row)
    validators : evidence hooks run on each generated pair; a ``False`` discards it

    Pair ids are ``<source>#<kind>``; ``meta.perturbation`` holds ``kind``, ``label``
    (``equivalent``/``not-equivalent``), ``generator`` (version), ``source``, ``detail``,
    ``seed``; ``meta.group`` is the source (grouped cross-validation keys on it).
    """
    chosen = list(GENERATORS) if kinds is None else list(kinds)
    unknown = [k for k in chosen if k not in GENERATORS]
    if unknown:
        raise ValueError(f"`kinds`: unknown generator(s) {unknown}; known: {', '.join(GENERATORS)}")
    suite = Suite([])
    for src in statements:
        suite.n_statements += 1
        try:
            spans = declaration_spans(src.statement, header=src.header)
            ref_tree = _tree(src.statement, src.header)
        except TranstedError:
            suite.discarded[("*", "the reference does not parse")] += 1
            continue
        stmt = SpannedStatement(spans, src.header)
        refused = _unreadable(stmt)
        if refused is not None:
            suite.discarded[("*", refused)] += 1
            continue
        if identical:
            suite.pairs.append(_pair(src, "identical", True, src.statement, "unchanged", seed))
        for kind in chosen:
            gen = GENERATORS[kind]
            try:
                text, detail = gen.make(stmt, random.Random(f"{seed}:{src.source}:{kind}"))
            except rw.Skip as e:
                suite.discarded[(kind, e.reason)] += 1
                continue
            try:
                cand_tree = _tree(text, src.header)
            except TranstedError:
                suite.discarded[(kind, "the candidate does not parse")] += 1
                continue
            if not gen.label and cand_tree == ref_tree:
                suite.discarded[(kind, "the parser sees no change")] += 1
                continue
            pair = _pair(src, kind, gen.label, text, detail, seed)
            verdicts = [v(pair) for v in validators]
            refused = next((reason for keep, reason in verdicts if not keep), None)
            if refused is not None:
                suite.validated_out[(kind, refused)] += 1
                continue
            suite.pairs.append(pair)
    return suite


def _unreadable(stmt: SpannedStatement) -> str | None:
    """Why the generators cannot work on a declaration that parses, or None."""
    if stmt.spans.declaration.keyword not in PROPOSITIONS:
        return "not a theorem (a `def` declares data, not a proposition)"
    if stmt.shadowed:
        return "a used binder name is declared again (the guards read names as text)"
    return None


def _pair(src: SourceStatement, kind: str, label: bool, text: str, detail: str,
          seed: int) -> Pair:
    return Pair(
        id=f"{src.source}#{kind}", label=label,
        reference=PairStatement(statement=src.statement, header=src.header),
        candidate=PairStatement(statement=text, header=src.header),
        meta={"group": src.source,
              "perturbation": {"kind": kind,
                               "label": "equivalent" if label else "not-equivalent",
                               "generator": GENERATOR_VERSION, "source": src.source,
                               "detail": detail, "seed": seed}})


def suite_summary(suite: Suite) -> dict[str, object]:
    """Counts per kind and the discard table (for ``--pairs-out`` companions and reports)."""
    kinds = Counter(p.meta["perturbation"]["kind"] for p in suite.pairs)
    return {"n_statements": suite.n_statements, "generator": GENERATOR_VERSION,
            "pairs_per_kind": dict(kinds), "discarded": suite.discard_table()}


def write_suite(suite: Suite, path: str | Path) -> None:
    """The pairs as ordinary pair JSONL, and ``<path>.discards.json`` beside them."""

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_pairs(suite.pairs, path)
    path.with_suffix(path.suffix + ".discards.json").write_text(
        json.dumps(suite_summary(suite), indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
