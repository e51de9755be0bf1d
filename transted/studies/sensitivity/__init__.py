"""The sensitivity suite: pairs labelled by construction and what each metric makes of them.

:mod:`~transted.studies.sensitivity.lean` builds Lean 4 perturbations (faithful rewrites and one-symbol
meaning changes, paper 001 §3.1 in Lean), :mod:`~transted.studies.sensitivity.validator` checks their
labels with the semantic-evidence engine, :mod:`~transted.studies.sensitivity.suite` scores them
(``transted sensitivity``) and :mod:`~transted.studies.sensitivity.fol` builds paper 001's FOL
perturbation tables (``transted fol perturb``).
"""
