"""Expert labels as booleans, including EPLA's five categories.

EPLA (ASSESS §4.1) annotates each pair with one of five categories:

=====  ====================================================
(a)    mutually provable & like
(b)    mutually provable & unlike
(c)    mutually unprovable & like
(d)    mutually unprovable & like* (like after semantics-preserving transformations)
(e)    mutually unprovable & unlike
=====  ====================================================

ASSESS counts (a) and (b) as equivalent; a human-in-the-loop setting may accept (a)–(d).
A pair that carries ``meta.epla_category`` is labelled by whether its category is in the
chosen positive set; otherwise its boolean ``label`` is used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np
from numpy.typing import NDArray

from transted.errors import InputError
from transted.pairs import Pair

__all__ = ["EPLA_CATEGORIES", "DEFAULT_POSITIVE", "parse_positive", "gold_labels", "problem_group"]

EPLA_CATEGORIES = ("a", "b", "c", "d", "e")
DEFAULT_POSITIVE = ("a", "b")


def parse_positive(spec: str | Iterable[str]) -> tuple[str, ...]:
    """``"a,b"`` or ``["a", "b"]`` → ``("a", "b")``; unknown categories raise ``ValueError``."""
    items = spec.split(",") if isinstance(spec, str) else list(spec)
    cats = tuple(sorted({c.strip().strip("()").lower() for c in items if c.strip()}))
    bad = [c for c in cats if c not in EPLA_CATEGORIES]
    if bad or not cats:
        raise ValueError(f"`positive` must list EPLA categories among {EPLA_CATEGORIES}, "
                         f"got {spec!r}")
    return cats


def gold_labels(pairs: Sequence[Pair], *, positive: Sequence[str] = DEFAULT_POSITIVE,
                source: str = "pairs") -> NDArray[np.bool_]:
    """The expert verdict of each pair (True = counts as equivalent).

    Raises
    ------
    InputError
        A pair with neither ``meta.epla_category`` nor ``label``, or an unknown category;
        the message names ``source`` and the pair id.
    """
    positive = parse_positive(positive)
    out = np.zeros(len(pairs), dtype=bool)
    for i, pair in enumerate(pairs):
        category = pair.meta.get("epla_category")
        if category is not None:
            cat = str(category).strip().strip("()").lower()
            if cat not in EPLA_CATEGORIES:
                raise InputError(f"{source}: pair {pair.id!r}: `meta.epla_category` is "
                                 f"{category!r}, not one of {EPLA_CATEGORIES}")
            out[i] = cat in positive
        elif pair.label is not None:
            out[i] = pair.label
        else:
            raise InputError(f"{source}: pair {pair.id!r} has no `label` and no "
                             "`meta.epla_category`; cannot measure agreement on it")
    return out


def problem_group(pair: Pair) -> str:
    """The problem a pair belongs to: ``meta.group`` if set, else its reference statement
    (whitespace-normalised, with its header) — pairs sharing a reference share a problem."""
    group = pair.meta.get("group")
    if group is not None:
        return str(group)
    ref = pair.reference
    return " ".join((ref.header or "").split()) + "\n" + " ".join(ref.statement.split())
