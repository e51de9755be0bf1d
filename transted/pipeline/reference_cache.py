"""The reference side's reading, kept per process: a batch of LLM outputs scores many samples
against one reference, and extracting, parsing, unfolding, elaborating and normalising that
reference is the same work for each of them.

What is kept is a function of its key alone (the reference's text and header, the pair's
``meta.reference_helper``, the tree options and — for the parse — the definitions kept as
shared constants), and every kept object is immutable in use (frozen dataclasses, trees of
:class:`~transted.pipeline.opt.node.Node`; nothing downstream writes into a context, an unfolding report
or an elaboration), so a hit gives the very result a fresh computation would. Only successes
are kept: a failure is recomputed, so its error names the pair at hand. The cache is bounded
(least recently used entries go first) and never enters a signature: it changes no output.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

from transted.pipeline.extraction.statement import Prepared
from transted.pipeline.opt.context import Context
from transted.pipeline.opt.in_context import InContext

__all__ = ["BoundedCache", "PREPARED", "PARSED", "clear_reference_cache",
           "enable_reference_cache"]

V = TypeVar("V")

MAX_ENTRIES = 64
"""References kept per cache: samples of one reference usually come together in a batch."""


class BoundedCache(Generic[V]):
    """A least-recently-used map of at most ``size`` entries."""

    def __init__(self, size: int = MAX_ENTRIES) -> None:
        self.size = size
        self.enabled = True
        self.hits = 0
        self.misses = 0
        self._entries: OrderedDict[Hashable, V] = OrderedDict()

    def get_or_compute(self, key: Hashable, compute: Callable[[], V]) -> V:
        """The value kept under ``key``, else ``compute()`` kept (when it returns)."""
        if not self.enabled:
            return compute()
        if key in self._entries:
            self._entries.move_to_end(key)
            self.hits += 1
            return self._entries[key]
        self.misses += 1
        value = compute()
        self._entries[key] = value
        if len(self._entries) > self.size:
            self._entries.popitem(last=False)
        return value

    def clear(self) -> None:
        self._entries.clear()
        self.hits = self.misses = 0

    def __len__(self) -> int:
        return len(self._entries)


PREPARED: BoundedCache[tuple[Prepared, Context]] = BoundedCache()
"""The reference extracted and its context read (:func:`transted.pipeline.sides._prepare`)."""
PARSED: BoundedCache[InContext] = BoundedCache()
"""The reference read in its context (:func:`transted.pipeline.sides._parse`)."""


def clear_reference_cache() -> None:
    """Forget every kept reference (tests and benchmarks)."""
    PREPARED.clear()
    PARSED.clear()


def enable_reference_cache(enabled: bool) -> None:
    """Turn the cache on or off, emptied either way (benchmarks compare the two; not a user
    option, since it changes no output)."""
    for cache in (PREPARED, PARSED):
        cache.enabled = enabled
    clear_reference_cache()
