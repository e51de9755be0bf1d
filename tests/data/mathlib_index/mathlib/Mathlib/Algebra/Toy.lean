/-
Synthetic test file in Mathlib's style (not Mathlib source).
-/
module

public import Mathlib.Tactic.Translate.ToAdditive

/-! # A toy algebraic hierarchy -/

universe u

/-- Multiplication. -/
class ToyMul (α : Type u) where
  /-- the product -/
  mul : α → α → α

/-- A toy monoid. -/
@[to_additive ToyAddMonoid]
class ToyMonoid (M : Type u) extends Mul M, One M where
  one_mul' (a : M) : 1 * a = a

@[to_additive ToyAddGroup]
class ToyGroup (G : Type u) extends ToyMonoid G, Inv G

class ToyDiv (G : Type u) where
  div : G → G → G

instance (priority := 100) ToyGroup.toToyDiv {G : Type u} [ToyGroup G] : ToyDiv G :=
  ⟨fun a b => a * b⁻¹⟩

/-- Not an instance until the `attribute` command below. -/
def ToyMul.toToyDiv' {G : Type u} [ToyMul G] : ToyDiv G := ⟨fun a _ => a⟩

attribute [instance] ToyMul.toToyDiv'

namespace Toy

variable {M : Type u} [ToyMonoid M] (n : ℕ)

@[to_additive (attr := simp) zero_add_toy]
theorem one_mul_toy (a : M) : 1 * a = a := ToyMonoid.one_mul' a

theorem pow_toy (a : M) : a ^ n = a ^ n := rfl

/-- A set is toy-nonempty if it has an element. -/
def ToyNonempty {α : Type u} (s : α → Prop) : Prop :=
  ∃ x, s x

abbrev twice (k : ℕ) : ℕ := k + k

def fact : ℕ → ℕ
  | 0 => 1
  | k + 1 => (k + 1) * fact k

def countdown (k : ℕ) : ℕ := if k = 0 then 0 else countdown (k - 1)
  decreasing_by omega

private def hidden : ℕ := 3

theorem hom_toy {C : Type u} (f : C ⟶ C) : f = f := rfl

variable (m : ℕ) in
theorem uses_m : m = m := rfl

theorem twice_eq (k : ℕ) : twice k = 2 * k := by omega

attribute [simp] twice_eq

@[deprecated twice_eq (since := "2025-01-01")]
theorem twice_eq_old (k : ℕ) : twice k = 2 * k := twice_eq k

@[deprecated (since := "2025-01-01")] alias twice_eq' := twice_eq

open Nat in
theorem opened (k : ℕ) (h : 0 < k) : k - 1 + 1 = k := by omega

end Toy

structure ToyPoint (α : Type u) extends ToyMul α where
  x : α
  y z : α

inductive ToyColor where
  | red
  | green : ToyColor

class ToyNorm (α : Type u) where
  norm : α → Nat

/-- An instance only where `ToyScope` is open (`scoped[NS] attribute`, as Mathlib's
`Valued.toNormedField`). -/
def ToyMul.toToyNorm {G : Type u} [ToyMul G] : ToyNorm G := ⟨fun _ => 0⟩

scoped[ToyScope] attribute [instance] ToyMul.toToyNorm

class ToyValued (G : Type u) (V : Type u) where
  toNorm : ToyNorm G

section Valued

variable {G : Type u} [ToyGroup G] {V : Type u} [hv : ToyValued G V]

/-- Its proof uses the section's `hv`, which its header does not mention (as Mathlib's
`Valued.completable`): Lean adds `[hv : ToyValued G V]`, so `[ToyGroup G]` alone gives none. -/
instance (priority := 100) ToyGroup.toToyNorm : ToyNorm G := by
  exact hv.toNorm

end Valued
