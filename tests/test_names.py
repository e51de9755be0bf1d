"""Name resolution and notation scopes from a statement's header (transted.pipeline.opt.names).

Each expectation was checked against the Mathlib sources at the pinned commit
81a5d257c8e410db227a6665ed08f64fea08e997 (paths below are in that snapshot) and, for core
names, Lean's src/Lean/ResolveName.lean and src/Lean/Elab/Open.lean.
"""

from __future__ import annotations

from importlib import resources

import pytest

from transted.errors import InputError, ParseError
from transted.pipeline.opt.name_store import NameStore, content_digest, name_table_path
from transted.pipeline.opt.names import Ambiguous, Constant, Unknown, load_name_table

MINIF2F_HEADER = "import Mathlib\nimport Aesop\n\nset_option maxHeartbeats 0\n\nopen BigOperators Real Nat Topology Rat\n\n"


@pytest.fixture(scope="module")
def table():
    return load_name_table()


def resolve(table, identifier, header):
    return table.resolve(identifier, scope=table.scope(header))


def test_table_header_records_commit_licence_and_hash(table):
    header = table.header
    assert header["sources"]["mathlib"]["commit"] == "81a5d257c8e410db227a6665ed08f64fea08e997"
    assert header["lean_version"] == "leanprover/lean4:v4.32.0"
    assert "Apache-2.0" in header["licence"]
    assert name_table_path().stat().st_size <= 3 * 1024 * 1024
    # the content hash the generator computed over its JSON body, recomputed from the file
    # (and the hash of the table the score signatures of earlier releases record)
    digest = content_digest(NameStore(name_table_path()))
    assert digest == header["content_sha256"]
    assert table.version == "mathlib-81a5d257-41faeca6"
    assert resources.files("transted.pipeline.opt").joinpath("data", "LICENSE").read_text().lstrip().startswith("Apache License")


def test_pi_symbol_needs_open_real(table):
    # Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean:131 `scoped notation "π" => Real.pi`
    # (inside `namespace Real`): without `open Real` the token does not exist and `π` is an identifier.
    plain = table.scope("import Mathlib\n")
    assert table.notations(plain, symbol="π") == ()
    assert isinstance(table.resolve("π", scope=plain), Unknown)
    assert table.resolve("π", scope=plain).may_auto_bind
    opened = table.scope("import Mathlib\nopen Real\n")
    (pi,) = table.notations(opened, symbol="π")
    assert pi.expansion == "Real.pi" and pi.namespace == "Real"
    assert pi.source == "mathlib:Mathlib/Analysis/SpecialFunctions/Trigonometric/Basic.lean:131"
    # `open scoped Real` activates the notation too (Lean's elabOpenDecl: activateScoped).
    assert table.notations(table.scope("open scoped Real"), symbol="π")


def test_real_pi_is_protected_so_bare_pi_does_not_resolve(table):
    # Trigonometric/Basic.lean:127 `protected noncomputable def pi : ℝ`: an atomic `pi` never
    # reaches it through `open Real` (ResolveName.resolveQualifiedName skips protected names).
    assert table.is_protected("Real.pi")
    assert isinstance(resolve(table, "pi", "open Real"), Unknown)
    assert resolve(table, "Real.pi", "open Real").name == "Real.pi"


def test_sin_under_open_real_complex_is_an_overload(table):
    # Mathlib/Analysis/Complex/Trigonometric.lean:30 `def sin (z : ℂ)` (namespace Complex) and
    # :74 `nonrec def sin (x : ℝ)` (namespace Real).
    result = resolve(table, "sin", "open Real Complex")
    assert isinstance(result, Ambiguous)
    assert result.names == {"Real.sin", "Complex.sin"}
    assert resolve(table, "sin", "open Real").name == "Real.sin"
    assert isinstance(resolve(table, "sin", "import Mathlib"), Unknown)


