"""A player's hand: the tiles, the playable ones raised and outlined, the others dimmed."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable
from dataclasses import replace
from typing import Any

import pytest
from PIL import Image

import renderers.canvas
import renderers.hand
import renderers.ribbons
from engine import End, Match, PlayerView, Tile, player_view
from goldens.positions import drawn_hand, ended, first_position, has_choice, played
from renderers import render_hand
from renderers.canvas import face_up, text, width_of
from renderers.hand import draw_hand
from renderers.labels import ENGLISH
from renderers.ribbons import ARROW
from renderers.sprites import Look
from renderers.themes import THEMES, find_theme


@pytest.fixture
def laid(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Tile, float, Look]]:
    """Every tile the hand picture lays: the tile, its top edge and its look."""
    seen: list[tuple[Tile, float, Look]] = []

    def recording(canvas: Any, palette: Any, x: float, y: float, first: int, second: int,
                  side: int, vertical: bool, look: Look = Look.PLAIN) -> None:
        seen.append((Tile(first, second), y, look))
        face_up(canvas, palette, x, y, first, second, side, vertical, look)

    monkeypatch.setattr("renderers.hand.face_up", recording)
    return seen


def _turn(game: str, wanted: Callable[[Match], bool],
          options: dict[str, object] | None = None) -> PlayerView:
    match = first_position(game, 4, wanted, seeds=range(40), options=options)
    assert match is not None and match.to_move is not None, "no such position in 40 deals"
    return player_view(match, match.to_move)


def _must_discard(match: Match) -> bool:
    seat = match.to_move
    return seat is not None and player_view(match, seat).must_discard()


def test_playable_tiles_stand_out_and_the_others_are_dimmed(
    laid: list[tuple[Tile, float, Look]],
) -> None:
    view = _turn("pair", has_choice)
    draw_hand(view, find_theme("classic"), ENGLISH)
    playable = view.playable()
    assert [tile for tile, _, _ in laid] == list(view.hand)
    tops = {look: {top for _, top, look_ in laid if look_ is look} for look in Look}
    for tile, _, look in laid:
        assert look is (Look.HIGHLIGHT if tile in playable else Look.DIM)
    assert max(tops[Look.HIGHLIGHT]) < min(tops[Look.DIM])  # raised


def test_when_it_is_not_your_turn_no_tile_is_singled_out(
    laid: list[tuple[Tile, float, Look]],
) -> None:
    match = played("pair", 4, 2)
    seat = (match.to_move or 0) + 1
    draw_hand(player_view(match, seat % 4), find_theme("dark"), ENGLISH)
    assert laid and all(look is Look.PLAIN for _, _, look in laid)


def test_a_stuck_player_is_told_to_lay_one_face_down(
    laid: list[tuple[Tile, float, Look]], drawn_text: list[str]
) -> None:
    view = _turn("gaple-dead", _must_discard)
    draw_hand(view, find_theme("classic"), ENGLISH)
    assert ENGLISH.lay_dead in drawn_text
    hand_looks = [look for _, _, look in laid[: len(view.hand)]]
    assert all(look is Look.PLAIN for look in hand_looks)
    assert [look for _, _, look in laid[len(view.hand) :]] == [Look.DEAD] * len(view.dead)


def test_tiles_are_named_as_on_the_buttons_and_the_ends_shown(drawn_text: list[str]) -> None:
    view = _turn("pair", has_choice)
    draw_hand(view, find_theme("classic"), ENGLISH)
    for tile in view.hand:
        assert str(tile) in drawn_text
    assert view.table.ends is not None
    assert {str(n) for n in view.table.ends} <= set(drawn_text)
    assert ENGLISH.your_turn in drawn_text


@pytest.mark.parametrize("game", ["pair", "muggins"])
def test_a_waiting_players_picture_shows_no_ends_that_would_go_stale(
        game: str, drawn_text: list[str]) -> None:
    """The waiting picture is not drawn again after others' moves: it names no end (the
    group's table does), while the player to move sees every end."""
    match = played(game, 4, 3)
    assert match.to_move is not None
    waiting = player_view(match, (match.to_move + 1) % 4)
    draw_hand(waiting, find_theme("classic"), ENGLISH)
    assert ENGLISH.ends not in drawn_text and ENGLISH.your_turn not in drawn_text
    drawn_text.clear()
    draw_hand(player_view(match, match.to_move), find_theme("classic"), ENGLISH)
    assert ENGLISH.ends in drawn_text


