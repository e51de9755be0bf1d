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

:class:`LabelledPairs` is the one home of an evaluation's labels: the pairs, each pair's expert
verdict and problem, and the name and digest that identify the data set in reports and
signatures. The evaluation takes it; reading it from a file is the caller's business.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from numpy.typing import NDArray

from transted.errors import InputError
from transted.reading.pairs import Pair, dump_pair

__all__ = ["EPLA_CATEGORIES", "DEFAULT_POSITIVE", "parse_positive", "gold_labels", "problem_group",
           "LabelledPairs", "pairs_digest"]

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


def pairs_digest(pairs: Iterable[Pair]) -> str:
    """First 12 hex digits of the SHA-256 of ``pairs`` as a pair file holds them (one
    :func:`~transted.reading.pairs.dump_pair` line each): the digest of the file they were read from
    when it was written by :func:`~transted.reading.pairs.write_pairs`."""
    h = hashlib.sha256()
    for pair in pairs:
        h.update((dump_pair(pair) + "\n").encode("utf-8"))
    return h.hexdigest()[:12]


@dataclass(frozen=True)
class LabelledPairs:
    """Pairs with their expert verdicts: what an evaluation measures agreement on.

    pairs : the pairs, in order
    labels : the expert verdict of each pair (True = counts as equivalent)
    positive : the EPLA categories counted as equivalent when labelling
    groups : the problem of each pair (:func:`problem_group`; cross-validation folds keep a
        problem together)
    name : how reports and ``summary.json`` name the data (a file's path, as given)
    digest : 12 hex digits naming the data in signatures (a file's SHA-256; see
        :func:`pairs_digest` for pairs in memory)
    """

    pairs: list[Pair]
    labels: NDArray[np.bool_]
    positive: tuple[str, ...]
    groups: list[str]
    name: str
    digest: str

    @classmethod
    def of(cls, pairs: Sequence[Pair], *, positive: Sequence[str] | None = None,
           name: str = "pairs", digest: str | None = None) -> LabelledPairs:
        """Label ``pairs`` (:func:`gold_labels`, ``positive`` default :data:`DEFAULT_POSITIVE`;
        errors name ``name`` and the pair id); ``digest`` defaults to :func:`pairs_digest`."""
        items = list(pairs)
        positive = parse_positive(DEFAULT_POSITIVE if positive is None else positive)
        return cls(items, gold_labels(items, positive=positive, source=name), positive,
                   [problem_group(p) for p in items], name,
                   digest if digest is not None else pairs_digest(items))

    @property
    def file_name(self) -> str:
        """The last part of :attr:`name` (titles)."""
        return Path(self.name).name

    @property
    def n_positive(self) -> int:
        return int(self.labels.sum())
