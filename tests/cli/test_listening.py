"""Where the servers listen: loopback by default, on default ports that never collide, and an
address that cannot be bound is one line naming it, whichever server (gRPC, /metrics, web)."""

from __future__ import annotations

import socket

import click
import pytest
from click.testing import CliRunner

from arena.cli import main

SERVERS = {"serve": ("port", "metrics_port"), "metrics": ("port",), "web": ("port",)}


def defaults(command_name: str) -> dict[str, object]:
    command = main.commands[command_name]
    return {p.name: p.default for p in command.params if isinstance(p, click.Option) and p.name}


def test_servers_listen_on_loopback_by_default_on_ports_that_do_not_collide() -> None:
    ports = [defaults(name)[port] for name, options in SERVERS.items() for port in options]
    assert len(set(ports)) == len(ports), ports
    assert {name: defaults(name)["host"] for name in SERVERS} == dict.fromkeys(SERVERS, "127.0.0.1")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (("metrics", "--port", "{port}"), "--port"),
        (("serve", "--port", "0", "--metrics-port", "{port}"), "--metrics-port"),
        (("serve", "--port", "{port}", "--metrics-port", "0"), "--port"),
        (("web", "--port", "{port}"), "--port"),
    ],
)
def test_a_taken_address_is_one_line_naming_it(
    redis_server_url: str, args: tuple[str, ...], option: str
) -> None:
    with socket.socket() as held:
        held.bind(("127.0.0.1", 0))
        held.listen()
        port = held.getsockname()[1]
        argv = [arg.format(port=port) for arg in args]
        got = CliRunner().invoke(main, [*argv, "--redis-url", redis_server_url])
    assert got.exit_code == 1, got.output
    error = got.output.strip().splitlines()[-1]
    assert error == (
        f"Error: cannot listen on 127.0.0.1:{port}: the address is already in use: "
        f"stop what holds it or choose another {option}"
    ), got.output
    assert "Traceback" not in got.output and "Errno" not in got.output
