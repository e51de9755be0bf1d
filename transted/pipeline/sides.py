"""Stage 1 of the pipeline: the two sides of a pair as trees, read as users write them —
extracted from translator output, in their context, with the context's definitions unfolded or
compared — or, for ``field="pretty"``/``"term"``, each side's own text (:func:`read_sides`).

:func:`pair_trees` reads text as written:

1. the reference is extracted (:func:`transted.pipeline.extraction.statement.prepare`) and parsed — if
   either fails the pair is an ``error``: a broken reference is the data set's problem, never
   an answer. ``meta.reference_helper`` (ProofNet-Verified's field: the problem's helper
   definitions) is read before each side's own declarations, on both sides: the candidate was
   written where those helpers exist (it uses ``is_topology`` without defining it), and a side
   that declares a name itself overrides the helper's (it comes later in its context);
2. the candidate is extracted, preferring ``theorem`` or else the reference's theorem name; a
   candidate the extractor finds confidently invalid raises
   :class:`~transted.errors.InvalidCandidate` (status ``invalid``: an answer, not equivalent);
   any other failure, including one of our own parser, is an ``error``;
3. the definitions of the two contexts are compared (:func:`transted.pipeline.opt.unfold.
   definition_tree`, up to the names of their parameters, transitively through the definitions
   they use). One defined alike on both sides and named in both trees is one constant: kept as
   its name on both sides (unfolding it on both would only add the same subtree twice, which
   dilutes TED's measure of what differs); named in one tree only, it is unfolded there, to meet
   the other side's written-out term. Others are unfolded where sound; a kept one (recursive, pattern-matching,
   structures…) that the candidate defines differently from the reference — or that only one
   side defines — is renamed ``f′`` in the candidate's tree, so the two are different constants
   to TED and to the evidence.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Literal

from transted.errors import InputError, InvalidCandidate, ParseError, TooDeep
from transted.pipeline.extraction.model import Extraction
from transted.pipeline.extraction.statement import Prepared, prepare
from transted.pipeline.opt import (
    Normalized,
    OptOptions,
    header_opens,
    parse_statement_normalized,
    parse_term,
)
from transted.pipeline.opt.canonical import canonicalize
from transted.pipeline.opt.context import Context, Definition, read_context
from transted.pipeline.opt.elaborate import Elaboration
from transted.pipeline.opt.in_context import InContext, parse_in_context
from transted.pipeline.opt.node import Node
from transted.pipeline.opt.scope import free_names
from transted.pipeline.opt.unfold import Unfolding, definition_tree, rename_constants
from transted.pipeline.reference_cache import PARSED, PREPARED
from transted.reading.pairs import Pair, Statement

__all__ = ["Field", "FIELDS", "SideReading", "DefinitionComparison", "PairSides", "read_sides",
           "pair_trees", "statement_normalized", "REFERENCE_HELPER", "PRIME"]

Field = Literal["statement", "pretty", "term"]
FIELDS: tuple[str, ...] = ("statement", "pretty", "term")

REFERENCE_HELPER = "reference_helper"
"""``pair.meta`` key of the problem's helper declarations (ProofNet-Verified's field), read
on both sides."""
PRIME = "′"


@dataclass(frozen=True)
class SideReading:
    """One side read: its tree, auto-bound names and elaboration (:class:`Normalized`), the
    header its names resolve under, and — when the text was read as written — what the
    extraction chose and what its context did (definitions unfolded, variables joined)."""

    normalized: Normalized
    header: str | None
    extraction: Extraction | None = None
    unfolding: Unfolding | None = None
    variables: tuple[str, ...] = ()

    @property
    def tree(self) -> Node:
        return self.normalized.tree


@dataclass(frozen=True)
class DefinitionComparison:
    """A definition kept in either tree: whether both sides define it alike, why it was kept
    rather than unfolded, and which sides define it."""

    name: str
    agree: bool
    why_kept: str
    defined_in: tuple[str, ...]


@dataclass(frozen=True)
class PairSides:
    """Both sides of a pair, read (stage 1 of the pipeline)."""

    reference: SideReading
    candidate: SideReading
    renamed: Mapping[str, str]
    """The definitions defined differently on the two sides: the reference's constant → the
    candidate's (``f`` → ``f′``); the candidate's tree and elaboration carry the renames."""
    compared: tuple[DefinitionComparison, ...] = ()
    theorem_requested: bool = False
    """The candidate's theorem was chosen by ``--theorem``."""

    @property
    def trees(self) -> tuple[Node, Node]:
        return self.reference.tree, self.candidate.tree

    @property
    def headers(self) -> tuple[str | None, str | None]:
        """Each side's effective header (the pair's, with the open/namespace lines its text
        carried): the names of each tree resolve under it."""
        return self.reference.header, self.candidate.header

    @property
    def elaborations(self) -> tuple[Elaboration | None, Elaboration | None]:
        """Each side's elaboration (the candidate's carries the ``f′`` renames)."""
        return self.reference.normalized.elaboration, self.candidate.normalized.elaboration

    @property
    def auto_bound(self) -> dict[str, list[str]]:
        """The auto-bound implicit names of each side (sides with none omitted)."""
        return {k: list(v.normalized.auto_bound) for k, v in
                (("reference", self.reference), ("candidate", self.candidate))
                if v.normalized.auto_bound}


