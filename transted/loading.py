"""Lazy ``"module:attribute"`` references: the one loader behind every registry; and the real
path of a bundled data file (:func:`bundled_file`, for the SQLite tables opened by path).

The metric registry (``"transted.metrics.ted:TEDSimilarity"``), the provider registry
(``"…offline:OfflineProvider.from_context"``) and the executors' ``MetricSpec`` (a user's
``"package.module:Class"``) name objects by such strings, so naming a metric or a provider
never imports what it does not use (matplotlib, torch, lean-interact).
"""

from __future__ import annotations

import importlib
from contextlib import ExitStack
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["is_reference", "load_reference", "bundled_file"]

_KEEP = ExitStack()  # keeps a zipped package's extracted copies alive for the process


def is_reference(name: str) -> bool:
    """True when ``name`` is written ``module:attribute`` (both parts non-empty)."""
    module_name, sep, attr = name.partition(":")
    return bool(sep and module_name and attr)


def load_reference(reference: str) -> Any:
    """Import the module of ``reference`` and return its (dotted) attribute.

    ``"pkg.mod:Class.factory"`` imports ``pkg.mod`` and returns ``Class.factory``. A string
    without the ``:`` raises ``ValueError``; a missing module or attribute raises the
    ``ImportError`` / ``AttributeError`` that names it.
    """
    if not is_reference(reference):
        raise ValueError(f"expected a 'module:attribute' reference, got {reference!r}")
    module_name, _, attr = reference.partition(":")
    obj: Any = importlib.import_module(module_name)
    for part in attr.split("."):
        obj = getattr(obj, part)
    return obj


def bundled_file(package: str, *parts: str) -> Path:
    """The real file path of ``package``'s data file ``parts`` (extracted once, and kept for
    the process, when the package is installed zipped): SQLite opens a path, not a stream."""
    resource = resources.files(package).joinpath(*parts)
    if isinstance(resource, Path):
        return resource
    return _KEEP.enter_context(resources.as_file(resource))
