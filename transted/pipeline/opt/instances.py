"""Which type-class instances Lean finds for ℕ ℤ ℚ ℝ ℂ (and ``Fin n``, ``ℕ+``, ``Finset α``,
``Set α``), and what ``/``, ``%``, ``√``, ``!``, floors and ``Finset.range`` mean on each.

The data is ``instances.yaml``: hand-curated, every entry citing its Mathlib instance (file:line
at the pinned commit) or Lean core definition. Anything not listed is missing, and the caller
abstains: :meth:`InstanceTable.find` returns None rather than guessing (e.g. ``LinearOrder ℂ``,
``LocallyFiniteOrder ℝ`` — so ``Finset.Icc (0 : ℝ) 1`` does not elaborate — or ``%`` on ℝ).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from transted import yaml_text
from transted.errors import InputError

__all__ = ["Instance", "Operation", "InstanceTable", "load_instance_table"]


@dataclass(frozen=True)
class Instance:
    type: str
    cls: str
    instance: str
    source: str
    scoped: str | None = None
    """Active only once this namespace is opened (``open scoped ComplexOrder``)."""
    noncomputable: bool = False
    via: str | None = None
    """The listed class this one comes from (``PartialOrder ℝ`` via ``LinearOrder``)."""


@dataclass(frozen=True)
class Operation:
    type: str
    op: str
    definition: str
    meaning: str
    source: str


class InstanceTable:
    def __init__(self, data: dict, digest: str) -> None:
        self.version = f"instances-{digest[:8]}"
        self._aliases: dict[str, str] = {}
        for canonical, spellings in data["types"].items():
            self._aliases[canonical] = canonical
            for spelling in spellings:
                self._aliases[spelling] = canonical
        self._instances: dict[tuple[str, str], Instance] = {}
        for row in data["instances"]:
            inst = Instance(row["type"], row["class"], row["instance"], row["source"],
                            row.get("scoped"), bool(row.get("noncomputable", False)))
            self._instances[(inst.type, inst.cls)] = inst
        self._implies: dict[str, list[str]] = data["implies"]
        self._operations = {(t, op): Operation(t, op, e["definition"], e["meaning"], e["source"])
                            for op, by_type in data["operations"].items()
                            for t, e in by_type.items()}
        self.requirements: dict[str, str] = data["requirements"]
        complete = data.get("complete") or {}
        self._complete_types = frozenset(complete.get("types", ()))
        self._complete_classes = frozenset(complete.get("classes", ()))

    def canonical_type(self, type_name: str) -> str | None:
        """``Real``/``ℝ`` → ``ℝ``; ``Finset ℕ`` → ``Finset α``; unknown types → None."""
        name = " ".join(type_name.split())
        if name in self._aliases:
            return self._aliases[name]
        head = name.split(" ", 1)[0]
        for canonical in self._aliases.values():
            if " " in canonical and canonical.split(" ", 1)[0] == head:
                return canonical
        return self._aliases.get(head)

    def find(self, type_name: str, cls: str, *, scoped: frozenset[str] = frozenset()) -> Instance | None:
        """The instance of ``cls`` for ``type_name`` Lean would find with the namespaces in
        ``scoped`` opened, or None (missing: abstain)."""
        if not cls:
            raise InputError("find: empty class name")
        canonical = self.canonical_type(type_name)
        if canonical is None:
            return None
        direct = self._instances.get((canonical, cls))
        candidates = [direct] if direct else []
        for parent, provided in self._implies.items():
            via = self._instances.get((canonical, parent))
            if cls in provided and via is not None:
                candidates.append(Instance(canonical, cls, via.instance, via.source, via.scoped,
                                           via.noncomputable, via=parent))
        for inst in candidates:
            if inst.scoped is None or inst.scoped in scoped:
                return inst
        return None

    def classes_at(self, type_name: str) -> tuple[str, ...]:
        """The classes listed (unscoped) with an instance at ``type_name``, in file order."""
        canonical = self.canonical_type(type_name)
        return tuple(cls for (t, cls), inst in self._instances.items()
                     if t == canonical and inst.scoped is None)

    def has(self, type_name: str, cls: str, *, scoped: frozenset[str] = frozenset()) -> bool | None:
        """True: Lean finds an instance; False: the table is complete for ``cls`` at this type
        (``complete:`` in the YAML) and lists none; None: the table cannot say."""
        if self.find(type_name, cls, scoped=scoped) is not None:
            return True
        canonical = self.canonical_type(type_name)
        if canonical in self._complete_types and cls in self._complete_classes:
            return False
        return None

    def operation(self, type_name: str, op: str) -> Operation | None:
        """What ``op`` (``/``, ``%``, ``√``, ``!``, ``Finset.range``, ``⌊⌋``, ``⌊⌋₊``) means on
        ``type_name``; None when it does not elaborate there or is not modelled (abstain)."""
        canonical = self.canonical_type(type_name)
        return None if canonical is None else self._operations.get((canonical, op))

    def supports(self, type_name: str, op: str, *, scoped: frozenset[str] = frozenset()) -> bool:
        """Whether ``type_name`` has the class ``op`` needs (``requirements`` in the YAML)."""
        cls = self.requirements.get(op)
        if cls is None:
            raise InputError(f"no requirement recorded for {op!r}; known: {sorted(self.requirements)}")
        return self.find(type_name, cls, scoped=scoped) is not None


@lru_cache(maxsize=1)
def load_instance_table() -> InstanceTable:
    raw = resources.files("transted.pipeline.opt").joinpath("instances.yaml").read_bytes()
    return InstanceTable(yaml_text.safe_load(raw), hashlib.sha256(raw).hexdigest())
