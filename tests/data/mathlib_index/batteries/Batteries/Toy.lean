/-
Synthetic test file in Batteries' style (not Batteries source).
-/
namespace ToyB

theorem add_zero_toy (k : Nat) : k + 0 = k := rfl

end ToyB
