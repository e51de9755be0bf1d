"""``ted``: TED similarity of the two statements' operator trees (ASSESS §3.2).

Both sides are parsed offline (:mod:`transted.opt`) under their own headers, and scored with
``1 - TED / max(|T1|, |T2|)`` (unit-cost Zhang–Shasha, :mod:`transted.ted`).
"""

from __future__ import annotations

from typing import ClassVar, Literal

from transted.errors import ParseError
from transted.metrics.base import Metric, PairScore
from transted.opt import Node, OptOptions, header_opens, parse_statement, parse_term
from transted.pairs import Pair, Statement
from transted.signature import tree_fields
from transted.ted import DEFAULT_BACKEND, TreeEditDistance

__all__ = ["TEDSimilarity", "statement_tree"]

Field = Literal["statement", "pretty", "term"]
FIELDS: tuple[str, ...] = ("statement", "pretty", "term")


def statement_tree(statement: Statement, options: OptOptions, *, field: Field = "statement",
                   source: str | None = None) -> Node:
    """OPT of one side of a pair; ``field="pretty"`` uses Lean's pretty-printed text and
    ``field="term"`` reads the statement as one term (a proposition, no declaration)."""
    text = statement.pretty if field == "pretty" else statement.statement
    if text is None:
        raise ValueError(f"`field`: the statement has no {field!r} text")
    try:
        if field == "term":
            return parse_term(text, opens=header_opens(statement.header),
                              split_binders=options.split_binders,
                              canonical_names=options.canonical_names)
        return parse_statement(text, header=statement.header, options=options)
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
    """

    name: ClassVar[str] = "ted"
    version: ClassVar[str] = "1"
    DEFAULTS: ClassVar[OptOptions] = OptOptions()

    def __init__(self, *, proposition: bool = DEFAULTS.proposition,
                 split_binders: bool = DEFAULTS.split_binders,
                 canonical_names: bool = DEFAULTS.canonical_names,
                 field: Field = "statement", backend: str = DEFAULT_BACKEND):
        if field not in FIELDS:
            raise ValueError(f"`field` must be one of {', '.join(FIELDS)}, got {field!r}")
        self.tree_options = OptOptions(proposition=proposition, split_binders=split_binders,
                                       canonical_names=canonical_names)
        self.field: Field = field
        self.ted = TreeEditDistance(backend=backend)

    def options(self) -> dict[str, object]:
        return {**tree_fields(self.tree_options, field=self.field), **self.ted.options()}

    def trees(self, pair: Pair, *, sources: tuple[str, str] | None = None) -> tuple[Node, Node]:
        """Both trees; a parse error names ``sources`` (default ``<id> reference``/``candidate``)."""
        ref_src, cand_src = sources or (f"{pair.id} reference", f"{pair.id} candidate")
        ref = statement_tree(pair.reference, self.tree_options, field=self.field, source=ref_src)
        cand = statement_tree(pair.candidate, self.tree_options, field=self.field,
                              source=cand_src)
        return ref, cand

    def _score(self, pair: Pair) -> PairScore:
        ref, cand = self.trees(pair)
        result = self.ted.similarity(ref, cand)
        return PairScore(result.similarity, {"distance": result.distance,
                                             "size_reference": result.size1,
                                             "size_candidate": result.size2})
