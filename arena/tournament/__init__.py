"""Tournament maths (pure): round robin schedules, Swiss pairing, standings and TRF export, and
for games of three or more sides, tables: round robins of tables, Swiss pods, placement points.

Nothing here does I/O, reads a clock or uses global randomness: every function maps its inputs to
its output, so a round can be re-paired or re-scored from the stored history at any time.
"""

from arena.tournament.errors import (
    DuplicateEntrantError,
    InvalidHistoryError,
    InvalidOptionError,
    InvalidResultError,
    NoValidPairingError,
    TooFewEntrantsError,
    TooManyRoundsError,
    TournamentError,
    UnknownEntrantError,
)
from arena.tournament.model import (
    Bye,
    ByeKind,
    ByePoints,
    Encounter,
    MatchResult,
    Pairing,
    Round,
)
from arena.tournament.placement import (
    TableBye,
    TableResult,
    TableStanding,
    duplicate_result,
    placement_points,
    rotations,
    table_standings,
)
from arena.tournament.pods import PodHistory, pair_pods
from arena.tournament.round_robin import berger_rounds, berger_table
from arena.tournament.standings import (
    ROUND_ROBIN_TIEBREAKS,
    SWISS_TIEBREAKS,
    Crosstable,
    Standing,
    Tiebreak,
    crosstable,
    standings,
)
from arena.tournament.swiss import (
    History,
    SwissOptions,
    SwissSystem,
    late_entry_byes,
    max_swiss_rounds,
    pair_round,
)
from arena.tournament.tables import TableRound, seat_order, table_round_robin
from arena.tournament.trf import export_trf

__all__ = [
    "ROUND_ROBIN_TIEBREAKS",
    "SWISS_TIEBREAKS",
    "Bye",
    "ByeKind",
    "ByePoints",
    "Crosstable",
    "DuplicateEntrantError",
    "Encounter",
    "History",
    "InvalidHistoryError",
    "InvalidOptionError",
    "InvalidResultError",
    "MatchResult",
    "NoValidPairingError",
    "Pairing",
    "PodHistory",
    "Round",
    "Standing",
    "SwissOptions",
    "SwissSystem",
    "TableBye",
    "TableResult",
    "TableRound",
    "TableStanding",
    "Tiebreak",
    "TooFewEntrantsError",
    "TooManyRoundsError",
    "TournamentError",
    "UnknownEntrantError",
    "berger_rounds",
    "berger_table",
    "crosstable",
    "duplicate_result",
    "export_trf",
    "late_entry_byes",
    "max_swiss_rounds",
    "pair_pods",
    "pair_round",
    "placement_points",
    "rotations",
    "seat_order",
    "standings",
    "table_round_robin",
    "table_standings",
]
