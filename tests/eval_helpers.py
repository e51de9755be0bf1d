"""Labelled pairs for the evaluation tests that only need labels and problems."""

from __future__ import annotations

from collections.abc import Sequence

from transted.reading.pairs import Pair, Statement
from transted.studies.evaluation.labels import LabelledPairs


def labelled(labels: Sequence[bool], groups: Sequence[str] | None = None) -> LabelledPairs:
    """One placeholder pair per label; pair ``i`` is its own problem unless ``groups`` says."""
    pairs = [Pair(id=str(i), reference=Statement(statement="theorem r : True := sorry"),
                  candidate=Statement(statement="theorem c : True := sorry"), label=bool(y),
                  meta={"group": groups[i] if groups is not None else str(i)})
             for i, y in enumerate(labels)]
    return LabelledPairs.of(pairs, name="test")
