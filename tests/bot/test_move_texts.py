"""What the group and a player read of the games with a stock, on deliberate positions: each
lay's points in the table's caption, the hand's points of play by reason, Kolbasa's waiting
ribbon explained, short cut buttons, French's honours on the picture, in every language."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest
from bot_kit import drawn_words, plain
from test_lay_choices import choice_buttons, game_of, started

from bot.gamebook import PRESENTATIONS
from bot.i18n import LANGUAGES, translator
from bot.models import Player
from bot.presentation import captions, movetexts, resulttexts
from bot.presentation.pictures import labels_for
from bot.wording import named
from engine import (
    DRAW,
    KNOCK,
    End,
    HandEnded,
    HandEndReason,
    Match,
    Play,
    ScoreReason,
    Tile,
    player_view,
    replay,
    table_view,
    variant,
)
from goldens.samples import samples
from renderers import render_table
from renderers.labels import TableLabels

T = translator("en")
CONFORMANCE = Path(__file__).parents[1] / "engine" / "conformance"
MUGGINS = ("5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4")


def test_the_table_caption_says_what_each_lay_scored_and_why() -> None:
    match = started("muggins", *MUGGINS)
    match.apply(0, Play(Tile(5, 5)))  # the spinner alone: the count is 10
    match.apply(1, Play(Tile(0, 5), End.LEFT))  # 0 + 10 on the spinner's other side: 10
    caption = plain(captions.table_caption(T, game_of(match), table_view(match)))
    assert "Ann led 5-5. +10: the open ends add up to 10." in caption
    assert "Bob laid 0-5 on the left. +10: the open ends add up to 10." in caption
    assert "this hand so far: Ann +10 · Bob +10" in caption


def test_six_matador_lays_and_knocks_carry_every_reason() -> None:
    match = started("six-matador", "1-2 0-1 0-3 0-4 1-1 1-3", "4-6 2-2 2-3 3-4 4-4 5-5")
    match.apply(0, Play(Tile(1, 2)))
    match.apply(1, Play(Tile(4, 6), End.RIGHT))  # 2 + 4 make the 6, and a free 6 stays open
    view = table_view(match)
    assert view.history[-1].points == ((1, ScoreReason.JOINT), (5, ScoreReason.FREE_SIX))
    caption = plain(captions.table_caption(T, game_of(match), view))
    assert "Bob laid 4-6 on the right. +6: a tile laid along, a free 6 left open." in caption
    assert resulttexts.points_list(T, view.history, 1) == "tiles along 1, free sixes 5"
    assert resulttexts.points_list(T, view.history, 0) == ""  # the lead scores nothing


def test_the_points_of_play_are_listed_by_reason_in_a_fixed_order() -> None:
    from engine import ActionKind, PublicMove

    def lay(*points: tuple[int, ScoreReason]) -> PublicMove:
        return PublicMove(0, ActionKind.PLAY, Tile(1, 5), End.LEFT, (1, 2), points=points)

    knock = PublicMove(0, ActionKind.KNOCK, None, None, (1, 2),
                       points=((-6, ScoreReason.KNOCK),))
    moves = [knock, lay((10, ScoreReason.MATADOR)), lay((1, ScoreReason.JOINT)), knock,
             lay((1, ScoreReason.JOINT), (5, ScoreReason.FREE_SIX)), lay((10, ScoreReason.MATADOR))]
    # Each reason's sum: the caption told every lay's points as it was made.
    assert resulttexts.points_list(T, moves, 0) == (
        "matadors 20, tiles along 2, free sixes 5, knocks -12")
    counts = [lay((5, ScoreReason.FIFTEEN)), lay((10, ScoreReason.FIFTEEN)),
              lay((15, ScoreReason.FIFTEEN))]
    assert resulttexts.points_list(T, counts, 0) == "open ends 30"


def test_the_ribbon_that_waits_is_explained_in_every_language() -> None:
    match = started("kolbasa", "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    match.apply(0, Play(Tile(1, 1)))
    match.apply(1, Play(Tile(1, 3), End.LEFT))  # the upper ribbon is a tile ahead: it waits
    english = plain(captions.table_caption(T, game_of(match), table_view(match)))
    # Named as the picture draws them, one above the other (player QA: no ribbon runs left)
    assert "Open ends: upper 3 ⏸ · lower 1." in english
    assert "⏸ The upper ribbon waits until the lower one catches up." in english
    assert "Bob laid 1-3 on the upper ribbon." in english
    for language in LANGUAGES:
        t = translator(language)
        caption = plain(captions.table_caption(t, game_of(match), table_view(match)))
        waits = next(line for line in caption.splitlines() if line.startswith("⏸ "))
        assert waits == t("⏸ The upper ribbon waits until the lower one catches up.")
        assert language == "en" or waits not in english  # translated
    match.apply(0, Play(Tile(1, 4), End.RIGHT))  # level again: nothing waits
    assert "⏸" not in plain(captions.table_caption(T, game_of(match), table_view(match)))


def test_the_cut_buttons_fit_a_phone_in_every_language() -> None:
    match = started("kolbasa", "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    match.apply(0, Play(Tile(1, 1)))
    match.apply(1, Play(Tile(1, 3), End.LEFT))
    match.apply(0, Play(Tile(1, 4), End.RIGHT))
    for language in LANGUAGES:
        t = translator(language)
        for side in ("upper", "lower"):
            for count in (1, 2, 5, 21, 88):  # every plural form, a long ribbon's pips
                label = t.plural(f"✂ give {side} ribbon: {{count}} pip",
                                 f"✂ give {side} ribbon: {{count}} pips", count)
                # each on its own row, the phone's whole width
                assert len(label) <= 34 and str(count) in label, label
    labels = [label for label, _ in choice_buttons(match, 1, "3-4")]
    assert "✂ give upper ribbon: 4 pips" in labels and "✂ give lower ribbon: 5 pips" in labels


def test_frenchs_table_picture_names_its_honours_in_every_language() -> None:
    for language in LANGUAGES:
        t = translator(language)
        assert labels_for(language, "french").only_matador == t("honour only")
        assert labels_for(language, "matador").only_matador == t("matador only")
    assert labels_for("ru", "french").only_matador != labels_for("ru").only_matador
    fields = set(TableLabels.__dataclass_fields__)
    for entry in PRESENTATIONS.values():
        assert set(entry.picture_words) <= fields, entry.name


def test_the_pictures_legends_are_never_cut_in_any_language(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Five seats leave the status box narrow: every legend still shows all its words."""
    drawn = drawn_words(monkeypatch)
    wanted = {"table-french-5": "only_matador", "table-kolbasa-4": "ribbon_waits",
              "table-kolbasa-3": "ribbon_waits", "table-matador-4": "only_matador"}
    for sample in samples():
        if sample.name not in wanted or sample.table is None:
            continue
        for language in LANGUAGES:
            labels = labels_for(language, sample.table.game)
            drawn.clear()
            render_table(sample.table, sample.names, labels=labels)
            legend = getattr(labels, wanted[sample.name])
            assert legend in " ".join(drawn), (sample.name, language, drawn)


