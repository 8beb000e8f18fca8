"""`arena bench protocol` says what a decision costs each process in CPU time: on a machine
shared with other work the rate moves with the load, the CPU a decision much less."""

from __future__ import annotations

import re

from click.testing import CliRunner

from arena.cli import main


def test_bench_protocol_prints_the_cpu_a_decision_of_gateway_bots_and_runners(
    redis_server_url: str,
) -> None:
    args = ["bench", "protocol", "--bots", "2", "--seconds", "1", "--parallel", "1"]
    out = CliRunner().invoke(main, args, env={"REDIS_URL": redis_server_url})
    assert out.exit_code == 0, out.output
    printed = " ".join(out.output.split())  # the console wraps long lines
    assert "CPU a decision of the gateway, the bot hosts and the runners" in printed
    found = re.findall(r"games at a time: .*? CPU ([\d,]+) / ([\d,]+) / ([\d,]+) us", printed)
    assert len(found) == 1
    # Each of the three did work for every decision: none can have used no CPU at all.
    assert all(int(us.replace(",", "")) > 0 for us in found[0]), out.output
