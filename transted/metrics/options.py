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
    """``{name: OptionSpec}`` of ``cls.__init__``'s named parameters, in declaration order."""
    specs: dict[str, OptionSpec] = {}
    for p in inspect.signature(cls).parameters.values():
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        annotation = p.annotation if isinstance(p.annotation, str) else getattr(
            p.annotation, "__name__", str(p.annotation))
        specs[p.name] = OptionSpec(p.name, p.default, str(annotation).replace("typing.", ""))
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