def test_the_hands_result_lists_the_points_of_play_and_what_winning_added() -> None:
    match = started("six-matador", "1-2 0-1 0-3 0-4 1-1 1-3", "4-6 2-2 2-3 3-4 4-4 5-5")
    match.apply(0, Play(Tile(1, 2)))
    match.apply(1, Play(Tile(4, 6), End.RIGHT))
    view = table_view(match)
    game = game_of(match)
    most = reported(match, HandEnded(0, HandEndReason.BLOCKED, None, False, 1, (9, 30), (0, 6),
                                     (0, 6), 0, (0, 6)))
    text = plain(resulttexts.hand_result_text(T, game, most, replace(view, result=most)))
    assert "Scored during the hand: Bob 6 (tiles along 1, free sixes 5)." in text
    assert "Bob wins the hand with the highest score: 6." in text
    assert "Pips counted" not in text  # Six-matador's pips count for nothing
    lighter = HandEnded(0, HandEndReason.BLOCKED, None, False, 0, (3, 30), (0, 6), (0, 6), 0,
                        (0, 6))  # won by the lighter hand, with nothing more for it
    text = plain(resulttexts.hand_result_text(T, game, lighter, replace(view, result=lighter)))
    assert "Ann wins the blocked hand: 0 in this hand." in text
    assert "+0" not in text  # nothing added is not said as "+0 for it"
    out = HandEnded(0, HandEndReason.OUT, 1, True, 1, (9, 0), (0, 16), (0, 16), 0, (0, 6))
    text = plain(resulttexts.hand_result_text(T, game, out, replace(view, result=out)))
    assert "Bob wins the hand: +10 for going out, 16 in this hand." in text
    alone = HandEnded(0, HandEndReason.OUT, 1, True, 1, (9, 0), (6, 10), (6, 10), 0, (6, 0))
    text = plain(resulttexts.hand_result_text(T, game, alone, replace(view, result=alone)))
    assert "Bob wins the hand: +10 for going out." in text  # (QA: "+10 ..., 10 in this hand")
    blocked = HandEnded(0, HandEndReason.BLOCKED, None, False, 0, (3, 30), (30, 6), (30, 6), 0,
                        (0, 6))
    text = plain(resulttexts.hand_result_text(T, game, blocked, replace(view, result=blocked)))
    assert "Ann wins the blocked hand: +30." in text  # (QA: "+30 for it, 30 in this hand")
    both = HandEnded(0, HandEndReason.BLOCKED, None, False, 0, (3, 30), (36, 6), (36, 6), 0,
                     (6, 6))
    text = plain(resulttexts.hand_result_text(T, game, both, replace(view, result=both)))
    assert "Ann wins the blocked hand: +30 for winning it, 36 in this hand." in text


