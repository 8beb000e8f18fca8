"""The setup of spec section 4 as a pure function: seed and choices in, the opening position out.

Every random step draws from its own named stream (spec 22.7), so a choice made by a player
instead of by chance (his thief, his start field) changes nothing else. The choices the rulebook
leaves to the players are arguments; left out, they are seeded-random defaults (D-15).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from arena.games.age_of_thieves.board import OUTER, Board, District, Feature
from arena.games.age_of_thieves.catalogue import CardKind, Catalogue, Deck
from arena.games.age_of_thieves.components import Components
from arena.games.age_of_thieves.streams import Streams
from arena.games.api import ConfigError

HAND_DEAL = 2  # general cards each thief draws at setup (step 9)
BLUE_AP = 10  # step 5
CALM_ROUNDS, ALARM_ROUNDS = 10, 5  # events dealt (step 13)


@dataclass(frozen=True, slots=True)
class Setup:
    """The position before the first round. Decks list their top card first."""

    thieves: tuple[str, ...]  # per seat
    rolls: tuple[tuple[int, ...], ...]  # the initial d8 rolls, then each re-roll of a tie
    first_player: int
    starts: tuple[str, ...]  # per seat: his start field
    hands: tuple[tuple[str, ...], ...]  # per seat: card ids, basic and special first
    action_deck: tuple[str, ...]
    calm_events: tuple[str, ...]  # the 10 dealt; the other 2 are boxed unseen
    alarm_events: tuple[str, ...]  # the 5 dealt; the other 6 are boxed unseen
    district_deck: tuple[District, ...]
    city_tiles: tuple[tuple[str, str], ...]  # (guardhouse, tile id), face-down, by node id
    guards: tuple[str, ...]  # the 12 starting guards' spaces
    jewels: tuple[tuple[str, str], ...]  # (space, piece id) on the board
    blue_ap: int
    streams: Streams  # after setup: the game goes on drawing from them

    @property
    def players(self) -> int:
        return len(self.thieves)


def setup(
    board: Board,
    catalogue: Catalogue,
    components: Components,
    players: int,
    seed: int,
    thieves: Sequence[str] | None = None,
    starts: Sequence[str] | None = None,
    first_game: bool = False,
) -> Setup:
    """Section 4, steps 1-14. `first_game` leaves the special cards in the box (step 4)."""
    if not 2 <= players <= 4:
        raise ConfigError(f"Age of Thieves is for 2 to 4 players, not {players}")
    streams = Streams(seed)
    chosen, streams = _thieves(catalogue, players, thieves, streams)
    rolls, first, streams = _initial_roll(players, streams)
    fields, streams = _starts(board, players, first, starts, streams)
    deck, streams = streams.shuffle("deck.action", _general_deck(catalogue))
    hands, deck = _deal(catalogue, chosen, first, deck, first_game)
    calm, streams = streams.shuffle("deck.calm", [e.id for e in catalogue.deck(Deck.CALM)])
    alarm, streams = streams.shuffle("deck.alarm", [e.id for e in catalogue.deck(Deck.ALARM)])
    districts, streams = streams.shuffle("deck.district", OUTER)
    tiles, streams = _city_tiles(board, components, streams)
    return Setup(
        thieves=chosen,
        rolls=rolls,
        first_player=first,
        starts=fields,
        hands=hands,
        action_deck=deck,
        calm_events=calm[:CALM_ROUNDS],
        alarm_events=alarm[:ALARM_ROUNDS],
        district_deck=districts,
        city_tiles=tiles,
        guards=board.with_feature(Feature.SWORD_GUARDHOUSE),
        jewels=_jewels(board),
        blue_ap=BLUE_AP,
        streams=streams,
    )


def _thieves(
    catalogue: Catalogue, players: int, thieves: Sequence[str] | None, streams: Streams
) -> tuple[tuple[str, ...], Streams]:
    known = [thief.id for thief in catalogue.thieves]
    if thieves is None:
        shuffled, streams = streams.shuffle("setup.thieves", known)
        return shuffled[:players], streams
    if len(thieves) != players:
        raise ConfigError(f"{players} players need {players} thieves, got {len(thieves)}")
    for thief in thieves:
        if thief not in known:
            raise ConfigError(f"unknown thief {thief!r}: the thieves are {', '.join(known)}")
    if len(set(thieves)) != len(thieves):
        raise ConfigError(f"a thief can be played by one player only: {', '.join(thieves)}")
    return tuple(thieves), streams


def _initial_roll(
    players: int, streams: Streams
) -> tuple[tuple[tuple[int, ...], ...], int, Streams]:
    """Everyone rolls a d8; the tied highest re-roll until one is highest (D-15)."""
    rolling, rolls = list(range(players)), []
    while True:
        values = []
        for _ in rolling:
            value, streams = streams.roll("setup.initial_roll")
            values.append(value)
        rolls.append(tuple(values))
        best = max(values)
        rolling = [seat for seat, value in zip(rolling, values, strict=True) if value == best]
        if len(rolling) == 1:
            return tuple(rolls), rolling[0], streams


def _starts(
    board: Board, players: int, first: int, starts: Sequence[str] | None, streams: Streams
) -> tuple[tuple[str, ...], Streams]:
    """From the first player clockwise, each picks a free start field (step 6)."""
    fields = board.with_feature(Feature.START)
    if starts is not None:
        if len(starts) != players:
            raise ConfigError(f"{players} players need {players} start fields, got {len(starts)}")
        for field in starts:
            if field not in fields:
                raise ConfigError(f"{field!r} is no start field: they are {', '.join(fields)}")
        if len(set(starts)) != len(starts):
            raise ConfigError(f"only one thief per start field: {', '.join(starts)}")
        return tuple(starts), streams
    chosen: dict[int, str] = {}
    for seat in ((first + i) % players for i in range(players)):
        free = [f for f in fields if f not in chosen.values()]
        chosen[seat], streams = streams.choice("policy.start_field", free)
    return tuple(chosen[seat] for seat in range(players)), streams


def _general_deck(catalogue: Catalogue) -> list[str]:
    return [c.id for c in catalogue.of_kind(CardKind.GENERAL) for _ in range(c.copies)]


def _deal(
    catalogue: Catalogue,
    thieves: tuple[str, ...],
    first: int,
    deck: tuple[str, ...],
    first_game: bool,
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...]]:
    """Basic cards and the thief's special (steps 4), then 2 general cards each from the top of
    the deck, from the first player clockwise (step 9)."""
    basic = tuple(card.id for card in catalogue.of_kind(CardKind.BASIC))
    specials = {thief.id: thief.special for thief in catalogue.thieves}
    hands = [basic + (() if first_game else (specials[thief],)) for thief in thieves]
    players = len(thieves)
    for i in range(players):
        seat = (first + i) % players
        hands[seat] += deck[:HAND_DEAL]
        deck = deck[HAND_DEAL:]
    return tuple(hands), deck


def _city_tiles(
    board: Board, components: Components, streams: Streams
) -> tuple[tuple[tuple[str, str], ...], Streams]:
    """A face-down tile on every guardhouse outside the palace, in node-id order (step 14)."""
    tiles = [tile.id for tile in components.city_tiles for _ in range(tile.count)]
    shuffled, streams = streams.shuffle("tiles.city", tiles)
    places = _tile_places(board)
    if len(places) > len(shuffled):
        raise ConfigError(f"{len(places)} guardhouses need a city tile, only {len(tiles)} exist")
    return tuple(zip(places, shuffled, strict=False)), streams


@lru_cache(maxsize=8)  # a board is built once and compared by identity
def _tile_places(board: Board) -> tuple[str, ...]:
    return tuple(n.id for n in board.nodes if n.guardhouse and n.district is not District.PALACE)


def _jewels(board: Board) -> tuple[tuple[str, str], ...]:
    """The Emperor's Jewel on the treasury, a green jewel on each marked space (step 10)."""
    (treasury,) = board.with_feature(Feature.TREASURY)
    greens = board.with_feature(Feature.GREEN_JEWEL)
    return ((treasury, "emperors_jewel"), *((space, "green_jewel") for space in greens))
