"""The search's static evaluation of an Age of Thieves state for one seat, in line with section
19 (rules docs/rules/age-of-thieves.md): a finished game is won (1) or lost (-1, everybody
losing included); else each thief's standing is having left the city (with his VP, a winner
once the alarm deck ends), carrying the Emperor's Jewel towards an exit he can still reach in
the alarm rounds left, his VP, and his distance to his goal; an arrest costs a round and a
jewel.
"""

from __future__ import annotations

import math

from arena.bots.aot_ways import distance, goal, slack
from arena.games.age_of_thieves.queries import in_dungeon
from arena.games.age_of_thieves.state import State


def value(state: State, seat: int) -> float:
    """The outcome for `seat` in [-1, 1]: the result if the game is over, else its standing
    against the best other thief."""
    if state.over:
        return 1.0 if state.winner == seat else -1.0
    mine = standing(state, seat)
    best = max(standing(state, s) for s in range(state.players) if s != seat)
    return math.tanh(2.0 * (mine - best))


def standing(state: State, seat: int) -> float:
    """How well a thief is placed for section 19: having left the city (with his VP), the
    Emperor's Jewel with an exit in reach before the alarm ends, VP, how far his goal is; an
    arrest costs a round."""
    thief = state.thief(seat)
    vp = 0.1 * (thief.yellow + 2 * thief.green + 3 * thief.best + thief.trinkets)
    if not thief.on_board:
        return 1.0 + vp
    target = goal(state, seat)
    far = distance(thief.space, target) if target else 0
    score = vp - 0.03 * far - 0.4 * in_dungeon(thief)
    if thief.ej:
        score += 1.0
    if target and state.escape and slack(state, thief.space, far) < 0:
        score -= 0.5 + 0.5 * thief.ej  # too far to leave before the alarm deck ends
    return score
