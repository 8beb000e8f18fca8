"""`arena bot submit` and `arena bot versions`: a hosted bot's versions, a thin shell over
`arena.services.hosted`. Added to the `bot` group by `arena.cli`."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click
import redis
from rich.table import Table

from arena.cli.common import REDIS_OPTION, console, friendly_errors
from arena.store.bot_versions import BuildState, VersionInfo

TOKEN_OPTION = click.option(
    "--token",
    envvar="ARENA_BOT_TOKEN",
    help="The bot's token [env: ARENA_BOT_TOKEN].",
)


def _client(redis_url: str | None) -> redis.Redis:
    from arena.store.server import connect

    if not redis_url:  # a bot's owner has the site, not the arena's Redis
        raise click.ClickException(
            "say where the arena is: --site URL (its web site, with the bot's token) or "
            "--redis-url (its store) [env: ARENA_SITE or REDIS_URL]"
        )
    return connect(redis_url)


SITE_OPTION = click.option(
    "--site",
    envvar="ARENA_SITE",
    help="The arena's web site (https://...): go through its API with the bot's token, "
    "instead of the store at --redis-url [env: ARENA_SITE].",
)


@click.command("submit")
@click.argument("name")
@click.argument("path", type=click.Path(exists=True, path_type=Path))
@REDIS_OPTION
@TOKEN_OPTION
@SITE_OPTION
@friendly_errors
def bot_submit(
    name: str, path: Path, redis_url: str | None, token: str | None, site: str | None
) -> None:
    """Submit PATH (a folder, .tar.gz or .zip with an arena-bot.toml) as a new version of bot
    NAME, which the arena then runs itself; its build command, if any, runs now."""
    if site:
        from arena.cli import hosted_remote

        info, new = hosted_remote.submit(site, name, path, token)
        _stored(name, info, new)
        if info.build is BuildState.PENDING:
            console.print("The arena is building it in its sandbox...")
            info = hosted_remote.wait_for_build(site, name, info.version, token)
    else:
        from arena.hosted.sandbox import SandboxError
        from arena.play.hosted_build import build
        from arena.services.hosted import submit

        client = _client(redis_url)
        submitted = submit(client, name, path, token, admin_token=None)
        info = submitted.version
        _stored(name, info, submitted.new)
        if info.build is BuildState.PENDING:
            console.print("Building it in the sandbox...")
            try:
                info = build(client, submitted.bot, info)
            except SandboxError as error:
                console.print(f"Not built here ({error}): a worker builds it before it plays.")
    _built(name, info)


def _stored(name: str, info: VersionInfo, new: bool) -> None:
    if new:
        console.print(
            f"Stored version {info.version} of bot {name}: {info.files} files, "
            f"{_size(info.unpacked)} ({_size(info.size)} packed)."
        )
    else:
        console.print(f"These files are version {info.version} of bot {name} already.")


def _built(name: str, info: VersionInfo) -> None:
    if info.build is BuildState.FAILED:
        console.print(info.build_output, markup=False)
        raise click.ClickException(f"version {info.version} failed to build: it is not played")
    if info.build is BuildState.PENDING:
        console.print(f"Not built yet: see arena bot versions {name}")
    if info.build is BuildState.BUILT:
        console.print(f"Built in {info.build_seconds or 0:.1f} s.")
    console.print(f"Play it: arena play hosted:{name} random")


@click.command("versions")
@click.argument("name")
@REDIS_OPTION
@TOKEN_OPTION
@SITE_OPTION
@click.option("--build-output", "show", metavar="VERSION", help="Print a version's build output.")
@click.option(
    "--program-log", is_flag=True, help="Print the end of its program's stderr in its last match."
)
@friendly_errors
def bot_versions(
    name: str,
    redis_url: str | None,
    token: str | None,
    site: str | None,
    show: str | None,
    program_log: bool,
) -> None:
    """List the versions of hosted bot NAME, newest first, with their build state. With the
    bot's token, --build-output prints what a version's build wrote and --program-log the end
    of what its program wrote to stderr in its last match."""
    from arena.play.hosted_versions import played
    from arena.services.hosted import build_output, versions

    if program_log:
        return _print_log(name, redis_url, token, site)

    if site:
        from arena.cli import hosted_remote

        found = hosted_remote.versions(site, name, token)
        if show is not None:
            chosen = [info for info in found if info.version.startswith(show)]
            if len(chosen) != 1:
                raise click.ClickException(f"bot {name} has no one version {show!r}")
            console.print(chosen[0].build_output or "(no build output)", markup=False)
            return
    else:
        client = _client(redis_url)
        if show is not None:
            console.print(build_output(client, name, show, token, admin_token=None), markup=False)
            return
        found = versions(client, name)
    console.print(_versions_table(name, found, played(found)))


def _print_log(name: str, redis_url: str | None, token: str | None, site: str | None) -> None:
    if site:
        from arena.cli import hosted_remote

        log = hosted_remote.program_log(site, name, token)
    else:
        from arena.services.hosted import program_log

        log = program_log(_client(redis_url), name, token, admin_token=None)
    if log is None:
        console.print(f"Bot {name}'s program has not played a match yet.")
        return
    how = f"stopped early: {log.why}" if log.why else "played to the end"
    console.print(f"Version {log.version} in its last match: {how}.")
    console.print(log.stderr or "(nothing written to stderr)", markup=False)


def _versions_table(name: str, found: list[VersionInfo], chosen: VersionInfo | None) -> Table:
    """The versions, the one `hosted:NAME` plays marked."""
    table = Table(title=f"Versions of {name}, newest first (* the one played)")
    for column in ("version", "files", "size", "submitted (UTC)", "runtime", "build"):
        # A version id is copied whole into `hosted:NAME@VERSION`: other cells wrap first.
        table.add_column(column, no_wrap=column in ("version", "build"))
    for info in found:
        when = datetime.fromtimestamp(info.submitted, UTC).strftime("%Y-%m-%d %H:%M:%S")
        build = info.build.value
        if info.build_seconds is not None:
            build += f" ({info.build_seconds:.1f} s)"
        size = f"{_size(info.unpacked)} ({_size(info.size)} packed)"
        runtime = str(info.manifest.get("runtime", ""))
        version = f"{info.version} *" if info == chosen else info.version
        table.add_row(version, str(info.files), size, when, runtime, build)
    return table


def _size(size: int) -> str:
    return f"{size} B" if size < 1024 else f"{size / 1024:.1f} KiB"
