"""The pure view models of the site: store values in, the texts and links a page shows out."""

from __future__ import annotations

from collections.abc import Callable

from arena.ratings.ladder import Standing
from arena.store.bots import BotInfo
from arena.store.ladders import LadderDefinition, LadderRef
from arena.store.results import StoredMatch, StoredTable
from arena.tournament import (
    Bye,
    ByeKind,
    MatchResult,
    Pairing,
    Round,
    TableRound,
    crosstable,
    standings,
)
from arena.tournament.definition import Format, TournamentDefinition
from arena.web import bot_views, ladder_views, links
from arena.web import tournament_views as views
from arena.web.chart import Series, history_svg
from arena.web.fits import FitCache, Games
from arena.web.grid import Cell, Grid, grid_html, headers, num
from arena.web.render import TEMPLATES

FIELD = ("ann", "bob", "cat")


def swiss(seed: int = 4242) -> TournamentDefinition:
    return TournamentDefinition("cup", Format.SWISS, FIELD, rounds=2, seed=seed)


def played() -> tuple[list[Round], dict[str, StoredMatch]]:
    rounds = [
        Round(1, (Pairing("ann", "bob"),), (Bye(1, "cat", ByeKind.PAIRING),)),
        Round(2, (Pairing("cat", "ann"),), (Bye(2, "bob", ByeKind.PAIRING),)),
    ]
    first = MatchResult(1, "ann", "bob", 1.5, 0.5)
    results = {
        "cup.r1.b0": StoredMatch(
            "cup.r1.b0", first, ("cup.r1.b0.g0", "cup.r1.b0.g1"), ("normal", "normal"), 30
        )
    }
    return rounds, results


def test_rounds_show_each_result_and_link_every_game_by_its_stored_id() -> None:
    rounds, results = played()
    shown = views.event_rounds("cup", rounds, results)
    assert [r.number for r in shown] == [1, 2]
    board = shown[0].boards[0]
    assert (board.sides, board.result) == (("ann", "bob"), "1.5 - 0.5")
    assert [g.url for g in board.games] == ["/games/cup.r1.b0.g0", "/games/cup.r1.b0.g1"]
    # Numbered for people as the game page numbers them (game 1 is the id's g0).
    assert [g.label for g in board.games] == ["1", "2"]
    assert [links.game_number(g) for g in ("cup.r1.b0.g0", "main.m7.g3", "x")] == [1, 4, None]
    assert shown[0].byes == ("cat (pairing bye)",)
    assert shown[1].boards[0].result == "" and shown[1].played == 0  # still playing


def test_the_seed_is_shown_only_once_the_tournament_has_finished() -> None:
    running = dict(views.facts(swiss(), "running"))
    finished = dict(views.facts(swiss(), "finished"))
    assert "seed" not in running and "4242" not in running.values()
    assert finished["seed"] == "4242"


def test_standings_keep_the_computed_order_with_tie_breaks_and_say_when_no_fit_exists() -> None:
    rounds, results = played()
    history = [m.result for m in results.values()]
    byes = [b for r in rounds for b in r.byes]
    definition = swiss()
    rows = standings(FIELD, history, byes, definition.tiebreaks, definition.bye_points)
    grid = views.pair_standings(definition, rows, None)
    assert grid.column("entrant") == [r.entrant for r in rows]
    assert grid.column("pts") == [f"{r.points:g}" for r in rows]
    points = dict(zip(grid.column("entrant"), grid.column("pts"), strict=True))
    assert points == {"ann": "1", "bob": "1", "cat": "1"}  # a win, or a pairing bye (1 point)
    assert "too few games" in grid.caption
    assert "BH-1" in [c.text for c in grid.columns]


def test_the_crosstable_is_in_rank_order_with_byes_in_their_own_column() -> None:
    rounds, results = played()
    history = [m.result for m in results.values()]
    byes = [b for r in rounds for b in r.byes]
    definition = swiss()
    rows = standings(FIELD, history, byes, definition.tiebreaks, definition.bye_points)
    grid = views.pair_crosstable(definition, rows, crosstable(FIELD, history), byes)
    by_entrant = {row[1].text: row for row in grid.rows}
    order = [r.entrant for r in rows]
    assert by_entrant["ann"][2 + order.index("bob")].text == "1.5"
    assert by_entrant["ann"][2 + order.index("ann")].text == "x"
    assert by_entrant["cat"][2 + order.index("ann")].text == "."  # paired in round 2, unplayed
    assert by_entrant["cat"][-2].text == "r1 U"


