"""Deriving the shipped thresholds (``transted/pipeline/verdict/thresholds.yaml``):
:mod:`~transted.studies.calibration.procedure` is the procedure, :mod:`~transted.studies.calibration.derive`
runs it on the labelled data in the repository (``benchmarks/derive_thresholds.py``)."""