@pytest.mark.parametrize("theme", THEMES)
def test_the_hand_picture_is_a_small_deterministic_png(theme: str) -> None:
    view = _turn("gaple-dead", has_choice, {"set": 12})
    png = render_hand(view, theme=theme)
    assert render_hand(view, theme=theme) == png
    with Image.open(io.BytesIO(png)) as image:
        assert image.width <= 1280 and image.height < image.width
    assert len(png) <= 100_000


def test_tiles_are_drawn_in_the_order_of_the_hand_as_the_buttons_are(
    laid: list[tuple[Tile, float, Look]],
) -> None:
    view = _turn("pair", has_choice)
    shuffled = replace(view, hand=tuple(reversed(view.hand)))  # never sorted by the picture
    draw_hand(shuffled, find_theme("classic"), ENGLISH)
    assert [tile for tile, _, _ in laid] == list(shuffled.hand)


def test_the_title_names_the_hand(drawn_text: list[str]) -> None:
    view = _turn("pair", has_choice)
    draw_hand(view, find_theme("classic"), ENGLISH)
    number = view.table.hand_number + 1
    assert f"{ENGLISH.your_tiles} · {ENGLISH.hand.format(number=number)}" in drawn_text


@pytest.fixture
def placed(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Tile, float, float, int]]:
    """Every tile the hand picture lays: the tile, its left and top edges, its side."""
    seen: list[tuple[Tile, float, float, int]] = []

    def recording(canvas: Any, palette: Any, x: float, y: float, first: int, second: int,
                  side: int, vertical: bool, look: Look = Look.PLAIN) -> None:
        seen.append((Tile(first, second), x, y, side))
        face_up(canvas, palette, x, y, first, second, side, vertical, look)

    monkeypatch.setattr("renderers.hand.face_up", recording)
    return seen


def test_a_long_hand_wraps_into_rows_read_in_the_buttons_order(
        placed: list[tuple[Tile, float, float, int]]) -> None:
    """15 tiles (Muggins after 8 draws, tester5 F14) in two rows of 8 and 7, left to right
    and top to bottom, as the buttons are; they stood in one row."""
    view = drawn_hand(8)
    assert len(view.hand) == 15 and not view.playable()  # none raised: rows by tops alone
    draw_hand(view, find_theme("classic"), ENGLISH)
    assert [tile for tile, *_ in placed] == list(view.hand)
    tops = sorted({top for _, _, top, _ in placed})
    rows = [[x for _, x, top, _ in placed if top == row] for row in tops]
    assert [len(row) for row in rows] == [8, 7]
    assert all(row == sorted(row) for row in rows)
    assert [top for _, _, top, _ in placed] == sorted(top for _, _, top, _ in placed)


@pytest.mark.parametrize("draws", [1, 2, 8, 14])
def test_tiles_and_their_names_stay_readable_at_phone_width(
        draws: int, placed: list[tuple[Tile, float, float, int]],
        drawn_sizes: list[tuple[str, int]]) -> None:
    """A phone shows the picture 400 px wide: every hand up to 21 tiles keeps its tiles at
    least 28 px across there and their names at least 12 px high."""
    view = drawn_hand(draws)
    with Image.open(io.BytesIO(render_hand(view))) as picture:
        width = picture.width
    scale = 400 / width
    assert min(side for *_, side in placed) * scale >= 28
    names = {str(tile) for tile in view.hand}
    assert min(size for words, size in drawn_sizes if words in names) * scale >= 12


