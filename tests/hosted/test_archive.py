"""Submissions read from folders and archives: hostile names, links, special files and sizes are
refused before anything is kept; the same files give the same canonical archive."""

from __future__ import annotations

import io
import os
import stat
import tarfile
import zipfile
from pathlib import Path

import pytest

from arena.hosted.archive import (
    SubmissionError,
    SubmissionLimits,
    pack,
    read_archive_bytes,
    read_submission,
    unpack,
)
from arena.hosted.manifest import ManifestError, parse_manifest

MANIFEST = b'command = "python3 bot.py"\nruntime = "python"\n'


def tar_of(members: list[tuple[tarfile.TarInfo, bytes]], mode: str = "w:gz") -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as tar:  # type: ignore[call-overload]
        for info, data in members:
            info.size = len(data) if info.isreg() else 0
            tar.addfile(info, io.BytesIO(data) if info.isreg() else None)
    return buffer.getvalue()


def member(name: str, kind: bytes = tarfile.REGTYPE, link: str = "") -> tarfile.TarInfo:
    info = tarfile.TarInfo(name)
    info.type, info.linkname, info.mtime = kind, link, 12345
    return info


def zip_of(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def write_folder(folder: Path) -> Path:
    (folder / "lib").mkdir(parents=True)
    (folder / "arena-bot.toml").write_bytes(MANIFEST)
    (folder / "bot.py").write_text("print('hi')\n")
    (folder / "lib" / "run.sh").write_text("#!/bin/sh\n")
    (folder / "lib" / "run.sh").chmod(0o755)
    return folder


def test_a_folder_a_tar_gz_and_a_zip_of_the_same_files_are_one_version(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "bot")
    sha, _ = pack(read_submission(folder))
    os.utime(folder / "bot.py", (1, 1))  # times are not part of a version
    assert pack(read_submission(folder))[0] == sha
    files = [
        (member("mybot/arena-bot.toml"), MANIFEST),
        (member("mybot/bot.py"), b"print('hi')\n"),
        (member("mybot/lib/run.sh"), b"#!/bin/sh\n"),
    ]
    files[2][0].mode = 0o700
    as_tar = tar_of(files)  # one top folder holding the manifest: taken as the submission
    assert pack(read_archive_bytes(as_tar))[0] == sha
    as_zip = zip_of({"arena-bot.toml": MANIFEST, "bot.py": b"print('hi')\n"})
    assert pack(read_archive_bytes(as_zip))[0] != sha  # run.sh missing: another version


def test_unpacking_gives_back_the_files_with_their_modes(tmp_path: Path) -> None:
    _, packed = pack(read_submission(write_folder(tmp_path / "bot")))
    out = tmp_path / "out"
    out.mkdir()
    unpack(packed, out)
    assert (out / "bot.py").read_text() == "print('hi')\n"
    assert (out / "lib" / "run.sh").stat().st_mode & 0o777 == 0o755
    assert (out / "bot.py").stat().st_mode & 0o777 == 0o644
    assert (out / "lib").stat().st_mode & 0o777 == 0o755


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ([member("../evil.py")], "must stay inside"),
        ([member("/etc/cron.d/evil")], "must stay inside"),
        ([member("a/../../evil")], "must stay inside"),
        ([member("out", tarfile.SYMTYPE, "/etc/passwd")], "must point inside"),
        ([member("out", tarfile.SYMTYPE, "../../etc")], "must point inside"),
        ([member("a/out", tarfile.SYMTYPE, "../../etc")], "must point inside"),
        ([member("d", tarfile.SYMTYPE, "."), member("e", tarfile.SYMTYPE, "d/../..")], "inside"),
        ([member("d", tarfile.SYMTYPE, "sub"), member("d/x.py")], "lies under a symlink"),
        ([member("hard", tarfile.LNKTYPE, "/etc/shadow")], "hard link"),
        ([member("null", tarfile.CHRTYPE)], "not a regular file"),
        ([member("fifo", tarfile.FIFOTYPE)], "not a regular file"),
        ([member("x.py"), member("./x.py")], "appears twice"),
        ([member("bad\nname.py")], "printable UTF-8"),
        ([member("x" * 300)], "at most 255 bytes a part"),
    ],
)
def test_hostile_tar_members_are_refused(members: list[tarfile.TarInfo], message: str) -> None:
    data = tar_of([(info, b"x") for info in members])
    with pytest.raises(SubmissionError, match=message):
        read_archive_bytes(data)


