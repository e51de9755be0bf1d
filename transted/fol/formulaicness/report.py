"""The numbers and figure of ``docs/FORMULAICNESS.md``: tiers, correlations, held-out checks.

:func:`build_report` gathers, for a training run (the shipped model on the rebuilt dataset):
dataset sizes per tier and split; tier means of the target and of both predictors with
bootstrap intervals; test-split Pearson/Spearman/MSE of the regressor and of the length-only
baseline (and the tier ceiling); pairwise checks on held-out texts (FOLIO test-split human
sentences against the synthetic texts of their formula, all pairs and the length-controlled
ones where the human sentence is the longer); the hand-written pairs; naturalness by tier; ten
examples. :func:`markdown` renders it, :func:`plot` draws the figure.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from transted.fol.formulaicness.features import tokens
from transted.fol.formulaicness.naturalness import combine, naturalness
from transted.fol.formulaicness.tiers import TIERS, TieredText, tier_ceiling
from transted.fol.formulaicness.training import TrainingRun

__all__ = ["build_report", "markdown", "plot", "BOOTSTRAP", "SPLITS"]

SPLITS = ("train", "validation", "test")
BOOTSTRAP = 2000
"""Resamples for the 95 % percentile intervals of tier means (seeded)."""


def _length(text: str) -> int:
    return sum(t[0].isalnum() for t in tokens(text))


def _interval(values: np.ndarray, rng: np.random.Generator) -> tuple[float, float, float]:
    means = rng.choice(values, size=(BOOTSTRAP, len(values))).mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return float(values.mean()), float(low), float(high)


def _tier_rows(run: TrainingRun, rng: np.random.Generator) -> list[dict[str, Any]]:
    rows = []
    for split in SPLITS:
        texts = run.dataset.split(split)
        for tier in TIERS:
            chosen = [t for t in texts if t.tier == tier]
            values = [t.text for t in chosen]
            target = _interval(np.array([t.score for t in chosen]), rng)
            model = _interval(run.model.predict(values), rng)
            baseline = _interval(run.baseline.predict(values), rng)
            rows.append({"split": split, "tier": tier, "n": len(chosen),
                         "mean_words": float(np.mean([_length(v) for v in values])),
                         "target": target, "model": model, "length": baseline})
    return rows


def _correlations(predicted: np.ndarray, target: np.ndarray) -> dict[str, float]:
    from scipy.stats import pearsonr, spearmanr

    mse = float(np.mean((predicted - target) ** 2))
    return {"pearson": float(pearsonr(predicted, target)[0]),
            "spearman": float(spearmanr(predicted, target)[0]), "mse": mse,
            "r2": 1.0 - mse / float(np.var(target))}


def _pairwise(pairs: Sequence[tuple[str, str]], run: TrainingRun) -> dict[str, Any]:
    """How often each predictor scores the first (more formulaic) text of a pair higher; a
    tie counts one half."""
    if not pairs:
        return {"n": 0}
    first, second = [p[0] for p in pairs], [p[1] for p in pairs]
    out: dict[str, Any] = {"n": len(pairs)}
    for name, predictor in (("model", run.model), ("length", run.baseline)):
        a, b = predictor.predict(first), predictor.predict(second)
        out[name] = float(np.mean((a > b) + 0.5 * (a == b)))
    return out


def _held_out_pairs(texts: list[TieredText]) -> dict[str, list[tuple[str, str]]]:
    """(more formulaic, less formulaic) pairs of one formula in ``texts``."""
    by_formula: dict[str, dict[str, list[str]]] = {}
    for t in texts:
        by_formula.setdefault(t.formula, {}).setdefault(t.tier, []).append(t.text)
    pairs: dict[str, list[tuple[str, str]]] = {"all": [], "length_controlled": []}
    for tiers in by_formula.values():
        for i, upper in enumerate(TIERS):
            for lower in TIERS[i + 1:]:
                for a in tiers.get(upper, []):
                    for b in tiers.get(lower, []):
                        pairs["all"].append((a, b))
                        if lower == "human" and _length(b) > _length(a):
                            pairs["length_controlled"].append((a, b))
    return pairs


def _handwritten(rows: Sequence[dict[str, Any]], run: TrainingRun) -> dict[str, Any]:
    general = [(r["literal"], r["natural"]) for r in rows if r["id"].startswith("h")]
    controlled = [(r["literal"], r["natural"]) for r in rows if r["id"].startswith("l")]
    if any(_length(n) <= _length(lit) for lit, n in controlled):
        raise ValueError("a length-controlled hand-written pair has the shorter natural text")
    literal = run.model.predict([r["literal"] for r in rows])
    natural = run.model.predict([r["natural"] for r in rows])
    per_row = [{"id": r["id"], "literal": float(a), "natural": float(b)}
               for r, a, b in zip(rows, literal, natural, strict=True)]
    return {"general": _pairwise(general, run), "length_controlled": _pairwise(controlled, run),
            "rows": per_row}


def _naturalness(texts: list[TieredText], run: TrainingRun) -> dict[str, Any]:
    from scipy.stats import spearmanr

    m = np.array([naturalness(t.text) for t in texts])
    f = run.model.predict([t.text for t in texts])
    combined = np.array([combine(a, b) for a, b in zip(m, f, strict=True)])
    target = -np.array([t.score for t in texts])  # less formulaic tier = more natural, by design
    by_tier = {tier: {"m": float(m[[t.tier == tier for t in texts]].mean()),
                      "combined": float(combined[[t.tier == tier for t in texts]].mean())}
               for tier in TIERS}
    return {"by_tier": by_tier,
            "spearman_vs_tier_order": {"m": float(spearmanr(m, target)[0]),
                                       "combined": float(spearmanr(combined, target)[0])}}


def _examples(run: TrainingRun, rng: np.random.Generator, n_formulas: int = 3) -> list[dict]:
    test = run.dataset.split("test")
    complete = sorted({t.formula for t in test
                       if {u.tier for u in test if u.formula == t.formula} == set(TIERS)})
    chosen = rng.choice(complete, size=min(n_formulas, len(complete)), replace=False)
    rows = []
    for formula in sorted(chosen):
        for t in sorted((t for t in test if t.formula == formula), key=lambda t: TIERS.index(t.tier)):
            f = float(run.model.predict([t.text])[0])
            m = naturalness(t.text)
            rows.append({"formula": formula, "tier": t.tier, "text": t.text, "target": t.score,
                         "formulaicness": f, "length": float(run.baseline.predict([t.text])[0]),
                         "naturalness": m, "combined": combine(m, f)})
    return rows


def build_report(run: TrainingRun, handwritten: Sequence[dict[str, Any]],
                 case_sentences: Sequence[str], *, seed: int = 0) -> dict[str, Any]:
    """Every figure of the report, JSON-ready (see the module docstring)."""
    rng = np.random.default_rng(seed)
    test = run.dataset.split("test")
    target = np.array([t.score for t in test])
    texts = [t.text for t in test]
    held_out = _held_out_pairs(test)
    return {
        "meta": run.model.meta, "skipped_formulas": len(run.dataset.skipped),
        "left_out_lines": run.left_out,
        "tiers": _tier_rows(run, rng),
        "test": {"model": _correlations(run.model.predict(texts), target),
                 "length": _correlations(run.baseline.predict(texts), target),
                 "tier_ceiling_pearson": tier_ceiling(test)},
        "held_out_folio": {k: _pairwise(v, run) for k, v in held_out.items()},
        "handwritten": _handwritten(handwritten, run),
        "case_sentences": [{"text": s, "formulaicness": float(run.model.predict([s])[0])}
                           for s in case_sentences],
        "naturalness_test": _naturalness(test, run),
        "examples": _examples(run, rng),
        "baseline": {"slope": run.baseline.slope, "intercept": run.baseline.intercept},
    }


def _ci(cell: Sequence[float]) -> str:
    return f"{cell[0]:.3f} [{cell[1]:.3f}, {cell[2]:.3f}]"


def markdown(report: dict[str, Any]) -> str:
    """The report's tables in Markdown."""
    lines = ["| split | tier | texts | mean words | target F | regressor | length baseline |",
             "|---|---|---:|---:|---|---|---|"]
    lines += [f"| {r['split']} | {r['tier']} | {r['n']} | {r['mean_words']:.1f} | "
              f"{_ci(r['target'])} | {_ci(r['model'])} | {_ci(r['length'])} |"
              for r in report["tiers"]]
    lines += ["", "| test split | Pearson r | Spearman ρ | MSE | R² |", "|---|---:|---:|---:|---:|"]
    lines += [f"| {name} | {c['pearson']:.3f} | {c['spearman']:.3f} | {c['mse']:.4f} | "
              f"{c['r2']:.3f} |" for name, c in report["test"].items() if isinstance(c, dict)]
    lines += ["", "| pairwise check (more formulaic text scored higher) | pairs | regressor | "
              "length baseline |", "|---|---:|---:|---:|"]
    checks = [("FOLIO test split, all within-formula pairs", report["held_out_folio"]["all"]),
              ("FOLIO test split, human sentence longer", report["held_out_folio"]["length_controlled"]),
              ("hand-written, general (h01–h24)", report["handwritten"]["general"]),
              ("hand-written, natural longer (l01–l16)", report["handwritten"]["length_controlled"])]
    lines += [f"| {name} | {c['n']} | {c['model']:.3f} | {c['length']:.3f} |" for name, c in checks]
    lines += ["", "| tier (test) | mean M (FRE) | mean Combined (eq. 1) |", "|---|---:|---:|"]
    lines += [f"| {tier} | {v['m']:.3f} | {v['combined']:.3f} |"
              for tier, v in report["naturalness_test"]["by_tier"].items()]
    lines += ["", "| tier | text | target | F | length | M | Combined |",
              "|---|---|---:|---:|---:|---:|---:|"]
    lines += [f"| {e['tier']} | {e['text']} | {e['target']:.2f} | {e['formulaicness']:.2f} | "
              f"{e['length']:.2f} | {e['naturalness']:.2f} | {e['combined']:.2f} |"
              for e in report["examples"]]
    return "\n".join(lines) + "\n"


