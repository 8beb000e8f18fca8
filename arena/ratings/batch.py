"""The per-result work of batched ratings, in one module the optional compiled build holds:
results rated one after another (`rate_one`), each player's history entry and stored values
formatted as the text Redis keeps.

The text is exactly what the serialisers of `arena.store.ratings.records` write (`history_entry`,
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


# A standing's elo, rating, rd, volatility, mu and sigma as text (repr), made once for both its
# history entry and its packed values: a float's repr is most of the cost of formatting.
Texts = tuple[str, str, str, str, str, str]


def standing_texts(s: Standing) -> Texts | None:
    """The reprs of a standing's ratings, or None if one is not finite (json writes those
    differently from repr: the slow path formats each)."""
    if not math.isfinite(s.elo + s.rating + s.rd + s.volatility + s.mu + s.sigma):
        return None
    return repr(s.elo), repr(s.rating), repr(s.rd), repr(s.volatility), repr(s.mu), repr(s.sigma)


def history_lines(
    result_id: str,
    at: object,
    outcome: Outcome,
    position: int,
    after: Mapping[str, Standing],
    texts: dict[str, Texts] | None = None,
) -> list[tuple[str, str]]:
    """Each player's history entry for a result logged at index `position`: the string
    `history_entry` makes, with the parts shared by the players of the result formatted once.
    `texts`, if given, keeps each player's `standing_texts` (for `packed`)."""
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
            t = standing_texts(s)
            if t is None:
                if texts is not None:
                    texts.pop(player, None)
                t = (
                    *(_float_text(s.elo), _float_text(s.rating), _float_text(s.rd)),
                    *(_float_text(s.volatility), _float_text(s.mu), _float_text(s.sigma)),
                )
            elif texts is not None:
                texts[player] = t
            line = (
                f'{middle}"elo": {t[0]}, "rating": {t[1]}, "rd": {t[2]}, "volatility": {t[3]}, '
                f'"mu": {t[4]}, "sigma": {t[5]}}}'
            )
            lines.append((player, line))
    return lines


def packed(s: Standing, texts: Texts | None = None) -> tuple[str, ...]:
    """A player's standing fields, summary, skill and board scores: the strings
    `standing_fields`, `summary_value`, `skill_value` and `board_values` give, each float's
    repr made once; `texts` are its `standing_texts`, if made already."""
    t = texts or standing_texts(s)
    if t is None:  # not finite: repr all the same (what the serialisers write)
        elo, rating, rd = repr(float(s.elo)), repr(float(s.rating)), repr(float(s.rd))
        volatility, mu, sigma = repr(float(s.volatility)), repr(float(s.mu)), repr(float(s.sigma))
    else:
        elo, rating, rd, volatility, mu, sigma = t
    games = str(int(s.games))
    # repr(float(n)) is "n.0" for every int a float holds exactly (below 2 ** 53).
    games_score = f"{games}.0" if abs(s.games) < 2**53 else repr(float(s.games))
    ordinal = repr(float(s.mu - ORDINAL_Z * s.sigma))
    return (
        *(elo, rating, rd, volatility, repr(float(s.points)), mu, sigma),
        *(games, str(int(s.wins)), str(int(s.draws)), str(int(s.losses))),
        f"{elo} {rating} {rd} {games}",
        f"{mu} {sigma}",
        *(elo, rating, rd, games_score, ordinal),
    )


def rate_in_turn(
    current: dict[str, Standing],
    results: Sequence[Rated],
    position: int,
    params: LadderParams,
    texts: dict[str, Texts] | None = None,
) -> dict[str, list[str]]:
    """Rate `results` one after another, each its own period, the first logged at index
    `position`, updating `current`; each player's new history entries, in the order players
    first appear. `texts`, if given, ends with each player's last `standing_texts`."""
    histories: dict[str, list[str]] = {}
    offset = position
    for result_id, at, outcome in results:
        after = rate_one(current, outcome, params)
        current.update(after)
        for player, entry in history_lines(result_id, at, outcome, offset, after, texts):
            entries = histories.get(player)
            if entries is None:
                histories[player] = [entry]
            else:
                entries.append(entry)
        offset += 1
    return histories


def player_rows(
    final: Mapping[str, Standing],
    histories: Mapping[str, Sequence[str]],
    texts: Mapping[str, Texts] | None = None,
) -> list[tuple[str, ...]]:
    """Per player: its name, its `packed` values and its new history entries, as the batch
    script takes them; `texts` the `standing_texts` of `final` `rate_in_turn` kept."""
    made = texts or {}
    return [(p, *packed(s, made.get(p)), *histories[p]) for p, s in final.items()]