@pytest.mark.parametrize("language", ["en", "ru", "id", "is"])
def test_four_ends_never_cut_the_hands_number_from_the_title(
        by_name: dict[str, Any], language: str, drawn_text: list[str]) -> None:
    """Muggins' four end marks and the word "ends" cut a Russian title down to "Your tiles ·
    H…" (a demo): the hand's number is kept whole, first by leaving out the word before the
    marks, then the "Your tiles" before the number."""
    from bot.presentation.pictures import labels_for

    view = by_name["hand-muggins-3"].player
    assert view is not None and len(view.table.layout.ends) == 4
    labels = labels_for(language, "muggins")
    draw_hand(view, find_theme("classic"), labels)
    number = labels.hand.format(number=view.table.hand_number + 1)
    assert any(words.endswith(number) for words in drawn_text), drawn_text
    assert not any("…" in words for words in drawn_text), drawn_text


@pytest.mark.parametrize("language", ["en", "ru", "id", "is"])
def test_the_word_before_the_dead_tiles_is_whole_in_every_language(
        language: str, drawn_text: list[str]) -> None:
    """A gaple-dead player's own dead tiles are marked "dead" in their language, whole: the
    word had 110 px, and a Russian player read "мёр…" (an Icelandic one "dau…")."""
    from bot.presentation.pictures import labels_for

    view = _turn("gaple-dead", lambda m: m.to_move is not None
                 and bool(player_view(m, m.to_move).dead))
    labels = labels_for(language, "gaple-dead")
    draw_hand(view, find_theme("classic"), labels)
    assert labels.dead in drawn_text


def test_the_tile_being_placed_is_the_only_one_singled_out(
    laid: list[tuple[Tile, float, Look]],
) -> None:
    """After the first tap, while the player picks an end (tester): every playable tile
    still raised did not show which one goes; the chosen tile alone stands out."""
    view = _turn("pair", has_choice)
    playable = [tile for tile in view.hand if tile in view.playable()]
    assert len(playable) > 1
    chosen = playable[-1]
    draw_hand(view, find_theme("classic"), ENGLISH, chosen=chosen)
    assert [tile for tile, _, _ in laid] == list(view.hand)
    for tile, _, look in laid:
        assert look is (Look.HIGHLIGHT if tile is chosen else Look.DIM), tile
    top = next(top for tile, top, _ in laid if tile is chosen)
    assert all(top < other for tile, other, _ in laid if tile is not chosen)  # raised
    assert render_hand(view, chosen=chosen) != render_hand(view)


def test_two_digit_labels_never_run_into_each_other(monkeypatch: pytest.MonkeyPatch) -> None:
    """Double-twelve tiles (11-11 beside 9-10), with dead tiles beside the row making the
    tiles smaller: each label stays clear of its neighbour's (a sample read '9-1011-11')."""
    view = _turn("gaple-dead", has_choice, {"set": 12})
    hand = (Tile(9, 10), Tile(11, 11), Tile(10, 12), Tile(12, 12), Tile(8, 11), Tile(7, 12))
    dead = (Tile(0, 9), Tile(1, 10), Tile(2, 11), Tile(3, 12))
    labels: list[tuple[float, float]] = []  # (left, right) of each hand label, in order

    def spying(draw: Any, xy: tuple[float, float], words: str, size: int, colour: Any, *,
               bold: bool = False, anchor: str = "la", max_width: float | None = None) -> float:
        width = width_of(words, size, bold)
        if words in {str(tile) for tile in hand} and anchor == "ma":
            labels.append((xy[0] - width / 2, xy[0] + width / 2))
        return text(draw, xy, words, size, colour, bold=bold, anchor=anchor,
                    max_width=max_width)
    monkeypatch.setattr("renderers.hand.text", spying)
    picture = draw_hand(replace(view, hand=hand, dead=dead), find_theme("classic"), ENGLISH)
    assert len(labels) == len(hand) and picture.width <= 1280
    for (_, right), (left, _) in itertools.pairwise(labels):
        assert left - right >= 8, labels


