"""An event's encounters: each board of a round seats k sides, one entrant a side. k = 2 is a
pair (a match: Swiss or round-robin pairings, standings by match score and tie-breaks); k >= 3 a
table (Swiss pods or a round robin of tables, standings by placement points).

This is where the two differ: scheduling, playing, recording, advancing and reading an event
take one path whatever k is, and ask this module what depends on it. The stored definition
keeps k as `table_size` (0 for pairs), as events stored before have it.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from arena.tournament.definition import Format, TournamentDefinition
from arena.tournament.model import Round
from arena.tournament.pods import PodHistory, pair_pods
from arena.tournament.round_robin import berger_rounds
from arena.tournament.swiss import History, SwissOptions, pair_round
from arena.tournament.tables import TableRound, table_round_robin

EventRound = Round | TableRound
EventHistory = History | PodHistory
PAIR = 2


def sides(definition: TournamentDefinition) -> int:
    """k: the entrants one board seats."""
    return definition.table_size or PAIR


def at_tables(definition: TournamentDefinition) -> bool:
    """Whether the event is played at tables (three sides or more) rather than in pairs."""
    return sides(definition) > PAIR


def noun(definition: TournamentDefinition, count: int = 1) -> str:
    """What one board (or `count` boards) of the event is called: "match(es)" or "table(s)"."""
    if at_tables(definition):
        return "table" if count == 1 else "tables"
    return "match" if count == 1 else "matches"


def board_name(definition: TournamentDefinition) -> str:
    """One board in a sentence: "match", or "table of 3"."""
    return f"table of {sides(definition)}" if at_tables(definition) else "match"


def boards(round_: EventRound) -> tuple[tuple[str, ...], ...]:
    """The entrants of each board of a round, in seat order."""
    if isinstance(round_, TableRound):
        return round_.tables
    return tuple(p.entrants for p in round_.pairings)


def round_robin(definition: TournamentDefinition) -> list[EventRound]:
    """Every round of a round robin (of pairs, single or double, or of tables): deterministic
    from the definition, so a second computation gives the same schedule."""
    entrants = definition.entrants
    if at_tables(definition):
        return list(table_round_robin(entrants, sides(definition), seed=definition.seed))
    return list(berger_rounds(entrants, double=definition.format is Format.DOUBLE_ROUND_ROBIN))


def swiss_round(
    definition: TournamentDefinition,
    entrants: Sequence[str],
    history: EventHistory,
    withdrawn: Collection[str],
    number: int,
) -> EventRound:
    """Round `number` of a Swiss (pods at tables) from the history so far: deterministic."""
    if isinstance(history, PodHistory):
        return pair_pods(entrants, history, number, sides(definition), withdrawn=withdrawn)
    options = SwissOptions(
        total_rounds=definition.rounds,
        duplicate=definition.duplicate,
        withdrawn=frozenset(withdrawn),
        bye_points=definition.bye_points,
        system=definition.swiss_system,
    )
    return pair_round(entrants, history, number, options)


def describe_boards(
    definition: TournamentDefinition, seated: Sequence[tuple[str, ...]], first: int, count: int
) -> str:
    """Boards `first` to `first + count - 1` of a round as a job's description names them:
    "boards 1-2: a vs b, c vs d" for pairs, "table 1: a, b, c" for tables."""
    shown = seated[first : first + count]
    if at_tables(definition):
        kind, listing = "table", "; ".join(", ".join(table) for table in shown)
    else:
        kind, listing = "board", ", ".join(" vs ".join(pair) for pair in shown)
    named = f"{kind} {first + 1}" if count == 1 else f"{kind}s {first + 1}-{first + count}"
    return f"{named}: {listing}"
