"""`arena tournament ...`: organising tournaments the worker pool plays."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from arena.cli.common import CITY_OPTION, REDIS_OPTION, console, event_seed_option, friendly_errors

if TYPE_CHECKING:
    import redis

    from arena.bench.pipeline import PipelineFigures


@click.group("tournament")
def tournament_group() -> None:
    """Create, start and follow Swiss and round-robin tournaments."""


@tournament_group.command("create")
@click.argument("name")
@REDIS_OPTION
@click.option(
    "--format",
    "format_",
    type=click.Choice(["swiss", "round-robin", "double-round-robin"]),
    default="swiss",
    show_default=True,
)
@click.option(
    "--rounds", type=int, help="Swiss rounds (default: log2 of the field); round robins need none."
)
@click.option("--game", default="caper", show_default=True)
@CITY_OPTION
@click.option(
    "--players",
    type=click.IntRange(2, 4),
    default=2,
    show_default=True,
    help="Seats at a game: 4 is the team game (an entrant plays both seats of its team), "
    "3 the Snitch game (table formats).",
)
@click.option(
    "--entrants",
    required=True,
    help="Comma-separated, in seed order: built-in bots and registered or hosted bots' names.",
)
@click.option(
    "--games-per-match",
    type=int,
    help="Games a match plays (default 2: a duplicate pair), or a table (default: one deal "
    "played once per rotation of its seats, 3 at a table of three).",
)
@click.option("--no-duplicate", is_flag=True, help="Fresh deals instead of mirrored pairs.")
@click.option("--time-control", default="1000+10000", show_default=True, help="MOVE_MS+BANK_MS")
@event_seed_option("the first deal")
@click.option(
    "--tiebreaks",
    help="Comma-separated, in order: buchholz, buchholz_cut1, sonneborn_berger, wins, "
    "direct_encounter, game_points (default: by format).",
)
@click.option(
    "--absent-bye-points",
    type=click.Choice(["0", "0.5", "1"]),
    default="0",
    show_default=True,
    help="What a late entrant scores for each round it missed.",
)
@click.option(
    "--swiss-system",
    type=click.Choice(["arena", "fide-dutch"]),
    default="arena",
    show_default=True,
    help="Who pairs a Swiss: ours (fast, duplicate-aware) or strict FIDE Dutch (small fields).",
)
@click.option(
    "--rated",
    metavar="LADDER",
    help="Also rate each finished match or table in this ladder's rating pool (same game, "
    "rules version and players).",
)
@friendly_errors
def tournament_create(
    name: str,
    redis_url: str | None,
    format_: str,
    rounds: int | None,
    game: str,
    city: str | None,
    players: int,
    entrants: str,
    games_per_match: int | None,
    no_duplicate: bool,
    time_control: str,
    seed: int,
    tiebreaks: str | None,
    absent_bye_points: str,
    swiss_system: str,
    rated: str | None,
) -> None:
    """Define tournament NAME (it starts with `arena tournament start NAME`)."""
    from arena.cli.network import require_redis_url
    from arena.services import events
    from arena.store.server import connect
    from arena.tournament.encounter import board_name

    names = [e.strip() for e in entrants.split(",") if e.strip()]
    definition = events.create(
        connect(require_redis_url(redis_url)),
        name,
        format_,
        names,
        rounds,
        game,
        city,
        games_per_match,
        not no_duplicate,
        events.parse_time_control(time_control),
        seed,
        [t for t in (tiebreaks or "").split(",") if t.strip()],
        float(absent_bye_points),
        swiss_system,
        players,
        rated,
    )
    unit = board_name(definition)
    console.print(
        f"Created {definition.format.value} {name}: {len(definition.entrants)} entrants, "
        f"{definition.planned_rounds} rounds, {definition.games_per_match} games a {unit}, "
        f"seed {seed}."
    )
    if definition.rating_ladder:
        console.print(f"Rated in ladder {definition.rating_ladder}.")


@tournament_group.command("start")
@click.argument("name")
@REDIS_OPTION
@click.option(
    "--watch",
    is_flag=True,
    help="Show the progress until it ends (piped: a plain line per round and every few seconds).",
)
@friendly_errors
def tournament_start(name: str, redis_url: str | None, watch: bool) -> None:
    """Schedule the tournament's first round (Swiss) or all rounds (round robin)."""
    from arena.cli import tournament_watch, tournaments
    from arena.cli.network import require_redis_url
    from arena.services import events
    from arena.store.server import connect

    client = connect(require_redis_url(redis_url))
    rounds = events.start(client, name)
    console.print(f"Started {name}: {rounds} round(s) scheduled; workers play them.")
    if watch:
        tournament_watch.watch(console, client, name)
        console.print(tournaments.standings_table(client, name))


