"""The pipeline of one Lean pair: stages that hand typed records forward.

The stages, each a package of its own: ``extraction`` (raw output → the statement and its
context), ``opt`` (parse, elaborate, normalise: operator trees), ``ted`` (tree edit distance),
``search`` (the TransTED search), ``evidence`` (refutation, decision, entailment), ``verdict``
(residual edits and the decision). The modules beside them run the stages in order
(:mod:`~transted.pipeline.run`: :class:`~transted.pipeline.run.PairPipeline`, configured by
:class:`~transted.pipeline.config.PipelineConfig`), hand their records forward
(:mod:`~transted.pipeline.records`, :mod:`~transted.pipeline.sides`,
:mod:`~transted.pipeline.findings`) and make a result line's ``details`` from them
(:mod:`~transted.pipeline.details`). Nothing is imported here: a stage is loaded when used.
"""
