"""Lean 4 perturbation generators: :mod:`~transted.sensitivity.lean.perturb` (the suite),
:mod:`~transted.sensitivity.lean.rewrites` (faithful), :mod:`~transted.sensitivity.lean.changes`
(meaning changes), :mod:`~transted.sensitivity.lean.sites` and
:mod:`~transted.sensitivity.lean.spans` (where to edit the text)."""
