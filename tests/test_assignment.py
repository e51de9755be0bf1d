"""transted.assignment returns scipy's assignment, ties included (it replaces scipy.optimize on
the start-up path: transted.pipeline.ted.hypotheses, transted.pipeline.verdict.parts)."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy.optimize import linear_sum_assignment

from transted.assignment import min_cost_assignment
from transted.errors import InputError


def _scipy(cost: list[list[float]]) -> tuple[list[int], list[int]]:
    rows, cols = linear_sum_assignment(np.array(cost, dtype=float).reshape(len(cost), -1))
    return rows.tolist(), cols.tolist()


@pytest.mark.parametrize("values", [(0, 1), (0, 1, 2), (0.0, 0.25, 1.0, 1e-4, 5.0), None])
def test_same_assignment_as_scipy_on_random_matrices(values):
    rng = random.Random(f"assignment-{values}")
    for _ in range(1500):
        n, m = rng.randint(1, 7), rng.randint(1, 7)
        if values is None:  # distinct floats, and sums of the binder costs' tie-breaks
            cost = [[rng.random() * 10 for _ in range(m)] for _ in range(n)]
        else:  # few values: many optimal assignments, so the tie-breaks decide
            cost = [[rng.choice(values) for _ in range(m)] for _ in range(n)]
        assert min_cost_assignment(cost) == _scipy(cost), cost


def test_constant_matrix_gives_the_identity_and_rectangles_keep_rows_in_order():
    assert min_cost_assignment([[1.0] * 3] * 3) == ([0, 1, 2], [0, 1, 2])
    assert min_cost_assignment([[5, 1], [1, 5], [9, 9]]) == ([0, 1], [1, 0])
    rows, cols = min_cost_assignment([[3, 1, 2]])
    assert (rows, cols) == ([0], [1])


def test_forbidden_cells_and_empty_or_bad_matrices():
    big = 1e9
    assert min_cost_assignment([[big, 1], [1, big]]) == ([0, 1], [1, 0])
    assert min_cost_assignment([[math.inf, 2], [1, math.inf]]) == ([0, 1], [1, 0])
    assert min_cost_assignment([]) == ([], [])
    assert min_cost_assignment([[]]) == ([], [])
    with pytest.raises(InputError, match="no finite-cost"):
        min_cost_assignment([[math.inf, math.inf], [1, 2]])
    with pytest.raises(InputError, match="NaN"):
        min_cost_assignment([[math.nan]])
    with pytest.raises(InputError, match="ragged"):
        min_cost_assignment([[1, 2], [3]])
