"""What both editions of Caper share: the draft (rounds, dealing, hand swaps), the coin supply and
its gain rule, and counting (disjoint sets, the best partition of stolen goods).

Only rules that read the same in `docs/rules/caper.md` and `docs/rules/caper-europe.md` live here;
what differs between the editions stays in `arena.games.caper` and `arena.games.caper_europe`.
"""
