"""The options a metric declares: its constructor's keyword parameters (read with ``inspect``).

``transted metrics`` lists them and ``get_metric`` checks given options against them, so a typo
gets a message naming the metric, the nearest declared option and the full list instead of a
``TypeError`` from the constructor.
"""

from __future__ import annotations

import difflib
import inspect
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["OptionSpec", "declared_options", "check_options"]

_HIDDEN = frozenset({"backend", "embedder"})
"""Parameters that take ready Python objects (tests, the API); no command-line value fits them."""


@dataclass(frozen=True)
class OptionSpec:
    """One declared option: name, default (``inspect.Parameter.empty`` = required), type text."""

    name: str
    default: Any
    annotation: str

    @property
    def required(self) -> bool:
        return self.default is inspect.Parameter.empty

    def describe(self) -> str:
        default = "required" if self.required else f"default {self.default!r}"
        return f"{self.name} ({self.annotation}; {default})"


def declared_options(cls: type) -> dict[str, OptionSpec]:
    """``{name: OptionSpec}`` of ``cls``'s constructor parameters, in declaration order; a
    constructor passing ``**kwargs`` on also declares its base class's parameters."""
    specs: dict[str, OptionSpec] = {}
    for klass in cls.__mro__:
        if "__init__" not in vars(klass) or klass is object:
            continue
        params = list(inspect.signature(vars(klass)["__init__"]).parameters.values())[1:]
        for p in params:
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD) or p.name in specs:
                continue
            annotation = p.annotation if isinstance(p.annotation, str) else getattr(
                p.annotation, "__name__", str(p.annotation))
            specs[p.name] = OptionSpec(p.name, p.default, str(annotation).replace("typing.", ""))
        if not any(p.kind is p.VAR_KEYWORD for p in params):
            break
    return specs


def check_options(metric: str, cls: type, options: Mapping[str, object]) -> None:
    """Raise ``ValueError`` for an option ``cls`` does not declare, suggesting the nearest."""
    specs = declared_options(cls)
    for key in options:
        if key in specs:
            continue
        close = difflib.get_close_matches(key, list(specs), n=1, cutoff=0.6)
        hint = f"; did you mean {close[0]}?" if close else ""
        listed = ", ".join(s for s in specs if s not in _HIDDEN) or "none"
        raise ValueError(f"unknown option {key!r} for metric {metric}{hint} options: {listed}")
