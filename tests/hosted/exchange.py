"""The exchange docs/program-protocol.md shows: a real run of a short game (the program plays one
action, then resigns), every line each way. `python -m tests.hosted.exchange` prints it."""

from __future__ import annotations

from tests.hosted.programs import TEST_POLICY, play, running

RECORDER = """
_send = send
def send(message):
    log("< " + json.dumps(message, separators=(",", ":")))
    _send(message)
def on(message):
    log("> " + json.dumps(message, separators=(",", ":")))
moves = []
def act(request):
    moves.append(request)
    if len(moves) == 1:
        return reply(request, 1)
    return {"resign": {"gameId": request["gameId"]}}
"""


def exchange() -> list[str]:
    """Each line the arena sent ("> ") and the program sent ("< "), in order."""
    with running(RECORDER) as program:
        play(program, policy=TEST_POLICY)
    return [line for line in program.stderr.splitlines() if line[:2] in ("> ", "< ")]


if __name__ == "__main__":
    print("\n".join(exchange()))
