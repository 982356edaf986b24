"""The group's picture: every game, seat count, theme and line length; markers where they
belong; the same view always gives the same bytes; small enough to send."""

from __future__ import annotations

import io
from dataclasses import replace
from functools import cache

import pytest
from PIL import Image

from engine import Match, TableView, table_view
from goldens.positions import first_position, just_knocked, played, with_line
from goldens.samples import names_for
from renderers import THEMES, UnknownThemeError, ViewMismatchError, render_table
from renderers.labels import ENGLISH
from renderers.seats import Rect, seats_of
from renderers.table import (
    HEIGHT,
    LINE_AREA,
    TALLEST,
    WIDTH,
    draw_table,
    line_layout,
    picture_height,
    slots,
)
from renderers.themes import Colour, find_theme

GAMES = [("gaple", 4), ("gaple-dead", 4), ("gaple-dead", 5), ("pair", 4)]
LENGTHS = (0, 1, 14, 28, 55, 91)
MAX_BYTES = 100_000


@cache
def _view(game: str, seats: int, moves: int = 3) -> TableView:
    return table_view(played(game, seats, moves, seed=21))


def _colour_in(image: Image.Image, box: Rect, colour: Colour) -> bool:
    colours = image.crop(box).getcolors(maxcolors=1 << 20) or []
    return any(found == colour for _, found in colours)


@pytest.mark.parametrize("theme", THEMES)
@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_every_game_and_line_length_renders_a_small_png(game: str, seats: int, theme: str) -> None:
    base = _view(game, seats)
    for tiles in LENGTHS:
        view = with_line(base, tiles)
        png = render_table(view, names_for(seats), theme=theme)
        with Image.open(io.BytesIO(png)) as image:
            assert image.format == "PNG" and image.size == (WIDTH, picture_height(view))
        assert len(png) <= MAX_BYTES, (tiles, len(png))


def test_the_same_view_gives_the_same_bytes() -> None:
    view = with_line(_view("pair", 4), 28)
    first = render_table(view, names_for(4))
    assert render_table(view, names_for(4)) == first
    assert render_table(view, names_for(4), theme="dark") != first


def test_the_picture_is_never_much_taller_than_wide() -> None:
    """4:3 for a short line, up to 4:5 (as a chat still shows whole) for a long one."""
    assert HEIGHT * 4 == WIDTH * 3 and TALLEST * 4 == WIDTH * 5
    heights = [picture_height(with_line(_view("pair", 4), tiles)) for tiles in range(0, 92, 3)]
    assert heights[0] == HEIGHT and max(heights) == TALLEST


