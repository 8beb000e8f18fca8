"""A program plays a match over stdin and stdout, judged by the referee's fault policy."""

from __future__ import annotations

from arena.referee.referee import FaultPolicy, Termination
from tests.hosted.programs import PLAIN, TEST_POLICY, play, running


def test_a_program_plays_several_games_of_a_match_in_one_process() -> None:
    body = PLAIN + 'def on(message):\n    log("got", next(iter(message)))\n'
    with running(body) as program:
        first, second = play(program, seed=1), play(program, seed=2, seat=1)
    kinds = program.stderr.split()  # read once stopped: it had time to log the last message
    assert (first.termination, second.termination) == (Termination.NORMAL, Termination.NORMAL)
    assert first.faults == second.faults == ()
    assert kinds.count("gameStarted") == kinds.count("gameOver") == 2
    assert kinds[1] == "welcome"


def test_a_late_answer_is_a_strike_and_a_random_move_and_the_game_goes_on() -> None:
    body = (
        "late = [True]\n"
        "def act(request):\n"
        "    if late.pop() if late else False:\n"
        "        time.sleep(1.5)\n"
        "    return reply(request)\n"
    )
    # no bank: the late answer is struck; a deadline no prompt answer misses, even under load
    policy = FaultPolicy(move_ms=1000, bank_ms=0, max_strikes=2, grace_ms=0)
    with running(body) as program:
        outcome = play(program, policy=policy)
    assert outcome.termination is Termination.NORMAL
    assert outcome.faults == ((0, "missed the deadline (strike 1)"),)


def test_answers_to_another_seats_request_are_passed_over() -> None:
    body = (
        "def act(request):\n"
        "    send({'actionReply': {'requestId': 'g1.1.1', 'legalIndex': 0}})\n"
        "    return None\n"
    )
    with running(body) as program:
        outcome = play(program, policy=TEST_POLICY)
    assert outcome.termination is Termination.TIMEOUT
    assert outcome.faults[-1] == (0, "forfeited: 2 missed deadlines")


def test_garbage_on_stdout_forfeits_as_an_illegal_action() -> None:
    body = "def act(request):\n    print('{not json')\n    sys.stdout.flush()\n"
    with running(body) as program:
        outcome = play(program)
    assert outcome.termination is Termination.ILLEGAL_ACTION
    assert "not a protocol message" in outcome.reason


def test_a_program_that_resigns_loses_by_resignation() -> None:
    body = "def act(request):\n    return {'resign': {'gameId': request['gameId']}}\n"
    with running(body) as program:
        outcome = play(program)
    assert outcome.termination is Termination.RESIGNATION


def test_a_crash_forfeits_this_game_and_the_next_without_troubling_the_caller() -> None:
    body = "def act(request):\n    raise SystemExit(3)\n"
    with running(body) as program:
        first, second = play(program, seed=1), play(program, seed=2)
    assert first.termination is second.termination is Termination.DISCONNECT
    assert "it exited with code 3" in first.reason
    assert "the program is gone" in second.reason


def test_a_program_that_never_says_hello_is_gone_before_its_first_game() -> None:
    body = PLAIN + "sys.stdin.read()\n"  # waits for input before its hello
    with running(body, hello_s=0.5) as program:
        gone = program.gone
        outcome = play(program)
    assert gone == "it did not start with a hello in time"
    assert outcome.termination is Termination.DISCONNECT


def test_a_program_speaking_another_protocol_version_is_refused() -> None:
    body = PLAIN + "send({'hello': {'protocolVersion': 2}})\nsys.stdin.read()\n"
    with running(body) as program:
        assert program.gone == "it speaks protocol version 2, not 1"
