"""Strict FIDE Dutch pairing (C.04.3) by caissify-pairings, fed our own TRF export.

We do not write a FIDE Dutch engine: caissify-pairings is a maintained, Apache-2.0, pure-Python one
that claims parity with bbpPairings (pinned in pyproject.toml, because golden outputs change when
the rules do). The round's history goes out as TRF-16 (`export_trf`), is read back with the
engine's own TRF parser, and each active player's state is taken from that file alone: score,
seats of played games, float history, pairing byes. So what the engine pairs is exactly what an
arbiter would check with the same TRF.

Our rules on meetings stay hard: a forfeited match and a forbidden pair are passed as earlier
meetings, and an answer with a rematch or an entrant left out is refused (`NoValidPairingError`).
Seats follow FIDE's own colour rules, which relax the limits for topscorers in the last round. In
duplicate mode seats do not matter, so the engine sees no seat history. The engine's pairs are
kept but their seats are settled here, by rule E (`seats.higher_takes_seat0`) with the ranking of
A.2, score first and then pairing number: the engine ranks by pairing number alone, so when two
players with the same seat history reach E.4 it favoured the lower number over the higher score,
where bbpPairings and JaVaFo favour the higher score. Its time per round grows steeply with the
field: offer it for small events.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from caissify_pairings.engines.dutch import DutchEngine  # type: ignore[import-untyped]
from caissify_pairings.trf import parse_trf  # type: ignore[import-untyped]

from arena.tournament.errors import NoValidPairingError
from arena.tournament.model import Bye, ByePoints, MatchResult, Pairing
from arena.tournament.seats import SEAT0, SEAT1, higher_takes_seat0
from arena.tournament.trf import export_trf

PLAYED = ("1", "=", "0")
POINTS = {"1": 1.0, "=": 0.5, "0": 0.0, "+": 1.0, "-": 0.0, "F": 1.0, "H": 0.5, "Z": 0.0}
SEAT_OF = {"white": SEAT0, "black": SEAT1}  # our TRF export writes seat 0 as white
UNEARNED_WIN = ("U", "F", "+")  # a point without a game: no pairing bye after one (FIDE C.04.1)


def pair_fide_dutch(
    players: tuple[str, ...],
    results: Sequence[MatchResult],
    byes: Sequence[Bye],
    active: Sequence[str],
    round_number: int,
    *,
    total_rounds: int,
    bye_points: ByePoints,
    duplicate: bool,
    forbidden_pairs: Sequence[tuple[str, str]],
) -> tuple[list[Pairing], str | None]:
    """The pairings of `active` (and who gets the pairing bye) for `round_number`."""
    trf = export_trf(players, results, byes, total_rounds=total_rounds, bye_points=bye_points)
    by_start = {p["starting_number"]: p for p in parse_trf(trf)["players"]}
    start = {entrant: number for number, entrant in enumerate(players, start=1)}
    met = {_key(start[r.seat0], start[r.seat1]) for r in results}  # forfeits too: no rematch
    met |= {_key(start[a], start[b]) for a, b in forbidden_pairs}
    engine_players = [
        _engine_player(by_start, start[e], round_number, duplicate, bye_points.pairing)
        for e in active
    ]
    try:
        output = DutchEngine(
            players=engine_players,
            previous_pairings=met,
            round_number=round_number,
            total_rounds=total_rounds,
            bye_value=bye_points.pairing,
        ).generate_pairings()
    except Exception as error:  # the engine signals an impossible round in its own ways
        raise NoValidPairingError(
            f"FIDE Dutch cannot pair round {round_number}: {error}"
        ) from error
    states = {p["id"]: p for p in engine_players}
    return _read_output(output, players, active, met, round_number, states)


def _engine_player(
    by_start: dict[int, dict[str, Any]],
    number: int,
    round_number: int,
    duplicate: bool,
    pairing_bye: float,
) -> dict[str, Any]:
    """One player's state before `round_number`, read from the parsed TRF."""
    rounds = by_start[number]["results"]
    seats: list[str] = []
    floats: list[str] = []
    pairing_byes = forfeit_wins = 0
    for past in range(1, round_number):
        record = rounds.get(past)
        if record is None:
            floats.append("none")
            continue
        code = record["result"]
        opponent = record["opponent"]
        pairing_byes += opponent is None and code in UNEARNED_WIN
        forfeit_wins += code == "+"
        if opponent is not None and code in PLAYED:
            seats.append("white" if record["color"] == "w" else "black")
            mine = _score(rounds, past, pairing_bye)
            theirs = _score(by_start[opponent]["results"], past, pairing_bye)
            floats.append("down" if mine > theirs else "up" if mine < theirs else "none")
        else:
            floats.append("down" if code in UNEARNED_WIN else "none")
    return {
        "id": number,
        "name": by_start[number]["name"],
        "score": by_start[number]["score"],  # the TRF's points column
        "rating": 0,
        "starting_number": number,
        "color_hist": [] if duplicate else seats,
        "float_history": floats,
        "bye_count": pairing_byes,
        "forfeit_win_count": forfeit_wins,
    }


def _score(rounds: dict[int, dict[str, Any]], before: int, pairing_bye: float) -> float:
    """Points from the rounds before `before`, as the TRF codes say."""
    points = {**POINTS, "U": pairing_bye}
    return sum(points.get(r["result"], 0.0) for n, r in rounds.items() if n < before)


def _read_output(
    output: list[dict[str, Any]],
    players: tuple[str, ...],
    active: Sequence[str],
    met: set[tuple[int, int]],
    round_number: int,
    states: dict[int, dict[str, Any]],
) -> tuple[list[Pairing], str | None]:
    pairings: list[Pairing] = []
    bye: str | None = None
    for board in output:
        white, black = board["white_id"], board.get("black_id")
        if black is None or board.get("bye"):
            bye = players[white - 1]
        elif _key(white, black) in met:
            raise NoValidPairingError(
                f"FIDE Dutch paired {players[white - 1]} and "
                f"{players[black - 1]} again in round {round_number}"
            )
        else:
            seat0, seat1 = _settle_seats(states[white], states[black])
            pairings.append(Pairing(players[seat0 - 1], players[seat1 - 1]))
    seen = sorted([e for p in pairings for e in p.entrants] + ([bye] if bye else []))
    if seen != sorted(active):
        raise NoValidPairingError(f"FIDE Dutch left entrants unpaired in round {round_number}")
    return pairings, bye


def _settle_seats(a: dict[str, Any], b: dict[str, Any]) -> tuple[int, int]:
    """The pairing numbers of (seat 0, seat 1) for two engine players, by FIDE rule E."""
    higher, lower = sorted((a, b), key=lambda p: (-p["score"], p["id"]))  # A.2 ranking
    seats_h, seats_l = ([SEAT_OF[c] for c in p["color_hist"]] for p in (higher, lower))
    # E.5 looks at the pairing number's parity: an odd one (even 0-based) takes the first seat.
    if higher_takes_seat0(seats_h, seats_l, higher["id"] - 1):
        return higher["id"], lower["id"]
    return lower["id"], higher["id"]


def _key(a: int, b: int) -> tuple[int, int]:
    return (min(a, b), max(a, b))
