"""Rating maths (pure: the standard library, openskill, itself pure maths, and numpy for the
Bradley-Terry fit's linear algebra): Elo, Glicko-2, Weng-Lin for teams and tables, whole-event
Bradley-Terry fits, and pentanomial / SPRT statistics for comparing bot versions over duplicate
pairs.

The Redis side (atomic, exactly-once updates) lives elsewhere and only calls these functions.
"""

# First: a compiled build (ARENA_COMPILED_ENGINE) must be enabled before any module it holds
# loads as Python.
from arena.compiled.loader import enable_from_environment

enable_from_environment()

from arena.ratings.bradley_terry import (  # noqa: E402
    ELO_PER_NATURAL_UNIT,
    BTEstimate,
    BTFit,
    BTGame,
    fit_bradley_terry,
)
from arena.ratings.elo import (  # noqa: E402
    ELO_DEFAULT_K,
    ELO_INITIAL_RATING,
    ELO_SCALE,
    EloRating,
    check_k_factor,
    elo_difference,
    elo_rate_game,
    elo_rate_period,
    expected_score,
)
from arena.ratings.errors import (  # noqa: E402
    ConvergenceError,
    InsufficientDataError,
    InvalidKFactorError,
    InvalidParameterError,
    InvalidRatingError,
    InvalidResultError,
    LinearAlgebraError,
    NotPositiveDefiniteError,
    RatingError,
)
from arena.ratings.glicko2 import (  # noqa: E402
    DEFAULT_GLICKO2,
    GLICKO2_DEFAULT_TAU,
    GLICKO2_INITIAL_RATING,
    GLICKO2_INITIAL_RD,
    GLICKO2_INITIAL_VOLATILITY,
    GLICKO2_SCALE,
    GLICKO2_TOLERANCE,
    PROVISIONAL_RD,
    Glicko2Config,
    Glicko2Game,
    Glicko2Rating,
    glicko2_rate_game,
    glicko2_rate_period,
    is_provisional,
)
from arena.ratings.pentanomial import (  # noqa: E402
    NORMALIZED_ELO_UNIT,
    PAIR_SCORES,
    EloInterval,
    alike_pairs_elo,
    pair_elo,
    pair_normalized_elo,
    pentanomial,
    sprt_bounds,
    sprt_llr,
)
from arena.ratings.weng_lin import (  # noqa: E402
    DEFAULT_WENG_LIN,
    WengLinConfig,
    WengLinRating,
    placement_ranks,
    weng_lin_rate,
)

__all__ = [
    "DEFAULT_GLICKO2",
    "DEFAULT_WENG_LIN",
    "ELO_DEFAULT_K",
    "ELO_INITIAL_RATING",
    "ELO_PER_NATURAL_UNIT",
    "ELO_SCALE",
    "GLICKO2_DEFAULT_TAU",
    "GLICKO2_INITIAL_RATING",
    "GLICKO2_INITIAL_RD",
    "GLICKO2_INITIAL_VOLATILITY",
    "GLICKO2_SCALE",
    "GLICKO2_TOLERANCE",
    "NORMALIZED_ELO_UNIT",
    "PAIR_SCORES",
    "PROVISIONAL_RD",
    "BTEstimate",
    "BTFit",
    "BTGame",
    "ConvergenceError",
    "EloInterval",
    "EloRating",
    "Glicko2Config",
    "Glicko2Game",
    "Glicko2Rating",
    "InsufficientDataError",
    "InvalidKFactorError",
    "InvalidParameterError",
    "InvalidRatingError",
    "InvalidResultError",
    "LinearAlgebraError",
    "NotPositiveDefiniteError",
    "RatingError",
    "WengLinConfig",
    "WengLinRating",
    "alike_pairs_elo",
    "check_k_factor",
    "elo_difference",
    "elo_rate_game",
    "elo_rate_period",
    "expected_score",
    "fit_bradley_terry",
    "glicko2_rate_game",
    "glicko2_rate_period",
    "is_provisional",
    "pair_elo",
    "pair_normalized_elo",
    "pentanomial",
    "placement_ranks",
    "sprt_bounds",
    "sprt_llr",
    "weng_lin_rate",
]