def plot(run: TrainingRun, report: dict[str, Any], path: str | Path) -> None:
    """Predicted vs target F on the test split (regressor, length baseline, identity; paper
    004 Fig. 3) and tier means with their intervals, to ``path`` (format from the suffix)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    test = run.dataset.split("test")
    target = np.array([t.score for t in test])
    texts = [t.text for t in test]
    fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4.5))
    left.scatter(target, run.baseline.predict(texts), s=6, alpha=0.35, label="length baseline")
    left.scatter(target, run.model.predict(texts), s=6, alpha=0.35, label="regressor")
    left.plot([0, 1], [0, 1], color="black", linewidth=1, label="identity")
    left.set(xlabel="target formulaicness (tier bin)", ylabel="predicted",
             title="Test split: predicted vs target")
    left.legend(loc="upper left")
    rows = [r for r in report["tiers"] if r["split"] == "test"]
    x = np.arange(len(rows))
    for offset, key, label in ((-0.25, "target", "target"), (0.0, "model", "regressor"),
                               (0.25, "length", "length baseline")):
        means = np.array([r[key][0] for r in rows])
        errors = np.array([[r[key][0] - r[key][1] for r in rows], [r[key][2] - r[key][0] for r in rows]])
        right.bar(x + offset, means, width=0.25, yerr=errors, capsize=3, label=label)
    right.set_xticks(x, [r["tier"] for r in rows])
    right.set(ylabel="mean formulaicness (95% bootstrap CI)", title="Test split: tier means",
              ylim=(0, 1))
    right.legend()
    fig.tight_layout()
    fig.savefig(path, metadata={"Date": None} if str(path).endswith(".svg") else None)
    plt.close(fig)


def write_json(report: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(report, indent=1, ensure_ascii=False) + "\n", "utf-8")
