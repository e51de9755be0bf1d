"""``transted``: TransTED similarity, TED after transformations (ASSESS §3.3, Algorithm 1).

A configuration of the pair pipeline (:mod:`transted.pipeline`) with search and evidence:
both statements become operator trees exactly as for ``ted`` (same parser and options), the
goal ``T1 = T2`` is searched best-first with TED as heuristic, and the score is
``1 - d* / max(|T1|, |T2|)`` on the original trees. Since d* ≤ TED(T1, T2), the score is
never below the ``ted`` score of the same pair.

Moves come from the providers named in ``providers`` (registry:
:mod:`transted.pipeline.search.providers.registry`), in that order: ``offline`` (rule file,
congruence, numerals, definitional reductions; no Lean), ``lean`` (``rw?`` and Table 1 in a
Lean REPL, starting from Lean's own elaboration of the equality; if the equality does not
elaborate, Algorithm 1 line 3 falls back to the plain TED), their parts, or a third-party
provider. This metric only composes them; their start-up lives in the providers. The
default is ``offline,lemmas,decide``: the offline rules, Mathlib's rewrite lemmas from the
bundled index (the offline ``rw?``, docs/LEMMAS.md) and closing moves by decision procedures
(:mod:`transted.pipeline.search.providers.procedures`); ``offline,decide`` is the search
without the lemmas.

Semantic evidence (``evidence=True``, the default; docs/EVIDENCE.md): the pair is also given
to :func:`transted.pipeline.evidence.pair_evidence` (refutation by counterexample, then decision;
``assume_reference``: the reference is a theorem). Provider findings (e.g. the Lean
provider's ``plausible`` counterexample) and a goal closed by the search are merged into the
same result fields: ``details["evidence"]`` is ``"proved"``/``"refuted"``/``"none"`` and
``details["evidence_detail"]`` the evidence record. The score follows
:func:`transted.pipeline.evidence.apply_score_rule` (refuted → 0, proved → 1, none → graded); the
graded score stays in ``details["graded_score"]``; the rule is in the signature.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict
from typing import Any, ClassVar

from transted.metrics.base import Metric, MetricResult, PairExplanation, PairScore
from transted.pipeline.config import PipelineConfig
from transted.pipeline.details import search_details
from transted.pipeline.evidence import RefuteOptions, evidence_signature
from transted.pipeline.explain import explanation_lines
from transted.pipeline.opt import OptOptions
from transted.pipeline.records import Distance
from transted.pipeline.run import PairPipeline
from transted.pipeline.search.engine import SearchConfig, SearchResult
from transted.pipeline.search.explain import Explanation, explain
from transted.pipeline.search.providers.base import MoveProvider, provider_label
from transted.pipeline.search.providers.registry import (
    ProviderContext,
    make_providers,
    parse_provider_names,
)
from transted.pipeline.sides import Field
from transted.pipeline.verdict.conventions import DEFAULT_CONVENTION
from transted.pipeline.verdict.rules import verdict_field
from transted.reading.pairs import Pair

__all__ = ["TransTEDSimilarity", "PROVIDERS", "PROVIDER_ALIASES", "DEFAULT_PROVIDERS"]

PROVIDER_ALIASES: dict[str, tuple[str, ...]] = {
    "offline": ("offline",), "lean": ("lean",), "both": ("lean", "offline")}
"""The former closed ``provider`` option, kept as an alias of ``providers``."""
PROVIDERS: tuple[str, ...] = tuple(PROVIDER_ALIASES)
DEFAULT_PROVIDERS = "offline,lemmas,decide"


class TransTEDSimilarity(Metric):
    """TransTED similarity between reference and candidate.

    Parameters
    ----------
    providers : provider names in move order, ``"offline,lemmas,decide"`` (default),
        ``"offline,decide"`` (without the rewrite lemmas), ``"offline,lean"``,
        ``"lean,offline"``, ``"congruence,rules"``, … (a string or a list)
    provider : former spelling: ``offline``, ``lean`` or ``both`` (= ``lean,offline``)
    max_expansions, max_time, queue_cap, max_depth, max_work : search budget
        (:class:`SearchConfig`); ``max_time`` is a hard per-pair deadline: a pair that
        reaches it (or an evidence engine's safety net) ends with ``status: "timeout"``
    rules : path of a rule file (default: the packaged ``rules/offline.yaml``)
    field : ``statement`` or ``pretty`` (as for ``ted``)
    cost : ``"unit"`` (ASSESS: unit-cost TED as heuristic and score) or ``"semantic"`` (the
        semantic cost table with hypotheses and binders aligned as units,
        :mod:`transted.pipeline.ted.statement_distance`), used by the search and the score alike
    project, timeout : Lean project directory and per-request timeout (Lean providers)
    backend : a ready :class:`~transted.pipeline.lean.backend.ReplBackend` (tests: a replay backend)
    provider_options : further settings for third-party providers (their ``options()``
        put what matters into the signature)
    evidence : pair-level semantic evidence (refutation + decision) and its score rule
    assume_reference : the reference is taken as a theorem (a false candidate is refuted)
    evidence_options : the engines' options (:class:`~transted.pipeline.evidence.RefuteOptions`;
        overrides ``assume_reference``)
    theorem : the theorem to take from candidate texts with several (as for ``ted``)
    convention : ``"strict"`` (default) or ``"lenient"``: which pairs the verdict calls
        equivalent (:mod:`transted.pipeline.verdict.conventions`; the score does not change)

    Every result carries ``details["residual"]``: the judged edits left between the best
    goal's two sides (:mod:`transted.pipeline.verdict.residual`), with hypotheses discharged by
    entailment (:mod:`transted.pipeline.evidence.entail`) when ``evidence`` is on; the verdict comes
    from them (:mod:`transted.pipeline.verdict.rules`).

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
        search = SearchConfig(max_expansions=max_expansions, max_time=max_time,
                              queue_cap=queue_cap, max_depth=max_depth, max_work=max_work)
        config = PipelineConfig(tree=OptOptions(), field=field, theorem=theorem, cost=cost,
                                convention=convention, search=search,
                                engines=self.evidence_options if evidence else None)
        context = ProviderContext(rules=rules, project=project, timeout=timeout,
                                  backend=backend, extra=dict(provider_options or {}))
        self.pipeline = PairPipeline(config, make_providers(self.provider_names, context))
        self.convention = config.convention

    @property
    def providers(self) -> list[MoveProvider]:
        """The search's move providers, in move order (the pipeline's; a list one may extend)."""
        return self.pipeline.providers

    # -- lifecycle -------------------------------------------------------------------------
    def open(self) -> None:
        """Open every provider (done on the first pair; idempotent)."""
        self.pipeline.open()

    def close(self) -> None:
        """Close every provider (a Lean server the provider started stops)."""
        self.pipeline.close()

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
        search = self.pipeline.config.search
        assert search is not None  # this configuration always searches
        opts: dict[str, object] = {**self.pipeline.computation_options(),
                                   "provider": [provider_label(p) for p in self.providers],
                                   **{k.replace("_", "-"): v for k, v in asdict(search).items()}}
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
    def _score(self, pair: Pair) -> PairScore:
        analysis = self.pipeline.analyse(pair)
        return PairScore(analysis.score, search_details(analysis), forced=analysis.decision)

    def search(self, pair: Pair, *, sources: tuple[str, str] | None = None
               ) -> tuple[SearchResult, int]:
        """The search result for ``pair`` and max(|T1|, |T2|) of its original trees."""
        result, distance = self._searched(pair, sources)
        return result, max(distance.size_reference, distance.size_candidate)

    def explanation(self, pair: Pair) -> Explanation:
        """Distance, similarity, Lean script and tree diff of the best goal."""
        result, distance = self._searched(pair, None)
        return explain(result, distance.norm, self.pipeline.distance.ted)

    def _searched(self, pair: Pair, sources: tuple[str, str] | None
                  ) -> tuple[SearchResult, Distance]:
        """Stages 1–3 of the pipeline (no evidence)."""
        p = self.pipeline
        budget = p.budget()
        sides = p.read(pair, sources=sources)
        distance = p.measure(sides)
        return p.search(pair, sides, distance, budget), distance

    def explain_pair(self, pair: Pair, result: MetricResult) -> PairExplanation:
        return PairExplanation(self.explanation(pair).renderable(), tuple(explanation_lines(
            self.pipeline, pair, metric=self.name, details=result.details)))