def test_a_six_matador_hand_won_below_zero_is_not_said_to_be_the_most_points() -> None:
    """QA: everyone knocked, and the hand went to the smallest debt: "the most points: -3"
    made no sense. The hand's winner has its highest score, whatever its sign."""
    match = started("six-matador", "1-2 0-1 0-3 0-4 1-1 1-3", "4-6 2-2 2-3 3-4 4-4 5-5")
    view = table_view(match)
    debts = reported(match, HandEnded(0, HandEndReason.BLOCKED, None, False, 1, (9, 30),
                                      (-12, -6), (-12, -6), 0, (-12, -6)))
    text = plain(resulttexts.hand_result_text(T, game_of(match), debts,
                                              replace(view, result=debts)))
    assert "Bob wins the hand with the highest score: -6." in text
    assert "most" not in text


def test_going_out_in_bergen_is_scored_once_in_the_result() -> None:
    match = started("bergen", "0-0 1-2 1-3 1-4 1-5 1-6", "0-2 2-3 2-4 2-5 2-6 3-4")
    match.apply(0, Play(Tile(0, 0)))  # the lowest double leads and scores 2
    view = table_view(match)
    out = HandEnded(0, HandEndReason.OUT, 0, True, 0, (0, 25), (4, 0), (4, 0), 8, (2, 0))
    text = plain(resulttexts.hand_result_text(T, game_of(match), out, replace(view, result=out)))
    assert "Ann went out with 0-0!" in text
    assert "Scored during the hand: Ann 2 (double lead)." in text
    assert "Ann wins the hand: +2 for going out, 4 in this hand." in text
    assert text.count("2 points") == 0