@tournament_group.command("status")
@click.argument("name")
@REDIS_OPTION
@click.option(
    "--watch",
    is_flag=True,
    help="Show the progress until it ends (piped: a plain line per round and every few seconds).",
)
@friendly_errors
def tournament_status(name: str, redis_url: str | None, watch: bool) -> None:
    """How far the tournament has got."""
    from arena.cli import tournament_watch
    from arena.cli.network import require_redis_url
    from arena.services import event_liveness, events
    from arena.store.server import connect
    from arena.store.tournaments import Status, TournamentStore
    from arena.tournament.encounter import noun

    client = connect(require_redis_url(redis_url))
    jobs = event_liveness.settle(client, name)  # never `running` with a match that cannot be played
    if watch:
        tournament_watch.watch(console, client, name)
        jobs = event_liveness.settle(client, name)
    now = events.progress(client, name)
    unit = noun(TournamentStore(client).get(name), 2)
    console.print(
        f"{name}: {now.status.value}; {now.done} of {now.scheduled} scheduled {unit} played; "
        f"{now.planned} rounds planned"
    )
    if now.status is Status.RUNNING:
        console.print(f"in play: {jobs['started']}; queued: {jobs['queued'] + jobs['scheduled']}")
    if now.reason:
        console.print(f"stopped because {now.reason}")
    if ladder := TournamentStore(client).get(name).rating_ladder:
        console.print(f"rated in ladder {ladder}")


@tournament_group.command("standings")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def tournament_standings(name: str, redis_url: str | None) -> None:
    """The table: points, then the tie-breaks."""
    from arena.cli import tournaments
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    console.print(tournaments.standings_table(connect(require_redis_url(redis_url)), name))


@tournament_group.command("crosstable")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def tournament_crosstable(name: str, redis_url: str | None) -> None:
    """Who scored what against whom."""
    from arena.cli import tournaments
    from arena.cli.network import require_redis_url
    from arena.store.server import connect

    console.print(tournaments.crosstable_table(connect(require_redis_url(redis_url)), name))


@tournament_group.command("export")
@click.argument("name")
@REDIS_OPTION
@click.option("--format", "fmt", type=click.Choice(["json", "csv", "trf"]), default="json")
@click.option("--round", "through_round", type=int, help="TRF: only rounds up to this one.")
@click.option(
    "--games",
    "games_file",
    type=click.Path(dir_okay=False, allow_dash=True),
    help="Write the event's game records instead, as gzipped JSON lines, to this file ('-': "
    "standard output).",
)
@friendly_errors
def tournament_export(
    name: str, redis_url: str | None, fmt: str, through_round: int | None, games_file: str | None
) -> None:
    """Print standings and results as JSON, CSV or a FIDE TRF file; or, with --games, write the
    game records of its rounds played out (what its replay pages show)."""
    from arena.cli.network import require_redis_url
    from arena.services import events
    from arena.store.server import connect

    client = connect(require_redis_url(redis_url))
    if games_file is not None:
        _write_games(client, name, games_file)
        return
    click.echo(events.export(client, name, fmt, through_round), nl=False)


def _write_games(client: redis.Redis, name: str, path: str) -> None:
    from arena.services.event_games import export_games

    chunks = export_games(client, name)  # an unknown event fails here, before a file is made
    with click.open_file(path, "wb") as out:
        for chunk in chunks:
            out.write(chunk)


@tournament_group.command("resume")
@click.argument("name")
@REDIS_OPTION
@friendly_errors
def tournament_resume(name: str, redis_url: str | None) -> None:
    """Go on with a stopped tournament: its unplayed matches are queued again."""
    from arena.cli.network import require_redis_url
    from arena.services import events
    from arena.store.server import connect

    queued = events.resume(connect(require_redis_url(redis_url)), name)
    console.print(f"{name} resumed: {queued} unplayed matches queued again.")


@tournament_group.command("enter")
@click.argument("name")
@click.argument("entrant")
@REDIS_OPTION
@friendly_errors
def tournament_enter(name: str, entrant: str, redis_url: str | None) -> None:
    """Add ENTRANT to a running Swiss: it is paired from the next round on, and each round it
    missed scores as an absence bye (--absent-bye-points at creation)."""
    from arena.cli.network import require_redis_url
    from arena.services import events
    from arena.store.server import connect

    events.enter_late(connect(require_redis_url(redis_url)), name, entrant)
    console.print(f"{entrant} entered {name}; it is paired from the next round on.")


@tournament_group.command("withdraw")
@click.argument("name")
@click.argument("entrant")
@REDIS_OPTION
@friendly_errors
def tournament_withdraw(name: str, entrant: str, redis_url: str | None) -> None:
    """Take ENTRANT out of a Swiss: never paired again; its results so far stand."""
    from arena.cli.network import require_redis_url
    from arena.services import events
    from arena.store.server import connect

    events.withdraw(connect(require_redis_url(redis_url)), name, entrant)
    console.print(f"{entrant} withdrew from {name}; it is not paired again.")


