"""`arena sprt ...`: fishtest-like A/B tests of two bots on the worker pool.

Registered on the main command group by `arena.cli`; a thin shell over `arena.services.sprt`.
The workers (`arena worker`) play the pairs; these commands start, show and stop.
"""

from __future__ import annotations

import click
import redis
from rich.table import Table

from arena.cli.common import CITY_OPTION, REDIS_OPTION, console, event_seed_option, friendly_errors
from arena.store.sprt import SprtStatus

PENTANOMIAL = "[LL, LD+DL, WL+DD+LW, WD+DW, WW]"


def _client(redis_url: str | None) -> redis.Redis:
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    return connect(require_redis_url(redis_url))


@click.group("sprt")
def sprt_group() -> None:
    """SPRT A/B tests: does bot B (--test) beat bot A (--base), with chosen error rates?"""


@sprt_group.command("start")
@click.argument("name")
@REDIS_OPTION
@click.option("--test", "test_bot", required=True, help="Bot B, the new version.")
@click.option("--base", "base_bot", required=True, help="Bot A, the version to beat.")
@click.option("--game", default="caper", show_default=True, help="A game of two sides.")
@CITY_OPTION
@click.option("--elo0", default=0.0, show_default=True, help="H0: B is this much stronger.")
@click.option("--elo1", default=5.0, show_default=True, help="H1: B is this much stronger.")
@click.option("--alpha", default=0.05, show_default=True, help="False H1 acceptance rate.")
@click.option("--beta", default=0.05, show_default=True, help="False H0 acceptance rate.")
@click.option("--max-pairs", type=click.IntRange(min=1), help="Stop (capped) after this many.")
@click.option("--batch-pairs", default=8, show_default=True, type=click.IntRange(min=1))
@click.option(
    "--parallel",
    default=4,
    show_default=True,
    type=click.IntRange(min=1),
    help="Batches queued at once (about the number of workers).",
)
@click.option("--logistic", is_flag=True, help="Logistic Elo bounds instead of normalised Elo.")
@event_seed_option("the first pair's deal")
@friendly_errors
def sprt_start(
    name: str,
    redis_url: str | None,
    test_bot: str,
    base_bot: str,
    game: str,
    city: str | None,
    elo0: float,
    elo1: float,
    alpha: float,
    beta: float,
    max_pairs: int | None,
    batch_pairs: int,
    parallel: int,
    logistic: bool,
    seed: int,
) -> None:
    """Start the SPRT NAME: workers play --test against --base in duplicate pairs until the
    log-likelihood ratio reaches a bound (or --max-pairs)."""
    from arena.services import sprt

    definition = sprt.define(
        name, test_bot, base_bot, game, city, (elo0, elo1), (alpha, beta),
        max_pairs, batch_pairs, parallel, logistic, seed,
    )  # fmt: skip
    queued = sprt.start(_client(redis_url), definition)
    console.print(f"{sprt.started(definition, queued)}; seed {seed}")


@sprt_group.command("status")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def sprt_status(name: str, redis_url: str | None) -> None:
    """Show the SPRT NAME: state, LLR and bounds, pairs, pentanomial counts, Elo estimate."""
    from arena.services import sprt

    status, batches = sprt.status(_client(redis_url), name)
    for line in describe(status):
        console.print(line)
    if batches:
        console.print("  batches: " + ", ".join(f"{state} {n}" for state, n in batches.items()))


@sprt_group.command("list")
@REDIS_OPTION
@friendly_errors
def sprt_list(redis_url: str | None) -> None:
    """List every SPRT with its state, LLR and pairs."""
    from arena.store.sprt import SprtStore

    statuses = SprtStore(_client(redis_url)).all()
    if not statuses:
        console.print("no SPRT yet: `arena sprt start NAME --test B --base A`")
        return
    table = Table(title="SPRT tests")
    for column in ("name", "test", "base", "state", "LLR", "bounds", "pairs", "Elo model"):
        table.add_column(column)
    for s in statuses:
        lower, upper = s.definition.bounds
        table.add_row(
            s.definition.name,
            s.definition.test,
            s.definition.base,
            s.state.value,
            f"{s.llr:.3f}",
            f"{lower:.3f}, {upper:.3f}",
            str(s.pairs),
            s.definition.model,
        )
    console.print(table)


@sprt_group.command("stop")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def sprt_stop(name: str, redis_url: str | None) -> None:
    """Stop the SPRT NAME: no more pairs are played or counted."""
    from arena.services import sprt

    cancelled = sprt.stop(_client(redis_url), name)
    console.print(sprt.stopped(name, cancelled))


@sprt_group.command("resume")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def sprt_resume(name: str, redis_url: str | None) -> None:
    """Run the stopped SPRT NAME again: its pairs so far stand, the rest are played."""
    from arena.services import sprt

    queued = sprt.resume(_client(redis_url), name)
    console.print(sprt.resumed(name, queued))


def describe(status: SprtStatus) -> list[str]:
    """What `arena sprt status` prints, line by line."""
    d = status.definition
    lower, upper = d.bounds
    where = ", ".join(f"{k} {v}" for k, v in d.config.items())
    cap = f" of at most {d.max_pairs}" if d.max_pairs is not None else ""
    lines = [
        f"{d.name}: {status.state.value}" + (f" ({status.reason})" if status.reason else ""),
        f"  {d.test} (test) vs {d.base} (base), {d.game}" + (f" ({where})" if where else ""),
        f"  Elo model: {d.model}; H0 elo {d.elo0:g}, H1 elo {d.elo1:g}; "
        f"alpha {d.alpha:g}, beta {d.beta:g}",
        f"  LLR {status.llr:.3f} (lower bound {lower:.3f}, upper bound {upper:.3f})",
        f"  pairs {status.pairs}{cap}; pentanomial {PENTANOMIAL} = {list(status.counts)}",
    ]
    lines.append(f"  Elo estimate ({d.model}, test minus base): {status.elo_text()}")
    return lines
