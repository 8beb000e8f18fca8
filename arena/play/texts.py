"""The action texts this process has written into game records, remembered for every game it
plays: an action's text depends on the action alone and the same few actions recur in every
game. The referee holds no memory of its own; the playing layer hands it this one."""

from __future__ import annotations

from arena.games.record import ActionTexts

ACTION_TEXTS = ActionTexts()