def test_hostile_zip_names_are_refused() -> None:
    with pytest.raises(SubmissionError, match="must stay inside"):
        read_archive_bytes(zip_of({"../../evil.py": b"x"}))


@pytest.mark.parametrize(
    ("kind", "content", "message"),
    [
        (stat.S_IFLNK, b"/etc/passwd", "must point inside"),
        (stat.S_IFCHR, b"", "not a regular file"),
    ],
)
def test_zip_symlinks_and_devices_are_checked_as_a_tar_s(
    kind: int, content: bytes, message: str
) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("arena-bot.toml", MANIFEST)
        info = zipfile.ZipInfo("special")
        info.external_attr = (kind | 0o777) << 16
        archive.writestr(info, content)
    with pytest.raises(SubmissionError, match=message):
        read_archive_bytes(buffer.getvalue())


def test_a_symlink_out_of_a_folder_and_a_fifo_in_it_are_refused(tmp_path: Path) -> None:
    folder = write_folder(tmp_path / "bot")
    (folder / "secrets").symlink_to("/etc")
    with pytest.raises(SubmissionError, match="must point inside"):
        read_submission(folder)
    (folder / "secrets").unlink()
    (folder / "inside").symlink_to("bot.py")  # a link within the submission is kept
    (folder / "lib" / "up").symlink_to("../bot.py")  # as node_modules/.bin's links are
    kept = {e.name: e.data for e in read_submission(folder) if e.link}
    assert kept == {"inside": b"bot.py", "lib/up": b"../bot.py"}
    os.mkfifo(folder / "pipe")
    with pytest.raises(SubmissionError, match="not a regular file"):
        read_submission(folder)


def test_sizes_are_refused_before_the_files_are_read(tmp_path: Path) -> None:
    limits = SubmissionLimits(archive_bytes=4096, unpacked_bytes=1000, files=3)
    big = tar_of([(member("big.bin"), b"\0" * 100_000)])  # small packed, large inflated
    assert len(big) < 4096
    with pytest.raises(SubmissionError, match="over the limit of"):
        read_archive_bytes(big, limits)
    archive = tmp_path / "bot.tar.gz"
    archive.write_bytes(os.urandom(5000))
    with pytest.raises(SubmissionError, match=r"bot.tar.gz is .* over the limit"):
        read_submission(archive, limits)
    many = zip_of({f"f{n}": b"" for n in range(4)})
    with pytest.raises(SubmissionError, match="more than 3 files"):
        read_archive_bytes(many, limits)


def test_garbage_is_not_an_archive() -> None:
    with pytest.raises(SubmissionError, match=r"not a \.tar\.gz"):
        read_archive_bytes(b"certainly not an archive" * 10)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b'runtime = "python"\n', "names no command"),
        (b'command = ""\n', "command is empty"),
        (b"command = [1, 2]\n", "string or a list of strings"),
        (b'command = "./bot"\nbiuld = "make"\n', "unknown key"),
        (b'command = "./bot"\nruntime = "cobol"\n', "unknown runtime"),
        (b'command = "./bot"\nbuild = ""\n', "non-empty string"),
        (b"command = [unclosed\n", "not valid TOML"),
        (b"\xff\xfe", "not valid TOML"),
    ],
)
def test_bad_manifests_say_what_to_fix(text: bytes, message: str) -> None:
    with pytest.raises(ManifestError, match=message):
        parse_manifest(text)


def test_a_manifest_command_is_split_as_a_shell_would() -> None:
    manifest = parse_manifest(b'command = "python3 \'my bot.py\'"\nbuild = "make"\n')
    assert manifest.command == ("python3", "my bot.py")
    assert (manifest.build, manifest.runtime) == ("make", "native")
