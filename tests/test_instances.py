"""The instance table (transted/pipeline/opt/instances.yaml): present instances carry their Mathlib
citation, missing ones are None (the caller abstains)."""

from __future__ import annotations

import re
from importlib import resources

import pytest
import yaml

from transted.errors import InputError
from transted.pipeline.opt.instances import load_instance_table


@pytest.fixture(scope="module")
def table():
    return load_instance_table()


def test_every_entry_cites_a_source(table):
    data = yaml.safe_load(resources.files("transted.pipeline.opt").joinpath("instances.yaml").read_bytes())
    for row in data["instances"]:
        assert re.match(r"^(Mathlib/\S+\.lean(:\d+)?|Lean core src/Init/\S+\.lean)", row["source"]), row
    for by_type in data["operations"].values():
        for entry in by_type.values():
            assert entry["source"], entry


def test_finset_intervals_need_a_locally_finite_order(table):
    # Mathlib/Order/Interval/Finset/Nat.lean:33, Mathlib/Data/Int/Interval.lean:29; ℚ ℝ ℂ have none.
    assert table.find("ℕ", "LocallyFiniteOrder").instance == "Nat.instLocallyFiniteOrder"
    assert table.supports("Int", "Finset.Icc")
    for missing in ("ℚ", "ℝ", "Real", "ℂ"):
        assert table.find(missing, "LocallyFiniteOrder") is None
        assert not table.supports(missing, "Finset.Ioo")
    assert table.find("Fin 5", "LocallyFiniteOrder").instance == "Fin.instLocallyFiniteOrder"


def test_complex_is_not_linearly_ordered(table):
    # Mathlib/Analysis/Complex/Order.lean: `Complex.partialOrder` is only a scoped instance.
    assert table.find("ℂ", "LinearOrder") is None
    assert table.find("ℂ", "PartialOrder") is None
    scoped = table.find("ℂ", "PartialOrder", scoped=frozenset({"ComplexOrder"}))
    assert scoped.instance == "Complex.partialOrder" and scoped.scoped == "ComplexOrder"
    assert not table.supports("ℂ", "max")
    # LinearOrder extends PartialOrder (Mathlib/Order/Defs/LinearOrder.lean:61).
    via = table.find("ℝ", "PartialOrder")
    assert via.via == "LinearOrder" and via.instance == "Real.linearOrder"


def test_division_modulo_sqrt_factorial_semantics(table):
    assert table.operation("ℕ", "/").definition == "Nat.div"
    assert table.operation("ℤ", "/").definition == "Int.ediv"
    assert table.operation("ℤ", "%").definition == "Int.emod"
    assert table.operation("ℝ", "%") is None  # no `Mod ℝ`: `x % y` does not elaborate
    assert table.operation("ℝ", "√").definition == "Real.sqrt"
    assert table.operation("ℕ", "!").definition == "Nat.factorial"
    assert table.operation("ℝ", "!") is None
    assert table.operation("ℕ", "Finset.range").definition == "Finset.range"
    assert table.operation("ℤ", "Finset.range") is None


def test_floors_and_casts(table):
    assert table.find("ℝ", "FloorRing").source.startswith("Mathlib/Algebra/Order/Archimedean/Real/Basic.lean")
    assert table.find("ℂ", "FloorRing") is None
    assert table.find("ℕ", "FloorRing") is None and table.find("ℕ", "FloorSemiring")
    assert table.find("ℝ", "RatCast").instance == "Real.instRatCast"
    assert table.find("ℕ", "IntCast") is None  # no ↑ from ℤ into ℕ
    assert table.find("ℝ", "DecidableEq").noncomputable


def test_unknown_types_and_bad_requests(table):
    assert table.find("Matrix (Fin 2) (Fin 2) ℝ", "LinearOrder") is None
    assert table.canonical_type("Finset ℕ") == "Finset α"
    with pytest.raises(InputError):
        table.supports("ℕ", "frobnicate")
    assert table.version.startswith("instances-")
