"""The coin supply: 10 coins in all, gained one at a time (classic section 7, Europe section 8).

A gain takes each coin from the supply; with the supply empty, from the opponent's hand, but only
while the gainer holds fewer coins than the opponent; otherwise the rest of the gain is lost.
Laundering (classic R11, Europe R21) moves one coin out of play by the same rule.
"""

from __future__ import annotations

from arena.games.caper_common.draft import with_seat

TOTAL_COINS = 10
Coins = tuple[int, int]


def gain(coins: Coins, supply: int, seat: int, amount: int) -> tuple[Coins, int]:
    """`seat` takes `amount` coins one at a time by the gain rule."""
    mine, theirs = coins[seat], coins[1 - seat]
    for _ in range(amount):
        if supply > 0:
            supply -= 1
        elif mine < theirs:
            theirs -= 1
        else:
            break
        mine += 1
    return ((mine, theirs) if seat == 0 else (theirs, mine)), supply


def pay(coins: Coins, supply: int, seat: int, amount: int) -> tuple[Coins, int]:
    return with_seat(coins, seat, coins[seat] - amount), supply + amount


def return_coin(coins: Coins, supply: int, seat: int) -> tuple[Coins, int]:
    """`seat` returns one coin to the supply, if it has one."""
    if coins[seat] == 0:
        return coins, supply
    return pay(coins, supply, seat, 1)


def launder(coins: Coins, supply: int, stash: Coins, seat: int) -> tuple[Coins, int, Coins]:
    """One coin into `seat`'s `stash` (classic: the discard area; Europe: the hideout), from the
    supply, else from the opponent's hand while `seat` holds fewer; otherwise nothing moves."""
    if supply > 0:
        supply -= 1
    elif coins[seat] < coins[1 - seat]:
        coins = with_seat(coins, 1 - seat, coins[1 - seat] - 1)
    else:
        return coins, supply, stash
    return coins, supply, with_seat(stash, seat, stash[seat] + 1)