def test_a_player_reads_what_the_knock_made_for_them_cost() -> None:
    match = started("six-matador", "1-2 4-4 4-5 4-6 5-5 5-6", "0-1 0-2 0-3 1-1 1-3 2-2",
                    stock="2-3")
    match.apply(0, Play(Tile(1, 2)))
    match.apply(1, DRAW)  # nothing fits 1 or 2, nor does the tile drawn
    match.apply(1, KNOCK)
    waiting = plain(captions.hand_caption(T, game_of(match), player_view(match, 1)))
    assert "knocked for you" not in waiting  # told once, in order, on the player's next turn
    match.apply(0, player_view(match, 0).legal[0])
    caption = plain(captions.hand_caption(T, game_of(match), player_view(match, 1)))
    assert ("• I drew a tile for you: 2-3. You could not lay a tile, so I knocked for you: -6."
            in caption)
    assert "knock costs" not in caption  # said once, not "knocked ... a knock costs 6"


def test_a_knock_in_six_matador_says_its_cost_once() -> None:
    match = started("six-matador", "1-2 4-4 4-5 4-6 5-5 5-6", "0-1 0-2 0-3 1-1 1-3 2-2",
                    stock="2-3")
    match.apply(0, Play(Tile(1, 2)))
    match.apply(1, DRAW)
    match.apply(1, KNOCK)
    caption = plain(captions.table_caption(T, game_of(match), table_view(match)))
    assert "Bob knocked: -6." in caption
    assert "knock costs" not in caption
    assert resulttexts.points_list(T, table_view(match).history, 1) == "knocks -6"
    for language in LANGUAGES:  # the figure is in every language's sentence
        t = translator(language)
        assert "-6" in plain(captions.table_caption(t, game_of(match), table_view(match)))
    free = replace(table_view(match).history[-1], points=())  # a knock that costs nothing
    assert plain(movetexts.describe_move(T, free, "Bob")) == "Bob knocked."


def test_draws_and_the_move_they_led_to_are_sentences_of_one_line() -> None:
    """Issue 24's readers: not "After drawing a tile: You could not …" with a capital after
    the colon, but the draws as a sentence of their own, the move's sentence after it."""
    match = started("six-matador", "1-2 4-4 4-5 4-6 5-5 5-6", "0-1 0-2 0-3 1-1 1-3 2-2",
                    stock="2-3")
    match.apply(0, Play(Tile(1, 2)))
    match.apply(1, DRAW)
    match.apply(1, KNOCK)
    game, view = game_of(match), table_view(match)
    moves = range(len(view.history))
    assert [plain(line) for line in movetexts.moves_lines(T, game, view, moves)] == [
        "Ann led 1-2.", "Bob drew a tile from the stock. Bob knocked: -6."]
    assert plain(movetexts.moves_lines(T, game, view, moves, reader=1)[-1]) == (
        "I drew a tile for you. You could not lay a tile, so I knocked for you: -6.")
    timed = movetexts.moves_lines(T, game, view, moves, auto={"0:2"})[-1]
    assert plain(timed) == ("⏰ Bob drew a tile from the stock. Bob knocked: -6. (time ran "
                            "out: I moved for them)")
    for language in LANGUAGES:
        t = translator(language)
        drew = movetexts.describe_draws(t, named("Bob"), 1)
        knocked = movetexts.describe_move(t, view.history[2], "Bob")
        assert movetexts.moves_lines(t, game, view, moves)[-1] == f"{drew} {knocked}"
        own = movetexts.moves_lines(t, game, view, moves, reader=1)[-1]
        assert own == movetexts.drew_for_you(t, 1) + " " + movetexts.knocked_for_you(
            t, view.history[2])


def reported(match: Match, ended: HandEnded) -> HandEnded:
    """``ended`` as the engine reports it: whether the pips counted is the rules' fact."""
    return replace(ended, pips_count=match.variant.pips_decide(ended.reason))


def _ended(match: Match, ended: HandEnded) -> str:
    view, ended = table_view(match), reported(match, ended)
    return plain(resulttexts.hand_result_text(T, game_of(match), ended,
                                              replace(view, result=ended)))


