"""The formulaicness regressor: ridge regression over skeleton n-grams and dense counts.

Paper 004 fine-tunes BERT (a linear head over its [CLS] vector). A pretrained transformer is
not in the default install (torch is an optional extra) and its weights could not be fetched at
run time, so this is a linear model over the features of :mod:`.features`: TF-IDF of skeleton
1–3-grams (fitted on the training split, ``min_df`` 2) and standardised dense counts, fitted
with scikit-learn's ``Ridge`` (exact Cholesky solver, so training is deterministic), ``alpha``
chosen on the validation split from :data:`ALPHAS`. The fitted numbers ship as JSON
(``model.json``, package data) and :meth:`FormulaicnessModel.predict` applies them with numpy
alone: no pickle, no scikit-learn at scoring time, identical output across its versions
(``tests`` check it against scikit-learn's own ``predict``).

:class:`LengthBaseline` is the paper's length-only predictor (App. D): least squares on the
token count.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from transted.fol.formulaicness.features import (
    DENSE_FEATURES,
    NGRAM_ORDERS,
    dense_features,
    skeleton_ngrams,
    tokens,
)

__all__ = ["FormulaicnessModel", "LengthBaseline", "fit_model", "load_shipped_model",
           "ALPHAS", "MODEL_FILE", "FEATURES_VERSION"]

ALPHAS = (0.1, 0.3, 1.0, 3.0, 10.0, 30.0)
MODEL_FILE = "model.json"
FEATURES_VERSION = "1"
"""Bump when :mod:`.features` changes what a text maps to (a shipped model then refuses)."""


@dataclass(frozen=True)
class FormulaicnessModel:
    """Fitted numbers of the regressor; :meth:`predict` maps texts to scores in [0, 1]."""

    vocabulary: tuple[str, ...]
    idf: tuple[float, ...]
    ngram_coef: tuple[float, ...]
    dense_mean: tuple[float, ...]
    dense_scale: tuple[float, ...]
    dense_coef: tuple[float, ...]
    intercept: float
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def digest(self) -> str:
        """8 hex digits of SHA-256 over the JSON form (goes into the signature)."""
        return hashlib.sha256(self.to_json().encode("utf-8")).hexdigest()[:8]

    def raw(self, texts: Sequence[str]) -> np.ndarray:
        """The linear predictions, unclipped."""
        index = {gram: i for i, gram in enumerate(self.vocabulary)}
        idf, coef = np.asarray(self.idf), np.asarray(self.ngram_coef)
        out = np.empty(len(texts))
        for row, text in enumerate(texts):
            counts = Counter(i for g in skeleton_ngrams(text) if (i := index.get(g)) is not None)
            columns = np.fromiter(counts.keys(), dtype=int, count=len(counts))
            weights = np.fromiter(counts.values(), dtype=float, count=len(counts)) * idf[columns]
            norm = float(np.sqrt(np.sum(weights ** 2)))
            ngram_part = float(weights @ coef[columns]) / norm if norm else 0.0
            dense = (np.asarray(dense_features(text)) - self.dense_mean) / self.dense_scale
            out[row] = ngram_part + float(dense @ np.asarray(self.dense_coef)) + self.intercept
        return out

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        """Formulaicness of each text, clipped to [0, 1]."""
        return np.clip(self.raw(texts), 0.0, 1.0)

    def to_json(self) -> str:
        payload = {"features": FEATURES_VERSION, "ngram_orders": list(NGRAM_ORDERS),
                   "dense_features": list(DENSE_FEATURES), "meta": self.meta,
                   "intercept": self.intercept, "dense_mean": self.dense_mean,
                   "dense_scale": self.dense_scale, "dense_coef": self.dense_coef,
                   "vocabulary": self.vocabulary, "idf": self.idf, "ngram_coef": self.ngram_coef}
        return json.dumps(payload, ensure_ascii=False, indent=0, sort_keys=True) + "\n"

    @classmethod
    def from_json(cls, text: str, *, source: str = "<model>") -> FormulaicnessModel:
        """Read :meth:`to_json`'s form; a model made for other features is refused."""
        data = json.loads(text)
        expected = (FEATURES_VERSION, list(NGRAM_ORDERS), list(DENSE_FEATURES))
        found = (data.get("features"), data.get("ngram_orders"), data.get("dense_features"))
        if found != expected:
            raise ValueError(f"{source}: made for features {found}, this code computes "
                             f"{expected}; retrain it (benchmarks/formulaicness_train.py)")
        tuples = {k: tuple(data[k]) for k in ("vocabulary", "idf", "ngram_coef", "dense_mean",
                                               "dense_scale", "dense_coef")}
        return cls(**tuples, intercept=float(data["intercept"]), meta=data.get("meta", {}))


