"""Sim, the DNF-tree similarity of paper 000 (§4, Eq. 1–5) (the ``fol-sim`` metric wraps it).

For trees T1, T2 (:mod:`transted.fol.dnf`) with root-to-leaf paths (root excluded)::

    Sim(T1, T2)       = min(TreeSim(T1, T2), TreeSim(T2, T1))                          (1)
    TreeSim(T1, T2)   = mean_i PathSim(P_i, P_j*(i)) / PathReuse(j*(i))                (2, 3)
    j*(i)             = argmax_j PathSim(P_i, Q_j);  PathReuse(j) = #{k : j*(k) = j}   (4)
    PathSim(P, Q)     = Σ_{n≤X} PenNodeSim(P_n, Q_n) / (X · H(Y))                      (4)
    X = min(|P|, |Q|),  Y = max(|P|, |Q|) − X + 1,  H(Y) = 1 + 1/2 + … + 1/Y
    PenNodeSim        = NodeSim if X = 1 else NodeSim^(1 + α/X),  α = 5               (5)

NodeSim: operators against different operators or against non-operators are 0; NOT–NOT is
1; AND–AND is 1 for AND groups matched to each other and 0.2 otherwise; other nodes use a
:class:`~transted.fol.embeddings.NodeSimilarity` (all-MiniLM-L6-v2 by default). The AND
alignment is exhaustive: every injective matching between the AND groups of the two trees is
tried and the one with the highest Sim is kept. The paper caps this at 5 AND groups per tree
(at most 5! = 120 matchings); past ``max_and_groups`` the pair is an error by default (the
paper excluded such formulas), or with ``over_cap="assign"`` one matching is chosen by a linear
assignment on group-to-group path similarity (not in the paper).

Choices the paper leaves open, fixed here: the matching is chosen for the overall Sim (the
minimum of both directions), since the paper keeps "the matchings that yield the highest
similarity between the two trees"; ties in ``argmax`` go to the least-used path so far, then the
first (so identical trees score 1 even with repeated paths, as §4 states).
``path_matching="hungarian"`` is the Appendix B proposal: paths matched one-to-one by
``scipy.optimize.linear_sum_assignment`` maximising total PathSim, with no reuse; a path left
without a partner (the larger tree) contributes 0.

References
----------
Paper 000, "A Similarity Metric for Evaluating Natural Language to Logic Translation", §4 and
Appendix B.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
from scipy.optimize import linear_sum_assignment

from transted.errors import ParseError, ResourceLimitError
from transted.fol.ast import Formula
from transted.fol.dnf import NOT, DNFOptions, dnf_tree, is_and, is_operator, path_text, tree_paths
from transted.fol.embeddings import NodeSimilarity, make_node_similarity
from transted.fol.syntax import parse_formula
from transted.pipeline.opt.node import Node

__all__ = ["SimOptions", "SimResult", "fol_sim", "sim_trees", "MAX_MATCHINGS"]

MAX_MATCHINGS = 100_000
"""Hard stop on AND matchings tried, whatever ``max_and_groups`` says."""


@dataclass(frozen=True)
class SimOptions:
    """Parameters of Sim (defaults are the paper's).

    Attributes
    ----------
    alpha : float, default=5.0
        Penalty scale α of PenNodeSim (Eq. 5); 0 disables the penalty.
    and_unmatched : float, default=0.2
        NodeSim of two AND nodes that the alignment did not match.
    max_and_groups : int, default=5
        Most AND groups per tree for the exhaustive alignment (the paper's cap).
    over_cap : {"error", "assign"}, default="error"
        Past the cap: raise :class:`ResourceLimitError`, or align AND groups by linear
        assignment (see the module docstring).
    path_matching : {"greedy", "hungarian"}, default="greedy"
        The paper's argmax with PathReuse penalty, or Appendix B's one-to-one assignment.
    dnf : DNFOptions
        How formulas become trees.
    """

    alpha: float = 5.0
    and_unmatched: float = 0.2
    max_and_groups: int = 5
    over_cap: Literal["error", "assign"] = "error"
    path_matching: Literal["greedy", "hungarian"] = "greedy"
    dnf: DNFOptions = field(default_factory=DNFOptions)

    def __post_init__(self) -> None:
        if not isinstance(self.alpha, (int, float)) or not self.alpha >= 0:
            raise ValueError(f"`alpha` must be a number >= 0, got {self.alpha!r}")
        if not isinstance(self.and_unmatched, (int, float)) or not 0 <= self.and_unmatched <= 1:
            raise ValueError(f"`and_unmatched` must be in [0, 1], got {self.and_unmatched!r}")
        if not isinstance(self.max_and_groups, int) or self.max_and_groups < 0:
            raise ValueError(f"`max_and_groups` must be an int >= 0, got {self.max_and_groups!r}")
        if self.over_cap not in ("error", "assign"):
            raise ValueError(f"`over_cap` must be 'error' or 'assign', got {self.over_cap!r}")
        if self.path_matching not in ("greedy", "hungarian"):
            raise ValueError("`path_matching` must be 'greedy' or 'hungarian', "
                             f"got {self.path_matching!r}")


@dataclass
class SimResult:
    """Sim with its components; :meth:`details` renders them as plain data."""

    sim: float
    tree_sim_12: float
    tree_sim_21: float
    paths_1: list[tuple[str, ...]]
    paths_2: list[tuple[str, ...]]
    path_sims: np.ndarray
    """PathSim of every (path of T1, path of T2) under the chosen AND matching."""
    and_matching: list[tuple[str, str]]
    matchings_tried: int
    choice_12: list[int]
    choice_21: list[int]
    path_matching: str

    def _rows(self, sims: np.ndarray, choice: list[int], paths: list[tuple[str, ...]],
              other: list[tuple[str, ...]]) -> list[dict[str, Any]]:
        uses = np.bincount([c for c in choice if c >= 0], minlength=len(other))
        rows = []
        for i, j in enumerate(choice):
            ps = float(sims[i, j]) if j >= 0 else 0.0
            reuse = int(uses[j]) if j >= 0 and self.path_matching == "greedy" else 1
            rows.append({"path": path_text(paths[i]),
                         "match": path_text(other[j]) if j >= 0 else None,
                         "path_sim": ps, "reuse": reuse, "value": ps / reuse})
        return rows

    def details(self, *, per_path: bool = True) -> dict[str, Any]:
        out: dict[str, Any] = {
            "sim": self.sim, "tree_sim_ref_to_cand": self.tree_sim_12,
            "tree_sim_cand_to_ref": self.tree_sim_21,
            "n_paths": [len(self.paths_1), len(self.paths_2)],
            "and_matching": [list(p) for p in self.and_matching],
            "and_matchings_tried": self.matchings_tried, "path_matching": self.path_matching,
        }
        if per_path:
            out["ref_to_cand"] = self._rows(self.path_sims, self.choice_12, self.paths_1,
                                            self.paths_2)
            out["cand_to_ref"] = self._rows(self.path_sims.T, self.choice_21, self.paths_2,
                                            self.paths_1)
        return out


def _harmonic(y: int) -> float:
    return sum(1.0 / k for k in range(1, y + 1))


class _PathTable:
    """PathSim of all path pairs, with the first-level AND–AND term left open (Eq. 4–5)."""

    def __init__(self, p1: list[tuple[str, ...]], p2: list[tuple[str, ...]],
                 node_sim: NodeSimilarity, opts: SimOptions):
        labels1 = sorted({lb for p in p1 for lb in p if not is_operator(lb)})
        labels2 = sorted({lb for p in p2 for lb in p if not is_operator(lb)})
        sims = node_sim.matrix(labels1, labels2)
        idx1 = {lb: k for k, lb in enumerate(labels1)}
        idx2 = {lb: k for k, lb in enumerate(labels2)}
        ands1 = list(dict.fromkeys(p[0] for p in p1 if is_and(p[0])))
        ands2 = list(dict.fromkeys(p[0] for p in p2 if is_and(p[0])))
        self.ands1, self.ands2 = ands1, ands2
        self.group1 = np.array([ands1.index(p[0]) if is_and(p[0]) else -1 for p in p1])
        self.group2 = np.array([ands2.index(p[0]) if is_and(p[0]) else -1 for p in p2])
        n1, n2 = len(p1), len(p2)
        self.base = np.zeros((n1, n2))
        self.denom = np.ones((n1, n2))
        self.pen_matched = np.zeros((n1, n2))
        self.pen_unmatched = np.zeros((n1, n2))
        for i, p in enumerate(p1):
            for j, q in enumerate(p2):
                x = min(len(p), len(q))
                expo = 1.0 if x == 1 else 1.0 + opts.alpha / x
                total = 0.0
                for n in range(x):
                    a, b = p[n], q[n]
                    if is_and(a) and is_and(b):
                        continue  # depends on the AND matching
                    if is_operator(a) or is_operator(b):
                        s = 1.0 if a == b == NOT else 0.0
                    else:
                        s = float(sims[idx1[a], idx2[b]])
                    total += s ** expo
                self.base[i, j] = total
                self.denom[i, j] = x * _harmonic(max(len(p), len(q)) - x + 1)
                self.pen_matched[i, j] = 1.0
                self.pen_unmatched[i, j] = opts.and_unmatched ** expo
        self.both_and = (self.group1[:, None] >= 0) & (self.group2[None, :] >= 0)

    def matrix(self, partner: np.ndarray) -> np.ndarray:
        """PathSim matrix when AND group ``k`` of T1 is matched to ``partner[k]`` (−1: none)."""
        p = np.append(partner, -1)[self.group1]  # group −1 → −1
        matched = self.both_and & (p[:, None] == self.group2[None, :]) & (p[:, None] >= 0)
        extra = np.where(matched, self.pen_matched, np.where(self.both_and, self.pen_unmatched, 0))
        return (self.base + extra) / self.denom


def _greedy(sims: np.ndarray) -> tuple[float, list[int]]:
    """TreeSim (Eq. 2–4) with the PathReuse penalty; ties go to the least-used path."""
    n1, n2 = sims.shape
    uses = np.zeros(n2, dtype=int)
    choice: list[int] = []
    for row in sims:
        best = np.flatnonzero(row >= row.max() - 1e-12)
        j = int(best[np.argmin(uses[best])])
        uses[j] += 1
        choice.append(j)
    values = sims[np.arange(n1), choice] / uses[choice]
    return float(values.mean()), choice


def _hungarian(sims: np.ndarray) -> tuple[float, list[int]]:
    """Appendix B: one-to-one matching maximising total PathSim; unmatched paths give 0."""
    rows, cols = linear_sum_assignment(sims, maximize=True)
    choice = [-1] * sims.shape[0]
    for r, c in zip(rows, cols, strict=True):
        choice[int(r)] = int(c)
    return float(sims[rows, cols].sum() / sims.shape[0]), choice


def _matchings(table: _PathTable, opts: SimOptions) -> list[np.ndarray]:
    """Candidate AND matchings as ``partner`` arrays over T1's groups."""
    m1, m2 = len(table.ands1), len(table.ands2)
    if max(m1, m2) > opts.max_and_groups:
        if opts.over_cap == "error":
            raise ResourceLimitError(
                f"DNF trees have {m1} and {m2} AND groups; `max_and_groups` is "
                f"{opts.max_and_groups} (paper 000 excluded such formulas; "
                "over_cap='assign' aligns them by linear assignment instead)")
        return [_assign_groups(table)]
    count = math.perm(max(m1, m2), min(m1, m2))
    if count > MAX_MATCHINGS:
        raise ResourceLimitError(f"{count} AND matchings to try; the limit is {MAX_MATCHINGS}")
    out = []
    if m1 <= m2:
        for perm in itertools.permutations(range(m2), m1):
            out.append(np.array(perm, dtype=int))
    else:
        for perm in itertools.permutations(range(m1), m2):
            partner = np.full(m1, -1)
            partner[list(perm)] = np.arange(m2)
            out.append(partner)
    return out


def _assign_groups(table: _PathTable) -> np.ndarray:
    """One AND matching: linear assignment on mean best PathSim between groups (both ways)."""
    m1, m2 = len(table.ands1), len(table.ands2)
    full = (table.base + table.pen_matched) / table.denom
    affinity = np.zeros((m1, m2))
    for a in range(m1):
        for b in range(m2):
            block = full[np.ix_(table.group1 == a, table.group2 == b)]
            affinity[a, b] = (block.max(axis=1).mean() + block.max(axis=0).mean()) / 2
    rows, cols = linear_sum_assignment(affinity, maximize=True)
    partner = np.full(m1, -1)
    partner[rows] = cols
    return partner


def sim_trees(tree1: Node, tree2: Node, node_similarity: NodeSimilarity,
              options: SimOptions | None = None) -> SimResult:
    """Sim between two DNF-like trees (Eq. 1), with its components.

    Raises
    ------
    ResourceLimitError
        More AND groups than ``max_and_groups`` with ``over_cap="error"``.
    """
    opts = options or SimOptions()
    p1, p2 = tree_paths(tree1), tree_paths(tree2)
    table = _PathTable(p1, p2, node_similarity, opts)
    tree_sim = _greedy if opts.path_matching == "greedy" else _hungarian
    evaluated = []
    for partner in _matchings(table, opts):
        sims = table.matrix(partner)
        t12, c12 = tree_sim(sims)
        t21, c21 = tree_sim(sims.T)
        evaluated.append((min(t12, t21), t12, t21, sims, c12, c21, partner))
    best = max(evaluated, key=lambda e: e[0])  # the first of equal maxima
    value, t12, t21, sims, c12, c21, partner = best
    pairs = [(table.ands1[a], table.ands2[int(b)]) for a, b in enumerate(partner) if b >= 0]
    return SimResult(value, t12, t21, p1, p2, sims, pairs, len(evaluated), c12, c21,
                     opts.path_matching)


def _as_formula(value: str | Formula, side: str) -> Formula:
    if not isinstance(value, str):
        return value

    try:
        return parse_formula(value)
    except ParseError as e:
        raise e.with_source(side) from None


def fol_sim(reference: str | Formula, candidate: str | Formula, *,
            node_similarity: NodeSimilarity | None = None,
            options: SimOptions | None = None) -> SimResult:
    """Sim between two FOL formulas (text or AST), with the full breakdown.

    Parameters
    ----------
    reference, candidate : str or Formula
        FOLIO/MALLS syntax (quantifiers are removed) or parsed formulas.
    node_similarity : NodeSimilarity, optional
        Defaults to all-MiniLM-L6-v2 (:class:`~transted.fol.embeddings.MiniLMSimilarity`).
    options : SimOptions, optional

    Returns
    -------
    SimResult
        ``.sim`` in [0, 1]; ``.details()`` lists paths, matches, PathSims and reuse counts.

    Examples
    --------
    >>> from transted.fol.embeddings import ExactMatchSimilarity
    >>> fol_sim("P(x) ∧ Q(x)", "Q(x) ∧ P(x)", node_similarity=ExactMatchSimilarity()).sim
    1.0
    """
    opts = options or SimOptions()
    node_similarity = node_similarity or make_node_similarity("minilm")
    t1 = dnf_tree(_as_formula(reference, "reference"), opts.dnf)
    t2 = dnf_tree(_as_formula(candidate, "candidate"), opts.dnf)
    return sim_trees(t1, t2, node_similarity, opts)
