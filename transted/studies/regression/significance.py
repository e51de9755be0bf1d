"""Paired figures of a regression: how sure is it that the new version scores lower?

A seeded paired bootstrap of the mean difference (percentile interval, and the share of
resamples whose mean difference is >= 0 as a one-sided p for "new is worse"), the one-sided
Wilcoxon signed-rank p and the one-sided exact sign-test p (scipy).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.stats import binomtest, wilcoxon

__all__ = ["Significance", "paired_significance"]

_BOOT_CHUNK = 1000  # resamples drawn at once: bounds memory at _BOOT_CHUNK * n indices


@dataclass(frozen=True)
class Significance:
    """Paired figures for ``delta = new - old`` over the pairs scored in both versions."""

    n: int
    mean_delta: float | None
    ci_low: float | None
    ci_high: float | None
    confidence: float
    n_boot: int
    seed: int
    p_bootstrap: float | None
    """Share of bootstrap resamples with mean delta >= 0: one-sided p for "new is worse"."""
    p_wilcoxon: float | None
    """One-sided Wilcoxon signed-rank p (alternative: deltas tend to be negative)."""
    p_sign: float | None
    """One-sided exact sign test p on the pairs that got worse vs better."""
    n_worse: int
    n_improved: int


def paired_significance(deltas: list[float], *, n_boot: int = 10000, seed: int = 0,
                        confidence: float = 0.95) -> Significance:
    """Seeded paired bootstrap of the mean of ``deltas``, Wilcoxon signed-rank and sign test.

    A delta of exactly 0 counts neither as worse nor as improved (Wilcoxon's ``"wilcox"``
    zero handling; the sign test uses only the non-zero deltas).
    """
    if n_boot < 1:
        raise ValueError(f"`n_boot` must be >= 1, got {n_boot}")
    if not 0 < confidence < 1:
        raise ValueError(f"`confidence` must be in (0, 1), got {confidence}")
    d = np.asarray(deltas, dtype=float)
    n_worse, n_improved = int((d < 0).sum()), int((d > 0).sum())
    if len(d) == 0:
        return Significance(0, None, None, None, confidence, n_boot, seed, None, None, None, 0, 0)
    rng = np.random.default_rng(seed)
    # Hand-rolled rather than scipy.stats.bootstrap: the p figure needs the resampled means.
    means = np.concatenate([d[rng.integers(0, len(d), size=(min(_BOOT_CHUNK, n_boot - i),
                                                             len(d)))].mean(axis=1)
                            for i in range(0, n_boot, _BOOT_CHUNK)])
    tail = (1 - confidence) / 2
    low, high = np.quantile(means, [tail, 1 - tail])
    nonzero = n_worse + n_improved
    p_wilcoxon = 1.0 if nonzero == 0 else float(wilcoxon(d, alternative="less").pvalue)
    p_sign = 1.0 if nonzero == 0 else float(
        binomtest(n_worse, nonzero, 0.5, alternative="greater").pvalue)
    return Significance(len(d), float(d.mean()), float(low), float(high), confidence, n_boot,
                        seed, float((means >= 0).mean()), p_wilcoxon, p_sign, n_worse,
                        n_improved)
