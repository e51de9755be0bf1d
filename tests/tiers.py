"""Splitting a parametrized test between the two tiers (see tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pytest


def every_nth_fast(values: Sequence[Any], n: int) -> list[Any]:
    """``values`` as parameters: every ``n``-th (the first included) in the fast tier, the
    others marked ``slow``, so the full tier (``pytest --full``) runs them all."""
    return [v if i % n == 0 else pytest.param(v, marks=pytest.mark.slow)
            for i, v in enumerate(values)]