def test_the_hands_result_shows_the_pips_only_where_they_count() -> None:
    """Six-matador counts only the points of play; going out in Muggins and Bergen scores a
    fixed 10 or 2: the pips left in hand decide nothing there, so they are not shown."""
    six = started("six-matador", "1-2 0-1 0-3 0-4 1-1 1-3", "4-6 2-2 2-3 3-4 4-4 5-5")
    six.apply(0, Play(Tile(1, 2)))
    six.apply(1, Play(Tile(4, 6), End.RIGHT))
    most = HandEnded(0, HandEndReason.BLOCKED, None, False, 1, (9, 30), (0, 6), (0, 6), 0, (0, 6))
    assert "Pips counted" not in _ended(six, most)
    muggins = started("muggins", *MUGGINS)
    muggins.apply(0, Play(Tile(5, 5)))
    out = HandEnded(0, HandEndReason.OUT, 0, True, 0, (0, 25), (20, 0), (20, 0), 0, (10, 0))
    blocked = HandEnded(0, HandEndReason.BLOCKED, None, False, 0, (3, 25), (30, 0), (30, 0), 0,
                        (10, 0))
    assert "Pips counted" not in _ended(muggins, out)
    assert "Pips counted: Ann 3, Bob 25." in _ended(muggins, blocked)
    matador = started("matador", "1-6 0-1 0-3 0-4 1-1 1-3", "4-6 2-2 2-3 3-4 4-4 5-5")
    matador.apply(0, Play(Tile(1, 6)))
    lightest = HandEnded(0, HandEndReason.BLOCKED, None, False, 0, (9, 30), (30, 0), (30, 0), 0)
    assert "Pips counted: Ann 9, Bob 30." in _ended(matador, lightest)


def test_the_stock_left_is_told_as_the_table_counts_it() -> None:
    """Bergen never draws its last two tiles, but they are in the stock (RULES) and the
    table's "Stock: 2 tiles." counts them: the result counts them too, so a blocked hand says
    its 2 (QA: "6 tiles were left" counted them, while 2 alone went unsaid)."""
    bergen = started("bergen", "0-0 1-2 1-3 1-4 1-5 1-6", "0-2 2-3 2-4 2-5 2-6 3-4")
    bergen.apply(0, Play(Tile(0, 0)))
    blocked = HandEnded(0, HandEndReason.BLOCKED, None, False, 0, (10, 25), (4, 0), (4, 0), 2,
                        (2, 0))
    assert "2 tiles were left in the stock." in _ended(bergen, blocked)
    scenario = json.loads((CONFORMANCE / "bergen_blocked_all_doubles.json").read_text("utf-8"))
    match = replay(scenario, seeds=False).match
    assert match is not None
    view = table_view(match)
    assert view.result is not None and view.result.reason is HandEndReason.BLOCKED
    game = replace(game_of(match), players=[Player(i + 1, f"P{i}") for i in
                                            range(len(view.result.totals))])
    for language in LANGUAGES:
        t = translator(language)
        result = resulttexts.hand_result_text(t, game, view.result, view)
        assert t.plural("{count} tile was left in the stock.",
                        "{count} tiles were left in the stock.", 2) in result, result
        assert captions.stock_line(t, view) == t.plural(
            "Stock: {count} tile.", "Stock: {count} tiles.", 2)
    out = HandEnded(0, HandEndReason.OUT, 0, True, 0, (0, 25), (4, 0), (4, 0), 8, (2, 0))
    assert "8 tiles were left in the stock." in _ended(bergen, out)
    kolbasa = started("kolbasa", "1-1 1-4 0-0 0-2 0-5 0-6 2-2", "1-3 3-4 2-5 2-6 5-5 5-6 6-6")
    kolbasa.apply(0, Play(Tile(1, 1)))
    early = HandEnded(0, HandEndReason.OUT, 1, True, 1, (20, 0), (0, 20), (0, 20), 2)
    assert "2 tiles were left in the stock." in _ended(kolbasa, early)