@pytest.mark.parametrize("language", ["en", "ru", "id", "is"])
def test_kolbasas_end_marks_name_their_ribbons_as_the_table_does(
        by_name: dict[str, Any], language: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hand's header showed Kolbasa's two ends as bare numbers, while the table and the
    buttons call the ribbons "▲ upper" and "▼ lower": each mark now has its ribbon's
    triangle and word before it, upper first, as the table draws them; where the words do
    not fit, the triangles stay and the hand's number is kept whole."""
    from bot.presentation.pictures import labels_for

    view = by_name["hand-kolbasa-4"].player
    assert view is not None and view.my_turn and view.table.layout.kind == "ribbons"
    upper, lower = (e for e in view.table.layout.ends)
    assert (upper.end, lower.end) == (End.LEFT, End.RIGHT) and not upper.open
    drawn: list[tuple[str, float]] = []
    arrows: list[tuple[int, float]] = []
    original_letter, original_paste = renderers.canvas.letter, renderers.ribbons.paste

    def letter(draw: Any, xy: tuple[float, float], words: str, *args: Any,
               **kwargs: Any) -> None:
        drawn.append((words, xy[0]))
        original_letter(draw, xy, words, *args, **kwargs)

    def paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
        if sprite.size == (2 * ARROW, 2 * ARROW):  # a triangle: its tip on top points up
            alpha = sprite.getchannel("A")
            top = sum(1 for column in range(sprite.width) if alpha.getpixel((column, 0)))
            arrows.append((-1 if top <= 2 else 1, x))
        original_paste(canvas, sprite, x, y)

    monkeypatch.setattr(renderers.canvas, "letter", letter)
    monkeypatch.setattr(renderers.ribbons, "paste", paste)
    labels = labels_for(language, "kolbasa")
    long_title = replace(labels, hand="Round of the match {number}")
    for words, named in ((labels, True), (long_title, False)):
        number = words.hand.format(number=view.table.hand_number + 1)
        drawn.clear()
        arrows.clear()
        draw_hand(view, find_theme("dark"), words)
        at = dict(drawn)
        assert [pointing for pointing, _ in arrows] == [1, -1]  # drawn right to left
        (_, down), (_, up) = arrows
        assert up < at[str(upper.numbers[0])] < down < at[str(lower.numbers[0])]
        if named:
            assert up < at[labels.upper] < at[str(upper.numbers[0])]
            assert down < at[labels.lower] < at[str(lower.numbers[0])]
            assert labels.ends not in at
        else:
            assert not {words.upper, words.lower} & set(at)
        assert any(text.endswith(number) for text in at), drawn
        assert not any("…" in text for text in at), drawn


@pytest.mark.parametrize(("sample", "language"), [
    *(("hand-muggins-3", language) for language in ("en", "ru", "id", "is")),
    ("hand-pair", "en"), ("hand-gaple-dead-12", "ru")])
def test_every_end_mark_has_its_buttons_triangle_before_it(
        by_name: dict[str, Any], sample: str, language: str,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Player QA: Muggins' four end circles stood bare ("1 · 6+6 · 4 · 6", in Icelandic not
    even "ends" before them), while the buttons say "◀ left", "▶ right", "▲ up", "▼ down":
    each mark now has its button's triangle just before it, the plain line's two as well,
    and the hand's number stays whole."""
    from bot.presentation.pictures import labels_for

    view = by_name[sample].player
    assert view is not None and view.my_turn
    marks: list[tuple[End, float, float]] = []  # each end, its mark's left and right edges
    arrows: list[tuple[str, float]] = []  # each triangle's way and its right edge
    original_mark, original_paste = renderers.hand.end_mark, renderers.ribbons.paste

    def end_mark(canvas: Any, draw: Any, centre: tuple[float, float], radius: int, end: Any,
                 *args: Any) -> int:
        width = original_mark(canvas, draw, centre, radius, end, *args)
        marks.append((end.end, centre[0] - width / 2, centre[0] + width / 2))
        return width

    def paste(canvas: Image.Image, sprite: Image.Image, x: float, y: float) -> None:
        name = sprite.info.get("stroke")
        if name and name[0] == "arrow":
            arrows.append((name[1], x + sprite.width))
        original_paste(canvas, sprite, x, y)

    monkeypatch.setattr(renderers.hand, "end_mark", end_mark)
    monkeypatch.setattr(renderers.ribbons, "paste", paste)
    labels = labels_for(language)
    drawn: list[str] = []
    original_letter = renderers.canvas.letter

    def letter(draw: Any, xy: tuple[float, float], words: str, *args: Any,
               **kwargs: Any) -> None:
        drawn.append(words)
        original_letter(draw, xy, words, *args, **kwargs)

    monkeypatch.setattr(renderers.canvas, "letter", letter)
    draw_hand(view, find_theme("classic"), labels)
    assert len(marks) == len(view.table.layout.ends) == len(arrows)
    assert len(marks) in (2, 4)
    for (end, left, _), (way, arrow_right) in zip(marks, arrows, strict=True):
        assert way == end.value
        assert 0 < left - arrow_right <= 10  # just before its own mark
    edges = sorted(right for _, _, right in marks)
    tips = sorted(right - 2 * ARROW for _, right in arrows)
    for right, tip in zip(edges, tips[1:], strict=False):
        assert tip - right >= 14  # clear of the previous end's mark
    number = labels.hand.format(number=view.table.hand_number + 1)
    assert any(words.endswith(number) for words in drawn), drawn
    assert not any("…" in words for words in drawn), drawn


@pytest.mark.parametrize(("view", "pill"), [
    (ended("muggins", 3, 2, out=False), ENGLISH.hand_over),
    (ended("pair", 4, 2, out=False), ENGLISH.hand_blocked),
    (ended("muggins", 3, 2, out=True), ENGLISH.you_went_out),
], ids=["another-went-out", "blocked", "went-out"])
def test_an_ended_hands_picture_says_it_ended_and_shows_no_ends(
        view: PlayerView, pill: str, drawn_text: list[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Player QA: the picture kept after a hand ended still had the "ends" row in its header,
    and was a bare felt where the player had gone out. Now the ends go, a pill says how the
    hand ended, and an empty hand says it has no tiles left."""
    assert view.table.result is not None and view.table.layout.ends
    marks: list[object] = []
    monkeypatch.setattr(renderers.hand, "end_mark", lambda *args: marks.append(args) or 56)
    draw_hand(view, find_theme("classic"), ENGLISH)
    assert not marks and ENGLISH.ends not in drawn_text
    assert pill in drawn_text and ENGLISH.your_turn not in drawn_text
    assert (ENGLISH.no_tiles_left in drawn_text) is (not view.hand)
    number = ENGLISH.hand.format(number=view.table.hand_number + 1)
    assert f"{ENGLISH.your_tiles} · {number}" in drawn_text


@pytest.mark.parametrize("language", ["en", "ru", "id", "is"])
def test_an_ended_hands_words_come_from_the_catalogues(language: str,
                                                       drawn_text: list[str]) -> None:
    """The new words are the bot's labels, each drawn whole in every language."""
    from bot.presentation.pictures import labels_for

    labels = labels_for(language)
    draw_hand(ended("muggins", 3, 2, out=True), find_theme("dark"), labels)
    assert {labels.you_went_out, labels.no_tiles_left} <= set(drawn_text)
    assert not any("…" in words for words in drawn_text), drawn_text
