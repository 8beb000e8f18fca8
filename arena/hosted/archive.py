"""A submission's files, read from a folder, a .tar(.gz) or a .zip, checked and size-limited, and
packed into one canonical archive whose sha256 names the version.

Refused: names that are absolute or climb out with '..', files under a symlinked folder,
symlinks that are absolute, climb above the top or pass through another symlink (so none can
point out of the submission), hard links, devices, FIFOs and sockets, names that are not
printable UTF-8, and anything over the limits, which are checked as the files are read so that
a compressed bomb is never inflated past them.

The canonical archive is an uncompressed tar of the files sorted by name, with times, owners
and modes wiped (0644, or 0755 for an executable): the same files give the same bytes, hence
the same version, whatever their timestamps or the tool that packed them. It is stored gzipped.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import stat
import tarfile
import zipfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from arena.hosted.manifest import MANIFEST_NAME

MIB = 1024 * 1024
MAX_NAME = 1024  # characters of a file's path in the submission


class SubmissionError(ValueError):
    """A submission refused; the message says why."""


@dataclass(frozen=True, slots=True)
class SubmissionLimits:
    archive_bytes: int = 8 * MIB  # an archive given, and the stored (gzipped) one
    unpacked_bytes: int = 32 * MIB  # every file's bytes together
    files: int = 2000


DEFAULT_SUBMISSION_LIMITS = SubmissionLimits()


@dataclass(frozen=True, slots=True)
class Entry:
    name: str  # relative, '/'-separated, normalised
    data: bytes  # a symlink's target for a link
    executable: bool = False
    link: bool = False


class _Budget:
    """Counts files and bytes against the limits, refusing the first one past them."""

    def __init__(self, limits: SubmissionLimits) -> None:
        self.limits, self.files, self.bytes = limits, 0, 0

    def take(self, size: int) -> None:
        self.files += 1
        self.bytes += size
        if self.files > self.limits.files:
            raise SubmissionError(f"the submission holds more than {self.limits.files} files")
        if self.bytes > self.limits.unpacked_bytes:
            raise SubmissionError(
                f"the submission's files are over the limit of "
                f"{_mib(self.limits.unpacked_bytes)} together"
            )

    def remaining(self) -> int:
        return self.limits.unpacked_bytes - self.bytes


def _mib(size: int) -> str:
    return f"{size / MIB:.1f} MiB" if size % MIB else f"{size // MIB} MiB"


def read_submission(
    path: Path, limits: SubmissionLimits = DEFAULT_SUBMISSION_LIMITS
) -> list[Entry]:
    """The files of the folder or archive at `path`, checked, sorted by name."""
    if path.is_dir():
        entries = list(_read_folder(path, _Budget(limits)))
    elif path.is_file():
        size = path.stat().st_size
        if size > limits.archive_bytes:
            raise SubmissionError(
                f"{path.name} is {_mib(size)}, over the limit of {_mib(limits.archive_bytes)}"
            )
        entries = read_archive_bytes(path.read_bytes(), limits)
    else:
        raise SubmissionError(f"{path} is neither a folder nor an archive file")
    return _checked(entries)


def read_archive_bytes(
    data: bytes, limits: SubmissionLimits = DEFAULT_SUBMISSION_LIMITS
) -> list[Entry]:
    """The files of a .tar, .tar.gz or .zip archive given as bytes (an upload)."""
    if len(data) > limits.archive_bytes:
        raise SubmissionError(
            f"the archive is {_mib(len(data))}, over the limit of {_mib(limits.archive_bytes)}"
        )
    budget = _Budget(limits)
    if zipfile.is_zipfile(io.BytesIO(data)):
        return _checked(list(_read_zip(data, budget)))
    try:
        with tarfile.open(fileobj=io.BytesIO(data), mode="r:*") as tar:
            return _checked(list(_read_tar(tar, budget)))
    except (tarfile.TarError, EOFError, OSError, gzip.BadGzipFile) as error:
        raise SubmissionError(
            f"not a .tar.gz, .tar or .zip archive that can be read: {error}"
        ) from None


def _read_folder(root: Path, budget: _Budget) -> Iterable[Entry]:
    for folder, subfolders, files in os.walk(root, followlinks=False):
        subfolders.sort()
        for name in sorted(files) + [d for d in subfolders if Path(folder, d).is_symlink()]:
            path = Path(folder, name)
            relative = path.relative_to(root).as_posix()
            info = path.lstat()
            if stat.S_ISLNK(info.st_mode):
                budget.take(0)
                yield Entry(relative, os.readlink(path).encode(), link=True)
            elif stat.S_ISREG(info.st_mode):
                budget.take(info.st_size)
                yield Entry(relative, path.read_bytes(), bool(info.st_mode & 0o111))
            else:
                raise SubmissionError(f"{relative} is not a regular file, folder or symlink")


def _read_tar(tar: tarfile.TarFile, budget: _Budget) -> Iterable[Entry]:
    for member in tar:
        if member.isdir():
            continue
        if member.issym():
            budget.take(0)
            yield Entry(member.name, member.linkname.encode(), link=True)
        elif member.isreg():
            budget.take(member.size)
            source = tar.extractfile(member)
            assert source is not None  # a regular member always has data
            yield Entry(member.name, source.read(member.size), bool(member.mode & 0o111))
        elif member.islnk():
            raise SubmissionError(f"{member.name} is a hard link: archive the file itself")
        else:
            raise SubmissionError(f"{member.name} is not a regular file, folder or symlink")


def _read_zip(data: bytes, budget: _Budget) -> Iterable[Entry]:
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            for info in archive.infolist():
                mode = info.external_attr >> 16
                if info.is_dir():
                    continue
                if stat.S_IFMT(mode) not in (0, stat.S_IFREG, stat.S_IFLNK):
                    raise SubmissionError(f"{info.filename} is not a regular file or symlink")
                budget.take(info.file_size)
                with archive.open(info) as source:  # read no more than it declared
                    content = source.read(min(info.file_size, budget.remaining()) + 1)
                if len(content) > info.file_size:
                    raise SubmissionError(f"{info.filename} holds more than its declared size")
                if stat.S_ISLNK(mode):
                    yield Entry(info.filename, content, link=True)
                else:
                    yield Entry(info.filename, content, bool(mode & 0o111))
    except (zipfile.BadZipFile, zipfile.LargeZipFile, NotImplementedError, OSError) as error:
        raise SubmissionError(f"the .zip archive cannot be read: {error}") from None


def _checked(entries: list[Entry]) -> list[Entry]:
    """The entries with normalised names, the manifest's folder as the top (an archive of one
    folder holding arena-bot.toml is taken as that folder), every name and link checked."""
    normal = [_normalised(entry) for entry in entries]
    names = {entry.name for entry in normal}
    if MANIFEST_NAME not in names:
        tops = {entry.name.split("/", 1)[0] for entry in normal}
        if len(tops) == 1 and f"{next(iter(tops))}/{MANIFEST_NAME}" in names:
            prefix = next(iter(tops)) + "/"
            normal = [_renamed(entry, entry.name.removeprefix(prefix)) for entry in normal]
    found: dict[str, Entry] = {}
    for entry in normal:
        if entry.name in found:
            raise SubmissionError(f"{entry.name} appears twice in the submission")
        found[entry.name] = entry
    links = {entry.name for entry in normal if entry.link}
    for entry in normal:
        parents = entry.name.split("/")[:-1]
        for depth in range(1, len(parents) + 1):
            if "/".join(parents[:depth]) in links:
                raise SubmissionError(
                    f"{entry.name} lies under a symlink: submit the folder itself"
                )
            if "/".join(parents[:depth]) in found:
                raise SubmissionError(f"{entry.name} lies under a file of the same name")
        if entry.link:
            _check_link(entry, links)
    return sorted(found.values(), key=lambda entry: entry.name)


def _normalised(entry: Entry) -> Entry:
    name = entry.name.replace("\\", "/") if "\\" in entry.name else entry.name
    parts = [part for part in name.split("/") if part not in ("", ".")]
    if name.startswith("/") or ".." in parts or not parts or "\0" in name:
        raise SubmissionError(f"refused path {entry.name!r}: it must stay inside the submission")
    if not _plain(name) or len(name) > MAX_NAME or any(len(p.encode()) > 255 for p in parts):
        raise SubmissionError(
            f"refused path {entry.name!r}: use printable UTF-8 names, at most 255 bytes a "
            f"part and {MAX_NAME} characters in all"
        )
    return _renamed(entry, "/".join(parts))


def _check_link(entry: Entry, links: set[str]) -> None:
    """Refuse a symlink unless its target, followed from the link's folder one part at a time,
    stays inside the submission: relative, never climbing above the top with '..', and never
    passing through another symlink (whose own '..' would be the kernel's, not this walk's).
    node_modules/.bin's links (../pkg/bin/cli.js) pass; /etc and ../../etc do not."""
    target = entry.data.decode(errors="replace")
    refused = SubmissionError(
        f"refused symlink {entry.name} -> {target}: it must point inside the submission"
    )
    if not target or target.startswith("/") or "\0" in target:
        raise refused
    at = entry.name.split("/")[:-1]
    steps = [part for part in target.split("/") if part not in ("", ".")]
    for index, part in enumerate(steps):
        if part == "..":
            if not at:
                raise refused
            at.pop()
            continue
        at.append(part)
        if index < len(steps) - 1 and "/".join(at) in links:
            raise refused


