"""Tree edit distance and TED similarity (ASSESS §3.2, Definitions 2 and 3).

:class:`TreeEditDistance` binds a backend and a cost model and memoises distances in a
small LRU, so the transformation search, which re-scores the same tree pairs many times,
pays for each pair once. :func:`ted_similarity` is the one-call form returning a
:class:`TEDResult`.

The memo has two levels. The first is keyed by the identity of the two ``Node`` objects
(and keeps them alive, so an id is never reused while its entry exists): a hit costs a dict
look-up. The second is keyed by the bracket-notation text of the trees, so equal trees built
separately share an entry; it is not keyed by the ``Node`` values because ``Node.__hash__``
and ``__eq__`` recurse (a 5000-deep tree would overflow) while ``str(node)`` is iterative.
``benchmarks/bench_ted.py`` measures both.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, NamedTuple

from edist.ted import standard_ted, standard_ted_backtrace, ted_backtrace

from transted.pipeline.opt.node import Flat, Node, flatten
from transted.pipeline.ted.backends import (
    DEFAULT_BACKEND,
    EdistBackend,
    TEDBackend,
    check_cost,
    edist_delta,
    get_backend,
)
from transted.pipeline.ted.bounds import TEDBounds, estimate
from transted.pipeline.ted.cost import CostModel, UnitCost
from transted.signature import Signature

__all__ = ["TreeEditDistance", "TEDResult", "CacheInfo", "ted_similarity", "similarity_from"]

TED_VERSION = "1"
"""Version of the TED similarity computation; bump when scores can change."""


class CacheInfo(NamedTuple):
    hits: int
    misses: int
    maxsize: int
    currsize: int


@dataclass(frozen=True)
class TEDResult:
    """TED between two trees and the similarity it gives.

    Attributes
    ----------
    distance : the tree edit distance d(T1, T2)
    size1, size2 : |T1| and |T2| (node counts)
    similarity : ``1 - d / max(|T1|, |T2|)``, clipped to [0, 1] (see :func:`similarity_from`)
    backend : the backend that computed ``distance`` (``name-version``)
    signature : how the result was made (metric, version, options, backend)
    """

    distance: float
    size1: int
    size2: int
    similarity: float
    backend: str
    signature: str

    def as_dict(self) -> dict[str, Any]:
        return {"distance": self.distance, "size1": self.size1, "size2": self.size2,
                "similarity": self.similarity, "backend": self.backend,
                "signature": self.signature}


def similarity_from(distance: float, size1: float, size2: float) -> float:
    """TED similarity ``1 - d / max(|T1|, |T2|)`` (ASSESS §3.2, Definition 3), in [0, 1];
    under a non-unit cost the sizes are the trees' deletion costs (the one formula for every
    cost model and for whole-statement distances).

    ASSESS states the value lies in [0, 1], but under unit costs d can exceed
    ``max(|T1|, |T2|)`` when the shapes differ (a chain of n nodes against a star of n nodes
    has d = 2n - 4), so the value is clipped at 0; the raw distance stays in
    :class:`TEDResult`. GTED does not clip (its published score for the dev pair
    ``exercise_20_2/73`` is -0.053: d = 20 on trees of 19 and 17 nodes).
    """
    if size1 <= 0 or size2 <= 0:
        raise ValueError(f"`size1`, `size2` must be > 0 (a tree's node count, or its deletion "
                         f"cost under another cost model), got {size1}, {size2}")
    if distance < 0:
        raise ValueError(f"`distance` must be >= 0, got {distance!r}")
    return max(0.0, 1.0 - distance / max(size1, size2))


class TreeEditDistance:
    """Tree edit distance with a chosen backend, a cost model and an LRU memo.

    Parameters
    ----------
    backend : str or TEDBackend, default="edist"
        A name from :data:`~transted.pipeline.ted.backends.BACKENDS` or a backend instance.
    cost : CostModel, default=UnitCost()
        Prices of the edit operations; a non-unit model needs a backend that supports it.
    cache_size : int, default=4096
        Number of tree pairs memoised (least recently used evicted); 0 disables the memo.
    bounds : TEDBounds, default=TEDBounds()
        Work and memory allowed for one pair; past them :class:`~transted.errors.TooLarge`
        is raised before computing (see :mod:`transted.pipeline.ted.bounds`). Not in the signature.

    Examples
    --------
    >>> from transted.pipeline.opt.node import Node
    >>> ted = TreeEditDistance()
    >>> ted(Node.from_text("{<SLOT> + <SLOT>{a}{b}}"), Node.from_text("{<SLOT> + <SLOT>{b}{a}}"))
    2.0
    """

    def __init__(self, *, backend: str | TEDBackend = DEFAULT_BACKEND,
                 cost: CostModel | None = None, cache_size: int = 4096,
                 bounds: TEDBounds | None = None):
        self.backend = get_backend(backend)
        self.bounds = TEDBounds() if bounds is None else bounds
        self.cost = UnitCost() if cost is None else cost
        check_cost(self.backend, self.cost)
        if isinstance(cache_size, bool) or not isinstance(cache_size, int) or cache_size < 0:
            raise ValueError(f"`cache_size` must be an int >= 0, got {cache_size!r}")
        self.cache_size = cache_size
        self._memo: OrderedDict[tuple[str, str], float] = OrderedDict()
        self._by_id: OrderedDict[tuple[int, int], tuple[Node, Node, float]] = OrderedDict()
        self._hits = self._misses = 0
        self._unit_edist = self.cost.is_unit and isinstance(self.backend, EdistBackend)

    def __call__(self, t1: Node, t2: Node) -> float:
        """The edit distance from ``t1`` to ``t2``."""
        _check_tree("t1", t1)
        _check_tree("t2", t2)
        if self.cache_size == 0:
            return self._compute(t1, t2)
        ids = (id(t1), id(t2))
        same = self._by_id.get(ids)
        if same is not None and same[0] is t1 and same[1] is t2:
            self._hits += 1
            self._by_id.move_to_end(ids)
            return same[2]
        key = self._key(str(t1), str(t2))
        value = self._memo.get(key)
        if value is not None:
            self._hits += 1
            self._memo.move_to_end(key)
        else:
            self._misses += 1
            value = self._compute(t1, t2)
            _put(self._memo, key, value, self.cache_size)
        _put(self._by_id, ids, (t1, t2, value), self.cache_size)
        return value

    def _compute(self, t1: Node, t2: Node) -> float:
        self.bounds.check(estimate(t1, t2, backend=self.backend.name))
        return self.backend.distance(t1, t2, self.cost)

    def flat(self, t1: Flat, t2: Flat) -> float:
        """The edit distance between two trees in :data:`~transted.pipeline.opt.node.Flat` form.

        No memo: the search keeps one distance per state. Unit costs on edist take its
        integer fast path (an ``int`` comes back); any other cost model or backend goes
        through :meth:`TEDBackend.flat_distance`.
        """
        if t1[0] == t2[0] and t1[1] == t2[1]:
            return 0
        if self._unit_edist:
            return int(standard_ted(t1[0], t1[1], t2[0], t2[1]))
        return self.backend.flat_distance(t1, t2, self.cost)

    def alignment(self, t1: Node, t2: Node) -> list[tuple[int, int]]:
        """An optimal edit script under this cost model as preorder index pairs ``(i, j)``.

        ``j == -1`` deletes node ``i`` of ``t1``; ``i == -1`` inserts node ``j`` of ``t2``;
        otherwise ``i`` is kept or relabelled into ``j``. Computed by edist's backtrace
        whatever the distance backend (all backends give the same distance).
        """
        (la, aa), (lb, ab) = flatten(t1), flatten(t2)
        if self.cost.is_unit:
            ops = standard_ted_backtrace(la, aa, lb, ab)
        else:
            ops = ted_backtrace(la, aa, lb, ab, edist_delta(self.cost))
        return [(op._left, op._right) for op in ops]

    def _key(self, a: str, b: str) -> tuple[str, str]:
        # A symmetric cost model gives d(a, b) = d(b, a): one entry serves both orders.
        return (b, a) if self.cost.symmetric and b < a else (a, b)

    def similarity(self, t1: Node, t2: Node, *,
                   signature_options: Mapping[str, object] | None = None) -> TEDResult:
        """:class:`TEDResult` for ``t1`` against ``t2``.

        ``signature_options`` are extra fields (e.g. the parser's version and options) put
        in the signature before this object's own.
        """
        distance = self(t1, t2)
        size1, size2 = t1.size(), t2.size()
        # normalised by the cost of deleting the dearer tree (= |T| under unit cost)
        norms = ((size1, size2) if self.cost.is_unit
                 else (self.cost.tree_cost(t1), self.cost.tree_cost(t2)))
        return TEDResult(distance=distance, size1=size1, size2=size2,
                         similarity=similarity_from(distance, *norms),
                         backend=self.backend.describe(),
                         signature=str(self.signature(signature_options)))

    def options(self) -> dict[str, object]:
        """Options that can change a score, in signature order."""
        return {"cost": self.cost.describe(), "backend": self.backend.describe()}

    def signature(self, extra: Mapping[str, object] | None = None) -> Signature:
        return Signature.build("ted", {"v": TED_VERSION, **(extra or {}), **self.options()})

    def cache_info(self) -> CacheInfo:
        return CacheInfo(self._hits, self._misses, self.cache_size, len(self._memo))

    def cache_clear(self) -> None:
        self._memo.clear()
        self._by_id.clear()
        self._hits = self._misses = 0

    def __repr__(self) -> str:
        return (f"TreeEditDistance(backend={self.backend.name!r}, cost={self.cost!r}, "
                f"cache_size={self.cache_size})")


def _put(memo: OrderedDict[Any, Any], key: Any, value: Any, limit: int) -> None:
    memo[key] = value
    if len(memo) > limit:
        memo.popitem(last=False)


def _check_tree(name: str, tree: object) -> None:
    if not isinstance(tree, Node):
        raise TypeError(f"`{name}` must be a transted Node, got {type(tree).__name__}")


def ted_similarity(t1: Node, t2: Node, *, backend: str | TEDBackend = DEFAULT_BACKEND,
                   cost: CostModel | None = None,
                   signature_options: Mapping[str, object] | None = None) -> TEDResult:
    """TED similarity of two operator trees (ASSESS §3.2, Definition 3).

    Parameters
    ----------
    t1, t2 : Node
        Reference and candidate operator trees.
    backend : str or TEDBackend, default="edist"
        Which implementation computes the distance (all give the same value).
    cost : CostModel, default=UnitCost()
        Edit costs; ASSESS uses unit costs.
    signature_options : mapping, optional
        Extra signature fields placed before the TED options (parser version, options).

    Returns
    -------
    TEDResult
        Distance, sizes, similarity in [0, 1], backend and signature.

    See Also
    --------
    TreeEditDistance : the same with a reusable memo.

    References
    ----------
    K. Zhang and D. Shasha, SIAM J. Comput. 18(6), 1989; ASSESS (2025) §3.2.

    Examples
    --------
    >>> from transted.pipeline.opt.node import Node
    >>> r = ted_similarity(Node.from_text("{f <SLOT>{x}}"), Node.from_text("{f <SLOT>{y}}"))
    >>> r.distance, r.similarity
    (1.0, 0.5)
    """
    ted = TreeEditDistance(backend=backend, cost=cost, cache_size=0)
    return ted.similarity(t1, t2, signature_options=signature_options)
