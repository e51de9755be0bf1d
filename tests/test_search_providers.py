"""The provider protocol, the registry (built-ins + entry points) and the metric composing
several providers."""

from __future__ import annotations

import sys
import types
from importlib import metadata

import pytest

from transted.budget import Budget
from transted.metrics.registry import get_metric
from transted.pipeline.opt.node import Node
from transted.pipeline.search.providers import registry
from transted.pipeline.search.providers.base import Move, MoveProvider, Provider, prepare_start
from transted.pipeline.search.providers.offline import OfflineProvider
from transted.pipeline.search.state import State
from transted.reading.pairs import read_pairs

DEV = "tests/data/gted/proofnet.jsonl"


def test_builtins_are_named_and_satisfy_the_protocol():
    names = registry.provider_names()
    assert names == ["offline", "congruence", "definitional", "numerals", "subst", "rules",
                     "unfold", "lean", "decide", "lemmas"]
    # offline@4: definitional@2 (a sound `let` reduction); offline@3: the subst part;
    # congruence@2: a peeled antecedent stays in the context; unfold@3: type synonyms stay
    # folded (2), a binder typed by a function parameter's domain is inferred (3), ∃! (4)
    versions = {"offline": "4", "congruence": "2", "definitional": "2", "unfold": "4"}
    for name in names[:7]:
        provider = registry.make_provider(name)
        assert isinstance(provider, MoveProvider) and provider.name == name
        assert provider.version == versions.get(name, "1")


def test_provider_names_are_checked():
    assert registry.parse_provider_names("offline, lean") == ("offline", "lean")
    assert registry.parse_provider_names(["rules"]) == ("rules",)
    with pytest.raises(ValueError, match="unknown provider 'coq'.*known: offline"):
        registry.parse_provider_names("offline,coq")
    with pytest.raises(ValueError, match="named twice"):
        registry.parse_provider_names("rules,rules")
    with pytest.raises(ValueError, match="comma-separated"):
        registry.parse_provider_names("offline,")


def test_the_parts_compose_to_offline_move_for_move():
    from transted.metrics.ted import TEDSimilarity

    pair = next(p for p in read_pairs(DEV) if p.id == "proofnet/exercise_1_1b/4")
    state = State(*TEDSimilarity().trees(pair))
    composed = [registry.make_provider(n) for n in ("congruence", "definitional", "subst",
                                                    "numerals", "rules", "unfold")]
    parts = [m for p in composed for m in p.moves(state, Budget())]
    whole = list(OfflineProvider().moves(state, Budget()))
    assert len(whole) > 3 and {m.name for m in whole} >= {"forall_swap"}
    assert [(m.name, m.state.key) for m in parts] == [(m.name, m.state.key) for m in whole]


@pytest.mark.slow
def test_metric_with_the_parts_scores_the_dev_pairs_like_offline():
    pairs = read_pairs(DEV)[:12]
    offline = get_metric("transted", providers="offline")
    parts = get_metric("transted",
                       providers="congruence,definitional,subst,numerals,rules,unfold")
    for pair in pairs:
        a, b = offline.score_pair(pair), parts.score_pair(pair)
        assert (a.score, a.details.get("script")) == (b.score, b.details.get("script")), pair.id
    assert ("provider:congruence@2,definitional@2,subst@1,numerals@1,rules@1,unfold@4"
            in str(parts.signature))
    assert "provider:offline@4|" in str(offline.signature)


def test_provider_alias_and_conflict():
    assert get_metric("transted", provider="both").provider_names == ("lean", "offline")
    with pytest.raises(ValueError, match="not both"):
        get_metric("transted", provider="offline", providers="offline")


def test_handles_are_a_mapping_and_not_identity():
    a, b = Node.from_text("{f{x}}"), Node.from_text("{g}")
    plain, held = State(a, b), State(a, b, handle={"lean": object(), "other": 1})
    assert plain == held and plain.key == held.key and hash(plain) == hash(held)
    assert plain.handle == {} and set(held.handle) == {"lean", "other"}