@lru_cache(maxsize=1)
def load_shipped_model() -> FormulaicnessModel:
    """The model trained by ``benchmarks/formulaicness_train.py`` and shipped with transted."""
    text = resources.files("transted.fol.formulaicness").joinpath(MODEL_FILE).read_text("utf-8")
    return FormulaicnessModel.from_json(text, source=MODEL_FILE)


@dataclass(frozen=True)
class LengthBaseline:
    """Paper 004's length-only baseline: ``slope · tokens + intercept``, clipped to [0, 1]."""

    slope: float
    intercept: float

    @classmethod
    def fit(cls, texts: Sequence[str], scores: Sequence[float]) -> LengthBaseline:
        lengths = np.array([_length(t) for t in texts], dtype=float)
        slope, intercept = np.polyfit(lengths, np.asarray(scores, dtype=float), 1)
        return cls(float(slope), float(intercept))

    def predict(self, texts: Sequence[str]) -> np.ndarray:
        lengths = np.array([_length(t) for t in texts], dtype=float)
        return np.clip(self.slope * lengths + self.intercept, 0.0, 1.0)


def _length(text: str) -> int:
    return sum(t[0].isalnum() for t in tokens(text))


def _design(texts: Sequence[str], vectorizer: Any, scaler: Any, *, fit: bool) -> Any:
    from scipy import sparse

    dense = np.array([dense_features(t) for t in texts])
    ngrams = vectorizer.fit_transform(texts) if fit else vectorizer.transform(texts)
    scaled = scaler.fit_transform(dense) if fit else scaler.transform(dense)
    # dense for Ridge's exact Cholesky solver (it fits no intercept on sparse input); a few
    # thousand texts by a few thousand n-grams is tens of megabytes
    return sparse.hstack([ngrams, sparse.csr_matrix(scaled)]).toarray()


def fit_model(train: tuple[Sequence[str], Sequence[float]],
              validation: tuple[Sequence[str], Sequence[float]], *,
              meta: dict[str, Any] | None = None) -> tuple[FormulaicnessModel, Any]:
    """Fit the regressor on ``train`` (texts, scores), choose ``alpha`` by validation MSE.

    Returns the exported model and the scikit-learn pipeline parts ``(vectorizer, scaler,
    ridge)`` it was read from (to check that both predict alike)."""
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import Ridge
    from sklearn.preprocessing import StandardScaler

    vectorizer = TfidfVectorizer(analyzer=skeleton_ngrams, min_df=2, norm="l2")
    scaler = StandardScaler()
    x_train = _design(train[0], vectorizer, scaler, fit=True)
    x_valid = _design(validation[0], vectorizer, scaler, fit=False)
    errors = {}
    for alpha in ALPHAS:
        ridge = Ridge(alpha=alpha, solver="cholesky").fit(x_train, train[1])
        predicted = np.clip(ridge.predict(x_valid), 0.0, 1.0)
        errors[alpha] = float(np.mean((predicted - np.asarray(validation[1])) ** 2))
    best = min(ALPHAS, key=lambda a: (errors[a], a))
    ridge = Ridge(alpha=best, solver="cholesky").fit(x_train, train[1])
    n_grams = len(vectorizer.vocabulary_)
    vocabulary = sorted(vectorizer.vocabulary_, key=vectorizer.vocabulary_.__getitem__)
    model = FormulaicnessModel(
        vocabulary=tuple(vocabulary), idf=tuple(float(v) for v in vectorizer.idf_),
        ngram_coef=tuple(float(v) for v in ridge.coef_[:n_grams]),
        dense_mean=tuple(float(v) for v in scaler.mean_),
        dense_scale=tuple(float(v) for v in scaler.scale_),
        dense_coef=tuple(float(v) for v in ridge.coef_[n_grams:]),
        intercept=float(ridge.intercept_),
        meta={**(meta or {}), "alpha": best,
              "validation_mse": {repr(a): round(e, 6) for a, e in errors.items()}})
    return model, (vectorizer, scaler, ridge)


def write_model(model: FormulaicnessModel, path: str | Path) -> None:
    Path(path).write_text(model.to_json(), "utf-8")
