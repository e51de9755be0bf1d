"""Lean 4 perturbation generators: :mod:`~transted.sensitivity.lean.perturb` (the suite),
:mod:`~transted.sensitivity.lean.rewrites` (faithful), :mod:`~transted.sensitivity.lean.changes`
(meaning changes) and :mod:`~transted.sensitivity.lean.sites` (where to edit the text, from the
parser's source spans: :mod:`transted.opt.spans`)."""
