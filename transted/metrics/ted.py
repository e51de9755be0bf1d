"""``ted``: TED similarity of the two statements' operator trees (ASSESS §3.2).

Both sides are parsed offline (:mod:`transted.opt`) under their own headers — extracted from
translator output and read in their context first (:mod:`transted.metrics.sides`) — and scored
with ``1 - TED / max(|T1|, |T2|)`` (unit-cost Zhang–Shasha, :mod:`transted.ted`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from transted.errors import InputError, ParseError, TooDeep
from transted.metrics.base import Metric, PairScore
from transted.metrics.sides import PairTrees, pair_trees
from transted.opt import (
    Node,
    Normalized,
    OptOptions,
    header_opens,
    parse_statement_normalized,
    parse_term,
)
from transted.pairs import Pair, Statement
from transted.signature import tree_fields
from transted.ted import DEFAULT_BACKEND, TreeEditDistance
from transted.ted.edits import CostedEdit, costed_edits
from transted.ted.statement_distance import COSTS, make_cost, statement_similarity
from transted.verdict.conventions import DEFAULT_CONVENTION, convention_rule
from transted.verdict.residual import Entail, residual_edits
from transted.verdict.rules import verdict_field

__all__ = ["TEDSimilarity", "statement_tree"]

Field = Literal["statement", "pretty", "term"]
FIELDS: tuple[str, ...] = ("statement", "pretty", "term")


def statement_tree(statement: Statement, options: OptOptions, *, field: Field = "statement",
                   source: str | None = None) -> Node:
    """OPT of one side of a pair; ``field="pretty"`` uses Lean's pretty-printed text and
    ``field="term"`` reads the statement as one term (a proposition, no declaration)."""
    return statement_tree_normalized(statement, options, field=field, source=source)[0]


def statement_tree_normalized(statement: Statement, options: OptOptions, *,
                              field: Field = "statement", source: str | None = None
                              ) -> tuple[Node, tuple[str, ...]]:
    """:func:`statement_tree` and the auto-bound implicit names of the statement."""
    out = statement_normalized(statement, options, field=field, source=source)
    return out.tree, out.auto_bound


def statement_normalized(statement: Statement, options: OptOptions, *,
                         field: Field = "statement", source: str | None = None) -> Normalized:
    """One side as a :class:`~transted.opt.Normalized`: tree, auto-bound names and the
    elaboration of the text as written (none for ``field="term"``)."""
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


class TEDSimilarity(Metric):
    """TED similarity between reference and candidate operator trees.

    Parameters
    ----------
    proposition, split_binders, canonical_names : tree shape, see :class:`~transted.opt.OptOptions`
    field : ``"statement"`` (as written, default), ``"pretty"`` (Lean's pretty-printed form) or
        ``"term"`` (each side is one term, e.g. a proposition)
    backend : TED backend name (all give identical distances; ``edist`` is fastest)
    theorem : the theorem to take from each candidate text with several (``--theorem NAME``);
        by default the one named like the reference's, else the last (docs/INPUTS.md)
    normalize : elaboration-faithful normalisation (:mod:`transted.opt.normalize`)
    cost : ``"unit"`` (ASSESS) or ``"semantic"`` (:mod:`transted.ted.semantic`: the cost
        table and hypotheses/binders aligned as units, :mod:`transted.ted.hypotheses`)
    convention : ``"strict"`` (mutual provability, default) or ``"lenient"``: which pairs
        the verdict calls equivalent (:mod:`transted.verdict.conventions`; not the score)

    Every result carries ``details["residual"]``: the judged edits between the two trees
    (:mod:`transted.verdict.residual`; no search, no hypothesis entailment here).
    """

    name: ClassVar[str] = "ted"
    version: ClassVar[str] = "2"  # 2: normalisation on by default
    DEFAULTS: ClassVar[OptOptions] = OptOptions()

    def __init__(self, *, proposition: bool = DEFAULTS.proposition,
                 split_binders: bool = DEFAULTS.split_binders,
                 canonical_names: bool = DEFAULTS.canonical_names,
                 field: Field = "statement", backend: str = DEFAULT_BACKEND,
                 normalize: bool = DEFAULTS.normalize, cost: str = "unit",
                 theorem: str | None = None, convention: str = DEFAULT_CONVENTION):
        if field not in FIELDS:
            raise ValueError(f"`field` must be one of {', '.join(FIELDS)}, got {field!r}")
        if cost not in COSTS:
            raise ValueError(f"`cost` must be one of {', '.join(COSTS)}, got {cost!r}")
        if theorem is not None and (not isinstance(theorem, str) or not theorem.strip()):
            raise ValueError(f"`theorem` must be a non-empty name, got {theorem!r}")
        self.theorem = theorem
        self._last: tuple[Pair, tuple[str, str] | None, PairTrees] | None = None
        self.tree_options = OptOptions(proposition=proposition, split_binders=split_binders,
                                       canonical_names=canonical_names, normalize=normalize)
        self.field: Field = field
        self.cost_name = cost
        self.convention = convention_rule(convention).name
        self.ted = TreeEditDistance(backend=backend, cost=make_cost(cost))

    def computation_options(self) -> dict[str, object]:
        """The fields of the tree computation (parser, tree shape, cost, backend)."""
        chosen = {"theorem": self.theorem} if self.theorem is not None else {}
        return {**tree_fields(self.tree_options, field=self.field), **chosen,
                **self.ted.options()}

    def options(self) -> dict[str, object]:
        return {**self.computation_options(), "convention": self.convention,
                "verdict": verdict_field(residual=True)}

    def residual(self, pair: Pair, ref: Node, cand: Node, entail: Entail | None = None
                 ) -> list[dict[str, object]]:
        """The judged residual edits between ``ref`` and ``cand`` (trees of ``pair``, read
        under each side's effective header), as result-line dicts."""
        ref_header, cand_header = self.headers(pair)
        edits = residual_edits(ref, cand, reference_header=ref_header,
                               candidate_header=cand_header, entail=entail)
        renamed = self.pair_trees(pair).renamed if self.field == "statement" else {}
        return [_local_definition_why(e.as_dict(), renamed) for e in edits]

    def headers(self, pair: Pair) -> tuple[str | None, str | None]:
        """Each side's effective header: the pair's, with the open lines its text carried."""
        if self.field == "statement":
            return self.pair_trees(pair).headers
        return pair.reference.header, pair.candidate.header

    def trees(self, pair: Pair, *, sources: tuple[str, str] | None = None) -> tuple[Node, Node]:
        """Both trees; a parse error names ``sources`` (default ``<id> reference``/``candidate``)."""
        return self.trees_with_auto_bound(pair, sources=sources)[:2]  # type: ignore[return-value]

    def trees_with_auto_bound(self, pair: Pair, *, sources: tuple[str, str] | None = None
                              ) -> tuple[Node, Node, dict[str, list[str]]]:
        """Both trees and the auto-bound implicits of each side (sides with none omitted)."""
        ref, cand = self.normalized(pair, sources=sources)
        auto = {k: list(v.auto_bound) for k, v in (("reference", ref), ("candidate", cand))
                if v.auto_bound}
        return ref.tree, cand.tree, auto

    def normalized(self, pair: Pair, *, sources: tuple[str, str] | None = None
                   ) -> tuple[Normalized, Normalized]:
        """Both sides as :class:`~transted.opt.Normalized` (tree, auto-bound names, the
        elaboration each tree was normalised from); a parse error names ``sources``."""
        if self.field == "statement":
            both = self.pair_trees(pair, sources=sources)
            ref_el, cand_el = both.elaborations
            return (Normalized(both.reference, (), tuple(both.auto_bound.get("reference", ())),
                               ref_el),
                    Normalized(both.candidate, (), tuple(both.auto_bound.get("candidate", ())),
                               cand_el))
        ref_src, cand_src = sources or (f"{pair.id} reference", f"{pair.id} candidate")
        return (statement_normalized(pair.reference, self.tree_options, field=self.field,
                                     source=ref_src),
                statement_normalized(pair.candidate, self.tree_options, field=self.field,
                                     source=cand_src))

    def pair_trees(self, pair: Pair, *, sources: tuple[str, str] | None = None) -> PairTrees:
        """Both sides extracted from the text as written and read in their context
        (:func:`transted.metrics.sides.pair_trees`): the trees, auto-bound names, elaborations
        and the ``extraction``/``context`` details. Raises
        :class:`~transted.errors.InvalidCandidate` for a confidently invalid candidate."""
        last = self._last
        if last is not None and last[0] is pair and last[1] == sources:
            return last[2]  # the search, the score and the details read one pair's trees once
        both = pair_trees(pair, self.tree_options, theorem=self.theorem, sources=sources)
        self._last = (pair, sources, both)
        return both

    def input_details(self, pair: Pair) -> dict[str, object]:
        """The ``extraction``/``context`` details of ``pair`` (empty for other fields)."""
        return self.pair_trees(pair).details if self.field == "statement" else {}

    def costed_edits(self, pair: Pair) -> list[CostedEdit]:
        """The edits behind this pair's distance, each with its cost class and cost
        (:func:`transted.ted.edits.costed_edits`; for ``--explain`` and ``disagreements.md``)."""
        ref, cand = self.trees(pair)
        return costed_edits(ref, cand, cost=self.cost_name)

    def _score(self, pair: Pair) -> PairScore:
        inputs: dict[str, object] = {}
        if self.field == "statement":
            both = self.pair_trees(pair)
            ref, cand, auto, inputs = both.reference, both.candidate, both.auto_bound, both.details
        else:
            ref, cand, auto = self.trees_with_auto_bound(pair)
        distance, similarity = statement_similarity(self.ted, ref, cand, self.cost_name)
        details: dict[str, object] = {"distance": distance, "size_reference": ref.size(),
                                      "size_candidate": cand.size()}
        if auto:
            details["auto_bound"] = auto
        details["residual"] = self.residual(pair, ref, cand)
        return PairScore(similarity, {**details, **inputs})


def _local_definition_why(edit: dict[str, object], renamed: dict[str, str]) -> dict[str, object]:
    """A constant edit on a definition of the pair's own text that the two sides define
    differently (``f`` vs ``f′``) is untrusted for that reason, not for being a Mathlib name:
    the definitions may still agree as functions, which the trees cannot tell."""
    names = {*renamed, *renamed.values()}
    heads = {str(t).split(" ")[0] for t in (edit["reference"], edit["candidate"]) if t}
    if edit["class"] == "constant" and heads & names:
        edit["why"] = ("a definition of the pair's text, defined differently on the two sides "
                       "(kept, not unfolded: see details.context): whether the two definitions "
                       "agree is not decided offline")
    return edit
