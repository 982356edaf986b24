"""The second tap in the games with a stock, on deliberate positions: every end a tile fits
(up and down too), along or across, which ribbon a cut gives away; what each lay scores."""

from __future__ import annotations

from collections.abc import Sequence

from bot_kit import plain

from bot.gamemessages import Messages
from bot.i18n import LANGUAGES, translator
from bot.models import Game, Player, Status
from bot.presentation import captions, keyboards, laychoices
from bot.presentation.callbacks import decode
from bot.presentation.tilebuttons import Lay, TileIntent, TileTap, Way
from engine import DRAW, Cut, Deal, End, Match, Play, Tile, full_set, player_view, table_view

T = translator("en")
ANN, BOB = Player(1, "Ann"), Player(2, "Bob")


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile(int(a), int(b)) for a, b in (t.split("-") for t in text.split()))


def started(game: str, first: str, second: str, stock: str = "") -> Match:
    """A two-seat hand of ``game``: the seats' tiles, then the stock (its first tiles as
    given, then every tile not dealt)."""
    hands = (tiles(first), tiles(second))
    head = list(tiles(stock))
    used = {t for h in hands for t in h} | set(head)
    match = Match(game, 2)
    match.start_hand(Deal(hands, (), 0, None,
                          tuple(head + [t for t in full_set(6) if t not in used])))
    return match


def game_of(match: Match) -> Game:
    return Game(1, -100, Status.PLAYING, match.variant.name, {}, ANN.user_id, [ANN, BOB],
                match, 5, "en", Messages())


def choice_buttons(match: Match, seat: int, tile: str) -> list[tuple[str, object]]:
    view = player_view(match, seat)
    markup = keyboards.lay_choice(T, game_of(match), view, 5, tiles(tile)[0])
    return [(b.text, decode(b.callback_data)) for row in markup.inline_keyboard for b in row]


