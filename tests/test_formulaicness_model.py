"""The shipped formulaicness regressor: loads, predicts deterministically, equals what the
training script makes, and its numpy prediction equals scikit-learn's."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from transted.fol.formulaicness.model import (
    FormulaicnessModel,
    LengthBaseline,
    fit_model,
    load_shipped_model,
)
from transted.fol.formulaicness.training import SEED, texts_and_scores, train

FOLIO = Path(__file__).parent / "data" / "fol" / "folio"
TEXTS = ["For all x, if x is a cube, then it is not the case that x is small.",
         "No cube is small.", "Rina is a student and Rina is unaware.", "x", "", "…"]


def test_shipped_model_loads_and_predicts_deterministically() -> None:
    model = load_shipped_model()
    first = model.predict(TEXTS)
    again = FormulaicnessModel.from_json(model.to_json()).predict(list(reversed(TEXTS)))
    assert np.array_equal(first, again[::-1])
    assert ((first >= 0) & (first <= 1)).all()
    assert first[0] > 0.7 > 0.4 > first[1]  # a Literal text vs its Optimised rendering
    assert model.meta["seed"] == SEED and len(model.digest) == 8


def test_model_from_other_features_is_refused() -> None:
    data = json.loads(load_shipped_model().to_json())
    data["features"] = "0"
    with pytest.raises(ValueError, match="retrain"):
        FormulaicnessModel.from_json(json.dumps(data))


def test_numpy_prediction_equals_scikit_learn() -> None:
    from transted.fol.formulaicness.model import _design

    texts = ["For all x, x is a cube.", "Every cube is small.", "Some cube is not large.",
             "There is an element y such that y is small.", "A is a cube and A is small.",
             "Cats sleep a lot.", "For all x, if x is a tet, then x is small."] * 3
    scores = [0.9, 0.3, 0.35, 0.85, 0.8, 0.1, 0.95] * 3
    model, (vectorizer, scaler, ridge) = fit_model((texts, scores), (texts[:7], scores[:7]))
    probe = ["For every x, x is small.", "Every dog barks.", "no words known here"]
    expected = np.clip(ridge.predict(_design(probe, vectorizer, scaler, fit=False)), 0, 1)
    assert np.allclose(model.predict(probe), expected, atol=1e-12)


def test_length_baseline_is_least_squares_on_length() -> None:
    baseline = LengthBaseline.fit(["a b", "a b c d"], [0.2, 0.4])  # 2 words → .2, 4 → .4
    assert baseline.slope == pytest.approx(0.1) and baseline.intercept == pytest.approx(0.0)
    assert baseline.predict(["a b c"]).tolist() == pytest.approx([0.3])


@pytest.mark.slow
def test_shipped_model_is_what_the_training_script_makes() -> None:
    """Re-run benchmarks/formulaicness_train.py's computation (about 20 s)."""
    run = train(FOLIO, seed=SEED)
    shipped = load_shipped_model()
    assert run.model.vocabulary == shipped.vocabulary
    assert run.model.meta == shipped.meta
    for field in ("idf", "ngram_coef", "dense_mean", "dense_scale", "dense_coef"):
        assert np.allclose(getattr(run.model, field), getattr(shipped, field), atol=1e-9), field
    test_texts, _ = texts_and_scores(run.dataset.split("test"))
    assert np.allclose(run.model.predict(test_texts), shipped.predict(test_texts), atol=1e-9)
