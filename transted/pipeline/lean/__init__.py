"""The Lean backend: project setup, REPL drivers, the pair equality, Lean moves, replay
verification, the closure rule and the language server.

Only this package imports lean-interact and leanclient, and only when a live Lean is used:
importing :mod:`transted.pipeline.lean` costs nothing without them. Modules, in the flow of a pair:
``versions``/``project`` (the pinned Lean project), ``backend``/``server``/``recycling`` (REPL
drivers: replay, live, a REPL replaced past a command count or memory; batches of pairs run
on :mod:`transted.running.executors`, one REPL per worker), ``responses``/``results`` (wire format →
values),
``equality``/``session`` (pair → equality goal, proof states that survive restarts),
``suggestions``/``moves``/``verify`` (search moves and replay verification),
``closure`` (what a closed proof must satisfy: no sorry, no error, axioms), ``lsp`` (language-server trees and goals),
``commands`` (``transted setup`` / ``transted doctor``).
"""

__all__: list[str] = []