def _plain(name: str) -> bool:
    """Printable and valid UTF-8 (a name read with surrogate escapes is not)."""
    try:
        name.encode()
    except UnicodeEncodeError:
        return False
    return name.isprintable()


def _renamed(entry: Entry, name: str) -> Entry:
    return Entry(name, entry.data, entry.executable, entry.link)


def canonical_tar(entries: Iterable[Entry]) -> bytes:
    """The canonical (uncompressed) tar of `entries`: the bytes the version's sha256 is of."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for entry in sorted(entries, key=lambda one: one.name):
            info = tarfile.TarInfo(entry.name)
            info.mtime, info.uid, info.gid, info.uname, info.gname = 0, 0, 0, "", ""
            if entry.link:
                info.type, info.linkname, info.mode = tarfile.SYMTYPE, entry.data.decode(), 0o777
                tar.addfile(info)
            else:
                info.size, info.mode = len(entry.data), 0o755 if entry.executable else 0o644
                tar.addfile(info, io.BytesIO(entry.data))
    return buffer.getvalue()


def pack(entries: Iterable[Entry]) -> tuple[str, bytes]:
    """The sha256 (hex) of the canonical tar of `entries`, and that tar gzipped."""
    raw = canonical_tar(entries)
    return hashlib.sha256(raw).hexdigest(), gzip.compress(raw, compresslevel=6, mtime=0)


def unpack(
    packed: bytes, folder: Path, limits: SubmissionLimits = DEFAULT_SUBMISSION_LIMITS
) -> None:
    """Write the files of a packed archive into `folder` (which must exist), checked again:
    folders 0755 and files 0644 or 0755, readable by the sandbox's user."""
    entries = read_archive_bytes(packed, limits)
    for entry in entries:
        target = folder / entry.name
        target.parent.mkdir(mode=0o755, parents=True, exist_ok=True)
        if entry.link:
            os.symlink(entry.data.decode(), target)
            continue
        target.write_bytes(entry.data)
        target.chmod(0o755 if entry.executable else 0o644)
    folders = {str(parent) for entry in entries for parent in PurePosixPath(entry.name).parents}
    for directory in folders - {"."}:
        (folder / directory).chmod(0o755)
