"""The pipeline of one Lean pair: its stages in order, under one budget.

:class:`PairPipeline` runs, for one pair,

1. *sides* (:mod:`transted.pipeline.sides`): extraction, context, parse, elaborate, normalise
   → :class:`~transted.pipeline.sides.PairSides`;
2. *distance*: the statement distance between the trees as read → :class:`Distance`;
3. *search* (configurations with a :class:`~transted.pipeline.search.engine.SearchConfig`): best-first
   over the providers' moves → :class:`~transted.pipeline.search.engine.SearchResult`;
4. *evidence* (with a search): the engines' refutation and decision, the providers' findings and
   the search's closed goal merged → :class:`~transted.pipeline.evidence.model.Evidence`;
5. *residual*: the judged edits between the best goal's sides (the trees as read without a
   search), hypotheses discharged by entailment when the engines are on;
6. *decision* (:func:`transted.pipeline.verdict.rules.decide_forced`): definite evidence, else the
   residual edits → :class:`~transted.pipeline.verdict.rules.Decision`, whose verdict is None where the
   edits cannot tell (the metric's shipped fallback threshold then decides,
   :func:`transted.pipeline.verdict.rules.with_threshold`);

and gathers the records in one :class:`~transted.pipeline.records.PairAnalysis`. The per-pair
budget (deterministic work units and the wall-clock deadline) is made here, before the sides
are read, and a deadline reached anywhere ends the pair as a :class:`PairTimeout`.
``ted`` and ``transted`` (:mod:`transted.metrics`) are two configurations of it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from transted.budget import Budget
from transted.errors import PairTimeout
from transted.pipeline.config import PipelineConfig, tree_fields
from transted.pipeline.evidence import RefuteOptions, apply_score_rule
from transted.pipeline.evidence.entail import entails
from transted.pipeline.evidence.model import Evidence
from transted.pipeline.findings import Findings, merged_evidence
from transted.pipeline.opt.elaborate import Issue
from transted.pipeline.opt.node import Node
from transted.pipeline.records import Distance, PairAnalysis, rejected_details
from transted.pipeline.search.distance import tree_distance
from transted.pipeline.search.engine import SearchConfig, SearchResult, search_state
from transted.pipeline.search.providers.base import MoveProvider, prepare_start
from transted.pipeline.search.state import State
from transted.pipeline.sides import PairSides, read_sides
from transted.pipeline.ted.distance import similarity_from
from transted.pipeline.ted.statement_distance import StatementDistance, statement_distance
from transted.pipeline.verdict.rejection import rejection
from transted.pipeline.verdict.residual import Entail, residual_edits
from transted.pipeline.verdict.residual_edit import ResidualEdit
from transted.pipeline.verdict.rules import Decision, decide_forced
from transted.reading.pairs import Pair

__all__ = ["PairPipeline"]


class PairPipeline:
    """The stages of one pair under ``config``, with the move ``providers`` of its search.

    Providers are opened on the first pair (or by :meth:`open`) and closed by :meth:`close`.
    """

    def __init__(self, config: PipelineConfig, providers: Sequence[MoveProvider] = ()):
        self.config = config
        self.distance: StatementDistance = statement_distance(config.cost,
                                                              backend=config.backend)
        self.providers: list[MoveProvider] = list(providers)
        self._opened = False

    # -- lifecycle -------------------------------------------------------------------------
    def open(self) -> None:
        """Open every provider (idempotent)."""
        if not self._opened:
            for provider in self.providers:
                provider.open()
            self._opened = True

    def close(self) -> None:
        """Close every provider (a Lean server a provider started stops)."""
        for provider in reversed(self.providers):
            provider.close()
        self._opened = False

    def computation_options(self) -> dict[str, object]:
        """The signature fields of the tree computation (extraction, parser, tree shape,
        which text, theorem, cost and backend)."""
        c = self.config
        chosen = {"theorem": c.theorem} if c.theorem is not None else {}
        return {**tree_fields(c.tree, field=c.field), **chosen, **self.distance.options()}

    # -- the stages ------------------------------------------------------------------------
    def budget(self) -> Budget | None:
        """A fresh per-pair budget (None without a search: nothing then spends one)."""
        return self.config.search.budget() if self.config.search is not None else None

    def read(self, pair: Pair, *, sources: tuple[str, str] | None = None) -> PairSides:
        """Stage 1: both sides read (a parse error names ``sources``, default
        ``<id> reference``/``<id> candidate``)."""
        c = self.config
        return read_sides(pair, c.tree, field=c.field, theorem=c.theorem, sources=sources)

    def measure(self, sides: PairSides) -> Distance:
        """Stage 2: the statement distance between the trees as read."""
        ref, cand = sides.trees
        raw = tree_distance(ref, cand, self.distance.goal_distance)
        norm = self.distance.norm(ref, cand)
        return Distance(raw, similarity_from(float(raw), norm, norm), norm, ref.size(),
                        cand.size())

    def search(self, pair: Pair, sides: PairSides, distance: Distance,
               budget: Budget | None) -> SearchResult:
        """Stage 3: the best-first search from the goal ``reference = candidate``; a
        provider that refuses the pair (Lean cannot elaborate the equality: ASSESS
        Algorithm 1, line 3) leaves the plain distance."""
        if self.config.search is None:
            raise ValueError("this pipeline has no search (`search` is None)")
        start = State(*sides.trees)
        ted = self.distance.goal_distance
        self.open()
        prepared = prepare_start(self.providers, pair, start, budget or Budget())
        if prepared is None:
            return search_state(start, [], config=SearchConfig(max_expansions=0),
                                raw_distance=distance.distance, ted=ted)
        return search_state(prepared, self.providers, config=self.config.search,
                            raw_distance=distance.distance, budget=budget, ted=ted)

    def evidence(self, sides: PairSides, result: SearchResult, budget: Budget) -> Findings:
        """Stage 4: the pair's evidence (:func:`~transted.pipeline.findings.merged_evidence`)."""
        return merged_evidence(sides, result, self.providers, self.config.engines, budget)

    def residual(self, sides: PairSides, goal: tuple[Node, Node],
                 entail: Entail | None = None) -> tuple[ResidualEdit, ...]:
        """Stage 5: the judged edits between the goal's two sides, read under each side's
        header; the definitions the two sides define differently are named as such."""
        ref_header, cand_header = sides.headers
        return tuple(residual_edits(goal[0], goal[1], reference_header=ref_header,
                                    candidate_header=cand_header, entail=entail,
                                    redefined=sides.renamed))

    def entail(self, budget: Budget) -> Entail | None:
        """Hypothesis entailment under the pair's budget (None with the engines off)."""
        engines = self.config.engines
        return None if engines is None else partial(entails, options=engines, budget=budget)

    # -- the pair ----------------------------------------------------------------------------
    def analyse(self, pair: Pair) -> PairAnalysis:
        """Every stage of ``pair``."""
        budget = self.budget()  # the per-pair deadline starts before the sides are read
        sides = self.read(pair)
        distance = self.measure(sides)
        rejected = self.rejected(sides)
        if self.config.search is None or budget is None:
            residual = self.residual(sides, sides.trees)
            return PairAnalysis(sides, distance, None, None, residual, distance.similarity,
                                distance.similarity, self._decision(None, residual, rejected),
                                rejected)
        result = self.search(pair, sides, distance, budget)
        self._check_deadline(budget)
        graded = similarity_from(result.distance, distance.norm, distance.norm)
        findings = self.evidence(sides, result, budget)
        evidence = findings.evidence
        self._check_deadline(budget)
        residual, decision = self.judged(sides, result, findings, budget, rejected)
        self._check_deadline(budget)  # entailment runs under the same deadline
        scored = apply_score_rule(graded, evidence)
        return PairAnalysis(sides, distance, result, evidence, residual,
                            graded if scored is None else scored, graded, decision, rejected)

    def judged(self, sides: PairSides, result: SearchResult, findings: Findings,
               budget: Budget, rejected: Issue | None = None
               ) -> tuple[tuple[ResidualEdit, ...], Decision]:
        """Stages 5 and 6 after a search: the residual edits and the decision they force.

        The edits of the best goal decide, except where the search's own moves took away
        what the trees as read could tell: when definite findings contradicted each other (a
        move may be unsound, so its goal is not judged), when the goal's edits only fall
        back to the threshold while the trees' edits decide (a rewrite into a constant the
        residual cannot judge, e.g. ``Set.Icc``, must not hide a dropped conjunct), and when
        the goal's edits leave a meaning edit while the trees' leave none (the moves are sound,
        so the two goals state one theorem: ``and_imp`` and ``lt_min_iff`` turn an added
        hypothesis ``0 < y``, discharged by entailment as read, into ``0 < min x y``)."""
        evidence = findings.evidence
        entail = self.entail(budget)
        start = sides.trees
        goal = (result.best.lhs, result.best.rhs)
        if findings.conflict or goal == start:
            residual = self.residual(sides, start, entail)
            return residual, self._decision(evidence, residual, rejected)
        residual = self.residual(sides, goal, entail)
        decision = self._decision(evidence, residual, rejected)
        undecided = decision.verdict is None
        if undecided or (decision.decided_by, decision.verdict) == ("edits", "not-equivalent"):
            as_read = self.residual(sides, start, entail)
            decided = self._decision(evidence, as_read, rejected)
            if decided.verdict == "equivalent" or (undecided and decided.verdict is not None):
                return as_read, decided
        return residual, decision

    def _decision(self, evidence: Evidence | None, residual: tuple[ResidualEdit, ...],
                  rejected: Issue | None) -> Decision:
        return decide_forced(evidence.kind if evidence else None, residual,
                             convention=self.config.convention,
                             rejected=rejected_details(rejected),
                             evidence_reason=evidence.reason if evidence else None)

    @staticmethod
    def rejected(sides: PairSides) -> Issue | None:
        """The issue that makes Lean reject the candidate, when the reference elaborates."""
        ref, cand = sides.elaborations
        return rejection(cand) if rejection(ref) is None else None

    def _check_deadline(self, budget: Budget) -> None:
        """A wall-clock deadline reached anywhere in the pair (the search, a decision inside
        it, the evidence engines) ends it as a timeout: what the work had reached by then
        depends on machine load, and a score must not (:class:`PairTimeout`)."""
        if not budget.deadline_hit:
            return
        if budget.deadline is not None and budget.remaining_time() == 0:
            max_time = self.config.search.max_time if self.config.search else None
            raise PairTimeout(f"timeout: the pair passed max_time ({max_time:g} s)")
        o = self.config.engines or RefuteOptions()
        raise PairTimeout(f"timeout: an evidence engine passed its safety net (budget_ms "
                          f"{o.budget_ms:g} ms, call_timeout_ms {o.call_timeout_ms} ms)")
