"""The heavy libraries of the evidence engines and the search, loaded before a clock starts.

z3, sympy and networkx take ~1 s together to import, more than a whole ``ted`` pair, which
needs none of them; so the modules that use them import them where they run (issue 34:
start-up). A budget's deadline must not pay for that import, or the first pair of a process
would have less time than the others and its result could differ: every budget that the
engines or the search spend (:meth:`transted.pipeline.search.engine.SearchConfig.budget`,
:func:`transted.pipeline.evidence.refute.engine_budget`) calls :func:`load_engine_libraries`
before its clock starts.
"""

from __future__ import annotations

__all__ = ["load_engine_libraries"]


def load_engine_libraries() -> None:
    """Import z3, sympy and networkx (once per process; later calls cost a dict lookup)."""
    import networkx  # noqa: F401  (imported for the search: see the module docstring)
    import sympy  # noqa: F401  (the decision procedures)
    import z3  # noqa: F401  (the refutation and decision engines)
