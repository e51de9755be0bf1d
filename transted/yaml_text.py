"""YAML data tables (rules, costs, thresholds, notation, instances) read with libyaml's parser.

PyYAML's pure-Python parser took 0.37 s of every process start (measured: the seven bundled
tables), paid again by each worker a pool spawns; ``CSafeLoader`` parses the same documents
with the same safe constructors and resolvers, so the data are the same. Without libyaml
the pure-Python loader is used.
"""

from __future__ import annotations

from typing import Any

import yaml

__all__ = ["safe_load"]

_LOADER: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def safe_load(text: str | bytes) -> Any:
    """``yaml.safe_load(text)``, parsed by libyaml when PyYAML was built with it."""
    return yaml.load(text, Loader=_LOADER)  # noqa: S506 - a safe loader
