"""The golden samples: every picture the tests compare against, the example pictures and the
benchmark's tables, grouped by the picture they are (tables, hands, hand results, match ends,
scoreboards) and drawn through the public functions the bot calls.

Between them: each game at every seat count it allows, each theme, lines of 0 to 91 tiles,
every script, hands of one and two rows, penalty points and a settled debt, and ties. Their
positions come from :mod:`goldens.positions`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import cache

from engine import PlayerView, TableView, table_view
from goldens.positions import (
    Wanted,
    after_cut,
    double_header,
    drawn_hand,
    ended,
    finished,
    first_position,
    found,
    four_ends_and_choice,
    full_cross,
    has_choice,
    in_debt,
    just_knocked,
    long_tables,
    played,
    ribbon_ahead,
    ribbon_ahead_and_choice,
    to_move,
    triple_header,
    two_numbers,
    two_numbers_and_only_matador,
    with_line,
)
from renderers.labels import TableLabels
from renderers.scoreboard import ScoreboardRow, shared_places

# The renderers keep no list of games: the bot passes its catalogues' titles, the samples these.
GAME_TITLES = (
    ("gaple", "Gaple"),
    ("gaple-dead", "Gaple with dead tiles"),
    ("pair", "Pair dominoes"),
    ("kolbasa", "Kolbasa"),
    ("matador", "Matador"),
    ("six-matador", "Six-matador"),
    ("french", "French"),
    ("muggins", "Muggins"),
    ("bergen", "Bergen"),
)
HONOURS = {"french": "honour only"}  # games whose matadors have their own name
LABELS = TableLabels(games=GAME_TITLES)


def labels_for(game: str) -> TableLabels:
    """The samples' labels for one game's table, as the bot fills them from its catalogues."""
    if game in HONOURS:
        return replace(LABELS, only_matador=HONOURS[game])
    return LABELS


NAMES = {
    4: ("Þórdís Ægisdóttir", "Дмитрий", "Budi 🎲 Santoso", "Ngọc Ánh"),
    3: ("Ayu", "\U0001f916 Rio", "Þórdís"),  # a computer player, marked as the texts do
    5: ("Þórdís", "Дмитрий Александрович Соколов-Микитов", "Budi", "Siti 👩‍👩‍👧", "Ólafur"),
}


def names_for(seats: int) -> tuple[str, ...]:
    return NAMES.get(seats, tuple(f"Player {seat + 1}" for seat in range(seats)))


@dataclass(frozen=True, slots=True)
class Sample:
    """One picture: what to draw it from and how."""

    name: str
    kind: str  # "table", "result", "hand", "scoreboard" or "match-end"
    theme: str
    table: TableView | None  # None for a scoreboard
    names: tuple[str, ...]
    player: PlayerView | None = None
    board: tuple[ScoreboardRow, ...] = ()
    ratings: tuple[int | None, ...] = ()  # a match end's rating changes, per seat


def _table(name: str, theme: str, view: TableView) -> Sample:
    return Sample(name, "table", theme, view, names_for(view.seats))


def _hand(name: str, theme: str, view: PlayerView) -> Sample:
    return Sample(name, "hand", theme, view.table, names_for(view.table.seats), view)


def _result(name: str, theme: str, view: TableView) -> Sample:
    return Sample(name, "result", theme, view, names_for(view.seats))


def _match_end(name: str, theme: str, view: TableView,
               ratings: tuple[int | None, ...] = ()) -> Sample:
    return Sample(name, "match-end", theme, view, names_for(view.seats), ratings=ratings)


# Tables found by what they show: (game, seats, what it must show, seed, theme).
FOUND_TABLES: tuple[tuple[str, int, Wanted, int, str], ...] = (
    ("muggins", 2, full_cross, 2, "classic"),
    ("muggins", 3, full_cross, 3, "dark"),
    ("muggins", 4, full_cross, 1, "classic"),
    ("kolbasa", 2, ribbon_ahead, 1, "classic"),
    ("kolbasa", 3, after_cut, 2, "dark"),
    ("kolbasa", 4, after_cut, 1, "classic"),
    ("matador", 2, two_numbers_and_only_matador, 3, "dark"),
    ("matador", 3, two_numbers_and_only_matador, 1, "classic"),
    ("matador", 4, two_numbers_and_only_matador, 1, "dark"),
    ("six-matador", 2, in_debt, 2, "classic"),
    ("six-matador", 3, in_debt, 1, "dark"),
    ("six-matador", 4, in_debt, 1, "classic"),
    ("french", 2, two_numbers, 1, "dark"),
    ("french", 3, two_numbers, 1, "classic"),
    ("french", 4, two_numbers, 1, "dark"),
    ("french", 5, two_numbers, 1, "classic"),
    ("bergen", 2, double_header, 1, "classic"),
    ("bergen", 3, triple_header, 2, "dark"),
    ("bergen", 4, triple_header, 2, "classic"),
)


def tables() -> tuple[Sample, ...]:
    """The group's picture: an empty table, knocks, five seats, the double-9 and double-12
    sets, plain lines of 1 to 91 tiles, every other game at every seat count it allows, and
    the longest cross and ribbons seeded hands laid."""
    pair_open = table_view(played("pair", 4, 1, seed=3))
    dead9 = table_view(played("gaple-dead", 4, 14, seed=7, options={"set": 9}))
    knocked = found("gaple", 4, just_knocked, 6)
    cross, ribbons = long_tables()
    return (
        _table("table-empty", "classic", table_view(played("gaple-dead", 4, 0, seed=2,
                                                           options={"deal": 7}))),
        _table("table-pair-opening", "classic", pair_open),
        _table("table-gaple-knock", "dark", table_view(knocked)),
        _table("table-gaple-dead-5", "classic", table_view(played("gaple-dead", 5, 9, seed=4))),
        _table("table-double-9", "dark", dead9),
        _table("table-pair-28", "classic", with_line(pair_open, 28)),
        _table("table-pair-55", "dark", with_line(pair_open, 55)),
        _table("table-pair-91", "classic", with_line(pair_open, 91)),
        _table("table-dead-91", "dark", with_line(dead9, 91)),
        *(_table(f"table-{game}-{seats}", theme,
                 table_view(found(game, seats, wanted, seed)))
          for game, seats, wanted, seed, theme in FOUND_TABLES),
        _table("table-muggins-long", "dark", cross),
        _table("table-kolbasa-long", "classic", ribbons),
    )


def hands() -> tuple[Sample, ...]:
    """A player's own tiles: playable and not, dead tiles, a spinner's four ends, two rows,
    Kolbasa's ribbons' ends, and two kept after their hand ended (gone out, blocked)."""
    pair = to_move(first_position("pair", 4, has_choice, seeds=(11,)))
    dead = to_move(first_position("gaple-dead", 4, has_choice, seeds=(12,),
                                  options={"set": 12}))
    four_ends = to_move(first_position("muggins", 3, four_ends_and_choice, seeds=(1,)))
    ribbons = to_move(first_position("kolbasa", 4, ribbon_ahead_and_choice, seeds=(1,)))
    return (
        _hand("hand-pair", "classic", pair),
        _hand("hand-gaple-dead-12", "dark", dead),
        _hand("hand-muggins-3", "classic", four_ends),
        _hand("hand-muggins-15", "dark", drawn_hand(8)),  # 15 tiles: two rows
        _hand("hand-kolbasa-4", "dark", ribbons),  # the ribbons' ends named, one waiting
        # Kept after the hand ended: no ends, a pill saying how it ended; went out, blocked.
        _hand("hand-over-muggins-out", "dark", ended("muggins", 3, 2, out=True)),
        _hand("hand-over-pair-blocked", "classic", ended("pair", 4, 2, out=False)),
    )


def results() -> tuple[Sample, ...]:
    """Every hand laid open: partners, dead tiles, a hand whose pips count for nothing."""
    return (
        _result("result-pair", "classic",
                table_view(played("pair", 4, 0, seed=5, until_over=True))),
        _result("result-gaple-dead-5", "dark",
                table_view(played("gaple-dead", 5, 0, seed=8, until_over=True))),
        _result("result-six-matador-3", "dark",
                table_view(played("six-matador", 3, 0, seed=1, until_over=True))),
    )


def match_ends() -> tuple[Sample, ...]:
    """Final scores: pairs as pairs, five seats, penalty points, rating changes and none, a
    debt settled."""
    return (
        _match_end("match-end-pair", "classic", table_view(finished("pair", 4, 2, 60)),
                   (12, -8, 9, -13)),
        _match_end("match-end-french-5", "dark", table_view(finished("french", 5, 3, 40)),
                   (-4, 15, None, 0, -11)),
        _match_end("match-end-muggins-2", "classic",
                   table_view(finished("muggins", 2, 4, 40))),
        _match_end("match-end-six-matador-3", "dark",
                   table_view(finished("six-matador", 3, 5, 40)), (-9, 14, None)),
    )


SCOREBOARD_TITLE = ("Scoreboard: Pair dominoes", "since 2024-05-01 · 31 matches")


def scoreboard_rows() -> tuple[ScoreboardRow, ...]:
    """Eight players: every script, long and emoji-only names, a computer player (marked
    as the texts mark it), streaks of every kind."""
    names = (*NAMES[5][:2], *NAMES[4], "🎲", "\U0001f916 Rio")
    figures = ((1412, 14, 11, 3), (1288, 12, 7, -1), (1190, 9, 5, 2), (1104, 20, 9, 0),
               (1001, 3, 1, 1), (987, 11, 4, -4), (912, 1, 0, -1), (640, 100, 12, -12))
    return tuple(
        ScoreboardRow(place, name, rating, played, won, won / played, streak)
        for place, (name, (rating, played, won, streak)) in enumerate(
            zip(names, figures, strict=True), start=1
        )
    )


def scoreboard_with_hands(rows: tuple[ScoreboardRow, ...]) -> tuple[ScoreboardRow, ...]:
    """The sample board with hands won and points, and two ties (ranked by rating)."""
    ratings = (1412, 1288, 1288, 1104, 1001, 1001, 912, 640)
    hands = (41, 35, 30, 52, 9, 33, 2, 120)
    points = (1840, 1502, 1377, 2210, 380, 1405, 96, 5120)
    places = shared_places(ratings)
    return tuple(
        ScoreboardRow(place, row.name, rating, row.played, row.won, row.win_rate, row.streak,
                      hand, point)
        for row, place, rating, hand, point in zip(rows, places, ratings, hands, points,
                                                   strict=True)
    )


def scoreboards() -> tuple[Sample, ...]:
    return (
        Sample("scoreboard", "scoreboard", "classic", None, (), board=scoreboard_rows()),
        Sample("scoreboard-empty", "scoreboard", "dark", None, ()),
        Sample("scoreboard-hands", "scoreboard", "dark", None, (),
               board=scoreboard_with_hands(scoreboard_rows())),
    )


@cache
def samples() -> tuple[Sample, ...]:
    """Every golden picture."""
    return (*tables(), *hands(), *results(), *match_ends(), *scoreboards())


def render(sample: Sample) -> bytes:
    """The sample's picture as PNG bytes, through the public functions the bot calls."""
    from renderers import (
        render_hand,
        render_hand_result,
        render_match_end,
        render_scoreboard,
        render_table,
    )

    if sample.kind == "hand":
        assert sample.player is not None
        return render_hand(sample.player, theme=sample.theme, labels=LABELS)
    if sample.kind == "scoreboard":
        heading, details = SCOREBOARD_TITLE
        return render_scoreboard(sample.board, title=heading, subtitle=details,
                                 theme=sample.theme)
    assert sample.table is not None
    if sample.kind == "match-end":
        return render_match_end(sample.table, sample.names, rating_changes=sample.ratings,
                                theme=sample.theme, labels=labels_for(sample.table.game))
    if sample.kind == "result":
        return render_hand_result(sample.table, sample.names, theme=sample.theme,
                                  labels=LABELS)
    return render_table(sample.table, sample.names, theme=sample.theme,
                        labels=labels_for(sample.table.game))
