"""A semantic cost model: edits that change what a statement says cost more than notation.

Every node label falls into one class of the shipped table ``costs/semantic.yaml`` (relation,
logic, quantifier, numeral, type, operator, function, variable, notation, other); the class
gives the cost of inserting/deleting the node and of renaming it into another label of the same
class. The weights are set by the kind of change they stand for (the table's ``why`` column),
not fitted to labels. A numeral renames free into a numeral of the same value; a function
renames cheaply into the same name in another namespace (``Real.sqrt`` / ``sqrt``).

The model's :meth:`SemanticCost.describe` carries the table's name, version and sha256, so a
score's signature pins the exact table. :meth:`SemanticCost.tree_cost` (the cost of deleting a
whole tree) is the normaliser of the similarity, which therefore stays in [0, 1] after clipping
and equals ASSESS's ``1 - d / max(|T1|, |T2|)`` under unit cost.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import yaml

from transted import yaml_text
from transted.errors import InputError
from transted.pipeline.opt.labels import NAMED_APPLICATION, SLOT
from transted.pipeline.ted.cost import CostModel

__all__ = ["SemanticCost", "CostTable", "load_cost_table", "classify", "DEFAULT_TABLE"]

DEFAULT_TABLE = "semantic.yaml"
CLASSES = ("relation", "logic", "quantifier", "numeral", "type", "operator", "function",
           "namespace", "variable", "notation", "other")
_NUMERAL = re.compile(r"^(?:\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|0[xX][0-9a-fA-F]+|0[bB][01]+)$")
_VARIABLE_SUFFIX = re.compile(r"^[0-9₀-₉ₐ-ₜ_'✝]*$")


@dataclass(frozen=True)
class ClassCost:
    weight: float
    rename: float
    why: str


@dataclass(frozen=True)
class CostTable:
    """The parsed YAML table: per-class costs, label lists, and the text's sha256."""

    name: str
    version: str
    classes: dict[str, ClassCost]
    labels: dict[str, frozenset[str]]
    quantifier_prefixes: tuple[str, ...]
    sha256: str

    def describe(self) -> str:
        return f"{self.name}-v{self.version}-sha256:{self.sha256[:16]}"


def load_cost_table(path: str | Path | None = None) -> CostTable:
    """The packaged table (default) or a YAML file of the same schema."""
    if path is None:
        text = resources.files("transted.pipeline.ted").joinpath("costs", DEFAULT_TABLE).read_text("utf-8")
        where = DEFAULT_TABLE
    else:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as e:
            raise InputError(f"{path}: cannot read cost table: {e.strerror}") from e
        where = str(path)
    return _parse_table(text, where)


@lru_cache(maxsize=8)
def _parse_table(text: str, where: str) -> CostTable:
    try:
        data: dict[str, Any] = yaml_text.safe_load(text) or {}
    except yaml.YAMLError as e:
        raise InputError(f"{where}: invalid YAML: {e}") from e
    classes: dict[str, ClassCost] = {}
    for cls in CLASSES:
        entry = (data.get("classes") or {}).get(cls)
        if not isinstance(entry, dict):
            raise InputError(f"{where}: classes.{cls}: missing (every class needs weight, rename, why)")
        try:
            weight, rename = float(entry["weight"]), float(entry["rename"])
            why = str(entry["why"])
        except (KeyError, TypeError, ValueError) as e:
            raise InputError(f"{where}: classes.{cls}: needs numeric weight, rename and a why: {e}") from e
        if not weight > 0 or rename < 0 or rename > 2 * weight:
            raise InputError(f"{where}: classes.{cls}: need weight > 0 and 0 <= rename <= 2 * weight "
                             f"(a rename is never dearer than delete + insert), got {weight}, {rename}")
        classes[cls] = ClassCost(weight, rename, why)
    labels = data.get("labels") or {}
    return CostTable(
        name=str(data.get("name", "semantic")), version=str(data.get("version", "1")),
        classes=classes,
        labels={k: frozenset(v or ()) for k, v in labels.items() if k != "quantifier_prefixes"},
        quantifier_prefixes=tuple(labels.get("quantifier_prefixes") or ("∀ ", "∃ ")),
        sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())


