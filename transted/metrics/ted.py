"""``ted``: TED similarity of the two statements' operator trees (ASSESS §3.2).

Both sides are parsed offline (:mod:`transted.opt`) under their own headers, and scored with
``1 - TED / max(|T1|, |T2|)`` (unit-cost Zhang–Shasha, :mod:`transted.ted`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from transted.errors import ParseError
from transted.metrics.base import Metric, PairScore
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
        raise ValueError(f"`field`: the statement has no {field!r} text")
    try:
        if field == "term":
            return Normalized(parse_term(text, opens=header_opens(statement.header),
                                         split_binders=options.split_binders,
                                         canonical_names=options.canonical_names), (), ())
        return parse_statement_normalized(text, header=statement.header, options=options)
    except ParseError as e:
        raise (e.with_source(source) if source else e) from None


class TEDSimilarity(Metric):
    """TED similarity between reference and candidate operator trees.

    Parameters
    ----------
    proposition, split_binders, canonical_names : tree shape, see :class:`~transted.opt.OptOptions`
    field : ``"statement"`` (as written, default), ``"pretty"`` (Lean's pretty-printed form) or
        ``"term"`` (each side is one term, e.g. a proposition)
    backend : TED backend name (all give identical distances; ``edist`` is fastest)
    normalize : elaboration-faithful normalisation (:mod:`transted.opt.normalize`)
    cost : ``"unit"`` (ASSESS) or ``"semantic"`` (:mod:`transted.ted.semantic`: the cost
        table and hypotheses/binders aligned as units, :mod:`transted.ted.hypotheses`)
    """

    name: ClassVar[str] = "ted"
    version: ClassVar[str] = "2"  # 2: normalisation on by default
    DEFAULTS: ClassVar[OptOptions] = OptOptions()

    def __init__(self, *, proposition: bool = DEFAULTS.proposition,
                 split_binders: bool = DEFAULTS.split_binders,
                 canonical_names: bool = DEFAULTS.canonical_names,
                 field: Field = "statement", backend: str = DEFAULT_BACKEND,
                 normalize: bool = DEFAULTS.normalize, cost: str = "unit"):
        if field not in FIELDS:
            raise ValueError(f"`field` must be one of {', '.join(FIELDS)}, got {field!r}")
        if cost not in COSTS:
            raise ValueError(f"`cost` must be one of {', '.join(COSTS)}, got {cost!r}")
        self.tree_options = OptOptions(proposition=proposition, split_binders=split_binders,
                                       canonical_names=canonical_names, normalize=normalize)
        self.field: Field = field
        self.cost_name = cost
        self.ted = TreeEditDistance(backend=backend, cost=make_cost(cost))

    def options(self) -> dict[str, object]:
        return {**tree_fields(self.tree_options, field=self.field), **self.ted.options()}

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
        elaboration of the text as written); a parse error names ``sources``."""
        ref_src, cand_src = sources or (f"{pair.id} reference", f"{pair.id} candidate")
        return (statement_normalized(pair.reference, self.tree_options, field=self.field,
                                     source=ref_src),
                statement_normalized(pair.candidate, self.tree_options, field=self.field,
                                     source=cand_src))
    def costed_edits(self, pair: Pair) -> list[CostedEdit]:
        """The edits behind this pair's distance, each with its cost class and cost
        (:func:`transted.ted.edits.costed_edits`; for ``--explain`` and ``disagreements.md``)."""
        ref, cand = self.trees(pair)
        return costed_edits(ref, cand, cost=self.cost_name)

    def _score(self, pair: Pair) -> PairScore:
        ref, cand, auto = self.trees_with_auto_bound(pair)
        distance, similarity = statement_similarity(self.ted, ref, cand, self.cost_name)
        details: dict[str, object] = {"distance": distance, "size_reference": ref.size(),
                                      "size_candidate": cand.size()}
        if auto:
            details["auto_bound"] = auto
        return PairScore(similarity, details)