def test_progress_counts_what_the_live_script_shows() -> None:
    p = views.Progress("running", 3, 4, 2, 3)
    assert p.percent == 75 and p.live
    assert p.to_json()["done"] == 3
    assert not views.Progress("finished", 4, 4, 3, 3).live
    assert views.Progress("created", 0, 0, 0, 3).percent == 0


def test_tables_show_points_and_placement_crosstable() -> None:
    table = StoredTable(
        "t.r1.b0",
        1,
        ("ann", "bob", "cat"),
        (2.0, 1.0, 0.0),
        (30, 20, 10),
        (2, 1, 0),
        ("t.r1.b0.g0",),
        ("normal",),
    )
    rounds = views.event_rounds(
        "t", [TableRound(1, (("ann", "bob", "cat"),), ())], {"t.r1.b0": table}
    )
    assert rounds[0].boards[0].result == "2 - 1 - 0"
    assert rounds[0].boards[0].games[0].url == links.game_url("t.r1.b0.g0")
    grid = views.table_crosstable(["ann", "bob", "cat"], [table])
    assert [c.text for c in grid.rows[0][2:]] == ["x", "1", "1"]  # first: 1 placement point
    assert [c.text for c in grid.rows[2][2:]] == ["0", "0", "x"]


def ladder(players: int = 2) -> LadderDefinition:
    return LadderDefinition(
        LadderRef("caper", 1, "main"), config={"city": "paris", "players": players}
    )


def test_ladder_standings_give_glicko_intervals_and_link_each_bot_s_history() -> None:
    strong = Standing(
        elo=1650.0, rating=1700.0, rd=50.0, games=30, wins=20, draws=5, losses=5, points=22.5
    )
    fresh = Standing(rating=1500.0, rd=350.0)
    grid = ladder_views.standings(ladder(), [("alpha", strong), ("beta", fresh)])
    assert grid.column("bot") == ["alpha", "beta"]
    assert grid.column("95% interval")[0] == "1602 to 1798"  # 1700 +- 1.96 * 50
    assert grid.column("Glicko-2") == ["1700.0", "1500.0?"]  # provisional: RD over the limit
    assert grid.rows[0][1].url == "/ladders/caper.v1.main/bots/alpha"
    assert grid.column("matches") == ["30", "0"]  # rated matches, each a duplicate pair of games
    assert "matches = rated matches of 2 games each" in grid.caption
    tables = ladder_views.standings(ladder(3), [("alpha", strong)])
    assert "Elo" not in [c.text for c in tables.columns]


def test_ladder_history_is_newest_first_with_a_link_to_its_games() -> None:
    entries = [
        {
            "result": "caper.v1.main.m1",
            "at": 0.0,
            "opponent": "beta",
            "score": 1.0,
            "elo": 1516.0,
            "rating": 1600.0,
            "rd": 290.0,
            "mu": 26.0,
        },
        {
            "result": "caper.v1.main.m2",
            "at": 60.0,
            "opponent": "beta",
            "score": 0.5,
            "elo": 1515.0,
            "rating": 1590.0,
            "rd": 250.0,
            "mu": 25.8,
        },
    ]
    grid = ladder_views.history(ladder(), entries, "alpha")
    assert grid.column("#") == ["2", "1"]
    assert grid.rows[0][-1].url == "/games/caper.v1.main.m2.g0"
    assert grid.rows[0][2].url == "/head-to-head?a=alpha&b=beta"
    svg = ladder_views.chart(ladder(), "alpha", entries)
    assert svg.startswith("<svg") and svg.count("<polyline") == 2  # Glicko-2 and Elo


def test_the_chart_escapes_names_and_draws_one_point_per_result() -> None:
    svg = history_svg([Series("<b>", (1.0, 2.0, 3.0), (0.5, 0.5, 0.5))], "<script>x</script>")
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    line = svg.split('<polyline class="line" points="')[1].split('"')[0]
    assert len(line.split()) == 3
    assert history_svg([], "empty") == ""