def _is_variable(name: str) -> bool:
    # Lean's auto-bound rule: one letter then digits/subscripts/primes (x, x₁, h', #1)
    if name.startswith("#") or name.startswith("?"):
        return True
    return bool(name) and name[0].isalpha() and bool(_VARIABLE_SUFFIX.match(name[1:]))


def classify(label: str, table: CostTable) -> tuple[str, str]:
    """``(class, key)`` of a label; ``key`` is what same-class renames compare (a numeral's
    value, a function's last name component)."""
    labels = table.labels
    if label in labels.get("relation", ()):
        return "relation", label
    if label in labels.get("logic", ()):
        return "logic", label
    if label.startswith(table.quantifier_prefixes):
        return "quantifier", label
    if label in labels.get("operator", ()):
        return "operator", label
    if label in labels.get("notation", ()):
        return "notation", label
    if label in labels.get("type", ()):
        return "type", label
    if _NUMERAL.match(label):
        return "numeral", str(_numeral_value(label))
    m = NAMED_APPLICATION.match(label)
    name = m.group(1) if m else (label if SLOT not in label else None)
    if name is None:
        return "other", label
    if name in labels.get("type_constructors", ()):
        return "type", label
    if m is None and _is_variable(name):
        return "variable", label
    return "function", name + (m.group(2) if m else "")


def _numeral_value(label: str) -> Fraction:
    if label[:2].lower() in ("0x", "0b"):
        return Fraction(int(label, 0))
    return Fraction(label)


class SemanticCost(CostModel):
    """Class-based edit costs from a YAML table (default: the packaged ``semantic.yaml``).

    Parameters
    ----------
    table : str or Path, optional
        A cost table of the packaged schema; its name, version and sha256 are in
        :meth:`describe`, hence in every signature.

    Examples
    --------
    >>> c = SemanticCost()
    >>> c.rename("<SLOT> < <SLOT>", "<SLOT> ≤ <SLOT>"), c.rename("2", "2.0"), c.rename("Real.sqrt <SLOT>", "sqrt <SLOT>")
    (3.0, 0.0, 0.25)
    """

    def __init__(self, table: str | Path | None = None):
        self.table = load_cost_table(table)
        self._path = None if table is None else str(table)
        self._classes: dict[str, tuple[str, str]] = {}
        self._renames: dict[tuple[str, str], float] = {}

    def _class(self, label: str) -> tuple[str, str]:
        got = self._classes.get(label)
        if got is None:
            got = self._classes[label] = classify(label, self.table)
        return got

    def class_of(self, label: str) -> str:
        return self._class(label)[0]

    def delete(self, label: str) -> float:
        return self.table.classes[self._class(label)[0]].weight

    def insert(self, label: str) -> float:
        return self.table.classes[self._class(label)[0]].weight

    def rename(self, a: str, b: str) -> float:
        if a == b:
            return 0.0
        key = (a, b) if a < b else (b, a)
        cost = self._renames.get(key)
        if cost is None:
            cost = self._renames[key] = self._rename(a, b)
        return cost

    def _rename(self, a: str, b: str) -> float:
        (ca, ka), (cb, kb) = self._class(a), self._class(b)
        classes = self.table.classes
        if ca != cb:
            return max(classes[ca].weight, classes[cb].weight)
        if ca == "numeral" and ka == kb:  # 2 and 2.0: the same value
            return 0.0
        if ca == "function" and (ka.endswith("." + kb) or kb.endswith("." + ka)):
            return classes["namespace"].rename  # Real.sqrt vs sqrt (under `open Real`)
        return classes[ca].rename

    @property
    def symmetric(self) -> bool:
        return True

    def describe(self) -> str:
        return self.table.describe()

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SemanticCost) and other.table.sha256 == self.table.sha256

    def __hash__(self) -> int:
        return hash((SemanticCost, self.table.sha256))

    def __repr__(self) -> str:
        return f"SemanticCost(table={self._path!r})"
