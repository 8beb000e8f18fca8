"""`arena bench swiss-compare`: our default Swiss pairing against strict FIDE Dutch."""

from __future__ import annotations

import click

from arena.cli.common import console, friendly_errors


@click.command("swiss-compare")
@click.option("--events", default=600, show_default=True, type=click.IntRange(1, 100_000))
@click.option("--seed", default=2026, show_default=True, help="Fixes the events and results.")
@click.option("--entrants", default="6-12", show_default=True, help="Field sizes, min-max.")
@click.option("--rounds", default="3-5", show_default=True, help="Planned rounds, min-max.")
@friendly_errors
def swiss_compare(events: int, seed: int, entrants: str, rounds: str) -> None:
    """How often the default pairing pairs a round as FIDE Dutch (`--swiss-system fide-dutch`)
    does from the same history, over small events with random results played along FIDE
    Dutch; and how many players each floats down two rounds running."""
    from arena.bench.swiss import EventShape, swiss_agreement

    shape = EventShape(*_span(entrants, "--entrants"), *_span(rounds, "--rounds"))
    tally = swiss_agreement(events, seed, shape)
    lines = (
        f"{tally.events} events of {entrants} entrants, {rounds} rounds (seed {seed}): "
        f"{tally.rounds} rounds paired by both systems",
        f"same pairs and bye as FIDE Dutch: {_share(tally.same_pairs, tally.rounds)}, "
        f"seats too: {_share(tally.same_seats, tally.rounds)}",
        f"rounds after the first: {_share(tally.later_same_pairs, tally.later_rounds)} the same",
        f"bye score, then squared score differences: default worse in {tally.worse} rounds, "
        f"better in {tally.better} (FIDE Dutch relaxes seat limits for last-round leaders)",
        f"floated down (or given the bye) right after a downfloat: default "
        f"{tally.repeated_downfloats}, FIDE Dutch {tally.fide_repeated_downfloats}",
    )
    for line in lines:
        console.print(line, soft_wrap=True)


def _span(text: str, option: str) -> tuple[int, int]:
    low, _, high = text.partition("-")
    try:
        return int(low), int(high or low)
    except ValueError:
        raise click.ClickException(f"{option} takes a whole number or a range like 6-12") from None


def _share(part: int, whole: int) -> str:
    return f"{part} of {whole} ({100 * part / whole:.1f}%)" if whole else "none compared"
