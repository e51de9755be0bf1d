"""``fol-sim``: the DNF-tree similarity of paper 000 as a metric (:mod:`transted.fol.sim`)."""

from __future__ import annotations

from typing import Literal

from transted.fol.dnf import DNFOptions
from transted.fol.embeddings import NodeSimilarity, make_node_similarity
from transted.fol.sim import SimOptions, fol_sim
from transted.metrics.base import Metric, PairScore
from transted.reading.pairs import Pair

__all__ = ["FOLSim"]


class FOLSim(Metric):
    """``fol-sim``: Sim of paper 000 between the reference and candidate FOL statements.

    Parameters
    ----------
    node_sim : {"minilm", "minilm-words", "char3", "exact"}, default="minilm"
        Node similarity (:func:`~transted.fol.embeddings.make_node_similarity`); ignored when
        ``node_similarity`` is given.
    node_similarity : NodeSimilarity, optional
        A ready object (its ``name`` goes into the signature).
    alpha, and_unmatched, max_and_groups, over_cap, path_matching :
        See :class:`SimOptions`.
    iff_xor, free_variables, max_clauses :
        See :class:`~transted.fol.dnf.DNFOptions`.
    """

    name = "fol-sim"
    version = "1"

    def __init__(self, *, node_sim: str = "minilm", node_similarity: NodeSimilarity | None = None,
                 alpha: float = 5.0, and_unmatched: float = 0.2, max_and_groups: int = 5,
                 over_cap: Literal["error", "assign"] = "error",
                 path_matching: Literal["greedy", "hungarian"] = "greedy",
                 iff_xor: Literal["expand", "reject"] = "expand",
                 free_variables: Literal["short", "none"] = "short", max_clauses: int = 256):
        self.node_similarity = node_similarity or make_node_similarity(node_sim)
        self.sim_options = SimOptions(
            alpha=alpha, and_unmatched=and_unmatched, max_and_groups=max_and_groups,
            over_cap=over_cap, path_matching=path_matching,
            dnf=DNFOptions(iff_xor=iff_xor, free_variables=free_variables,
                           max_clauses=max_clauses))

    def options(self) -> dict[str, object]:
        o = self.sim_options
        return {"node-sim": self.node_similarity.name, "alpha": float(o.alpha),
                "and-unmatched": float(o.and_unmatched), "max-and": o.max_and_groups,
                "over-cap": o.over_cap, "paths": o.path_matching, "iff-xor": o.dnf.iff_xor,
                "free-vars": o.dnf.free_variables, "max-clauses": o.dnf.max_clauses}

    def _score(self, pair: Pair) -> PairScore:
        result = fol_sim(pair.reference.statement, pair.candidate.statement,
                         node_similarity=self.node_similarity, options=self.sim_options)
        return PairScore(result.sim, result.details(per_path=False))
