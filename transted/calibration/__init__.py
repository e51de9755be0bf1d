"""Deriving the shipped thresholds (``transted/verdict/thresholds.yaml``):
:mod:`~transted.calibration.procedure` is the procedure, :mod:`~transted.calibration.derive`
runs it on the labelled data in the repository (``benchmarks/derive_thresholds.py``)."""
