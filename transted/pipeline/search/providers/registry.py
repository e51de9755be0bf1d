"""Provider registry: name → factory, built-ins plus Python entry points.

Built-ins live in :data:`BUILTIN_PROVIDERS` (``module:attr`` strings, imported lazily, so
naming ``offline`` never imports lean-interact). Third parties ship a provider by declaring
an entry point in the group :data:`ENTRY_POINT_GROUP`::

    [project.entry-points."transted.providers"]
    llm-rewrites = "my_package.provider:LLMRewriteProvider.from_context"

The target is a callable ``factory(context: ProviderContext) -> MoveProvider``. The
built-ins are declared as entry points in ``pyproject.toml`` too, but the dict is the
source of truth for them: an install made before a built-in was added (an editable install
whose metadata is stale) still finds it, and an entry point can never shadow a built-in.
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Sequence
from importlib import metadata

from transted.loading import load_reference
from transted.pipeline.search.providers.base import MoveProvider, ProviderContext

__all__ = ["BUILTIN_PROVIDERS", "ENTRY_POINT_GROUP", "ProviderContext", "make_provider",
           "make_providers", "parse_provider_names", "provider_names"]

ENTRY_POINT_GROUP = "transted.providers"

BUILTIN_PROVIDERS: dict[str, str] = {
    "offline": "transted.pipeline.search.providers.offline:OfflineProvider.from_context",
    "congruence": "transted.pipeline.search.providers.offline:CongruenceProvider.from_context",
    "definitional": "transted.pipeline.search.providers.offline:DefinitionalProvider.from_context",
    "numerals": "transted.pipeline.search.providers.offline:NumeralProvider.from_context",
    "subst": "transted.pipeline.search.providers.offline:SubstProvider.from_context",
    "rules": "transted.pipeline.search.providers.offline:RuleProvider.from_context",
    "unfold": "transted.pipeline.search.providers.unfolding:UnfoldProvider.from_context",
    "lean": "transted.pipeline.search.providers.lean:LeanProvider.from_context",
    "decide": "transted.pipeline.search.providers.procedures:DecisionProvider.from_context",
    "lemmas": "transted.pipeline.search.providers.lemmas:LemmaProvider.from_context",
}
"""The providers that ship with transted. ``offline`` = congruence, definitional, subst,
numerals, rules, unfold in that order (the default); ``lemmas`` = the Mathlib rewrite-lemma
table (:mod:`~transted.pipeline.search.lemmas`)."""

Factory = Callable[["ProviderContext"], MoveProvider]


def _entry_points() -> dict[str, metadata.EntryPoint]:
    found: dict[str, metadata.EntryPoint] = {}
    for ep in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if ep.name in BUILTIN_PROVIDERS:
            # transted's own declaration may be stale (an editable install made before a
            # built-in moved): ignored quietly; another distribution's claim is warned about
            ours = ep.dist is not None and ep.dist.name == "transted"
            if ep.value != BUILTIN_PROVIDERS[ep.name] and not ours:
                warnings.warn(f"entry point {ep.name!r} = {ep.value!r} (group "
                              f"{ENTRY_POINT_GROUP}) is ignored: {ep.name!r} is a built-in "
                              f"provider", stacklevel=3)
            continue
        found.setdefault(ep.name, ep)
    return found


def provider_names() -> list[str]:
    """Every provider name: the built-ins in their order, then installed entry points."""
    return list(BUILTIN_PROVIDERS) + sorted(_entry_points())


def parse_provider_names(spec: str | Sequence[str]) -> tuple[str, ...]:
    """``"offline,lean"`` (or a list) → ``("offline", "lean")``; unknown or repeated names
    raise ``ValueError`` naming the name and the known ones."""
    if isinstance(spec, str):
        names = [part.strip() for part in spec.split(",")]
    else:
        names = [str(part).strip() for part in spec]
    if not names or any(not n for n in names):
        raise ValueError(f"`providers` must be a comma-separated list of provider names, got "
                         f"{spec!r}")
    known = set(BUILTIN_PROVIDERS)
    unknown = [n for n in names if n not in known]
    if unknown:
        known |= set(_entry_points())
        unknown = [n for n in unknown if n not in known]
    if unknown:
        raise ValueError(f"`providers`: unknown provider {unknown[0]!r}; known: "
                         f"{', '.join(provider_names())}")
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"`providers`: {repeated[0]!r} is named twice in {spec!r}")
    return tuple(names)


def make_provider(name: str, context: ProviderContext | None = None) -> MoveProvider:
    """Instantiate provider ``name`` (not yet opened) for ``context``."""
    context = context if context is not None else ProviderContext()
    if name in BUILTIN_PROVIDERS:
        factory = load_reference(BUILTIN_PROVIDERS[name])
    else:
        entry = _entry_points().get(name)
        if entry is None:
            raise ValueError(f"unknown provider {name!r}; known: {', '.join(provider_names())}")
        factory = entry.load()
    provider = factory(context)
    if not isinstance(provider, MoveProvider):
        raise TypeError(f"provider {name!r}: factory returned {type(provider).__name__}, which "
                        f"lacks part of the MoveProvider protocol (name, version, open, close, "
                        f"options, prepare, moves)")
    return provider


def make_providers(names: str | Sequence[str], context: ProviderContext | None = None
                   ) -> list[MoveProvider]:
    """Providers for a ``providers`` option, in the given order (their move order)."""
    return [make_provider(n, context) for n in parse_provider_names(names)]