def read_sides(pair: Pair, options: OptOptions, *, field: Field = "statement",
               theorem: str | None = None, sources: tuple[str, str] | None = None
               ) -> PairSides:
    """Both sides of ``pair``: as written (``field="statement"``, :func:`pair_trees`), or each
    side's ``pretty`` text, or each side read as one term (:func:`statement_normalized`)."""
    if field == "statement":
        return pair_trees(pair, options, theorem=theorem, sources=sources)
    ref_src, cand_src = sources or (f"{pair.id} reference", f"{pair.id} candidate")
    return PairSides(
        SideReading(statement_normalized(pair.reference, options, field=field, source=ref_src),
                    pair.reference.header),
        SideReading(statement_normalized(pair.candidate, options, field=field, source=cand_src),
                    pair.candidate.header),
        renamed={})


def statement_normalized(statement: Statement, options: OptOptions, *,
                         field: Field = "statement", source: str | None = None) -> Normalized:
    """One side's own text as a :class:`~transted.pipeline.opt.Normalized`: tree, auto-bound names and
    the elaboration of the text as written (none for ``field="term"``)."""
    text = statement.pretty if field == "pretty" else statement.statement
    if text is None:
        where = f"{source}: " if source else ""
        raise InputError(f"{where}field={field} but the statement has no `{field}` text "
                         "(Lean's pretty-printed form); score it with field=statement")
    try:
        if field == "term":
            return Normalized(parse_term(text, opens=header_opens(statement.header),
                                         split_binders=options.split_binders,
                                         canonical_names=options.canonical_names), (), ())
        return parse_statement_normalized(text, header=statement.header, options=options)
    except (ParseError, TooDeep) as e:
        raise (e.with_source(source) if source else e) from None


@dataclass(frozen=True)
class _Side:
    prepared: Prepared
    context: Context
    parsed: InContext


def pair_trees(pair: Pair, options: OptOptions, *, theorem: str | None = None,
               sources: tuple[str, str] | None = None) -> PairSides:
    """Both sides of ``pair`` read as written (see the module docstring); errors name
    ``sources``."""
    ref_src, cand_src = sources or (f"{pair.id} reference", f"{pair.id} candidate")
    helper = pair.meta.get(REFERENCE_HELPER)
    helper = helper if isinstance(helper, str) else None
    ref_prepared, ref_context = _prepare_reference(pair.reference, options, ref_src, helper)
    try:
        cand_prepared, cand_context = _prepare(pair.candidate, options, cand_src,
                                               helper=helper, theorem=theorem,
                                               reference_name=ref_prepared.theorem_name)
    except InvalidCandidate:
        _parse_reference(pair.reference, ref_prepared, ref_context, options, ref_src,
                         frozenset(), helper)
        raise  # an answer only against a reference that parses
    agree = _agreement(ref_context, cand_context)
    shared = frozenset(name for name, ok in agree.items() if ok)
    while True:  # a shared definition only one tree names is unfolded there (it may use others)
        ref = _Side(ref_prepared, ref_context,
                    _parse_reference(pair.reference, ref_prepared, ref_context, options,
                                     ref_src, shared, helper))
        cand = _Side(cand_prepared, cand_context,
                     _parse(pair.candidate, cand_prepared, cand_context, options, cand_src,
                            shared))
        ref_kept, cand_kept = set(ref.parsed.unfolding.kept), set(cand.parsed.unfolding.kept)
        one_sided = shared & (ref_kept ^ cand_kept)
        if not one_sided:
            break
        shared -= one_sided
    renames, compared = _compare(ref, cand, agree)
    cand_tree = rename_constants(cand.parsed.tree, renames)
    cand_elaboration = cand.parsed.elaboration
    if cand_elaboration is not None and renames:
        cand_elaboration = replace(cand_elaboration,
                                   tree=rename_constants(cand_elaboration.tree, renames))
    return PairSides(_reading(ref, ref.parsed.tree, ref.parsed.elaboration),
                     _reading(cand, cand_tree, cand_elaboration),
                     renamed=renames, compared=tuple(compared),
                     theorem_requested=theorem is not None)


def _reading(side: _Side, tree: Node, elaboration: Elaboration | None) -> SideReading:
    parsed = side.parsed
    return SideReading(Normalized(tree, (), tuple(parsed.auto_bound), elaboration),
                       side.prepared.header, side.prepared.extraction, parsed.unfolding,
                       tuple(parsed.variables))


