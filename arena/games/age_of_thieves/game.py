"""The `Game` object for Age of Thieves (rules docs/rules/age-of-thieves.md), 2 to 4 players
with `{"players": n}`: the arena-facing face of the rules modules."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence

# The rules modules register their task and prompt handlers with the engine on import.
from arena.games.age_of_thieves import (  # noqa: F401
    activation,
    effects,
    guards,
    hands,
    movement,
    planning,
    resolution,
    rounds,
)
from arena.games.age_of_thieves.engine import play
from arena.games.age_of_thieves.hadria import CURRENT_BOARD, board_file
from arena.games.age_of_thieves.observation import AgeOfThievesObservation, observe
from arena.games.age_of_thieves.render import render
from arena.games.age_of_thieves.state import (
    Action,
    State,
    action_text,
    parse_action,
)
from arena.games.api import (
    Config,
    ConfigError,
    GameError,
    InvalidActionError,
    Result,
    SeatRole,
)

PLAYERS = (2, 3, 4)


SETTINGS = ("players", "thieves", "first_game", "first_player_orders_guards", "board")


def players_setting(config: Config) -> int:
    value = config.get("players", 2)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if type(value) is not int or value not in PLAYERS:
        raise ConfigError(f"Age of Thieves is for 2, 3 or 4 players, not {value!r}")
    unknown = sorted(set(config) - set(SETTINGS))
    if unknown:
        known = ", ".join(SETTINGS)
        raise ConfigError(
            f"unknown Age of Thieves setting {unknown[0]!r}: the settings are {known}"
        )
    return value


def _thieves_setting(config: Config) -> tuple[str, ...] | None:
    """`"thieves": "morius,jasmine"` picks each seat's thief (4.3); left out, they are drawn."""
    value = config.get("thieves")
    if value is None:
        return None
    if not isinstance(value, str):
        raise ConfigError(f"'thieves' lists thief names separated by commas, got {value!r}")
    return tuple(name.strip() for name in value.split(","))


def _board_setting(config: Config) -> str:
    """`"board": "hadria-r1"` sets up an earlier board version, so old records replay."""
    value = config.get("board", CURRENT_BOARD)
    if not isinstance(value, str):
        raise ConfigError(f"'board' names a board version, got {value!r}")
    board_file(value)  # a clear error naming the known versions
    return value


def _flag(config: Config, name: str) -> bool:
    value = config.get(name, 0)
    if value not in (0, 1, "0", "1"):
        raise ConfigError(f"{name!r} is 0 or 1, got {value!r}")
    return value in (1, "1")


class AgeOfThievesGame:
    id = "age-of-thieves"
    name = "Age of Thieves"
    rules_version = 2
    num_players = 2  # in the default configuration; `seat_count` tells a game's own

    def create(self, config: Config, seed: int) -> State:
        players = players_setting(config)
        return rounds.create(
            players,
            seed,
            _thieves_setting(config),
            first_game=_flag(config, "first_game"),
            orders_guards=_flag(config, "first_player_orders_guards"),
            board_version=_board_setting(config),
        )

    def seat_count(self, state: State) -> int:
        return state.players

    def seat_roles(self, config: Config) -> tuple[SeatRole, ...]:
        return tuple(SeatRole("player") for _ in range(players_setting(config)))

    def current_player(self, state: State) -> int | None:
        return None if state.over or state.prompt is None else state.prompt.seat

    def legal_actions(self, state: State) -> Sequence[Action]:
        return () if state.over or state.prompt is None else state.prompt.options

    def apply(self, state: State, action: Action, seat: int | None = None) -> State:
        if not isinstance(action, Action):
            raise InvalidActionError(f"not an Age of Thieves action: {action!r}")
        return play(state, action, seat)

    def is_terminal(self, state: State) -> bool:
        return state.over

    def result(self, state: State) -> Result:
        """Section 19: VP count only for thieves who left the city; the winner escaped with the
        Emperor's Jewel or has most VP, then green jewels, then left earlier; none if nobody
        left (everybody loses)."""
        if not state.over:
            raise GameError("the game is not over yet: no result to give")
        breakdowns = tuple(_breakdown(state, s) for s in range(state.players))
        scores = tuple(sum(b.values()) for b in breakdowns)
        winner = None if state.winner < 0 else state.winner
        escaped = [s for s, t in enumerate(state.thieves) if not t.on_board]
        return Result(
            scores=scores,
            winner=winner,
            breakdown=breakdowns,
            tiebreak=_tiebreak(state, scores, escaped),
            details={
                "reason": state.reason,
                "rounds": state.round,
                "escaped": escaped,
                "emperors_jewel": winner is not None and state.thief(winner).ej,
                "everyone_loses": winner is None,
                "winners": [] if winner is None else [winner],
                "board": state.board,
            },
        )

    def observation(self, state: State, seat: int) -> AgeOfThievesObservation:
        if not (isinstance(seat, int) and 0 <= seat < state.players):
            raise GameError(f"this game has seats 0 to {state.players - 1}, not {seat!r}")
        return observe(state, seat)

    def action_text(self, action: Action) -> str:
        return action_text(action)

    def action_seen_by(self, state: State, action: Action, seat: int) -> str:
        """`action`, taken in `state`, as `seat` sees it: a plan is built behind the screen
        (section 8) and a card given by Shadows of the City passes face down (S03)."""
        prompt = state.prompt
        if prompt is None or prompt.seat == seat:
            return action_text(action)
        if prompt.name == "plan" and action.kind != "done":
            return "plan (hidden)"
        if action.kind == "give":
            return "give (a card)"
        return action_text(action)

    def parse_action(self, text: str) -> Action:
        return parse_action(text)

    def render(self, state: State, seat: int | None = None) -> str:
        return render(state, seat)

    def conserved(self, state: State) -> Mapping[str, int]:
        """Jewels, figures and general cards never appear or vanish (spec 22.8)."""
        board_jewels = Counter(kind for _, kind in state.jewels)
        general = len(state.deck) + len(state.discard)
        for thief in state.thieves:
            general += len(thief.hand)
            general += sum(_is_general(p.card) + _is_general(p.under) for p in thief.plan)
        return {
            "yellow": state.yellow_supply + board_jewels["yellow"]
            + sum(t.yellow for t in state.thieves),
            "green": state.green_supply + board_jewels["green"]
            + sum(t.green for t in state.thieves),
            "emperors_jewel": board_jewels["ej"] + sum(t.ej for t in state.thieves),
            "guards": state.guard_supply + len(state.guards),
            "captains": state.captain_supply + len(state.captains),
            "general_cards": general,
        }  # fmt: skip


def _is_general(card: str) -> int:
    return int(bool(card) and card.startswith("G"))


def _breakdown(state: State, seat: int) -> dict[str, int]:
    thief = state.thief(seat)
    if thief.on_board:  # still in the city at the end: ignored (section 19)
        return {"best_thief": 0, "green": 0, "yellow": 0, "trinket": 0}
    return {
        "best_thief": 3 * thief.best,
        "green": 2 * thief.green,
        "yellow": thief.yellow,
        "trinket": thief.trinkets,
    }


def _tiebreak(state: State, scores: tuple[int, ...], escaped: list[int]) -> str:
    if state.winner < 0 or state.thief(state.winner).ej or len(escaped) < 2:
        return ""
    best = [s for s in escaped if scores[s] == scores[state.winner]]
    if len(best) < 2:
        return ""
    greens = {state.thief(s).green for s in best}
    return "green jewels" if len(greens) > 1 else "left earlier"


AGE_OF_THIEVES = AgeOfThievesGame()
