"""`arena worker`: the pool that plays tournament matches, ladder matches and SPRT batches."""

from __future__ import annotations

import click

from arena.cli.common import REDIS_OPTION, friendly_errors


@click.command()
@REDIS_OPTION
@click.option("--processes", "-p", default=1, show_default=True, help="Worker processes.")
@click.option("--burst", is_flag=True, help="Stop when the queue is empty.")
@click.option("--name", help="Worker name (a suffix -N is added per process); default random.")
@click.option(
    "--fork-per-job",
    is_flag=True,
    help="Play each match in a forked work-horse (RQ's default): slower, but a match that "
    "crashes its process spares the worker.",
)
@click.option(
    "--verbose",
    "-v",
    count=True,
    help="More log lines: -v adds RQ's own, -vv everything (debug, RQ's maintenance too).",
)
@friendly_errors
def worker(
    redis_url: str | None,
    processes: int,
    burst: bool,
    name: str | None,
    fork_per_job: bool,
    verbose: int,
) -> None:
    """Run RQ workers that play tournament matches, ladder matches and SPRT batches. The log
    has one line per job started, finished or failed; SIGTERM or Ctrl-C stops them."""
    from arena.cli.network import require_redis_url
    from workers.worker import work, work_pool

    url = require_redis_url(redis_url)
    if processes < 1:
        raise click.ClickException("--processes must be at least 1")
    if processes == 1 or burst:
        work(url, burst=burst, name=name, fork=fork_per_job, verbosity=verbose)
    else:
        work_pool(url, processes, name, fork=fork_per_job, verbosity=verbose)
