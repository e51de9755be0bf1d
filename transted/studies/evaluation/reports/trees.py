"""Each pair's operator trees for the reports, computed at most once per report run.

The Markdown disagreements (costed edits) and ``report.html`` (tree diff and costed edits)
draw the same trees: the ``ted`` metric's with its default options. :class:`ReportTrees`
parses a pair's two statements the first time a report asks and hands the same trees to every
later request; a pair whose statements do not parse keeps its error, raised again on each
request, so each report words it its own way.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from transted.errors import TranstedError
from transted.metrics.base import pair_hash
from transted.metrics.ted import TEDSimilarity
from transted.reading.pairs import Pair

if TYPE_CHECKING:
    from transted.metrics.ted import TEDSimilarity
    from transted.pipeline.opt.node import Node

__all__ = ["ReportTrees"]


class ReportTrees:
    """The default ``ted`` trees of each pair, keyed by its id and statements (a parse error
    names the pair's id)."""

    def __init__(self) -> None:
        self._trees: dict[str, tuple[Node, Node] | TranstedError | ValueError] = {}
        self._metric: TEDSimilarity | None = None
        self.parsed = 0
        """How many pairs were parsed (each at most once)."""

    @property
    def metric(self) -> TEDSimilarity:
        """The ``ted`` metric whose trees these are (default options)."""
        if self._metric is None:

            self._metric = TEDSimilarity()
        return self._metric

    def of(self, pair: Pair) -> tuple[Node, Node]:
        """Reference and candidate tree of ``pair``; raises the pair's parse error (a
        :class:`~transted.errors.TranstedError` or ``ValueError``) on every call."""
        key = f"{pair.id}\0{pair_hash(pair)}"
        if key not in self._trees:
            self.parsed += 1
            try:
                self._trees[key] = self.metric.trees(pair)
            except (TranstedError, ValueError) as e:
                self._trees[key] = e
        found = self._trees[key]
        if isinstance(found, Exception):
            raise found
        return found
