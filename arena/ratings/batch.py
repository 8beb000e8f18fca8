"""The per-result work of batched ratings, in one module the optional compiled build holds:
results rated one after another (`rate_one`), each player's history entry and stored values
formatted as the text Redis keeps.

The text is exactly what the serialisers of `arena.store.rating_records` write (`history_entry`,
`standing_fields`, `summary_value`, `skill_value`, `board_values`; tests compare them), so a batch
and `arena ladder rebuild` store the same bytes. Formatting is written so that mypyc compiles it
to the same text: a value that may be an int (a result's `at`) is typed `object` and formatted by
`repr` of the object itself, never through a `float` variable (which mypyc would convert: `17`
would become `17.0`).
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence

from arena.ratings.ladder import LadderParams, Outcome, Standing
from arena.ratings.single import rate_one
from arena.ratings.weng_lin import ORDINAL_Z

# One result to rate: its id, when it was played (int or float, kept as given) and its outcome.
Rated = tuple[str, object, Outcome]


def number_text(value: object) -> str:
    """A number as json.dumps writes it: `repr` of ints and finite floats, else json's text."""
    if isinstance(value, float) and not math.isfinite(value):
        return json.dumps(value)
    return repr(value)


def _float_text(value: float) -> str:
    return repr(value) if math.isfinite(value) else json.dumps(value)


def history_lines(
    result_id: str, at: object, outcome: Outcome, position: int, after: Mapping[str, Standing]
) -> list[tuple[str, str]]:
    """Each player's history entry for a result logged at index `position`: the string
    `history_entry` makes, with the parts shared by the players of the result formatted once."""
    head = (
        f'{{"result": {json.dumps(result_id)}, "position": {position}, '
        f'"at": {number_text(at)}, "opponent": '
    )
    teams = outcome.teams
    lines: list[tuple[str, str]] = []
    for side, team in enumerate(teams):
        others = ", ".join([p for i, other in enumerate(teams) if i != side for p in other])
        middle = (
            f'{head}{json.dumps(others)}, "score": {_float_text(outcome.shares[side])}, '
            f'"place": {outcome.ranks[side] + 1}, '
        )
        for player in team:
            s = after[player]
            line = (
                f'{middle}"elo": {_float_text(s.elo)}, "rating": {_float_text(s.rating)}, '
                f'"rd": {_float_text(s.rd)}, "volatility": {_float_text(s.volatility)}, '
                f'"mu": {_float_text(s.mu)}, "sigma": {_float_text(s.sigma)}}}'
            )
            lines.append((player, line))
    return lines


def packed(s: Standing) -> tuple[str, ...]:
    """A player's standing fields, summary, skill and board scores: the strings
    `standing_fields`, `summary_value`, `skill_value` and `board_values` give, each float's
    repr made once."""
    elo, rating, rd = repr(float(s.elo)), repr(float(s.rating)), repr(float(s.rd))
    mu, sigma = repr(float(s.mu)), repr(float(s.sigma))
    games = str(int(s.games))
    ordinal = repr(float(s.mu - ORDINAL_Z * s.sigma))
    return (
        *(elo, rating, rd, repr(float(s.volatility)), repr(float(s.points)), mu, sigma),
        *(games, str(int(s.wins)), str(int(s.draws)), str(int(s.losses))),
        f"{elo} {rating} {rd} {games}",
        f"{mu} {sigma}",
        *(elo, rating, rd, repr(float(s.games)), ordinal),
    )


def rate_in_turn(
    current: dict[str, Standing], results: Sequence[Rated], position: int, params: LadderParams
) -> dict[str, list[str]]:
    """Rate `results` one after another, each its own period, the first logged at index
    `position`, updating `current`; each player's new history entries, in the order players
    first appear."""
    histories: dict[str, list[str]] = {}
    offset = position
    for result_id, at, outcome in results:
        after = rate_one(current, outcome, params)
        current.update(after)
        for player, entry in history_lines(result_id, at, outcome, offset, after):
            entries = histories.get(player)
            if entries is None:
                histories[player] = [entry]
            else:
                entries.append(entry)
        offset += 1
    return histories


def player_rows(
    final: Mapping[str, Standing], histories: Mapping[str, Sequence[str]]
) -> list[tuple[str, ...]]:
    """Per player: its name, its `packed` values and its new history entries, as the batch
    script takes them."""
    return [(player, *packed(s), *histories[player]) for player, s in final.items()]
