"""The ``formulaicness`` metric object (paper 004; library in :mod:`transted.fol.formulaicness`) and its text-file format.

A text to score travels through transted's batch machinery (:func:`transted.api.score_formulaicness`
→ :func:`transted.running.batch.score_pairs`: streamed output, resume, lock, validation of the output on
resume) as a :class:`Pair` whose
candidate is the text and whose reference is its formula ("" without one); the result line is a
:class:`~transted.metrics.base.MetricResult` whose ``score`` is F(t) and whose ``details`` hold
``formulaicness``, ``naturalness`` (M), ``combined`` (eq. 1) and ``flesch``; with a formula
also the Literal and Optimised verbalisations of it and their formulaicness, to place the text
between its formula's most and least formulaic renderings.
"""

from __future__ import annotations

from collections.abc import Iterable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from transted.errors import InputError, ParseError, ResourceLimitError
from transted.fol.formulaicness.literal import verbalise_literal
from transted.fol.formulaicness.model import (
    FEATURES_VERSION,
    FormulaicnessModel,
    load_shipped_model,
)
from transted.fol.formulaicness.naturalness import (
    ALPHA,
    BETA,
    PYPHEN_LANG,
    combine,
    flesch_reading_ease,
    naturalness,
)
from transted.fol.formulaicness.optimised import verbalise_optimised
from transted.fol.syntax import parse_formula
from transted.metrics.base import Metric, PairScore
from transted.reading.pairs import Pair, Statement, iter_jsonl

__all__ = ["Formulaicness", "TextItem", "read_texts", "text_pairs",
           "formulaicness", "VERBALISERS_VERSION"]

VERBALISERS_VERSION = "1"
"""Bump when the Literal or Optimised verbaliser changes its text for some formula."""


class TextItem(BaseModel):
    """One input line: ``text``, optionally its ``formula`` and an ``id``."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    text: str = Field(min_length=1)
    formula: str | None = None
    id: str | None = Field(default=None, min_length=1)
    meta: dict[str, Any] = {}


def _pyphen_version() -> str:
    try:
        return version("pyphen")
    except PackageNotFoundError:  # pragma: no cover - pyphen is a dependency
        return "unknown"


class Formulaicness(Metric):
    """``formulaicness``: F(t) from the shipped regressor, with M(t) and eq. 1's combination.

    Parameters
    ----------
    alpha, beta : weights of eq. 1 (default: paper 004 Table 11's FRE row).
    model : a fitted :class:`FormulaicnessModel` (default: the shipped one).
    """

    name: ClassVar[str] = "formulaicness"
    version: ClassVar[str] = "1"
    DEFAULT_WEIGHTS: ClassVar[tuple[float, float]] = (ALPHA, BETA)

    def __init__(self, alpha: float = ALPHA, beta: float = BETA,
                 model: FormulaicnessModel | None = None):
        combine(0.5, 0.5, alpha=alpha, beta=beta)  # checks the weights before any work
        self.alpha, self.beta = float(alpha), float(beta)
        self.model = model if model is not None else load_shipped_model()

    def options(self) -> dict[str, object]:
        return {"model": f"ridge-{self.model.digest}", "features": FEATURES_VERSION,
                "m": f"fre-pyphen-{_pyphen_version()}-{PYPHEN_LANG}", "alpha": self.alpha,
                "beta": self.beta, "verbalisers": VERBALISERS_VERSION}

    def _score(self, pair: Pair) -> PairScore:
        text = pair.candidate.statement
        f = float(self.model.predict([text])[0])
        m = naturalness(text)
        details: dict[str, Any] = {
            "formulaicness": f, "naturalness": m, "flesch": flesch_reading_ease(text),
            "combined": combine(m, f, alpha=self.alpha, beta=self.beta)}
        if pair.reference.statement:
            details.update(self._renderings(pair.reference.statement))
        return PairScore(f, details)

    def _renderings(self, formula: str) -> dict[str, Any]:

        tree = parse_formula(formula)
        texts = {"literal": verbalise_literal(tree), "optimised": verbalise_optimised(tree)}
        scores = self.model.predict(list(texts.values()))
        return {name: {"text": text, "formulaicness": float(score)}
                for (name, text), score in zip(texts.items(), scores, strict=True)}


def _check_formula(formula: str, where: str) -> None:

    try:
        parse_formula(formula)
    except ParseError as e:
        raise InputError(f"{where}: field `formula`: {e.reason} at column {e.column}") from e
    except ResourceLimitError as e:
        raise InputError(f"{where}: field `formula`: {e}") from e


def read_texts(path: str | Path) -> list[TextItem]:
    """Read a text JSONL file (``-`` = stdin). Errors name file, line and field: bad JSON,
    a missing or empty ``text``, an unknown key, a formula that does not parse, a repeated id.
    A line without ``id`` gets its line number."""

    items: list[TextItem] = []
    seen: dict[str, int] = {}
    for number, obj in iter_jsonl(path):
        if isinstance(obj.get("id"), int) and not isinstance(obj.get("id"), bool):
            obj = {**obj, "id": str(obj["id"])}
        try:
            item = TextItem.model_validate(obj)
        except ValidationError as e:
            problems = "; ".join(f"field `{'.'.join(str(p) for p in err['loc'])}`: {err['msg']}"
                                 for err in e.errors()[:3])
            raise InputError(f"{path}:{number}: {problems}") from e
        if item.formula is not None:
            _check_formula(item.formula, f"{path}:{number}")
        item_id = item.id or str(number)
        if item_id in seen:
            raise InputError(f"{path}:{number}: duplicate id {item_id!r} (first on line "
                             f"{seen[item_id]})")
        seen[item_id] = number
        items.append(item.model_copy(update={"id": item_id}))
    return items


def text_pairs(items: Iterable[TextItem | str | dict[str, Any]]) -> list[Pair]:
    """The pairs that carry ``items`` through the batch runner (strings get ids "1", "2", …)."""
    pairs = []
    for i, item in enumerate(items, start=1):
        if isinstance(item, str):
            item = TextItem(text=item)
        elif isinstance(item, dict):
            item = TextItem.model_validate(item)
        pairs.append(Pair(id=item.id or str(i), reference=Statement(statement=item.formula or ""),
                          candidate=Statement(statement=item.text), meta=item.meta))
    return pairs



def formulaicness(text: str) -> float:
    """F(t) of one text with the shipped model, in [0, 1]."""
    if not isinstance(text, str):
        raise TypeError(f"`text` must be a str, got {type(text).__name__}")
    return float(load_shipped_model().predict([text])[0])