def test_sqrt_real_nat_and_both(table):
    # Real.sqrt: Mathlib/Analysis/Real/Sqrt.lean:112; Nat.sqrt: Lean core
    # src/Init/Data/Nat/Sqrt/Basic.lean (`namespace Nat … def sqrt (n : Nat) : Nat`).
    assert resolve(table, "sqrt", "open Real").name == "Real.sqrt"
    nat = resolve(table, "sqrt", "open Nat")
    assert nat.name == "Nat.sqrt" and nat.source.startswith("lean4:")
    both = resolve(table, "sqrt", "open Real Nat")
    assert isinstance(both, Ambiguous) and both.names == {"Real.sqrt", "Nat.sqrt"}
    # The miniF2F header also opens Rat: Mathlib/Data/Rat/Sqrt.lean:29 `def sqrt (q : ℚ)`.
    assert resolve(table, "sqrt", MINIF2F_HEADER).names == {"Real.sqrt", "Nat.sqrt", "Rat.sqrt"}


def test_sqrt_prefix_is_global(table):
    # Mathlib/Analysis/Real/Sqrt.lean:117 `prefix:max "√" => Real.sqrt` (not scoped).
    (sqrt,) = table.notations(table.scope(None), symbol="√")
    assert sqrt.namespace is None and sqrt.expansion == "Real.sqrt"


def test_factorial_notation_is_scoped_in_nat(table):
    # Mathlib/Data/Nat/Factorial/Basic.lean:46 `scoped notation:10000 n "!" => Nat.factorial n`
    # inside `namespace Nat`.
    def factorial(header):
        return [n for n in table.notations(table.scope(header), symbol="!") if "factorial" in n.expansion]

    assert factorial("import Mathlib") == []
    (bang,) = factorial("open Nat")
    assert bang.namespace == "Nat" and bang.expansion == "Nat.factorial n"
    assert bang.source == "mathlib:Mathlib/Data/Nat/Factorial/Basic.lean:46"
    assert factorial("open scoped Nat")


def test_choose_floor_exp_log(table):
    # Nat.choose: Mathlib/Data/Nat/Choose/Basic.lean:50 (namespace Nat).
    assert resolve(table, "choose", "open Nat").name == "Nat.choose"
    assert isinstance(resolve(table, "choose", "import Mathlib"), Unknown)
    # Mathlib/Algebra/Order/Floor/Defs.lean:119 `def floor : α → ℕ` (namespace Nat) and
    # :250 `def floor : α → ℤ` (namespace Int); FloorRing.floor is a field, not a root name.
    assert resolve(table, "floor", "open Nat").name == "Nat.floor"
    assert resolve(table, "floor", "open Int").name == "Int.floor"
    assert resolve(table, "floor", "open Nat Int").names == {"Nat.floor", "Int.floor"}
    assert isinstance(resolve(table, "floor", "import Mathlib"), Unknown)
    # Real.exp: Mathlib/Analysis/Complex/Exponential.lean:80; Complex.exp: :62 (irreducible_def).
    assert resolve(table, "exp", "open Real").name == "Real.exp"
    assert resolve(table, "exp", "open Real Complex").names == {"Real.exp", "Complex.exp"}
    # Real.log: Mathlib/Analysis/SpecialFunctions/Log/Basic.lean:44; Nat.log: Mathlib/Data/Nat/Log.lean:62.
    assert resolve(table, "log", "open Real").name == "Real.log"
    assert resolve(table, "log", MINIF2F_HEADER).names == {"Real.log", "Nat.log"}


def test_qualified_names_resolve_without_opens(table):
    # Mathlib/Data/Finset/Range.lean:53 `def range (n : ℕ) : Finset ℕ` in namespace Finset.
    rng = resolve(table, "Finset.range", "import Mathlib")
    assert isinstance(rng, Constant) and rng.kind == "def"
    assert rng.source.startswith("mathlib:Mathlib/Data/Finset/Range.lean:")
    assert resolve(table, "range", "open Finset").name == "Finset.range"
    # `Finset.sum` exists only as the `@[to_additive]` image of `Finset.prod`
    # (Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean:63-68).
    assert resolve(table, "Finset.sum", "").name == "Finset.sum"


