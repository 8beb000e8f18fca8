"""Game records: exact replays, and clear errors for corrupted records."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from arena.games.caper import CAPER
from arena.games.record import ActionTexts, GameRecord, RecordError, replay, replay_states


def _played(seed: int = 3, city: str = "rome") -> tuple[GameRecord, object]:
    rng = random.Random(seed)
    state = CAPER.create({"city": city}, seed)
    actions = []
    while not CAPER.is_terminal(state):
        action = rng.choice(CAPER.legal_actions(state))
        actions.append(CAPER.action_text(action))
        state = CAPER.apply(state, action)
    result = CAPER.result(state).to_json()
    record = GameRecord("caper", CAPER.rules_version, {"city": city}, seed, tuple(actions), ("a", "b"), result=result)  # fmt: skip
    return record, state


def test_a_record_replays_to_the_same_final_state_and_result() -> None:
    record, final = _played()
    state, result = replay(GameRecord.loads(record.dumps()))
    assert state == final
    assert result is not None and list(result.scores) == record.result["scores"]  # type: ignore[index]


def test_replay_yields_every_state_in_order() -> None:
    record, _ = _played(seed=4)
    steps = list(replay_states(record))
    assert steps[0][0] is None
    assert [text for text, _ in steps[1:]] == list(record.actions)


def test_record_survives_a_file_round_trip(tmp_path: Path) -> None:
    record, _ = _played()
    path = tmp_path / "game.json"
    path.write_text(record.dumps())
    assert GameRecord.load(path) == record


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda d: "{not json", "not valid JSON"),
        (lambda d: json.dumps([1, 2]), "must be a JSON object"),
        (lambda d: json.dumps({k: v for k, v in d.items() if k != "seed"}), "has no 'seed'"),
        (lambda d: json.dumps({**d, "seed": "abc"}), "'seed' must be int"),
        (lambda d: json.dumps({**d, "actions": [1, 2]}), "'actions' must be a list of strings"),
        (lambda d: json.dumps({**d, "rules_version": 99}), "rules version 99"),
        (lambda d: json.dumps({**d, "game": "chess"}), "unknown game 'chess'"),
        (lambda d: json.dumps({**d, "format": 7}), "unsupported record format"),
        (lambda d: json.dumps({**d, "config": {"city": ["x"]}}), "config 'city' must be"),
        (
            lambda d: json.dumps({**d, "actions": ["pass", *d["actions"]]}),
            "action 1 \\('pass'\\) does not replay",
        ),
        (
            lambda d: json.dumps({**d, "actions": [*d["actions"][:5], "fly away"]}),
            "action 6 \\('fly away'\\) does not replay",
        ),
        (
            lambda d: json.dumps({**d, "result": {**d["result"], "scores": [0, 0]}}),
            "the replay gives",
        ),
    ],
)
def test_corrupted_records_are_refused_with_a_reason(corrupt, message: str) -> None:  # type: ignore[no-untyped-def]
    record, _ = _played()
    with pytest.raises(RecordError, match=message):
        replay(GameRecord.loads(corrupt(record.to_json())))


def test_a_missing_file_is_a_record_error(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        GameRecord.load(tmp_path / "absent.json")


class _CountedTexts:
    """A game whose action texts count how often they are written."""

    id, rules_version = "counted", 1

    def __init__(self) -> None:
        self.written = 0

    def action_text(self, action: int) -> str:
        self.written += 1
        return f"a{action}"


def test_action_texts_are_written_once_each_until_the_memory_is_full() -> None:
    texts, game = ActionTexts(kept=3), _CountedTexts()
    assert [texts.text(game, a) for a in (1, 2, 1, 2, 3)] == ["a1", "a2", "a1", "a2", "a3"]  # type: ignore[arg-type]
    assert game.written == 3 and len(texts) == 3
    assert texts.text(game, 4) == "a4"  # type: ignore[arg-type]
    assert len(texts) == 1  # full: it started over rather than grow
