"""Which games the site may replay in full (and an event's games download holds), read through
`arena.store`.

A finished game's record holds its seed and so the deal: with duplicate deals the same seed is
played again with the seats swapped (a "twin"), and within a tournament round each board's
later deals are the next board's first ones (match seed = base + round * 1009 + board, deal k
uses match seed + k). A record is therefore shown only once no game sharing its deal can still
be in play:

- a tournament game: once every match (or table) of its round is recorded;
- a ladder game: once its match is rated (each ladder match has deals of its own);
- any other stored game (`arena match` on the network): once every twin of its deal is stored.

Deals follow from (game, config, seed) alone, and the seed of a tournament's or ladder's deals
from its base seed (1 unless set): two tournaments (or ladders) of the same game, config and base
seed deal the same cards at the same places. So a game is also kept back while another
tournament with the same deals is created or running, or another such ladder has not rated the
match of the same number. Beyond that, this rule assumes what the workers' seeds give: rounds
1009 seeds apart (a round of fewer boards than that never meets the next one's deals) and
tournament and ladder seeds apart. A network match in progress is not in the store: its deals
cannot be looked up, only its own twins'.

Until then the page says "in play" and shows only what the tournament pages show anyway: the
game id, its tournament or ladder and its players. Ids that name no stored game, nor a game of
a stored round, are not found.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum

import redis

from arena.games import get_game
from arena.games.api import GameError
from arena.games.record import GameRecord, RecordError
from arena.referee.seats import layout
from arena.store import keys
from arena.store.encounters import encounters_of
from arena.store.ladders import LadderError, LadderStore
from arena.store.ratings import RatingStore
from arena.store.results import match_id
from arena.store.tournaments import Status as TournamentStatus
from arena.store.tournaments import TournamentStore, TournamentStoreError
from arena.store.values import as_text
from arena.tournament.definition import TournamentDefinition
from arena.tournament.encounter import boards

GAME_ID = re.compile(r"^(?P<match>[A-Za-z0-9_.-]{1,200})\.g(?P<index>\d{1,6})$")
TOURNAMENT_MATCH = re.compile(
    r"^(?P<name>[A-Za-z0-9_-]{1,64})\.r(?P<round>\d{1,6})\.b(?P<board>\d{1,6})$"
)
LADDER_MATCH = re.compile(r"^(?P<slug>[a-z0-9-]+\.v\d+\.[A-Za-z0-9_-]+)\.m(?P<number>\d{1,12})$")


RUNNING, CREATED = TournamentStatus.RUNNING.value, TournamentStatus.CREATED.value


class Status(StrEnum):
    FINISHED = "finished"
    IN_PLAY = "in play"


class GameNotFound(LookupError):
    """No stored game and no game of a stored round has this id; the message says which."""


@dataclass(frozen=True, slots=True)
class GameAccess:
    game_id: str
    status: Status
    record: GameRecord | None  # None while in play: nothing of it may reach a page
    owner: str  # "tournament" or "ladder"; "" for a match of its own
    owner_name: str  # the tournament's name or the ladder's slug
    players: tuple[str, ...]  # public: the pairing says who plays
    match_games: tuple[str, ...] = ()  # every game id of its match (its duplicate twins too)


def look_up(client: redis.Redis, game_id: str) -> GameAccess:
    """What the site may show of `game_id`; `GameNotFound` for an id it does not know."""
    parsed = GAME_ID.match(game_id)
    if parsed is None:
        raise GameNotFound(f"{game_id!r} is not a game id")
    stored = client.get(keys.game_record(game_id))
    record = None if stored is None else _record(game_id, as_text(stored))
    the_match = parsed["match"]
    tournament = TOURNAMENT_MATCH.match(the_match)
    if tournament is not None:
        return _tournament_game(client, game_id, record, tournament)
    ladder = LADDER_MATCH.match(the_match)
    if ladder is not None and record is not None:
        rated, games = _ladder_rated(client, ladder["slug"], int(ladder["number"]))
        shown = _access(game_id, record, rated, "ladder", ladder["slug"])
        return replace(shown, match_games=_games_of(the_match, games)) if rated else shown
    if record is None:
        raise GameNotFound(f"no game {game_id!r}")
    twins = _twins_stored(client, record, the_match, int(parsed["index"]))
    return _access(game_id, record, twins, "", "")


def _record(game_id: str, text: str) -> GameRecord:
    try:
        return GameRecord.loads(text)
    except RecordError as error:
        raise GameNotFound(f"the record of {game_id!r} cannot be read: {error}") from None


def _access(game_id: str, record: GameRecord, finished: bool, owner: str, name: str) -> GameAccess:
    status = Status.FINISHED if finished else Status.IN_PLAY
    shown = record if finished else None
    return GameAccess(game_id, status, shown, owner, name, record.players)


def _tournament_game(
    client: redis.Redis, game_id: str, record: GameRecord | None, parts: re.Match[str]
) -> GameAccess:
    name, number, board = parts["name"], int(parts["round"]), int(parts["board"])
    try:
        definition = TournamentStore(client).get(name)
    except TournamentStoreError:
        raise GameNotFound(f"no tournament {name!r}, so no game {game_id!r}") from None
    store = encounters_of(client, definition)
    round_ = store.round(name, number)
    seated = () if round_ is None else boards(round_)
    recorded = store.recorded(name)
    if board >= len(seated):
        raise GameNotFound(f"round {number} of {name!r} has no board {board}")
    done = _round_recorded(name, number, len(seated), recorded)
    if record is None or not done or _same_deals_running(client, definition):
        players = record.players if record else seated[board]
        return GameAccess(game_id, Status.IN_PLAY, None, "tournament", name, players)
    games = _games_of(match_id(name, number, board), definition.games_per_match)
    return replace(_access(game_id, record, True, "tournament", name), match_games=games)


def _round_recorded(name: str, number: int, boards: int, recorded: set[str]) -> bool:
    return all(match_id(name, number, b) in recorded for b in range(boards))


def shown_games(client: redis.Redis, definition: TournamentDefinition) -> list[str]:
    """The ids of the event's games that `look_up` shows in full if stored (pairs and tables
    alike), in order of round, board and game number: none while another event deals the same
    cards, and of the rest only those of rounds every match (or table) of which is recorded."""
    name = definition.name
    if _same_deals_running(client, definition):
        return []
    store = encounters_of(client, definition)
    counts = {r.number: len(boards(r)) for r in store.rounds(name)}
    recorded = store.recorded(name)
    return [
        game
        for number, count in sorted(counts.items())
        if _round_recorded(name, number, count, recorded)
        for board in range(count)
        for game in _games_of(match_id(name, number, board), definition.games_per_match)
    ]


def _games_of(the_match: str, count: int) -> tuple[str, ...]:
    return tuple(f"{the_match}.g{index}" for index in range(count))


def _deals(game: str, config: Mapping[str, str | int], seed: int) -> tuple[object, ...]:
    return game, tuple(sorted(config.items())), seed


def _same_deals_running(client: redis.Redis, definition: TournamentDefinition) -> bool:
    """Whether another tournament still to be played deals what `definition` deals."""
    others = [n for n in TournamentStore(client).names() if n != definition.name]
    pipe = client.pipeline(transaction=False)
    for other in others:
        pipe.hmget(keys.tournament(other), ["definition", "status"])
    mine = _deals(definition.game, definition.config, definition.seed)
    for fixed, status in pipe.execute() if others else []:
        if fixed is None or as_text(status or b"") not in (RUNNING, CREATED):
            continue
        d = TournamentDefinition.from_json(as_text(fixed))
        if _deals(d.game, d.config, d.seed) == mine:
            return True
    return False


def _ladder_rated(client: redis.Redis, slug: str, number: int) -> tuple[bool, int]:
    """Whether match `number` of the ladder is rated, and so is the match of that number of
    every other ladder with the same deals; and how many games a match of the ladder has."""
    ladders, ratings = LadderStore(client), RatingStore(client)
    try:
        definition = ladders.get_slug(slug)
    except (LadderError, ValueError):
        return False, 0  # a ladder that is gone: nothing says its games are over
    mine = _deals(definition.ref.game, definition.config, definition.seed)
    twins = [o for o in ladders.all() if _deals(o.ref.game, o.config, o.seed) == mine]
    rated = all(ratings.is_applied(o, f"{o.ref.slug}.m{number}") for o in twins)  # itself too
    return rated, definition.games_per_match


def _twins_stored(client: redis.Redis, record: GameRecord, the_match: str, index: int) -> bool:
    """Whether every game of the deal of game `index` is stored (`arena.referee.seats.deals`:
    with k sides, games k*j ... k*j + k - 1 share one seed)."""
    try:
        sides = len(layout(get_game(record.game), record.config).sides)
    except GameError:
        return False
    first = index - index % sides
    twins = [keys.game_record(f"{the_match}.g{i}") for i in range(first, first + sides)]
    return int(client.exists(*twins)) == len(twins)
