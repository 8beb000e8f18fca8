"""Where greedy ends a movement (`aot_ends`): an end space's risk comes from the figures of the
state scored, whatever other states were scored before."""

from __future__ import annotations

from arena.bots.aot_ends import CAUGHT, LATER, scorer
from arena.games.age_of_thieves.state import Task, replace
from tests.bots.test_aot_ways import HERE, alarm_in_the_west


def test_an_end_spaces_risk_follows_the_figures_of_its_state() -> None:
    guarded, seat = alarm_in_the_west(guards=("W80",))  # 3 steps from HERE: in reach
    far_off = replace(guarded, guards=("E34",))
    to_come = replace(guarded, tasks=(Task("guards"), *guarded.tasks))
    assert scorer(guarded, seat, "XW1").risk(HERE) == CAUGHT * LATER
    assert scorer(far_off, seat, "XW1").risk(HERE) == 0.0
    assert scorer(to_come, seat, "XW1").risk(HERE) == CAUGHT  # the guards act this round
    assert scorer(guarded, seat, "XW1").risk(HERE) == CAUGHT * LATER
    assert scorer(guarded.with_thief(seat, cloak=True), seat, "XW1").risk(HERE) == 0.0