def test_bergens_rules_say_who_takes_a_blocked_hand_when_every_hand_holds_a_double() -> None:
    """D20: with a double in every hand the 2 go to the lowest double, even a heavier hand."""
    bergen = variant("bergen")
    hands = ((Tile(2, 2), Tile(0, 1)), (Tile(1, 1), Tile(5, 6)))  # 5 pips, 13 pips
    options = bergen.default_options(2)
    score = bergen.score(options, bergen.ending(options, HandEndReason.BLOCKED, None, hands))
    assert score.winner == 1  # the heavier hand, but 1-1 is the lowest double
    rules = PRESENTATIONS["bergen"].rules
    assert "if every hand holds one, to the lowest double" in rules
    for language in LANGUAGES[1:]:
        assert translator(language)(rules) != rules


@pytest.mark.parametrize(("seats", "said"), [(2, True), (4, False)])
def test_the_caption_counts_the_stock_only_where_the_hand_has_one(seats: int,
                                                                   said: bool) -> None:
    """Four Kolbasa players are dealt every tile: no "Stock: 0 tiles." all hand long."""
    match = Match("kolbasa", seats)
    match.deal_hand(random.Random(3))
    players = [Player(seat + 1, name) for seat, name in enumerate(("Ann", "Bob", "Cy", "Di"))]
    game = replace(game_of(match), players=players[:seats])
    caption = plain(captions.table_caption(T, game, table_view(match)))
    assert ("Stock:" in caption) is said


@pytest.mark.parametrize(("language", "empty"), [
    ("en", "The stock is empty."), ("ru", "Базар пуст."), ("id", "Tumpukan habis."),
    ("is", "Bunkinn er tómur.")])
def test_an_empty_stock_is_said_so_not_counted_as_zero_tiles(language: str, empty: str) -> None:
    view = replace(table_view(started("muggins", *MUGGINS)), stock_count=0)
    assert captions.stock_line(translator(language), view) == empty


def test_a_long_list_of_points_of_play_takes_a_line_per_seat() -> None:
    """Six-matador's four seats, with up to four reasons each, ran to some 300 characters on
    one line; past a glance the result gives each seat its own line."""
    split = 0
    for seed in range(12):
        rng = random.Random(seed)
        match = Match("six-matador", 4)
        match.deal_hand(rng)
        while not match.hand.over:
            match.play_forced()
            if not match.hand.over:
                match.apply(match.to_move, rng.choice(match.legal_actions()))  # type: ignore[arg-type]
        view = table_view(match)
        game = replace(game_of(match), players=[Player(i + 1, name) for i, name in
                                                enumerate(("Ayu", "Budi", "Sergei", "Þóra"))])
        assert view.result is not None
        lines = plain(resulttexts.hand_result_text(T, game, view.result, view)).splitlines()
        if "Scored during the hand:" in lines:
            split += 1
            seats = lines[lines.index("Scored during the hand:") + 1:][:4]
            assert all(line.startswith("• ") and len(line) <= resulttexts.GLANCE
                       for line in seats if line.startswith("• ")), lines
        else:
            scored = next(line for line in lines if line.startswith("Scored during"))
            assert len(scored) <= resulttexts.GLANCE
    assert split  # the long lists were split


