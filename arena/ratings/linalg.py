"""Just enough dense linear algebra for the rating fits: Cholesky factor, solve, inverse diagonal.

Matrices are lists of rows. Sizes are at most a few hundred, so plain Python is fast enough
(a 300 x 300 factorisation is a fraction of a second); inner products go through
`sum(map(mul, ...))` because that keeps the inner loop in C.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from operator import mul

from arena.ratings.errors import LinearAlgebraError, NotPositiveDefiniteError

Matrix = list[list[float]]
Vector = list[float]

# A pivot this small relative to the largest diagonal entry means "singular": rounding noise
# would otherwise turn an exactly singular matrix into a wildly wrong "solution".
_PIVOT_RTOL = 1e-13


def _dot(x: Sequence[float], y: Sequence[float]) -> float:
    return float(sum(map(mul, x, y)))


def _check_square(a: Sequence[Sequence[float]]) -> int:
    n = len(a)
    if n == 0 or any(len(row) != n for row in a):
        raise LinearAlgebraError("expected a non-empty square matrix")
    return n


def cholesky(a: Sequence[Sequence[float]]) -> Matrix:
    """Lower-triangular L with L L^T = a, for a symmetric positive definite `a`.

    Only the lower triangle of `a` is read. Raises `NotPositiveDefiniteError` when a pivot is not
    clearly positive, which is also how singular (e.g. gauge-free) information matrices show up.
    """
    n = _check_square(a)
    floor = _PIVOT_RTOL * max(abs(a[i][i]) for i in range(n))
    lower: Matrix = [[0.0] * n for _ in range(n)]
    for i in range(n):
        row = lower[i]
        for j in range(i):
            row[j] = (a[i][j] - _dot(row[:j], lower[j][:j])) / lower[j][j]
        pivot = a[i][i] - _dot(row[:i], row[:i])
        if not pivot > floor:  # written this way round so NaN fails too
            raise NotPositiveDefiniteError(f"matrix is not positive definite (pivot {i})")
        row[i] = math.sqrt(pivot)
    return lower


def solve_lower(lower: Sequence[Sequence[float]], b: Sequence[float], start: int = 0) -> Vector:
    """Forward substitution: x with L x = b, taking b[i] = 0 for i < start (x is zero there)."""
    n = len(lower)
    if len(b) != n:
        raise LinearAlgebraError(f"vector has {len(b)} entries, matrix has {n} rows")
    x = [0.0] * n
    for i in range(start, n):
        x[i] = (b[i] - _dot(lower[i][start:i], x[start:i])) / lower[i][i]
    return x


def solve_upper_from_lower(lower: Sequence[Sequence[float]], b: Sequence[float]) -> Vector:
    """Back substitution with L^T: x with L^T x = b, without forming the transpose."""
    n = len(lower)
    if len(b) != n:
        raise LinearAlgebraError(f"vector has {len(b)} entries, matrix has {n} rows")
    x = list(map(float, b))
    for i in reversed(range(n)):
        x[i] /= lower[i][i]
        xi = x[i]
        row = lower[i]
        for k in range(i):  # column i of L^T is row i of L
            x[k] -= row[k] * xi
    return x


def cholesky_solve(lower: Sequence[Sequence[float]], b: Sequence[float]) -> Vector:
    """x with (L L^T) x = b, given the Cholesky factor L."""
    return solve_upper_from_lower(lower, solve_lower(lower, b))


def cholesky_inverse_diagonal(lower: Sequence[Sequence[float]]) -> Vector:
    """Diagonal of (L L^T)^-1 without forming the inverse.

    (L L^T)^-1 = L^-T L^-1, so entry j is the squared norm of column j of L^-1, i.e. of the
    solution of L x = e_j, whose first j entries are zero.
    """
    n = len(lower)
    diagonal = []
    for j in range(n):
        unit = [0.0] * n
        unit[j] = 1.0
        column = solve_lower(lower, unit, start=j)
        diagonal.append(_dot(column, column))
    return diagonal


def mat_vec(a: Sequence[Sequence[float]], x: Sequence[float]) -> Vector:
    """The product a x."""
    if any(len(row) != len(x) for row in a):
        raise LinearAlgebraError("matrix and vector sizes do not match")
    return [_dot(row, x) for row in a]
