"""Debian tools the protocol tests run (protoc and its plugins, the C++ build): installed with
apt-get when missing, as root. A missing tool fails the test; it never skips it."""

from __future__ import annotations

import os
import shutil
import subprocess

import pytest

# protoc with every built-in generator, the Go plugins, and what the C++ example bot builds with.
PROTOC = ("protobuf-compiler",)
GO_PLUGINS = ("protoc-gen-go", "protoc-gen-go-grpc")
CPP_BUILD = (
    "g++",
    "make",
    "pkg-config",
    "protobuf-compiler",
    "protobuf-compiler-grpc",
    "libgrpc++-dev",
    "libprotobuf-dev",
)


def ensure(commands: tuple[str, ...], packages: tuple[str, ...], pkg_config: str = "") -> None:
    """Install `packages` unless every command is on PATH and every pkg-config module exists."""
    if _present(commands, pkg_config):
        return
    if os.geteuid() != 0 or shutil.which("apt-get") is None:
        pytest.fail(f"these tests need Debian's {' '.join(packages)}: install them as root")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    install = ["apt-get", "install", "-y", "-q", "--no-install-recommends", *packages]
    for command in (["apt-get", "update", "-q"], install):
        done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
        if done.returncode != 0:
            pytest.fail(f"{' '.join(command[:2])} failed: {done.stderr[-800:]}")
    if not _present(commands, pkg_config):
        pytest.fail(f"installed {' '.join(packages)} but {' '.join(commands)} are still missing")


def _present(commands: tuple[str, ...], pkg_config: str) -> bool:
    if any(shutil.which(command) is None for command in commands):
        return False
    if not pkg_config:
        return True
    found = subprocess.run(["pkg-config", "--exists", *pkg_config.split()], check=False)
    return found.returncode == 0
