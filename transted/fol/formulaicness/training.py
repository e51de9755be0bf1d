"""Training run of the shipped regressor: FOLIO → tiered dataset → ridge model (+ baseline).

``benchmarks/formulaicness_train.py`` calls :func:`train` on the FOLIO copy in
``tests/data/fol/folio`` with :data:`SEED` and writes ``model.json``; the test suite runs the
same call and checks the shipped file is what it produces.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from transted.fol.formulaicness.model import (
    FormulaicnessModel,
    LengthBaseline,
    fit_model,
    load_shipped_model,
)
from transted.fol.formulaicness.tiers import Dataset, TieredText, build_dataset, read_folio

__all__ = ["SEED", "FOLIO_FILES", "TrainingRun", "train", "rebuild", "texts_and_scores"]

SEED = 0
FOLIO_FILES = ("folio-train.jsonl", "folio-validation.jsonl")
"""FOLIO v0.0's two released files, both used: the split is ours, grouped by formula."""


@dataclass
class TrainingRun:
    """What :func:`train` made: the model, the length baseline, the dataset, lines left out."""

    model: FormulaicnessModel
    baseline: LengthBaseline
    dataset: Dataset
    left_out: list[str]


def texts_and_scores(texts: Sequence[TieredText]) -> tuple[list[str], list[float]]:
    return [t.text for t in texts], [t.score for t in texts]


def _digest(paths: Sequence[Path]) -> str:
    sha = hashlib.sha256()
    for path in paths:
        sha.update(path.read_bytes())
    return sha.hexdigest()[:12]


def rebuild(folio_dir: str | Path, *, seed: int = SEED,
            model: FormulaicnessModel | None = None) -> TrainingRun:
    """The dataset and length baseline of :func:`train` with an already fitted ``model``
    (default: the shipped one), for reports on that model."""

    pairs, left_out = read_folio([Path(folio_dir) / name for name in FOLIO_FILES])
    dataset = build_dataset(pairs, seed=seed)
    baseline = LengthBaseline.fit(*texts_and_scores(dataset.split("train")))
    return TrainingRun(model or load_shipped_model(), baseline, dataset, left_out)


def train(folio_dir: str | Path, *, seed: int = SEED) -> TrainingRun:
    """Build the dataset from the FOLIO files in ``folio_dir`` and fit model and baseline."""
    paths = [Path(folio_dir) / name for name in FOLIO_FILES]
    pairs, left_out = read_folio(paths)
    dataset = build_dataset(pairs, seed=seed)
    train_split, validation = (dataset.split(s) for s in ("train", "validation"))
    meta = {"seed": seed, "data": f"FOLIO v0.0 {'+'.join(FOLIO_FILES)} sha256:{_digest(paths)}",
            "sizes": {s: len(dataset.split(s)) for s in ("train", "validation", "test")}}
    model, _ = fit_model(texts_and_scores(train_split), texts_and_scores(validation), meta=meta)
    baseline = LengthBaseline.fit(*texts_and_scores(train_split))
    return TrainingRun(model, baseline, dataset, left_out)