class ToyProvider(Provider):
    """A third-party provider: swaps the two sides once; counts its lifecycle calls."""

    name, version = "toy", "7"
    events: list[str] = []

    def __init__(self, flavour: str):
        self.flavour = flavour

    @classmethod
    def from_context(cls, context):
        return cls(context.extra.get("flavour", "plain"))

    def open(self):
        ToyProvider.events.append("open")

    def close(self):
        ToyProvider.events.append("close")

    def options(self):
        return {"flavour": self.flavour}

    def prepare(self, pair, start, budget):
        return State(start.lhs, start.rhs, start.context, handle={self.name: "ready"})

    def moves(self, state, budget):
        if state.handle.get(self.name) == "ready":
            yield Move("Eq.comm", "rw [eq_comm]", State(state.rhs, state.lhs, state.context))


@pytest.fixture
def toy_entry_point(monkeypatch):
    module = types.ModuleType("toy_transted_provider")
    module.ToyProvider = ToyProvider  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "toy_transted_provider", module)
    eps = [metadata.EntryPoint("toy", "toy_transted_provider:ToyProvider.from_context",
                               registry.ENTRY_POINT_GROUP),
           metadata.EntryPoint("offline", "elsewhere:Fake", registry.ENTRY_POINT_GROUP)]
    monkeypatch.setattr(registry.metadata, "entry_points",
                        lambda group: [e for e in eps if e.group == group])
    ToyProvider.events.clear()


def test_entry_point_provider_is_found_and_cannot_shadow_a_builtin(toy_entry_point):
    with pytest.warns(UserWarning, match="'offline' is a built-in"):
        names = registry.provider_names()
    assert names[-1] == "toy" and names.count("offline") == 1
    assert isinstance(registry.make_provider("offline"), OfflineProvider)  # built-in wins


def test_metric_composes_a_third_party_provider(toy_entry_point):
    pair = read_pairs(DEV)[0]
    with pytest.warns(UserWarning):
        metric = get_metric("transted", providers="offline,toy",
                            provider_options={"flavour": "sour"})
    sig = str(metric.signature)
    assert "provider:offline@4,toy@7" in sig and "flavour:sour" in sig
    with metric:
        result = metric.score_pair(pair)
    assert result.status == "ok" and ToyProvider.events == ["open", "close"]


def test_a_provider_can_refuse_the_pair():
    class Refuses(Provider):
        name = "refuses"

        def prepare(self, pair, start, budget):
            return None

    start = State(Node("a"), Node("b"))
    assert prepare_start([OfflineProvider(), Refuses()], None, start, Budget()) is None
    assert prepare_start([OfflineProvider()], None, start, Budget()) is start


def test_pyproject_declares_the_builtins_as_entry_points():
    from pathlib import Path

    import tomllib

    data = tomllib.loads((Path(__file__).parents[1] / "pyproject.toml").read_text("utf-8"))
    declared = data["project"]["entry-points"][registry.ENTRY_POINT_GROUP]
    assert declared == registry.BUILTIN_PROVIDERS


def test_transted_own_stale_declaration_of_a_builtin_is_ignored_quietly(monkeypatch, recwarn):
    # an editable install made before `decide` moved to providers/procedures.py still
    # declares the old target: the built-in wins, and nobody is warned about our own metadata
    stale = metadata.EntryPoint("decide", "transted.pipeline.search.providers.decision:Gone",
                                registry.ENTRY_POINT_GROUP)._for(types.SimpleNamespace(name="transted"))
    monkeypatch.setattr(registry.metadata, "entry_points", lambda group: [stale])
    assert registry.provider_names().count("decide") == 1
    assert registry.make_provider("decide").name == "decide"
    assert not [w for w in recwarn if issubclass(w.category, UserWarning)]