def test_muggins_spinner_offers_all_four_ends_named_with_their_numbers() -> None:
    match = started("muggins", "5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
    match.apply(0, Play(Tile(5, 5)))  # the spinner
    buttons = choice_buttons(match, 1, "0-5")
    labels = [label.split(" +")[0] for label, _ in buttons[:-1]]
    assert labels == ["◀ left 5", "▶ right 5", "▲ up 5", "▼ down 5"]
    taps = [tap for _, tap in buttons[:-1]]
    assert [tap.end for tap in taps] == [End.LEFT, End.RIGHT, End.UP, End.DOWN]  # type: ignore[attr-defined]
    assert all(isinstance(tap, Lay) and tap.tile == Tile(0, 5) for tap in taps)
    assert buttons[-1][0] == "↩ Back"
    # Each button's points are the engine's: the lay tried on a copy of the hand.
    for label, tap in buttons[:-1]:
        assert isinstance(tap, Lay)
        twin = started("muggins", "5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
        twin.apply(0, Play(Tile(5, 5)))
        before = twin.hand.scored[1]  # type: ignore[union-attr]
        twin.apply(1, tap.action())
        points = twin.hand.scored[1] - before  # type: ignore[union-attr]
        assert label.endswith(f" +{points}") if points else "+" not in label


def test_the_open_ends_add_up_to_the_count_a_lay_scores() -> None:
    """Muggins: a crosswise double's end counts both halves, an empty spinner arm nothing,
    and the parts shown add up to the count (the QA's "left 0 · right 5 · up 6 · down 5"
    beside a count of 10)."""
    match = started("muggins", "5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
    match.apply(0, Play(Tile(5, 5)))
    match.apply(1, Play(Tile(0, 5), End.RIGHT))
    line = captions.ends_line(T, table_view(match).layout)
    assert line == ("Open ends: left 5-5 (10) · right 0 · up 5 (not counted) · "
                    "down 5 (not counted); count 10.")
    kolbasa = started("kolbasa", "1-1 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
    kolbasa.apply(0, Play(Tile(1, 1)))
    # Kolbasa's ribbons, as the picture draws them
    assert captions.ends_line(T, table_view(kolbasa).layout) == "Open ends: upper 1 · lower 1."


def test_the_hand_shows_the_stock_and_what_each_tile_would_score() -> None:
    match = started("muggins", "5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
    match.apply(0, Play(Tile(5, 5)))
    view = player_view(match, 1)
    caption = captions.hand_caption(T, game_of(match), view)
    assert "Stock: 14 tiles." in caption
    assert ("Open ends: left 5 · right 5 · up 5 (not counted) · down 5 (not counted); "
            "count 10.") in caption
    assert "Points if you lay now: 0-5" in caption
    markup = keyboards.hand(T, game_of(match), view, 5)
    taps = {b.text: decode(b.callback_data) for row in markup.inline_keyboard for b in row}
    assert taps["✅ 0-5"] == TileTap(1, 5, Tile(0, 5), TileIntent.CHOOSE_END)
    assert taps["2-2"] == TileTap(1, 5, Tile(2, 2), TileIntent.INERT)


def test_a_later_muggins_double_goes_along_or_across_and_says_the_count_each_leaves() -> None:
    """Player QA: "along" and "across" did not say what they do. In Muggins a double across
    counts both halves: each way says the count it leaves, the engine's (the lay tried on a
    copy of the hand, here checked against the lay made)."""
    deal = "5-5 0-0 4-4 3-5 1-2 1-3 1-6", "0-5 4-5 2-2 2-3 2-4 3-3 0-6"
    moves = [(0, Play(Tile(5, 5))), (1, Play(Tile(4, 5), End.RIGHT)),
             (0, Play(Tile(3, 5), End.UP)), (1, Play(Tile(0, 5), End.LEFT))]
    match = started("muggins", *deal)
    for seat, move in moves:
        match.apply(seat, move)
    assert table_view(match).layout.count == 7  # left 0 · right 4 · up 3 · down nothing
    buttons = choice_buttons(match, 0, "4-4")
    assert [label for label, _ in buttons[:-1]] == ["▶ right 4 along → count 7",
                                                    "▶ right 4 across → count 11"]
    for label, tap in buttons[:-1]:
        assert isinstance(tap, Lay)
        twin = started("muggins", *deal)
        for seat, move in moves:
            twin.apply(seat, move)
        twin.apply(0, tap.action())
        assert label.endswith(f"count {table_view(twin).layout.count}")
    # the question says what its → is here, the count (Indonesian QA: "what it leaves")
    asked = plain(captions.hand_caption(T, game_of(match), player_view(match, 0), Tile(4, 4)))
    assert ("Where does 4-4 go? Tap an end and a way: → says the count it leaves, + what it "
            "scores.") in asked


def test_a_blank_double_along_or_across_is_one_lay_as_both_count_nothing() -> None:
    """Muggins' 0-0 at a 0 counts 0 along and 0 + 0 across: the two ways leave the same
    numbers, count and points, and play alike from then on (engine.LayOutcome.plays_alike),
    so the tile asks nothing (it asked "◀ left 0 along / ◀ left 0 across")."""
    match = started("muggins", "5-5 0-0 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
    match.apply(0, Play(Tile(5, 5)))
    match.apply(1, Play(Tile(0, 5), End.LEFT))
    view = player_view(match, 0)
    assert len([a for a in view.legal if isinstance(a, Play) and a.tile == Tile(0, 0)]) == 2
    [lay] = laychoices.lays_of(view, Tile(0, 0), match)
    hand = {b.text: decode(b.callback_data) for row in keyboards.hand(
        T, game_of(match), view, 5).inline_keyboard for b in row}
    assert hand["✅ 0-0"] == Lay.of(1, 5, lay)  # one tap lays it
    labels = [label for label, _ in choice_buttons(match, 0, "0-0")]
    assert labels == ["◀ left 0 +10", "↩ Back"]  # (0 + right 5 + up 5, the spinner)


def test_matador_asks_along_or_across_where_both_are_legal() -> None:
    match = started("matador", "1-2 0-1 0-2 0-3 0-4 0-5", "1-6 2-2 2-3 3-3 4-4 5-5")
    match.apply(0, Play(Tile(1, 2)))
    buttons = choice_buttons(match, 1, "1-6")
    # along, 1-6 leaves the 1 it was laid on; across, both its halves (player QA: the words
    # did not say what the choice does)
    assert [label for label, _ in buttons[:-1]] == ["◀ left 1 along → 1", "◀ left 1 across → 1/6",
                                                    "▶ right 2 across → 1/6"]
    assert [tap for _, tap in buttons[:-1]] == [
        Lay(1, 5, Tile(1, 6), End.LEFT, Way.ALONG), Lay(1, 5, Tile(1, 6), End.LEFT, Way.ACROSS),
        Lay(1, 5, Tile(1, 6), End.RIGHT, Way.ACROSS)]


def test_a_matador_that_can_only_go_crosswise_says_so_in_every_language() -> None:
    """QA: French's honour 2-5 showed "◀ left 0" beside "▶ right 5 along" and "▶ right 5
    across", though on the 0 it can only lie crosswise; a non-double laid crosswise says so
    whether or not it could go along there too."""
    match = started("french", "5-6 0-1 0-2 0-3 1-2", "2-5 0-0 1-1 2-4 3-3")
    match.apply(0, Play(Tile(5, 6)))
    for language in LANGUAGES:
        t = translator(language)
        across, along = t("across"), t("along")
        view = player_view(match, 1)
        markup = keyboards.lay_choice(t, game_of(match), view, 5, Tile(2, 5))
        words = [b.text.split(" ", 3)[3] for row in markup.inline_keyboard[:-1] for b in row]
        ways = [decode(b.callback_data).way  # type: ignore[union-attr]
                for row in markup.inline_keyboard[:-1] for b in row]
        assert ways == [Way.ALONG, Way.ACROSS, Way.ACROSS], ways
        assert words == [f"{along} → 5", f"{across} → 2/5", f"{across} → 2/5"], (language, words)
    assert [label for label, _ in choice_buttons(match, 1, "2-5")[:-1]] == [
        "◀ left 5 along → 5", "◀ left 5 across → 2/5", "▶ right 6 across → 2/5"]


def test_six_matadors_matadors_say_across_and_other_doubles_with_one_way_say_nothing() -> None:
    """Six-matador lays its matadors only crosswise (D24): 1-5 says "across" at every end, and
    so does the double matador 3-3, which lies across where the game's other doubles lie
    along (player QA: 0-0 and 3-3 said nothing beside a 1-5 "across"); 4-4 lies along as the
    game lays doubles and says nothing, nor does a Bergen double, always crosswise."""
    match = started("six-matador", "1-2 0-1 0-2 0-3 0-4 0-5", "1-5 3-3 4-4 2-3 5-5 6-6")
    match.apply(0, Play(Tile(1, 2)))
    labels = [label.split(" +")[0] for label, _ in choice_buttons(match, 1, "1-5")[:-1]]
    assert labels == ["◀ left 1 across → 1/5", "▶ right 2 across → 1/5"]
    labels = [label.split(" +")[0] for label, _ in choice_buttons(match, 1, "3-3")[:-1]]
    assert labels == ["◀ left 1 across → 3", "▶ right 2 across → 3"]
    labels = [label.split(" +")[0] for label, _ in choice_buttons(match, 1, "4-4")[:-1]]
    assert labels == ["▶ right 2"]
    bergen = started("bergen", "1-1 1-2 0-3 0-4 0-5 0-6", "1-3 2-2 2-3 3-3 4-4 5-5")
    bergen.apply(0, Play(Tile(1, 1)))
    bergen.apply(1, Play(Tile(1, 3), End.RIGHT))
    labels = [label.split(" +")[0] for label, _ in choice_buttons(bergen, 0, "1-2")[:-1]]
    assert labels == ["◀ left 1"]
    bergen.apply(0, Play(Tile(1, 2), End.LEFT))
    labels = [label.split(" +")[0] for label, _ in choice_buttons(bergen, 1, "3-3")[:-1]]
    assert labels == ["▶ right 3"]


def test_kolbasa_cut_asks_which_ribbon_to_give_and_how_many_pips_go() -> None:
    match = started("kolbasa", "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    match.apply(0, Play(Tile(1, 1)))
    match.apply(1, Play(Tile(1, 3), End.LEFT))
    match.apply(0, Play(Tile(1, 4), End.RIGHT))
    buttons = choice_buttons(match, 1, "3-4")
    labels = [label for label, _ in buttons[:-1]]
    # The ribbons a cut may give always hold as many tiles (it needs them level): each
    # button says the pips of the ribbon it gives (player QA: "1 tile" and "1 tile" told
    # nothing), in words, as beside "▲ upper 4" a bare "(1)" read as an end's number. The
    # ribbons are named as the picture draws them, one above the other (player QA: told
    # "left" and "right", players looked for a ribbon running off to the left).
    assert labels == ["▲ upper 3", "▼ lower 4", "✂ give upper ribbon: 4 pips",
                      "✂ give lower ribbon: 5 pips"]
    assert not any("left" in label or "right" in label for label in labels)
    assert Lay(1, 5, Tile(3, 4), End.LEFT, Way.CUT) in [tap for _, tap in buttons]
    caption = plain(captions.hand_caption(T, game_of(match), player_view(match, 1)))
    assert "You may cut with 3-4: the ribbon you give goes to Ann." in caption
    match.apply(1, Cut(Tile(3, 4), End.LEFT))
    table = plain(captions.table_caption(T, game_of(match), table_view(match)))
    assert "✂ Bob cut with 3-4: Ann takes the upper ribbon, 1 tile, and moves next." in table


def test_kolbasas_ribbons_are_named_upper_and_lower_as_the_picture_draws_them() -> None:
    """Player QA: the picture draws the two ribbons one above the other, both running right,
    but buttons, captions and moves said "left" and "right", and players looked for a ribbon
    running off to the left. Every word is now upper and lower, the marks ▲ and ▼ as on the
    picture; the buttons' data keep the engine's L and R, so buttons posted before still
    work; other games' ends keep their names."""
    match = started("kolbasa", "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    match.apply(0, Play(Tile(1, 1)))
    match.apply(1, Play(Tile(1, 3), End.LEFT))
    match.apply(0, Play(Tile(1, 4), End.RIGHT))
    view = player_view(match, 1)
    markup = keyboards.lay_choice(T, game_of(match), view, 5, Tile(3, 4))
    data = {b.text: b.callback_data for row in markup.inline_keyboard for b in row}
    assert data == {"▲ upper 3": "p:1:5:13:L:a", "▼ lower 4": "p:1:5:13:R:a",
                    "✂ give upper ribbon: 4 pips": "p:1:5:13:L:c",
                    "✂ give lower ribbon: 5 pips": "p:1:5:13:R:c", "↩ Back": "b:1:5"}
    assert captions.gains_line(T, [(Tile(3, 4), End.LEFT, 5)], "ribbons") \
        == "Points if you lay now: 3-4 upper +5."
    assert captions.gains_line(T, [(Tile(3, 4), End.LEFT, 5)]) \
        == "Points if you lay now: 3-4 left +5."
    match.apply(1, Cut(Tile(3, 4), End.RIGHT))
    table = plain(captions.table_caption(T, game_of(match), table_view(match)))
    assert "✂ Bob cut with 3-4: Ann takes the lower ribbon, 1 tile, and moves next." in table
    words = " ".join([table, *data])
    assert " left" not in words and " right" not in words
    # A plain line and the other layouts keep their left and right.
    line = started("bergen", "1-1 1-2 0-3 0-4 0-5 0-6", "1-3 2-2 2-3 3-3 4-4 5-5")
    line.apply(0, Play(Tile(1, 1)))
    # (the double's two ends are alike: one lay, named as the line names its ends)
    assert [label for label, _ in choice_buttons(line, 1, "1-3")[:-1]] == ["◀ left 1"]
    line.apply(1, Play(Tile(1, 3), End.LEFT))
    assert "Bob laid 1-3 on the left." in plain(
        captions.table_caption(T, game_of(line), table_view(line)))


def test_the_tiles_drawn_are_the_drawers_to_read() -> None:
    match = started("muggins", "6-6 0-1 0-2 0-3 1-2 1-3 1-4", "2-2 2-3 2-4 3-3 3-4 4-4 5-5",
                    stock="0-4 0-6")
    match.apply(0, Play(Tile(6, 6)))
    match.apply(1, DRAW)  # nothing of Bob's fits a 6
    match.apply(1, DRAW)
    assert player_view(match, 1).drawn == tiles("0-4 0-6")
    assert player_view(match, 0).drawn == ()
    caption = captions.hand_caption(T, game_of(match), player_view(match, 1))
    assert "I drew 2 tiles for you: 0-4, 0-6." in caption
    other = captions.hand_caption(T, game_of(match), player_view(match, 0))
    assert "0-4" not in other and "0-6" not in other


def test_kolbasas_tiles_are_told_as_a_base_and_two_ribbons() -> None:
    """Kolbasa's two ribbons grow side by side from the base, each told from the base out and
    named upper and lower, as the picture draws them (not "Line: 3-1 1-1 1-4.")."""
    match = started("kolbasa", "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    match.apply(0, Play(Tile(1, 1)))
    caption = plain(captions.hand_caption(T, game_of(match), player_view(match, 1)))
    assert "Base 1-1 · upper ribbon: — · lower ribbon: —." in caption
    match.apply(1, Play(Tile(1, 3), End.LEFT))
    match.apply(0, Play(Tile(1, 4), End.RIGHT))
    match.apply(1, Play(Tile(3, 4), End.LEFT))
    caption = plain(captions.hand_caption(T, game_of(match), player_view(match, 0)))
    assert "Base 1-1 · upper ribbon: 1-3 3-4 · lower ribbon: 1-4." in caption
    assert "Line:" not in caption



def test_a_plain_lines_ends_read_as_every_other_games_in_every_language() -> None:
    """Gaple, gaple-dead and pair had "◀ влево (5)" and "Концы: 5 и 2" where the six other
    games say "◀ слева 5" and "Открытые концы: …" (tester): one style, the ends' own words."""
    hands = tiles("6-6 0-1 0-3 1-1 1-3 4-4 0-0"), tiles("5-6 2-2 2-3 3-4 3-5 0-2 0-4"), \
        tiles("2-6 0-5 0-6 1-2 1-4 1-5 1-6"), tiles("2-5 2-4 3-3 3-6 4-5 4-6 5-5")
    line = Match("gaple", 4)  # played by four
    line.start_hand(Deal(hands, (), 0, None, ()))
    line.apply(0, Play(Tile(6, 6)))
    line.apply(1, Play(Tile(5, 6), End.LEFT))
    line.apply(2, Play(Tile(2, 6), End.RIGHT))  # ends: left 5, right 2
    muggins = started("muggins", "5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
    muggins.apply(0, Play(Tile(5, 5)))
    for language in LANGUAGES:
        t = translator(language)
        plain_line = keyboards.lay_choice(t, game_of(line), player_view(line, 3), 5,
                                          tiles("2-5")[0]).inline_keyboard
        named = keyboards.lay_choice(t, game_of(muggins), player_view(muggins, 1), 5,
                                     tiles("0-5")[0]).inline_keyboard
        assert len(plain_line[0]) == 2  # side by side, as before
        left, right = (button.text for button in plain_line[0])
        assert left == named[0][0].text.split(" +")[0], (left, named)
        assert right == named[1][0].text.split(" +")[0].replace("5", "2"), (right, named)
        plain_ends = captions.ends_line(t, table_view(line).layout)
        named_ends = captions.ends_line(t, table_view(muggins).layout)
        assert plain_ends.split(":")[0] == named_ends.split(":")[0], (plain_ends, named_ends)


def test_two_ends_alike_ask_nothing_and_ends_that_differ_still_ask() -> None:
    """Player QA: after a Bergen double lead, 6-1 asked "◀ left 6 / ▶ right 6", the same
    move twice (Gaple's plain line already laid it at once). Ends alike in all a line keeps
    (numbers, a double ending them, points) make one lay; a 6 ended by the double and a 6
    ended by 2-6 differ (a double header is made at one only), and still ask."""
    match = started("bergen", "6-6 2-3 0-6 0-1 0-2 1-2", "3-6 2-6 1-3 1-4 1-5 4-5")
    match.apply(0, Play(Tile(6, 6)))
    view = player_view(match, 1)
    [lay] = laychoices.lays_of(view, Tile(3, 6), match)
    hand = {b.text: decode(b.callback_data) for row in keyboards.hand(
        T, game_of(match), view, 5).inline_keyboard for b in row}
    assert hand["✅ 3-6"] == Lay.of(1, 5, lay)  # one tap lays it
    match.apply(1, Play(Tile(3, 6), End.RIGHT))
    match.apply(0, Play(Tile(2, 3), End.RIGHT))
    match.apply(1, Play(Tile(2, 6), End.RIGHT))
    ends = [(end.end, end.numbers) for end in table_view(match).layout.ends]
    assert ends == [(End.LEFT, (6,)), (End.RIGHT, (6,))]
    labels = [label for label, _ in choice_buttons(match, 0, "0-6")]
    assert [label.split(" +")[0] for label in labels] == ["◀ left 6", "▶ right 6", "↩ Back"]


def test_the_question_above_the_buttons_says_what_their_arrow_and_scissors_tell() -> None:
    """The caption asks in the buttons' words: where a way is said, that → is what it
    leaves; where the tile cuts, that ✂ says the pips given; elsewhere only the end."""
    matador = started("matador", "1-2 0-1 0-2 0-3 0-4 0-5", "1-6 2-2 2-3 3-3 4-4 5-5")
    matador.apply(0, Play(Tile(1, 2)))
    view = player_view(matador, 1)
    asked = plain(captions.hand_caption(T, game_of(matador), view, Tile(1, 6)))
    assert "Where does 1-6 go? Tap an end and a way: → says what it leaves." in asked
    assert [label for label, _ in choice_buttons(matador, 1, "5-5")] == ["▶ right 2", "↩ Back"]
    asked = plain(captions.hand_caption(T, game_of(matador), view, Tile(5, 5)))
    assert "Where does 5-5 go? Tap an end." in asked
    kolbasa = started("kolbasa", "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    kolbasa.apply(0, Play(Tile(1, 1)))
    kolbasa.apply(1, Play(Tile(1, 3), End.LEFT))
    kolbasa.apply(0, Play(Tile(1, 4), End.RIGHT))
    asked = plain(captions.hand_caption(T, game_of(kolbasa), player_view(kolbasa, 1),
                                        Tile(3, 4)))
    assert "Where does 3-4 go? Tap a ribbon, or cut: ✂ says how many pips the ribbon you " \
        "give holds." in asked
    assert "You may cut with 3-4: the ribbon you give goes to Ann." in asked


def played(game: str, hands: Sequence[str], moves: Sequence[str], stock: str = "",
           lot: int = 0) -> Match:
    """A hand of ``game`` dealt ``hands`` (then ``stock``, then every tile not dealt), its
    knocks and draws played as the bot plays them, after ``moves`` ("1 2-6 left along")."""
    dealt = tuple(tiles(hand) for hand in hands)
    used = {t for hand in dealt for t in hand} | set(tiles(stock))
    rest = tuple(tiles(stock)) + tuple(t for t in full_set(6) if t not in used)
    match = Match(game, len(hands), automate=True)
    match.start_hand(Deal(dealt, (), lot, None, rest))
    for text in moves:
        seat, tile, *rest_words = text.split()
        end = End[rest_words[0].upper()] if rest_words else None
        cross = None if len(rest_words) < 2 else rest_words[1] == "cross"
        match.apply(int(seat), Play(tiles(tile)[0], end, None, cross))
    return match


def test_a_last_tile_ending_the_hand_alike_at_either_end_is_laid_with_one_tap() -> None:
    """Player QA (Gaple): the last tile 0-1 on the ends 1 and 0 asked "◀ left 1 / ▶ right
    0", though "gaple!" ends the hand either way with the same result: one lay, one tap."""
    match = played("gaple", ("0-2 5-5 2-5 0-5 0-0 3-6 1-2", "1-3 4-4 1-5 4-5 2-6 2-4 3-5",
                             "0-4 3-4 1-6 5-6 0-3 2-3 3-3", "0-6 2-2 1-4 4-6 1-1 0-1 6-6"), (
        "3 6-6", "0 3-6 left", "1 2-6 right", "2 2-3 left", "3 2-2 left", "0 0-2 left",
        "1 2-4 right", "2 0-3 left", "3 1-4 right", "0 1-2 right", "1 1-3 left", "2 1-6 left",
        "3 4-6 left", "0 2-5 right", "1 3-5 right", "2 3-4 right", "1 4-5 left", "2 0-4 right",
        "3 0-6 right", "0 5-5 left", "1 1-5 left", "2 5-6 right", "3 1-1 left", "0 0-5 right"),
        lot=2)
    view = player_view(match, 3)
    assert view.hand == (Tile(0, 1),) and len(view.ends_for(Tile(0, 1))) == 2
    [lay] = laychoices.lays_of(view, Tile(0, 1), match)
    hand = {b.text: decode(b.callback_data) for row in keyboards.hand(
        T, game_of(match), view, 5).inline_keyboard for b in row}
    assert hand["✅ 0-1"] == Lay.of(1, 5, lay)  # one tap lays it
    assert isinstance(lay, Play)
    match.apply(3, lay)
    assert match.hand.result is not None and match.hand.result.out_seat == 3


def test_a_last_tile_whose_end_matters_still_asks_where() -> None:
    """Matador: laying the last tile ends nothing (the seat is skipped, the hand ends only
    blocked), so the end it leaves is the others': it still asks. Muggins: going out ends
    the hand, but the count each end leaves differs: it still asks."""
    matador = played("matador", ("5-5 6-6 3-4 2-4 1-4 2-6", "0-1 1-1 1-3 3-3 1-6 0-6"), (
        "1 3-3", "0 3-4 right cross", "1 1-3 right along", "0 6-6 right along",
        "1 1-1 right along", "0 2-4 left along", "1 0-6 right along", "0 5-5 left along",
        "1 1-6 right cross", "0 2-6 left along"),
        stock="1-2 0-2 0-3 0-4 4-5 2-5 2-3 4-6 4-4 5-6 2-2", lot=1)
    assert player_view(matador, 1).hand == (Tile(0, 1),)
    assert [label for label, _ in choice_buttons(matador, 1, "0-1")] == [
        "◀ left 6", "▶ right 1/6", "↩ Back"]
    muggins = played("muggins", ("2-6 1-1 5-5 2-5 0-5 1-3 0-0",
                                 "0-4 4-5 4-4 3-4 2-2 6-6 3-5"), (
        "0 2-5", "1 3-5 right along", "0 1-3 right along", "1 2-2 left cross",
        "0 2-6 left along", "1 6-6 left cross", "0 1-1 right along", "1 5-6 left along",
        "0 5-5 left cross", "1 4-5 left along", "0 2-3 down along", "1 4-4 left cross",
        "0 1-2 up along", "1 3-4 down along", "0 1-6 right along"),
        stock="5-6 2-3 1-2 3-3 1-6 1-4 2-4 0-3 3-6 0-2 1-5")
    assert player_view(muggins, 1).hand == (Tile(0, 4),)
    labels = [label for label, _ in choice_buttons(muggins, 1, "0-4")]
    # the counts differ; an end that scores nothing says the count it leaves (player QA:
    # Muggins' doubles said their count, other tiles nothing)
    assert labels == ["◀ left 4 → count 11", "▼ down 4 +15", "↩ Back"]
    asked = plain(captions.hand_caption(T, game_of(muggins), player_view(muggins, 1),
                                        Tile(0, 4)))
    assert "Where does 0-4 go? Tap an end: → says the count it leaves, + what it scores." \
        in asked
    # every end scores: no button has a →, nor does the question (review)
    spinner = started("muggins", "5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
    spinner.apply(0, Play(Tile(5, 5)))
    labels = [label for label, _ in choice_buttons(spinner, 1, "0-5")]
    assert labels[:-1] and all("+" in label and "→" not in label for label in labels[:-1])
    asked = plain(captions.hand_caption(T, game_of(spinner), player_view(spinner, 1),
                                        Tile(0, 5)))
    assert "Where does 0-5 go? Tap an end: + says what it scores." in asked


def test_a_tile_laid_with_one_tap_is_listed_once_among_the_points() -> None:
    """Player QA's doubt: Bergen's 6-6 on ends 6 and 6 scores 3 either way and is laid with
    one tap, yet the points line read "6-6 left +3 · 6-6 right +3"; a tile whose ends
    differ keeps them."""
    match = played("bergen", ("0-1 0-4 1-4 1-6 2-6 5-6", "2-2 3-3 3-4 2-5 4-5 6-6"),
                   ("1 2-2", "0 2-6 left", "1 2-5 right", "0 5-6 right"), lot=1)
    view = player_view(match, 1)
    assert len(view.ends_for(Tile(6, 6))) == 2
    assert len(laychoices.lays_of(view, Tile(6, 6), match)) == 1
    caption = plain(captions.hand_caption(T, game_of(match), view))
    assert "Points if you lay now: 6-6 +3." in caption
    muggins = started("muggins", "5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")
    muggins.apply(0, Play(Tile(5, 5)))
    line = plain(captions.hand_caption(T, game_of(muggins), player_view(muggins, 1)))
    assert "0-5 left +" in line and "0-5 right +" in line
