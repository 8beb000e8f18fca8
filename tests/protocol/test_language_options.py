"""The protos name their packages for the common languages, so that protoc's generators need no
flags: `protoc --go_out=. --go-grpc_out=.` used to fail with "unable to determine Go import path".
Run with Debian's protoc (it has every built-in generator) and Go plugins."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from arena.v1 import age_of_thieves_pb2, arena_pb2, bot_pb2, caper_europe_pb2, caper_pb2, game_pb2
from tests.protocol import toolchain

ROOT = Path(__file__).resolve().parents[2]
PROTOS = sorted(
    str(path.relative_to(ROOT / "proto")) for path in ROOT.glob("proto/arena/v1/*.proto")
)
MODULES = (age_of_thieves_pb2, arena_pb2, bot_pb2, caper_pb2, caper_europe_pb2, game_pb2)

pytestmark = pytest.mark.timeout(300)


def protoc(*flags: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["protoc", "-I", "proto", *flags, *PROTOS],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_every_file_names_the_same_packages() -> None:
    options = [module.DESCRIPTOR.GetOptions() for module in MODULES]
    assert len(MODULES) == len(PROTOS)
    for option in options:
        assert option.go_package == "caperarena/arena/v1;arenav1"
        assert option.java_package == "com.caperarena.v1" and option.java_multiple_files
        assert option.csharp_namespace == "CaperArena.V1"
        assert option.ruby_package == "CaperArena::V1"
        assert option.php_namespace == "CaperArena\\V1"
        assert option.objc_class_prefix == "CAV"


def test_java_outer_classes_clash_with_no_type() -> None:
    # javac refuses a message or enum named like its file's outer class.
    outer = [module.DESCRIPTOR.GetOptions().java_outer_classname for module in MODULES]
    types = {
        name
        for module in MODULES
        for name in (
            *module.DESCRIPTOR.message_types_by_name,
            *module.DESCRIPTOR.enum_types_by_name,
            *module.DESCRIPTOR.services_by_name,
        )
    }
    assert len(set(outer)) == len(MODULES) and all(outer)
    assert not types & set(outer)


def test_protoc_go_out_needs_no_flags(tmp_path: Path) -> None:
    toolchain.ensure(
        ("protoc", "protoc-gen-go", "protoc-gen-go-grpc"), toolchain.PROTOC + toolchain.GO_PLUGINS
    )
    done = protoc(f"--go_out={tmp_path}", f"--go-grpc_out={tmp_path}")
    assert done.returncode == 0, done.stderr
    package = tmp_path / "caperarena" / "arena" / "v1"
    assert {path.name for path in package.iterdir()} == {
        "age_of_thieves.pb.go",
        "arena.pb.go",
        "arena_grpc.pb.go",
        "bot.pb.go",
        "bot_grpc.pb.go",
        "caper.pb.go",
        "caper_europe.pb.go",
        "game.pb.go",
    }
    assert "package arenav1\n" in (package / "bot_grpc.pb.go").read_text()
    assert "func NewBotGatewayServiceClient(" in (package / "bot_grpc.pb.go").read_text()


def test_the_built_in_generators_use_the_package_names(tmp_path: Path) -> None:
    toolchain.ensure(("protoc",), toolchain.PROTOC)
    languages = ("java", "csharp", "ruby", "php", "objc")
    for language in languages:
        (tmp_path / language).mkdir()
    done = protoc(*(f"--{language}_out={tmp_path / language}" for language in languages))
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "java/com/caperarena/v1/ConnectRequest.java").is_file()
    assert "namespace CaperArena.V1 {" in (tmp_path / "csharp/Bot.cs").read_text()
    assert "module CaperArena\n  module V1\n" in (tmp_path / "ruby/arena/v1/bot_pb.rb").read_text()
    assert (tmp_path / "php/CaperArena/V1/ConnectRequest.php").is_file()
    assert "@interface CAVConnectRequest" in (tmp_path / "objc/arena/v1/Bot.pbobjc.h").read_text()
