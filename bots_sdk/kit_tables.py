"""The conformance kit's games: which game, player count and seats each one gives the bot, and the
arena messages of one game in flight (see `bots_sdk.testing`).

The kit takes turns over every (game, player count) the bot's games have: 2-player games of both
editions and first-edition Caper's 3-player Snitch game and 4-player team game (section 12), and
Age of Thieves for 2, 3 and 4 thieves (each seat plays alone, the bot's seat taking turns). In
a 3-player game the bot holds one seat, taking Cream, Mint and the Snitch in turn; in a 4-player
game it holds both seats of a team (V11), Cream or Mint in turn, each with its own requests and
GameOver, exactly as the arena sends them. Every other seat plays at random.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from arena import codec
from arena.games import get_game
from arena.games.api import Config, Game, Result
from arena.referee.seats import Layout, forfeit_result, layout
from arena.v1 import bot_pb2

CITIES: dict[str, tuple[str, ...]] = {  # per game; "base" is only the shared cards, not a city
    "caper": ("paris", "rome", "london"),
    "caper-europe": ("paris", "barcelona", "rome", "london"),
    "age-of-thieves": (),  # one board, Hadria-R1: no city to choose
}
PLAYER_COUNTS = {"caper": (2, 3, 4), "caper-europe": (2,), "age-of-thieves": (2, 3, 4)}
MAX_STRIKES = 3  # the arena's default fault policy
OTHERS = "random"  # the name the kit gives every seat the bot does not hold


def variants(games: tuple[str, ...]) -> list[tuple[str, int]]:
    """(game id, players) for every variant of `games`, 2-player games of each game first."""
    counts = sorted({n for game in games for n in PLAYER_COUNTS[game]})
    return [(game, n) for n in counts for game in games if n in PLAYER_COUNTS[game]]


@dataclass
class Table:
    """One game in flight: the bot holds `seats`, seeded random players the others."""

    game_id: str
    game: Game[Any, Any]
    config: Config
    seating: Layout
    seats: tuple[int, ...]
    state: Any  # the game's state
    others: random.Random
    moves: int = 0
    strikes: dict[int, int] = field(default_factory=dict)  # per seat of the bot

    @classmethod
    def deal(cls, game_seed: int, kinds: list[tuple[str, int]]) -> Table:
        """Game number `game_seed`: its variant, city and the bot's seats all take turns."""
        game_id, players = kinds[game_seed % len(kinds)]
        turn = game_seed // len(kinds)  # how many games of this variant came before
        game = get_game(game_id)
        cities = CITIES[game.id]
        config: Config = {"city": cities[turn % len(cities)]} if cities else {}
        if players != 2:
            config = {**config, "players": players}
        seating = layout(game, config)
        side = seating.sides[turn % len(seating.sides)]
        return cls(
            game_id=f"kit-{game_seed}",
            game=game,
            config=config,
            seating=seating,
            seats=side,
            state=game.create(config, game_seed),
            others=random.Random(f"kit-opponent/{game_seed}"),
        )

    def names(self, bot_name: str) -> list[str]:
        seats = range(self.seating.seat_count)
        return [bot_name if seat in self.seats else OTHERS for seat in seats]

    def started(self, seat: int, bot_name: str, move_ms: int) -> bot_pb2.ConnectResponse:
        """The GameStarted of one of the bot's seats, as `arena.play.remote` builds it."""
        names = self.names(bot_name)
        side = self.seating.side_of(seat)
        others = [
            names[seats[0]] for index, seats in enumerate(self.seating.sides) if index != side
        ]
        started = bot_pb2.GameStarted(
            game_id=self.game_id,
            seat=seat,
            game=self.game.id,
            rules_version=self.game.rules_version,
            config=codec.config_to_proto(self.config),
            opponent_name=", ".join(others),
            time_control=bot_pb2.TimeControl(move_ms=move_ms, bank_ms=0, max_strikes=MAX_STRIKES),
            seats=[
                bot_pb2.GameSeat(player_name=name, role=role.role, team=role.team)
                for name, role in zip(names, self.seating.roles, strict=True)
            ],
        )
        return bot_pb2.ConnectResponse(game_started=started)

    def request(self, seat: int, legal: list[Any], deadline_ms: int) -> bot_pb2.DecisionRequest:
        """The request the gateway would send (see `arena.play.remote`)."""
        observation = self.game.observation(self.state, seat)
        return bot_pb2.DecisionRequest(
            request_id=f"{self.game_id}.{seat}.{self.moves}",
            game_id=self.game_id,
            seat=seat,
            observation=codec.observation_to_proto(observation),
            legal_actions=codec.legal_actions_to_proto(self.game, legal),
            deadline_ms=deadline_ms,
            bank_ms=0,
            strikes=self.strikes.get(seat, 0),
            move_number=self.moves,
        )

    def over(self, seat: int, result: Result, termination: str, reason: str) -> bot_pb2.GameOver:
        return bot_pb2.GameOver(
            game_id=self.game_id,
            result=codec.result_to_proto(result, termination),
            seat=seat,
            reason=reason,
        )

    def forfeit(self, seat: int, reason: str) -> Result:
        """The arena's result of a game the bot's `seat` lost by its fault."""
        return forfeit_result(self.seating, seat, reason)

    def role(self, seat: int) -> str:
        return self.seating.roles[seat].role

    def apply(self, action: Any) -> None:
        self.state = self.game.apply(self.state, action)
        self.moves += 1