def _prepare_reference(statement: Statement, options: OptOptions, source: str,
                       helper: str | None) -> tuple[Prepared, Context]:
    """:func:`_prepare` of a reference, kept per process (:mod:`transted.pipeline.reference_cache`): what it
    gives depends on the text, header, helper and options alone (``source`` only names errors,
    which are not kept)."""
    key = (statement.statement, statement.header, helper, options)
    return PREPARED.get_or_compute(
        key, lambda: _prepare(statement, options, source, helper=helper))


def _parse_reference(statement: Statement, prepared: Prepared, context: Context,
                     options: OptOptions, source: str, shared: frozenset[str],
                     helper: str | None) -> InContext:
    """:func:`_parse` of a reference (``prepared``/``context`` are its
    :func:`_prepare_reference`), kept per process with the shared definitions in the key."""
    key = (statement.statement, statement.header, helper, options, shared)
    return PARSED.get_or_compute(
        key, lambda: _parse(statement, prepared, context, options, source, shared))


def _prepare(statement: Statement, options: OptOptions, source: str, *,
             helper: str | None = None, theorem: str | None = None,
             reference_name: str | None = None) -> tuple[Prepared, Context]:
    """Extract one side and read its context; a failure raises (positioned, naming it)."""
    prepared = prepare(statement.statement, statement.header, helper=helper, theorem=theorem,
                       reference_name=reference_name)
    ex = prepared.extraction
    if not prepared.ok:
        assert ex.problem is not None
        error = ex.problem.to_error(statement.statement, source=source)
        if ex.status == "invalid" and reference_name is not None:
            raise InvalidCandidate(error.reason, error.text, error.offset,
                                   kind=str(ex.problem.kind), source=source)
        raise error
    try:
        context = read_context(prepared.context, header=prepared.header,
                               split_binders=options.split_binders)
    except ParseError as e:
        raise _in_raw_text(e, statement.statement, prepared).with_source(source) from None
    return prepared, context


def _parse(statement: Statement, prepared: Prepared, context: Context, options: OptOptions,
           source: str, shared: frozenset[str]) -> InContext:
    try:
        return parse_in_context(prepared.statement, header=prepared.header, context=context,
                                options=options, keep=shared)
    except TooDeep as e:
        raise e.with_source(source) from None
    except ParseError as e:
        raise _in_raw_text(e, statement.statement, prepared).with_source(source) from None


def _in_raw_text(error: ParseError, raw: str, prepared: Prepared) -> ParseError:
    """``error`` positioned in the raw text when it is in the extracted statement or in a
    declaration extracted from that text (one of the header's keeps its own text)."""
    parts = [(prepared.statement, prepared.extraction.theorem.span.start
              if prepared.extraction.theorem else 0)]
    parts += [(d.text, d.span.start) for d in prepared.extraction.context]
    for text, start in parts:
        if error.text == text and raw[start:start + len(text)] == text:
            return ParseError(error.reason, raw, start + error.offset)
    return error


def _agreement(ref: Context, cand: Context) -> dict[str, bool]:
    """Each definition of either side: whether both sides define it alike (its tree up to
    parameter names, and every definition it uses alike too)."""
    ref_defs, cand_defs = ref.definitions, cand.definitions
    if not ref_defs and not cand_defs:
        return {}
    agree = {name: (name in ref_defs and name in cand_defs
                    and _same_definition(ref_defs[name], cand_defs[name]))
             for name in set(ref_defs) | set(cand_defs)}
    both = {**ref_defs, **cand_defs}
    changed = True
    while changed:  # a definition that uses a disagreeing one disagrees too
        changed = False
        for name, ok in agree.items():
            if ok and any(not agree[other] for other in _uses(both[name], both)):
                agree[name] = False
                changed = True
    return agree


def _compare(ref: _Side, cand: _Side, agree: dict[str, bool]
             ) -> tuple[dict[str, str], list[DefinitionComparison]]:
    """The definitions kept in either tree: alike on both sides (one constant), or not (the
    candidate's becomes ``f′``)."""
    ref_kept, cand_kept = ref.parsed.unfolding.kept, cand.parsed.unfolding.kept
    renames: dict[str, str] = {}
    compared = []
    for name in sorted(set(ref_kept) | set(cand_kept)):
        d = cand.context.definitions.get(name) or ref.context.definitions[name]
        defined = [side for side, ctx in (("reference", ref.context), ("candidate", cand.context))
                   if name in ctx.definitions]
        why = d.kept_because or "defined alike on both sides: one constant, not unfolded"
        compared.append(DefinitionComparison(name, agree[name], why, tuple(defined)))
        if not agree[name]:
            spellings = cand_kept.get(name) or ref_kept[name]
            renames.update({s: s + PRIME for s in spellings})
    return renames, compared


def _same_definition(a: Definition, b: Definition) -> bool:
    return a.kind == b.kind and canonicalize(definition_tree(a)) == canonicalize(
        definition_tree(b))


def _uses(d: Definition, definitions: Mapping[str, Definition]) -> list[str]:
    names = free_names(definition_tree(d))
    return [k for k, other in definitions.items() if k != d.full_name and (
        other.name in names or k in names)]