def test_a_bot_s_recent_matches_are_scored_from_its_side_in_its_list_s_order() -> None:
    bob = [  # bob's own list, newest first (arena.store.recent)
        bot_views.PlayedMatch("cup", "/t/cup", "round 2", ("cat", "bob"), (2.0, 0.0), ""),
        bot_views.PlayedMatch(
            "cup", "/t/cup", "round 1", ("ann", "bob"), (1.5, 0.5), "cup.r1.b0.g0"
        ),
    ]
    recent = bot_views.recent_for("bob", bob)
    assert [(m.label, m.opponents, m.score) for m in recent] == [
        ("round 2", "cat", "0 - 2"),
        ("round 1", "ann", "0.5 - 1.5"),
    ]
    assert recent[1].game_url == "/games/cup.r1.b0.g0" and recent[0].game_url == ""
    assert recent[0].versus_url == "/head-to-head?a=bob&b=cat"
    table = bot_views.PlayedMatch(
        "pods", "/t/pods", "round 1", ("bob", "ann", "cat"), (1, 0, 0), ""
    )
    assert bot_views.recent_for("bob", [table])[0].versus_url == ""  # no one opponent at a table
    assert len(bot_views.recent_for("bob", bob * 5)) == bot_views.RECENT
    bots = [BotInfo("b1", "zed", 0.0), BotInfo("b2", "bob", 0.0)]
    rows = bot_views.rows(
        bots, {"b1": True}, {"b1": "2.3.0"}, {"b1": frozenset({"caper"})}, {"bob": bob}
    )
    assert [(r.name, r.online, r.version, r.plays) for r in rows] == [
        ("zed", True, "2.3.0", "caper"),
        ("bob", False, "-", "any"),
    ]


def test_a_swiss_crosstable_is_a_wall_chart_of_opponent_ranks_by_round() -> None:
    rounds, results = played()
    history = [m.result for m in results.values()]
    byes = [b for r in rounds for b in r.byes]
    definition = swiss()
    rows = standings(FIELD, history, byes, definition.tiebreaks, definition.bye_points)
    grid = views.swiss_crosstable(definition, rows, history, byes, rounds=2)
    assert [c.text for c in grid.columns] == ["#", "entrant", "r1", "r2", "pts"]
    rank = {r.entrant: str(r.rank) for r in rows}
    by_entrant = {row[1].text: row for row in grid.rows}
    assert by_entrant["ann"][2].text == f"{rank['bob']}: 1.5"
    assert by_entrant["bob"][2].text == f"{rank['ann']}: 0.5"
    assert by_entrant["cat"][2].text == "U" and by_entrant["bob"][3].text == "U"
    assert by_entrant["ann"][3].text == ""  # paired in round 2, not played yet


def test_fits_are_kept_per_tournament_state_and_refitted_when_a_result_comes_in() -> None:
    games = [("ann", "bob", 1.0), ("bob", "cat", 0.5), ("cat", "ann", 0.0), ("ann", "cat", 1.0)]
    reads: list[int] = []

    def read(some: Games) -> Callable[[], Games]:
        def games_read() -> Games:
            reads.append(len(some))
            return some

        return games_read

    cache = FitCache()
    fit = cache.get("cup", 4, read(games), FIELD)
    assert fit is not None and fit.estimate("ann").rating > fit.estimate("cat").rating
    assert cache.get("cup", 4, read([]), FIELD) is fit  # same state: neither read nor refitted
    refitted = cache.get("cup", 1, read(games[:1]), FIELD)  # a new result: refitted
    assert refitted is not None and refitted is not fit and refitted.games == 1
    assert cache.get("other", 0, read([]), FIELD) is None  # no games yet: no fit, no error
    assert reads == [4, 1, 0]


def test_a_grid_is_drawn_with_every_text_and_attribute_escaped_as_the_templates_draw_it() -> None:
    """The HTML the Jinja macro drew before tables were drawn in Python, byte for byte."""
    rows = (
        (num("1"), Cell("a<b", "/x?a=1&b=2", "ident revoked", 't"q'), num("2"), Cell("")),
        (num("2"), Cell("c"), Cell("x", css="self"), Cell("j", title="tip")),
    )
    grid = Grid(
        headers(["#", "bot", "pts", "job"], ["pts"]), rows, "cap & more",
        css="crosstable", dom_id="standings", wide=("job",),
    )  # fmt: skip
    drawn = (
        '<table class="crosstable" id="standings">\n  <thead><tr>\n<th>#</th><th>bot</th>'
        '<th class="num">pts</th><th class="wide">job</th>  </tr></thead>\n  <tbody>\n'
        '  <tr><td class="num">1</td><td class="ident revoked" title="t&#34;q">'
        '<a href="/x?a=1&amp;b=2">a&lt;b</a></td><td class="num">2</td><td class="wide"></td>'
        "</tr>\n"
        '  <tr><td class="num">2</td><td>c</td><td class="self">x</td>'
        '<td class="wide" title="tip">j</td></tr>\n'
        "  </tbody>\n<caption>cap &amp; more</caption></table>\n"
    )
    assert grid_html(grid) == drawn
    macro = TEMPLATES.env.from_string('{% from "grid.html" import grid %}{{ grid(g) }}')
    assert macro.render(g=grid) == drawn
    empty = Grid(headers(["a"]), ())
    assert grid_html(empty) == (
        "<table>\n  <thead><tr>\n<th>a</th>  </tr></thead>\n  <tbody>\n  </tbody>\n</table>\n"
    )
