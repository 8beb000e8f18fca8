"""Rated events: each finished match or table of an event that names a ladder is rated in that
ladder's rating pool, by the rule ladder matches are rated by (`services.match_ratings`), under
the board's match id, so a retried job never rates it twice. The ladder's leaderboard then
counts the event's results with its own.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import redis

from arena.games import get_game
from arena.referee.referee import GameOutcome
from arena.services import match_ratings
from arena.store.ladders import LadderDefinition, LadderError, LadderStore
from arena.store.ratings import RatingStore
from arena.tournament.definition import TournamentDefinition


def rating_slug(
    client: redis.Redis, name: str | None, game: str, config: dict[str, str | int]
) -> str:
    """What an event's definition keeps of the ladder `name` (`rating_ladder`): its slug, or ""
    when none is named."""
    return rating_ladder(client, name, game, config).ref.slug if name else ""


def rating_ladder(
    client: redis.Redis, name: str, game: str, config: dict[str, str | int]
) -> LadderDefinition:
    """The ladder `name` an event of `game` set up with `config` may be rated in: it must exist
    and play the same game, rules version and set-up (number of players, city); else a
    `LadderError` naming what differs."""
    rules = get_game(game).rules_version
    ladder = _named(LadderStore(client), name, game, rules)
    if ladder.ref.game != game:
        raise LadderError(
            f"ladder {ladder.ref} rates {ladder.ref.game}, but this event plays {game}: "
            "rate it in a ladder of its own game"
        )
    if ladder.ref.rules_version != rules:
        raise LadderError(
            f"ladder {ladder.ref} rates rules v{ladder.ref.rules_version}, but this event "
            f"plays v{rules}"
        )
    theirs, ours = _settings(ladder.config), _settings(config)
    for key in sorted(theirs.keys() | ours.keys()):
        if theirs.get(key) != ours.get(key):
            raise LadderError(
                f"ladder {ladder.ref} rates games with {key} {theirs.get(key, 'unset')}, but "
                f"this event's have {ours.get(key, 'unset')}"
            )
    return ladder


def _settings(config: Mapping[str, str | int]) -> dict[str, str]:
    """A game's set-up as text, the number of players said even where left at its default:
    a ladder's pool rates games of one set-up (players, city) only."""
    return {"players": "2"} | {key: str(value) for key, value in config.items()}


def _named(store: LadderStore, name: str, game: str, rules: int) -> LadderDefinition:
    """The ladder `name`: `game`'s if several games have one, for `rules` if it has several."""
    named = [r for r in store.refs() if r.name == name]
    if not named:
        return store.find(name)  # raises "unknown ladder", naming those there are
    mine = [r for r in named if r.game == game] or named
    return store.get(max(mine, key=lambda r: (r.rules_version == rules, r.rules_version)))


def ladder_options(client: redis.Redis) -> list[tuple[str, str]]:
    """Every ladder an event may name, as (name, label): what the site's form offers."""
    return [(d.ref.name, f"{d.ref} {d.players} players") for d in LadderStore(client).all()]


def rate_board(
    client: redis.Redis,
    definition: TournamentDefinition,
    the_id: str,
    seated: Sequence[str],
    outcomes: Sequence[GameOutcome],
    seed: int,
) -> bool:
    """Rate one played board of a rated event in its ladder; whether it was rated now (False:
    unrated event, or rated already)."""
    if not definition.rating_ladder:
        return False
    ladder = LadderStore(client).get_slug(definition.rating_ladder)
    _, applied = match_ratings.rate_played(
        RatingStore(client), ladder, the_id, seated, outcomes, seed, definition.duplicate
    )
    return applied is not None
