"""Minimum-cost assignment of a small cost matrix, without importing ``scipy.optimize``.

Hand-written because importing ``scipy.optimize`` takes 0.3–1.6 s (its package imports
``scipy.linalg``, the linear-programming solvers and more), which alone exceeds the budget of
one scored ``ted`` pair in a fresh process (issue 34), while the matrices here (a statement's
binders or hypotheses) have a handful of rows.

:func:`min_cost_assignment` is the shortest augmenting path method of D. F. Crouse, "On
implementing 2D rectangular assignment algorithms", IEEE Trans. Aerospace and Electronic
Systems 52(4), 2016 (Algorithm 1 with the dual updates of §IV), the method
``scipy.optimize.linear_sum_assignment`` implements: the rows are augmented in order, the
columns scanned in the same order with the same tie-breaks (a column no row holds wins a tie),
and a matrix with more rows than columns is solved transposed. It therefore returns the same
assignment as scipy, ties included; tests/test_assignment.py checks that against scipy on
random matrices full of ties. It runs in O(n²·m) Python steps: for small matrices only (the
paper metrics of ``transted.fol`` keep scipy).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from transted.errors import InputError

__all__ = ["min_cost_assignment"]


def min_cost_assignment(cost: Sequence[Sequence[float]]) -> tuple[list[int], list[int]]:
    """Rows and columns of a minimum-cost assignment of ``cost`` (``min(n, m)`` pairs, rows in
    increasing order), as ``scipy.optimize.linear_sum_assignment(cost)`` returns them."""
    matrix = [[float(x) for x in row] for row in cost]
    n = len(matrix)
    m = len(matrix[0]) if n else 0
    if any(len(row) != m for row in matrix):
        raise InputError("assignment: the cost matrix is ragged")
    if any(math.isnan(x) or x == -math.inf for row in matrix for x in row):
        raise InputError("assignment: the cost matrix holds NaN or -inf")
    if n == 0 or m == 0:
        return [], []
    if m < n:  # augment along the shorter side, as scipy does
        row_of_col = _solve([list(col) for col in zip(*matrix, strict=True)])
        order = sorted(range(m), key=lambda j: row_of_col[j])
        return [row_of_col[j] for j in order], order
    return list(range(n)), _solve(matrix)


def _solve(cost: list[list[float]]) -> list[int]:
    """The column of each row (``len(cost) <= len(cost[0])``)."""
    n, m = len(cost), len(cost[0])
    u, v = [0.0] * n, [0.0] * m
    col4row, row4col = [-1] * n, [-1] * m
    for row in range(n):
        found = _augmenting_path(cost, u, v, row4col, row)
        sink, lowest, path, shortest, rows_seen, cols_seen = found
        u[row] += lowest
        for i in rows_seen:
            if i != row:
                u[i] += lowest - shortest[col4row[i]]
        for j in cols_seen:
            v[j] -= lowest - shortest[j]
        j = sink
        while True:  # flip the path's edges back to its first row
            i = path[j]
            row4col[j] = i
            col4row[i], j = j, col4row[i]
            if i == row:
                break
    return col4row


def _augmenting_path(cost: list[list[float]], u: list[float], v: list[float],
                     row4col: list[int], row: int
                     ) -> tuple[int, float, list[int], list[float], list[int], list[int]]:
    """The shortest path in reduced costs from ``row`` to a free column: its sink, its length,
    each column's predecessor row and distance, and the rows and columns the search fixed."""
    m = len(cost[0])
    remaining = [m - k - 1 for k in range(m)]  # scanned from the end: scipy's order
    shortest = [math.inf] * m
    path = [-1] * m
    rows_seen: list[int] = []
    cols_seen: list[int] = []
    lowest = 0.0
    i, sink = row, -1
    while sink == -1:
        rows_seen.append(i)
        reached, best, at = lowest, math.inf, -1
        for k, j in enumerate(remaining):
            r = reached + cost[i][j] - u[i] - v[j]
            if r < shortest[j]:
                path[j] = i
                shortest[j] = r
            if shortest[j] < best or (shortest[j] == best and row4col[j] == -1):
                best, at = shortest[j], k
        lowest = best
        if lowest == math.inf:
            raise InputError("assignment: no finite-cost assignment exists")
        j = remaining[at]
        if row4col[j] == -1:
            sink = j
        else:
            i = row4col[j]
        cols_seen.append(j)
        remaining[at] = remaining[-1]
        remaining.pop()
    return sink, lowest, path, shortest, rows_seen, cols_seen