@click.command("tournament")
@REDIS_OPTION
@click.option("--workers", "-w", default=2, show_default=True, help="Worker processes.")
@click.option(
    "--entrants", default=6, show_default=True, help="Random bots in the field, at least."
)
@click.option(
    "--games-per-match", default="4,20,100", show_default=True, help="Match lengths to time."
)
@click.option(
    "--min-games", default=4000, show_default=True, help="More entrants until a run plays these."
)
@click.option("--engine-seconds", default=3.0, show_default=True, help="Bare-engine measure.")
@click.option(
    "--pairing-sizes", default="128,512,1024", show_default=True, help="Swiss fields to pair."
)
@click.option("--pairing-rounds", default=5, show_default=True)
@click.option("--pod-sizes", default="1000", show_default=True, help="Swiss pod fields to pair.")
@click.option(
    "--table-size", "pod_seats", default=3, show_default=True, help="Entrants a pod table seats."
)
@friendly_errors
def bench_tournament(
    redis_url: str | None,
    workers: int,
    entrants: int,
    games_per_match: str,
    min_games: int,
    engine_seconds: float,
    pairing_sizes: str,
    pairing_rounds: int,
    pod_sizes: str,
    pod_seats: int,
) -> None:
    """Games/s through the whole pipeline next to the bare engine on as many cores, at each
    match length, and the time to pair a Swiss round of large fields."""
    from arena.bench.pipeline import pipeline_runs
    from arena.bench.tournament import pod_pairing_times, swiss_pairing_times
    from arena.store.server import given_or_found

    lengths = _numbers(games_per_match, "--games-per-match")
    if workers < 1 or entrants < 2 or not lengths or any(g < 2 or g % 2 for g in lengths):
        raise click.ClickException("need >= 1 worker, >= 2 entrants and an even games per match")
    pods = [int(s) for s in pod_sizes.split(",") if s.strip()]
    if not 2 <= pod_seats <= 6 or any(size < pod_seats for size in pods):
        raise click.ClickException("pod tables seat 2 to 6, and a pod field fills one table")
    with given_or_found(redis_url) as url:
        runs = pipeline_runs(url, workers, lengths, entrants, min_games, engine_seconds)
    _print_pipeline(runs)
    sizes = [int(s) for s in pairing_sizes.split(",") if s.strip()]
    for pairing in swiss_pairing_times(sizes, pairing_rounds):
        console.print(
            f"swiss pairing, {pairing.entrants} entrants: {pairing.mean_seconds:.3f} s a round "
            f"on average, {pairing.max_seconds:.3f} s at most (CPU, {pairing.rounds} rounds); "
            f"{pairing.unmet_seat_preferences} of {pairing.seat_preferences} seat preferences "
            "unmet"
        )
    for pod in pod_pairing_times(pods, pairing_rounds, pod_seats):
        console.print(
            f"swiss pods of {pod.pod_seats}, {pod.entrants} entrants: {pod.mean_seconds:.3f} s "
            f"a round on average, {pod.max_seconds:.3f} s at most (CPU, {pod.rounds} rounds); "
            f"{pod.repeat_meetings} repeat meetings, seat counts within {pod.seat_spread}"
        )


def _numbers(text: str, option: str) -> list[int]:
    try:
        return [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise click.ClickException(f"{option} takes whole numbers, comma-separated") from None


def _print_pipeline(runs: list[PipelineFigures]) -> None:
    import os

    first = runs[0]
    console.print(
        f"engine:   {first.engine_games_per_second:,.0f} games/s on one core x {first.workers} = "
        f"{first.engine_games_per_second * first.workers:,.0f} games/s"
    )
    console.print(
        f"referee:  {first.referee_games_per_second:,.0f} games/s on one core x {first.workers} "
        f"(the same games refereed in one process, no Redis)"
    )
    for run in runs:
        cpu = f"{run.cpu_ratio:.2f}" if run.cpu_ratio is not None else "not measured"
        console.print(
            f"pipeline: {run.games_per_second:,.0f} games/s with {run.workers} worker processes "
            f"({run.games} games in {run.matches} matches of {run.games_per_match}, "
            f"{run.entrants} entrants, {run.seconds:.1f} s wall; {os.cpu_count()} cores here)"
        )
        console.print(
            f"  ratio to the bare engine: {run.ratio:.2f} (target >= 0.9); to in-process "
            f"refereeing: {run.referee_ratio:.2f}; games per CPU second (workers and Redis) "
            f"over the engine's: {cpu}"
        )
    ratios = " / ".join(f"{run.ratio:.2f}" for run in runs)
    lengths = " / ".join(str(run.games_per_match) for run in runs)
    console.print(f"ratio to the bare engine at {lengths} games a match: {ratios}")
