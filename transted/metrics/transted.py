"""``transted``: TransTED similarity, TED after transformations (ASSESS §3.3, Algorithm 1).

Both statements become operator trees exactly as for ``ted`` (same parser and options), the
goal ``T1 = T2`` is searched best-first with TED as heuristic, and the score is
``1 - d* / max(|T1|, |T2|)`` on the original trees. Since d* ≤ TED(T1, T2), the score is
never below the ``ted`` score of the same pair.

Moves come from the providers named in ``providers`` (registry:
:mod:`transted.search.providers.registry`), in that order: ``offline`` (rule file,
congruence, numerals, definitional reductions; no Lean), ``lean`` (``rw?`` and Table 1 in a
Lean REPL, starting from Lean's own elaboration of the equality; if the equality does not
elaborate, Algorithm 1 line 3 falls back to the plain TED), their parts, or a third-party
provider. This metric only composes them; their start-up lives in the providers. The
default is ``offline,decide``: the offline rules plus closing moves by decision procedures
(:mod:`transted.search.providers.procedures`).

Semantic evidence (``evidence=True``, the default; docs/EVIDENCE.md): the pair is also given
to :func:`transted.evidence.pair_evidence` (refutation by counterexample, then decision;
``assume_reference``: the reference is a theorem). Provider findings (e.g. the Lean
provider's ``plausible`` counterexample) and a goal closed by the search are merged into the
same result fields: ``details["evidence"]`` is ``"proved"``/``"refuted"``/``"none"`` and
``details["evidence_detail"]`` the evidence record. The score follows
:func:`transted.evidence.apply_score_rule` (refuted → 0, proved → 1, none → graded); the
graded score stays in ``details["graded_score"]``; the rule is in the signature.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from functools import partial
from typing import Any, ClassVar

from transted.budget import Budget
from transted.errors import PairTimeout
from transted.evidence import (
    Evidence,
    RefuteOptions,
    apply_score_rule,
    elaboration_details,
    evidence_signature,
    pair_evidence,
    search_blocking_issues,
    search_evidence,
)
from transted.evidence.entail import entails
from transted.metrics.base import Metric, PairScore
from transted.metrics.ted import Field, TEDSimilarity
from transted.opt import Node, Normalized
from transted.pairs import Pair
from transted.search.distance import tree_distance
from transted.search.engine import SearchConfig, SearchResult, search_state
from transted.search.explain import Explanation, explain
from transted.search.providers.base import (
    MoveProvider,
    collect_evidence,
    prepare_start,
    provider_label,
)
from transted.search.providers.registry import (
    ProviderContext,
    make_providers,
    parse_provider_names,
)
from transted.search.state import State
from transted.ted.distance import similarity_from
from transted.ted.statement_distance import statement_distance_function, statement_norm
from transted.verdict.conventions import DEFAULT_CONVENTION
from transted.verdict.residual import Entail
from transted.verdict.rules import verdict_field

__all__ = ["TransTEDSimilarity", "PROVIDERS", "PROVIDER_ALIASES", "DEFAULT_PROVIDERS"]

Sides = tuple[Normalized, Normalized]
"""Reference and candidate: tree, auto-bound names and the elaboration of each as written."""

PROVIDER_ALIASES: dict[str, tuple[str, ...]] = {
    "offline": ("offline",), "lean": ("lean",), "both": ("lean", "offline")}
"""The former closed ``provider`` option, kept as an alias of ``providers``."""
PROVIDERS: tuple[str, ...] = tuple(PROVIDER_ALIASES)
DEFAULT_PROVIDERS = "offline,decide"


class TransTEDSimilarity(Metric):
    """TransTED similarity between reference and candidate.

    Parameters
    ----------
    providers : provider names in move order, ``"offline"`` (default), ``"offline,lean"``,
        ``"lean,offline"``, ``"congruence,rules"``, … (a string or a list)
    provider : former spelling: ``offline``, ``lean`` or ``both`` (= ``lean,offline``)
    max_expansions, max_time, queue_cap, max_depth, max_work : search budget
        (:class:`SearchConfig`); ``max_time`` is a hard per-pair deadline: a pair that
        reaches it (or an evidence engine's safety net) ends with ``status: "timeout"``
    rules : path of a rule file (default: the packaged ``rules/offline.yaml``)
    field : ``statement`` or ``pretty`` (as for ``ted``)
    cost : ``"unit"`` (ASSESS: unit-cost TED as heuristic and score) or ``"semantic"`` (the
        semantic cost table with hypotheses and binders aligned as units,
        :mod:`transted.ted.statement_distance`), used by the search and the score alike
    project, timeout : Lean project directory and per-request timeout (Lean providers)
    backend : a ready :class:`~transted.lean.backend.ReplBackend` (tests: a replay backend)
    provider_options : further settings for third-party providers (their ``options()``
        put what matters into the signature)
    evidence : pair-level semantic evidence (refutation + decision) and its score rule
    assume_reference : the reference is taken as a theorem (a false candidate is refuted)
    evidence_options : the engines' options (:class:`~transted.evidence.RefuteOptions`;
        overrides ``assume_reference``)
    theorem : the theorem to take from candidate texts with several (as for ``ted``)
    convention : ``"strict"`` (default) or ``"lenient"``: which pairs the verdict calls
        equivalent (:mod:`transted.verdict.conventions`; the score does not change)

    Every result carries ``details["residual"]``: the judged edits left between the best
    goal's two sides (:mod:`transted.verdict.residual`), with hypotheses discharged by
    entailment (:mod:`transted.evidence.entail`) when ``evidence`` is on; the verdict comes
    from them (:mod:`transted.verdict.rules`).

    Providers are opened on the first pair and closed by :meth:`close` (or ``with``).
    """

    name: ClassVar[str] = "transted"
    version: ClassVar[str] = "3"  # 3: evidence + score rule, providers offline,decide; 2: normalised trees
    DEFAULTS: ClassVar[SearchConfig] = SearchConfig()

    def __init__(self, *, providers: str | Sequence[str] | None = None,
                 provider: str | None = None,
                 max_expansions: int = DEFAULTS.max_expansions,
                 max_time: float | None = DEFAULTS.max_time,
                 queue_cap: int = DEFAULTS.queue_cap, max_depth: int = DEFAULTS.max_depth,
                 max_work: int | None = DEFAULTS.max_work,
                 rules: str | None = None, field: Field = "statement", cost: str = "unit",
                 project: str | None = None, timeout: float = 60.0, backend: Any = None,
                 provider_options: dict[str, Any] | None = None,
                 evidence: bool = True, assume_reference: bool = True,
                 evidence_options: RefuteOptions | None = None, theorem: str | None = None,
                 convention: str = DEFAULT_CONVENTION):
        if not isinstance(evidence, bool):
            raise ValueError(f"`evidence` must be a bool, got {evidence!r}")
        if not isinstance(assume_reference, bool):
            raise ValueError(f"`assume_reference` must be a bool, got {assume_reference!r}")
        self.evidence = evidence
        self.evidence_options = (evidence_options if evidence_options is not None
                                 else RefuteOptions(assume_reference=assume_reference))
        if provider is not None:
            if providers is not None:
                raise ValueError("give `providers` or its former spelling `provider`, not both")
            if provider not in PROVIDER_ALIASES:
                raise ValueError(f"`provider` must be one of {', '.join(PROVIDERS)}, got "
                                 f"{provider!r}")
            providers = PROVIDER_ALIASES[provider]
        self.provider_names = parse_provider_names(DEFAULT_PROVIDERS if providers is None
                                                   else providers)
        self.config = SearchConfig(max_expansions=max_expansions, max_time=max_time,
                                   queue_cap=queue_cap, max_depth=max_depth, max_work=max_work)
        self.ted = TEDSimilarity(field=field, cost=cost, theorem=theorem, convention=convention)
        self.convention = self.ted.convention
        self.cost_name = cost
        self.distance = statement_distance_function(self.ted.ted, cost)
        self.rules_path = rules
        self.context = ProviderContext(rules=rules, project=project, timeout=timeout,
                                       backend=backend, extra=dict(provider_options or {}))
        self.providers: list[MoveProvider] = make_providers(self.provider_names, self.context)
        self._opened = False

    # -- lifecycle -------------------------------------------------------------------------
    def open(self) -> None:
        """Open every provider (done on the first pair; idempotent)."""
        if not self._opened:
            for provider in self.providers:
                provider.open()
            self._opened = True

    def close(self) -> None:
        """Close every provider (a Lean server the provider started stops)."""
        for provider in reversed(self.providers):
            provider.close()
        self._opened = False

    def __enter__(self) -> TransTEDSimilarity:
        self.open()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def runs_lean(self) -> bool:
        return any(getattr(provider, "runs_lean", False) for provider in self.providers)

    # -- signature ---------------------------------------------------------------------------
    def options(self) -> dict[str, object]:
        opts: dict[str, object] = {**self.ted.computation_options(),
                                   "provider": [provider_label(p) for p in self.providers],
                                   **{k.replace("_", "-"): v
                                      for k, v in asdict(self.config).items()}}
        for provider in self.providers:
            for key, value in provider.options().items():
                if key in opts and opts[key] != value:
                    key = f"{provider.name}.{key}"  # two providers, one option name
                opts[key] = value
        opts["evidence"] = evidence_signature(self.evidence_options) if self.evidence else "off"
        opts["convention"] = self.convention
        opts["verdict"] = verdict_field(residual=True)
        return opts

    # -- scoring -----------------------------------------------------------------------------
    def search(self, pair: Pair) -> tuple[SearchResult, int]:
        """The search result for ``pair`` and max(|T1|, |T2|) of its original trees."""
        result, ref, cand, _budget, _sides = self._search(pair)
        return result, max(ref.size(), cand.size())

    def _search(self, pair: Pair) -> tuple[SearchResult, Node, Node, Budget, Sides]:
        """The search result, the two original trees (parsed once per pair: the score's
        normaliser and the evidence use them too), the pair's budget and both sides with
        their elaborations."""
        budget = self.config.budget()  # the per-pair deadline starts before parsing
        sides = self.ted.normalized(pair)
        ref, cand = sides[0].tree, sides[1].tree
        raw = tree_distance(ref, cand, self.distance)
        self.open()
        start = prepare_start(self.providers, pair, State(ref, cand), budget)
        if start is None:
            # Algorithm 1, line 3: a provider's method does not apply (the equality does not
            # elaborate in Lean) → plain TED
            result = search_state(State(ref, cand), [], config=SearchConfig(max_expansions=0),
                                  raw_distance=raw, ted=self.distance)
        else:
            result = search_state(start, self.providers, config=self.config, raw_distance=raw,
                                  budget=budget, ted=self.distance)
        return result, ref, cand, budget, sides

    def _norm(self, ref: Node, cand: Node) -> float:
        """The similarity's normaliser: max(|T1|, |T2|) under unit cost, the dearer
        statement's deletion cost under ``semantic`` (as ``ted`` with that cost)."""
        return statement_norm(self.ted.ted, self.cost_name, ref, cand)

    def _score(self, pair: Pair) -> PairScore:
        result, ref, cand, budget, sides = self._search(pair)
        self._raise_if_timed_out(budget)
        # the same normalisation and clipping as `ted` (Definition 3), with d* for the TED
        norm = self._norm(ref, cand)
        similarity = similarity_from(result.distance, norm, norm)
        details: dict[str, Any] = {
            "distance": result.distance, "ted_distance": result.start_distance,
            "status": result.status, "script": result.script,
            "expanded": result.stats["expanded"], "size": max(ref.size(), cand.size())}
        ev = self._evidence(sides, result, budget)
        self._raise_if_timed_out(budget)
        issues = elaboration_details(*sides)
        if issues:
            details["elaboration"] = issues
        details["graded_score"] = similarity
        details["evidence"] = ev.kind
        # the engines' time stays off the line: a result line is the same bytes on every run
        details["evidence_detail"] = ev.model_dump(exclude={"ms"})
        details["residual"] = self.ted.residual(pair, result.best.lhs, result.best.rhs,
                                                self._entail(budget))
        self._raise_if_timed_out(budget)  # entailment runs under the same deadline
        scored = apply_score_rule(similarity, ev)
        details.update(self.ted.input_details(pair))  # what was extracted, unfolded, compared
        return PairScore(similarity if scored is None else scored, details)

    def _raise_if_timed_out(self, budget: Budget) -> None:
        """A wall-clock deadline reached anywhere in the pair (the search, a decision inside
        it, the evidence engines) ends it as a timeout: what the work had reached by then
        depends on machine load, and a score must not (:class:`PairTimeout`)."""
        if not budget.deadline_hit:
            return
        if budget.deadline is not None and budget.remaining_time() == 0:
            raise PairTimeout(f"timeout: the pair passed max_time ({self.config.max_time:g} s)")
        o = self.evidence_options
        raise PairTimeout(f"timeout: an evidence engine passed its safety net (budget_ms "
                          f"{o.budget_ms:g} ms, call_timeout_ms {o.call_timeout_ms} ms)")

    def _entail(self, budget: Budget) -> Entail | None:
        """Hypothesis entailment under the pair's budget (None with evidence off)."""
        if not self.evidence:
            return None
        return partial(entails, options=self.evidence_options, budget=budget)

    def _evidence(self, sides: Sides, result: SearchResult, budget: Budget) -> Evidence:
        """Pair-level evidence merged with the providers' findings and the search's proof.

        Definite findings that contradict each other (a soundness bug somewhere) give
        ``none`` with both in the reason, never a definite answer."""
        found: list[Evidence] = []
        notes: list[str] = []
        ms = 0.0
        if self.evidence and budget.remaining_time() == 0:
            notes.append("the pair's deadline (max_time) passed before the evidence engines ran")
        elif self.evidence:
            ref_side, cand_side = (n.elaboration or n.tree for n in sides)
            ev = pair_evidence(ref_side, cand_side, self.evidence_options, budget)
            ms = ev.ms
            if ev.kind != "none":
                found.append(ev)
            elif ev.reason:
                notes.append(ev.reason)
        for p in collect_evidence(self.providers):
            d = dict(p.detail)
            witness, side = d.get("witness"), d.get("failing_side")
            found.append(Evidence(
                kind=p.kind, engine=p.provider,
                witness={str(k): str(v) for k, v in witness.items()}
                if isinstance(witness, dict) else {},
                failing_side=side if side in ("reference", "candidate") else None,
                script=[str(d["tactic"])] if d.get("tactic") else [],
                reason=str(d.get("reason") or d.get("issue") or
                           f"reported by the {p.provider} provider")))
        if result.status == "found":
            blocking = search_blocking_issues(*sides)
            if blocking:
                notes.append(f"the search closed the goal, but {blocking}")
            else:
                found.append(search_evidence(result.script))
        kinds = {e.kind for e in found}
        if len(kinds) > 1:
            why = "; ".join(f"{e.kind} by {e.engine}: {e.reason}" for e in found)
            return Evidence(kind="none", reason=f"conflicting evidence ({why})", ms=ms)
        if found:
            return found[0].model_copy(update={"ms": ms})
        return Evidence(kind="none", reason="; ".join(notes) or
                        ("evidence off" if not self.evidence else "no evidence"), ms=ms)

    def explain(self, pair: Pair) -> Any:
        """A rich renderable: distance, similarity, Lean script, tree diff of the best goal."""
        return self.explanation(pair).renderable()

    def explanation(self, pair: Pair) -> Explanation:
        result, ref, cand, _budget, _sides = self._search(pair)
        return explain(result, self._norm(ref, cand), self.ted.ted)