def test_a_hand_blocked_after_draws_says_nothing_was_left_to_draw_not_after_a_tile() -> None:
    """Matador (tester): draws after the last tile laid; "Blocked after Ann's 1-6" read as if
    that tile had blocked the hand. In every language the line says what ended it."""
    match = started("matador", "1-6 0-1 0-3 0-4 1-1 1-3", "2-2 2-3 3-3 2-4 4-4 5-5")
    match.apply(0, Play(Tile(1, 6)))
    blocked = HandEnded(0, HandEndReason.BLOCKED, None, False, 0, (9, 30), (30, 0), (30, 0), 0)
    after_tile = replace(table_view(match), result=blocked)
    assert plain(resulttexts.hand_end_line(T, game_of(match), after_tile)) == \
        "Blocked after Ann's 1-6: nobody can lay a tile."
    match.apply(1, DRAW)
    view = replace(table_view(match), result=blocked)
    for language in LANGUAGES:
        t = translator(language)
        line = resulttexts.hand_end_line(t, game_of(match), view)
        assert line == t("Blocked: nothing left to draw, and nobody can lay a tile.")
        assert "1-6" not in line and (language == "en" or line != T(
            "Blocked: nothing left to draw, and nobody can lay a tile."))


def test_a_french_hand_blocked_with_tiles_in_the_stock_says_why_nobody_drew() -> None:
    """French (tester): "Blocked after Ayu's 0-3: nobody can lay a tile. ... 8 tiles were left
    in the stock", and players asked why nobody drew. The engine says no tile off the table
    fits; the line says so in every language."""
    scenario = json.loads((CONFORMANCE / "french_dead_layout.json").read_text("utf-8"))
    match = replay(scenario, seeds=False).match
    assert match is not None
    view = table_view(match)
    assert view.result is not None and view.result.nothing_fits and view.result.stock_left
    game = replace(game_of(match), players=[Player(i + 1, name) for i, name in
                                            enumerate(("Ayu", "Budi", "Sergei"))])
    for language in LANGUAGES:
        t = translator(language)
        line = resulttexts.hand_end_line(t, game, view)
        assert line == t("Blocked after {name}'s {tile}: no tile left, in any hand or in the "
                         "stock, fits the ends.", name=named("Budi"), tile="0-4"), line
        assert language == "en" or "stock" not in line  # translated
    assert plain(resulttexts.hand_end_line(T, game, view)) == (
        "Blocked after Budi's 0-4: no tile left, in any hand or in the stock, fits the ends.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_table_picture_calls_the_stock_what_the_texts_call_it(language: str) -> None:
    """Indonesian (tester): the picture said "sisa" (what is left) where every text says
    "Tumpukan", the boneyard's name; the picture's word is the texts' word in every
    language (its stem: Russian declines "базар" to "в базаре")."""
    t = translator(language)
    word = labels_for(language).stock.lower()
    for said in (t.plural("Stock: {count} tile.", "Stock: {count} tiles.", 5),
                 t("The stock is empty.")):
        assert word[:4] in said.lower(), (word, said)


def test_a_cut_with_the_cutters_last_tile_does_not_say_the_taker_moves_next() -> None:
    """The conformance scenario where Kolbasa's ribbons are cut three times, the last time
    with the cutter's last tile: that ribbon still goes to the taker, but the hand is over."""
    scenario = json.loads((CONFORMANCE / "kolbasa_out_by_cut.json").read_text("utf-8"))
    match = replay(scenario, seeds=False).match
    assert match is not None
    view = table_view(match)
    lines = movetexts.moves_lines(T, game_of(match), view, range(len(view.history)))
    cuts = [line for line in lines if line.startswith("✂")]
    assert len(cuts) == 3 and cuts[-1] == lines[-1]
    assert all(cut.endswith(", and moves next.") for cut in cuts[:2])
    assert cuts[-1] == (f"✂ {named('Bob')} cut with 0-1: {named('Ann')} takes the lower "
                        "ribbon, 5 tiles.")


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_penalty_rule_counts_its_points_in_every_language(language: str) -> None:
    """"reaches 1 penalty points" (a tester's match to 1): the rule's count agrees."""
    t = translator(language)
    one, many = resulttexts.penalty_rule(t, 1), resulttexts.penalty_rule(t, 101)
    assert "1" in one and "101" in many and one != many
    if language == "en":
        assert "reaches 1 penalty point;" in one and "reaches 101 penalty points;" in many
