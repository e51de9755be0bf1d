"""Lean 4 perturbation generators: :mod:`~transted.studies.sensitivity.lean.perturb` (the suite),
:mod:`~transted.studies.sensitivity.lean.rewrites` (faithful), :mod:`~transted.studies.sensitivity.lean.changes`
(meaning changes) and :mod:`~transted.studies.sensitivity.lean.sites` (where to edit the text, from the
parser's source spans: :mod:`transted.pipeline.opt.spans`)."""
