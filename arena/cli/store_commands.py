"""`arena backup` and `arena restore`: the store to a file and back (arena/store/backup.py)."""

from __future__ import annotations

from pathlib import Path

import click

from arena.cli.common import REDIS_OPTION, console, friendly_errors

FILE = click.Path(dir_okay=False, path_type=Path)


@click.command()
@click.argument("file", type=FILE)
@REDIS_OPTION
@click.option("--force", is_flag=True, help="Back up even while workers or gateways write.")
@friendly_errors
def backup(file: Path, redis_url: str | None, force: bool) -> None:
    """Write every key of the store, with a manifest of versions, to FILE (gzip)."""
    from arena.cli.network import require_redis_url
    from arena.store import backup as store_backup
    from arena.store.server import connect

    client = connect(require_redis_url(redis_url))
    manifest = store_backup.backup(client, file, force)
    note = "" if manifest.consistent else " (forced while written: may be inconsistent)"
    console.print(
        f"Backed up {manifest.keys:,} keys (Redis {manifest.redis_version}, arena "
        f"{manifest.arena_version}, store schema {manifest.store_schema}) to {file}{note}"
    )


@click.command()
@click.argument("file", type=FILE)
@REDIS_OPTION
@click.option("--replace", is_flag=True, help="Delete what the store holds first.")
@click.option("--force", is_flag=True, help="Restore even while workers or gateways write.")
@friendly_errors
def restore(file: Path, redis_url: str | None, replace: bool, force: bool) -> None:
    """Put the store backed up in FILE into Redis (empty, or --replace)."""
    from arena.cli.network import require_redis_url
    from arena.store import backup as store_backup
    from arena.store.server import connect

    client = connect(require_redis_url(redis_url))
    manifest = store_backup.restore(client, file, replace, force)
    console.print(
        f"Restored {manifest.keys:,} keys from {file} (backed up {manifest.created}, arena "
        f"{manifest.arena_version}, Redis {manifest.redis_version})"
    )
