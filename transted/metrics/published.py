"""Re-score a published baseline from the per-pair values stored with the data.

A pair file may carry ``meta.published_scores.<key>`` (the GTED dev set does for
``identity_match``, ``typecheck``, ``bleu``, ``definitional_equality``, ``beq``,
``majority_vote`` and ``gted``). ``published:<key>`` turns those values back into metric
results, so the agreement harness can recompute a published table row from the published
per-pair outputs (ASSESS Table 3 / GTED). A stored bool becomes 1.0 / 0.0 and its result is
marked ``details.binary = true``, so the harness treats it as a verdict, not a graded score.
"""

from __future__ import annotations

import math
from typing import Any

from transted.errors import InputError
from transted.metrics.base import Metric, PairScore
from transted.reading.pairs import Pair

__all__ = ["PublishedScore"]


class PublishedScore(Metric):
    """The value stored in ``pair.meta["published_scores"][key]``.

    Parameters
    ----------
    key : str
        Which published score to read (e.g. ``"gted"``, ``"beq"``).

    Notes
    -----
    A missing key, or a value that is neither a bool nor a finite number, is an error of that
    pair (score null), never a zero.
    """

    name = "published"
    version = "1"
    binary = False

    def __init__(self, *, key: str):
        if not isinstance(key, str) or not key:
            raise ValueError(f"PublishedScore: `key` must be a non-empty str, got {key!r}")
        self.key = key
        self.name = f"published:{key}"  # type: ignore[misc]  # one registry name per key

    def options(self) -> dict[str, object]:
        return {"key": self.key, "field": "meta.published_scores"}

    def _score(self, pair: Pair) -> PairScore:
        stored: Any = pair.meta.get("published_scores")
        if not isinstance(stored, dict) or self.key not in stored:
            raise InputError(f"pair {pair.id!r}: no `meta.published_scores.{self.key}`")
        value = stored[self.key]
        if isinstance(value, bool):
            return PairScore(value, {"binary": True})
        if isinstance(value, (int, float)) and math.isfinite(value):
            return PairScore(float(value))
        raise InputError(f"pair {pair.id!r}: `meta.published_scores.{self.key}` is {value!r}, "
                         "not a bool or a finite number")