def test_protected_core_names_need_their_namespace(table):
    # Lean core src/Init/Prelude.lean: `protected def Nat.sub`.
    assert isinstance(resolve(table, "sub", "open Nat"), Unknown)
    assert resolve(table, "Nat.sub", "open Nat").name == "Nat.sub"


def test_exports_and_opens_combine(table):
    # Mathlib/Algebra/GCDMonoid/Basic.lean:353 `export GCDMonoid (gcd lcm …)`; Lean core
    # src/Init/Data/Nat/Gcd.lean `def gcd` in namespace Nat (not protected).
    assert resolve(table, "gcd", "import Mathlib").name == "GCDMonoid.gcd"
    assert resolve(table, "gcd", "open Nat").names == {"GCDMonoid.gcd", "Nat.gcd"}


def test_innermost_namespace_wins_over_opens(table):
    # ResolveName.resolveUsingNamespace: a hit in the current namespace shadows opens and root.
    assert resolve(table, "sqrt", "namespace Nat\nopen Real\n").name == "Nat.sqrt"
    assert resolve(table, "sqrt", "namespace Nat\nend Nat\nopen Real\n").name == "Real.sqrt"


def test_open_forms(table):
    # src/Lean/Elab/Open.lean: `open A (x)` adds only x and activates nothing; `hiding` excludes.
    only = table.scope("open Real (sqrt)")
    assert table.resolve("sqrt", scope=only).name == "Real.sqrt"
    assert isinstance(table.resolve("exp", scope=only), Unknown)
    assert table.notations(only, symbol="π") == ()
    hiding = table.scope("open Real hiding sqrt")
    assert isinstance(table.resolve("sqrt", scope=hiding), Unknown)
    assert table.resolve("exp", scope=hiding).name == "Real.exp"
    assert table.notations(hiding, symbol="π")
    renaming = table.scope("open Real renaming sqrt → rsqrt")
    assert table.resolve("rsqrt", scope=renaming).name == "Real.sqrt"


def test_open_in_scopes_only_the_next_command(table):
    assert resolve(table, "exp", "open Real in\n").name == "Real.exp"
    assert isinstance(resolve(table, "exp", "open Real in\ndef f := 1\n"), Unknown)


def test_unknown_namespace_and_bad_open_are_reported(table):
    assert table.scope("open NoSuchNamespace").unknown_namespaces == ("NoSuchNamespace",)
    with pytest.raises(ParseError):
        table.scope("open Real (sqrt")
    with pytest.raises(InputError):
        table.resolve("Real.")


def test_header_declarations_join_the_environment(table):
    header = "import Mathlib\nopen Set\n\ndef is_topology (X : Type*) (T : Set (Set X)) := True\n"
    result = resolve(table, "is_topology", header)
    assert isinstance(result, Constant) and result.kind == "header"


def test_trailing_components_become_fields(table):
    # ResolveName.resolveGlobalName's loop: `x.y.z` falls back to `x.y` with field `z`.
    result = resolve(table, "Real.sqrt.foo", "")
    assert isinstance(result, Constant) and result.name == "Real.sqrt" and result.fields == ("foo",)
    assert not Unknown("Nat.foo").may_auto_bind


def test_big_operator_notation_is_global_and_in_form_is_gone(table):
    # Mathlib/Algebra/BigOperators/Group/Finset/Defs.lean:178 `syntax (name := bigsum) "∑ "
    # bigOpBinders … ", " term:67 : term` (namespace BigOperators, not scoped). The pinned Mathlib
    # has no `∑ x in s, f` form any more.
    sums = table.notations(table.scope(None), symbol="∑")
    assert any(n.keyword == "syntax" and n.namespace is None for n in sums)
    assert not any(a.strip() == "in" for n in sums for a in n.atoms)
