"""The small dense linear algebra behind the Bradley-Terry fit."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena.ratings.errors import LinearAlgebraError, NotPositiveDefiniteError
from arena.ratings.linalg import (
    cholesky,
    cholesky_inverse_diagonal,
    cholesky_solve,
    mat_vec,
    solve_lower,
    solve_upper_from_lower,
)

Matrix = list[list[float]]


def _gram(b: Matrix) -> Matrix:
    """B B^T + I: symmetric positive definite for any B."""
    n = len(b)
    return [
        [sum(x * y for x, y in zip(b[i], b[j], strict=True)) + (i == j) for j in range(n)]
        for i in range(n)
    ]


@st.composite
def spd_systems(draw: st.DrawFn) -> tuple[Matrix, list[float]]:
    n = draw(st.integers(min_value=1, max_value=7))
    entries = st.floats(min_value=-10.0, max_value=10.0)
    b = [draw(st.lists(entries, min_size=n, max_size=n)) for _ in range(n)]
    rhs = draw(st.lists(entries, min_size=n, max_size=n))
    return _gram(b), rhs


def test_cholesky_known_factor() -> None:
    a = [[4.0, 12.0, -16.0], [12.0, 37.0, -43.0], [-16.0, -43.0, 98.0]]
    assert cholesky(a) == [[2.0, 0.0, 0.0], [6.0, 1.0, 0.0], [-8.0, 5.0, 3.0]]


@given(spd_systems())
def test_cholesky_factor_reproduces_matrix(system: tuple[Matrix, list[float]]) -> None:
    a, _ = system
    lower = cholesky(a)
    n = len(a)
    for i in range(n):
        assert all(lower[i][j] == 0.0 for j in range(i + 1, n))
        for j in range(n):
            product = sum(lower[i][k] * lower[j][k] for k in range(n))
            assert product == pytest.approx(a[i][j], rel=1e-9, abs=1e-9)


@given(spd_systems())
def test_cholesky_solve_satisfies_the_system(system: tuple[Matrix, list[float]]) -> None:
    a, rhs = system
    x = cholesky_solve(cholesky(a), rhs)
    assert mat_vec(a, x) == pytest.approx(rhs, rel=1e-7, abs=1e-7)


@given(spd_systems())
def test_cholesky_inverse_diagonal_matches_solved_columns(
    system: tuple[Matrix, list[float]],
) -> None:
    a, _ = system
    lower = cholesky(a)
    n = len(a)
    expected = [cholesky_solve(lower, [float(i == j) for i in range(n)])[j] for j in range(n)]
    assert cholesky_inverse_diagonal(lower) == pytest.approx(expected, rel=1e-9)


def test_triangular_solves_known_values() -> None:
    lower = [[2.0, 0.0], [1.0, 4.0]]
    assert solve_lower(lower, [4.0, 10.0]) == [2.0, 2.0]  # 2x = 4; x + 4y = 10
    assert solve_upper_from_lower(lower, [5.0, 8.0]) == [1.5, 2.0]  # 2x + y = 5; 4y = 8


def test_cholesky_inverse_diagonal_known_inverse() -> None:
    # [[2, 1], [1, 2]]^-1 = [[2, -1], [-1, 2]] / 3
    assert cholesky_inverse_diagonal(cholesky([[2.0, 1.0], [1.0, 2.0]])) == pytest.approx(
        [2.0 / 3.0, 2.0 / 3.0]
    )


@pytest.mark.parametrize(
    "matrix",
    [
        [[1.0, 2.0], [2.0, 1.0]],  # indefinite
        [[1.0, 1.0], [1.0, 1.0]],  # singular
        [[2.0, -1.0, -1.0], [-1.0, 2.0, -1.0], [-1.0, -1.0, 2.0]],  # a graph Laplacian
        [[0.0]],
        [[math.nan]],
    ],
)
def test_cholesky_rejects_matrices_that_are_not_positive_definite(matrix: Matrix) -> None:
    with pytest.raises(NotPositiveDefiniteError):
        cholesky(matrix)


@pytest.mark.parametrize("matrix", [[], [[1.0, 0.0]], [[1.0, 0.0], [0.0]]])
def test_cholesky_rejects_non_square_input(matrix: Matrix) -> None:
    with pytest.raises(LinearAlgebraError):
        cholesky(matrix)


def test_solves_reject_mismatched_vector() -> None:
    lower = cholesky([[2.0, 1.0], [1.0, 2.0]])
    with pytest.raises(LinearAlgebraError):
        cholesky_solve(lower, [1.0, 2.0, 3.0])
    with pytest.raises(LinearAlgebraError):
        mat_vec(lower, [1.0])