@pytest.mark.parametrize("seats", [4, 5])
def test_the_seat_to_move_is_framed_in_the_accent_colour(seats: int) -> None:
    view = _view("gaple-dead", seats)
    palette = find_theme("classic")
    image = draw_table(view, names_for(seats), palette, ENGLISH)
    assert view.to_move is not None
    for seat, (left, top, _, bottom) in enumerate(slots(seats)):
        edge = image.getpixel((left + 1, (top + bottom) // 2))
        assert (edge == palette.accent) == (seat == view.to_move)


def test_a_seat_that_knocked_shows_the_knock_marker() -> None:
    match = first_position("gaple", 4, just_knocked, seeds=range(10))
    assert match is not None
    view = table_view(match)
    palette = find_theme("classic")
    image = draw_table(view, names_for(4), palette, ENGLISH)
    assert any(player.knocked for player in view.players)
    for player, rect in zip(view.players, slots(4), strict=True):
        assert _colour_in(image, rect, palette.knock) == player.knocked


def test_a_newcomers_seat_shows_no_knock_of_the_one_before() -> None:
    """A seat whose player sat down since its last move (the caller says which): that
    knock was another's, and is not marked beside the name shown."""
    match = first_position("gaple", 4, just_knocked, seeds=range(10))
    assert match is not None
    view = table_view(match)
    knocked = frozenset(p.seat for p in view.players if p.knocked)
    palette = find_theme("classic")
    image = draw_table(view, names_for(4), palette, ENGLISH, newcomers=knocked)
    for rect in slots(4):
        assert not _colour_in(image, rect, palette.knock)


@pytest.mark.parametrize("theme", THEMES)
def test_only_the_tile_just_played_is_highlighted(theme: str) -> None:
    view = _view("pair", 4, moves=9)
    palette = find_theme(theme)
    image = draw_table(view, names_for(4), palette, ENGLISH)
    laid, ox, oy = line_layout(view)
    lit = []
    for spot in laid.spots:
        x0, y0, x1, y1 = spot.box
        if _colour_in(image, (ox + x0, oy + y0, ox + x1, oy + y1), palette.highlight):
            lit.append(spot.tile)
    assert lit == [view.last_played]


def test_seats_show_their_names_counts_and_scores(drawn_text: list[str]) -> None:
    view = replace(_view("gaple-dead", 5), scores=(11, 22, 33, 44, 55))
    draw_table(view, names_for(5), find_theme("classic"), ENGLISH)
    for word in ("Þórdís", "Budi", "Siti", "Ólafur", "11", "22", "33", "44", "55"):
        assert word in drawn_text
    # (a long name keeps its first name, its later words go to their initials)
    assert any(text.startswith("Дмитрий ") and text.endswith(" С.") for text in drawn_text)  # noqa: RUF001
    assert ENGLISH.dead in drawn_text and ENGLISH.middle in drawn_text
    assert ENGLISH.game_title("gaple-dead") in drawn_text  # the code name: no titles given


def test_games_without_dead_tiles_or_middle_do_not_mention_them(drawn_text: list[str]) -> None:
    draw_table(_view("pair", 4), names_for(4), find_theme("classic"), ENGLISH)
    assert ENGLISH.dead not in drawn_text and ENGLISH.middle not in drawn_text
    assert ENGLISH.tiles in drawn_text and ENGLISH.score in drawn_text


def test_the_face_down_middle_is_drawn_where_the_game_has_one() -> None:
    palette = find_theme("classic")
    header = (WIDTH // 2, 0, WIDTH, LINE_AREA[1] - 120)
    with_middle = _view("gaple-dead", 4)
    assert with_middle.middle_face_down == 3 and with_middle.turned_up is not None
    image = draw_table(with_middle, names_for(4), palette, ENGLISH)
    assert _colour_in(image, header, palette.tile_back)
    image = draw_table(_view("gaple", 4), names_for(4), palette, ENGLISH)
    assert not _colour_in(image, header, palette.tile_back)


def test_two_and_three_seat_tables_have_places_too() -> None:
    base = _view("gaple", 4)
    for seats in (2, 3):
        view = replace(
            base,
            players=base.players[:seats],
            sides=tuple((seat,) for seat in range(seats)),
            scores=(0,) * seats,
        )
        png = render_table(view, [f"P{seat}" for seat in range(seats)])
        assert png.startswith(b"\x89PNG")


def test_a_name_per_seat_is_required() -> None:
    with pytest.raises(ViewMismatchError):
        render_table(_view("pair", 4), ["only", "three", "names"])


def test_an_unknown_theme_is_refused() -> None:
    with pytest.raises(UnknownThemeError, match="classic"):
        render_table(_view("pair", 4), names_for(4), theme="neon")


def _knocked_then_to_move(match: Match) -> bool:
    """The seat to move knocked on its last turn: that knock is from an earlier round."""
    seat = match.to_move
    return seat is not None and table_view(match).players[seat].knocked


def test_a_knock_from_an_earlier_round_is_not_shown_beside_to_move(
    drawn_text: list[str],
) -> None:
    match = first_position("gaple", 4, _knocked_then_to_move, seeds=range(20))
    assert match is not None
    view = table_view(match)
    palette = find_theme("classic")
    image = draw_table(view, names_for(4), palette, ENGLISH)
    assert view.to_move is not None
    mover = slots(4)[view.to_move]
    assert not _colour_in(image, mover, palette.knock)
    assert ENGLISH.to_move in drawn_text


def test_partners_scores_are_shown_once_between_the_top_seats(drawn_text: list[str]) -> None:
    view = replace(_view("pair", 4), scores=(123, 45))
    draw_table(view, names_for(4), find_theme("classic"), ENGLISH)
    assert drawn_text.count("123") == 1 and drawn_text.count("45") == 1
    assert drawn_text.count(ENGLISH.score) == 1


def test_penalties_are_called_so_where_points_count_against_a_seat(
    drawn_text: list[str],
) -> None:
    draw_table(_view("gaple-dead", 4), names_for(4), find_theme("classic"), ENGLISH)
    assert ENGLISH.penalty in drawn_text and ENGLISH.score not in drawn_text
    drawn_text.clear()
    draw_table(_view("gaple", 4), names_for(4), find_theme("classic"), ENGLISH)
    assert ENGLISH.score in drawn_text and ENGLISH.penalty not in drawn_text


def test_game_titles_come_from_the_caller_with_the_code_name_as_fallback(
    drawn_text: list[str],
) -> None:
    draw_table(_view("pair", 4), names_for(4), find_theme("classic"), ENGLISH)
    assert "pair" in drawn_text
    drawn_text.clear()
    titled = replace(ENGLISH, games=(("pair", "Domino berpasangan"),))
    draw_table(_view("pair", 4), names_for(4), find_theme("classic"), titled)
    assert "Domino berpasangan" in drawn_text and "pair" not in drawn_text


def _over_after_a_knock(match: Match) -> bool:
    """The hand is over, won, and a seat knocked in its last round (as after a blocked hand)."""
    ended = match.hand.result
    if ended is None or ended.winner is None:
        return False
    last_round = table_view(match).history[-match.seats:]
    return any(move.kind.name == "KNOCK" for move in last_round)


@pytest.mark.parametrize(("game", "seats"), [("gaple", 4), ("french", 3)])
def test_a_finished_hand_shows_its_winner_and_no_knock(
    game: str, seats: int, drawn_text: list[str],
) -> None:
    """Once the hand is over no knock is news: the last table marks who won the hand instead
    (as the hand's result does), and nobody is to move."""
    match = first_position(game, seats, _over_after_a_knock, seeds=range(40), most_moves=80)
    assert match is not None
    view = table_view(match)
    assert view.result is not None and view.result.winner is not None
    palette = find_theme("classic")
    image = draw_table(view, names_for(seats), palette, ENGLISH)
    winners = view.sides[view.result.winner]
    for seat, rect in enumerate(slots(seats)):
        assert not _colour_in(image, rect, palette.knock), seat
        assert _colour_in(image, rect, palette.winner) == (seat in winners), seat
    assert ENGLISH.knock not in drawn_text and ENGLISH.to_move not in drawn_text
    assert drawn_text.count(ENGLISH.winner) == len(winners)


def test_the_last_table_of_a_match_marks_no_hand_winner(drawn_text: list[str]) -> None:
    """The match's last hand may be won by a player who lost the match: its table marks
    nobody (the match's result, sent next, names who won it), and shows no knock."""
    match = first_position("gaple", 4, _over_after_a_knock, seeds=range(40), most_moves=80)
    assert match is not None
    view = replace(table_view(match), match_over=True)
    palette = find_theme("classic")
    image = draw_table(view, names_for(4), palette, ENGLISH)
    for seat, rect in enumerate(slots(4)):
        assert not _colour_in(image, rect, palette.winner), seat
        assert not _colour_in(image, rect, palette.knock), seat
    assert ENGLISH.winner not in drawn_text and ENGLISH.knock not in drawn_text


@pytest.mark.parametrize("game, seats", [("muggins", 3), ("bergen", 2)])
def test_a_finished_hands_seats_show_all_the_hand_scored_not_only_its_points_of_play(
        game: str, seats: int) -> None:
    """Once a hand is over, a seat's "hand" figure is what the hand gave its side, the points
    for going out or for the blocked hand included: the winner's score went up by that much
    (a Muggins demo showed the winner "hand 0 score 90" after "+10 for going out")."""
    for seed in range(1, 40):
        view = table_view(played(game, seats, 0, seed, until_over=True))
        ended = view.result
        assert ended is not None
        if ended.points != ended.scored:
            break
    else:
        pytest.fail("no hand with points scored at its end")
    shown = seats_of(view, names_for(seats), find_theme("classic"), scores_apart=False)
    assert [seat.scored for seat in shown] == [ended.points[p.side] for p in view.players]


def test_a_short_names_panel_leaves_its_pill_whole(drawn_text: list[str]) -> None:
    """Five seats' narrow panels kept the pill to half the panel whatever the name beside it:
    an Indonesian table read "pemena…" beside "Di". The name leaves the pill its room, and
    keeps its first letters."""
    from bot.presentation.pictures import labels_for

    view = table_view(played("gaple-dead", 5, 0, seed=2, until_over=True))
    assert view.result is not None and view.result.winner is not None
    labels = labels_for("id", "gaple-dead")
    for name in ("Di", "Ngọc Ánh"):  # the pill whole; a long name keeps its first letters
        drawn_text.clear()           # (or its first word's initial, and the words after it)
        draw_table(view, ("Ann", "Bo", "Cy", name, "Ed"), find_theme("classic"), labels)
        assert labels.winner in drawn_text
        assert any(words.startswith((name[:3], f"{name[0]}. ")) for words in drawn_text)
