"""What a seat may know and what the table may see, on fixed positions (the properties test
the same over random matches)."""

from __future__ import annotations

import random

import pytest
from engine_kit import (
    MIDDLE,
    MIDDLE_TIE,
    PAIR_OUT,
    SIX_SIX_AT_0,
    deal,
    example_moves,
    play,
    started,
    tiles_in,
)

from engine import (
    KNOCK,
    ActionKind,
    BadInputError,
    Deal,
    Discard,
    End,
    Match,
    Play,
    PublicMove,
    Tile,
    full_set,
    player_view,
    table_view,
)

MIDDLE_HANDS = MIDDLE_TIE
FACE_DOWN = {Tile(0, 0), Tile(0, 4), Tile(5, 6)}


def gaple_dead() -> Match:
    """After seat 2 discarded 3-2 on (0, 4): seat 3 to move."""
    match = started("gaple-dead", deal(*MIDDLE_HANDS, middle=MIDDLE))
    play(match, "0 0-2 left", "1 6-4", "2 dead 3-2")
    return match


def test_table_view_shows_the_line_counts_and_knocks_but_no_hidden_tile() -> None:
    view = table_view(gaple_dead())
    assert [str(p) for p in view.line] == ["0-2", "2-6", "6-4"]
    assert view.ends == (0, 4) and view.to_move == 3
    assert view.turned_up is Tile(2, 6) and view.middle_face_down == 3
    assert [p.tile_count for p in view.players] == [5, 5, 5, 6]
    assert [p.dead_count for p in view.players] == [0, 0, 1, 0]
    assert [p.last for p in view.players] == [
        ActionKind.PLAY, ActionKind.PLAY, ActionKind.DISCARD, None
    ]
    assert view.revealed_hands is None and view.revealed_dead is None
    assert set(tiles_in(view)) == {Tile(0, 2), Tile(2, 6), Tile(4, 6)}  # the line only


def test_table_view_history_hides_the_face_of_a_dead_tile() -> None:
    view = table_view(gaple_dead())
    assert view.history == (
        PublicMove(0, ActionKind.PLAY, Tile(0, 2), End.LEFT, (2, 6)),
        PublicMove(1, ActionKind.PLAY, Tile(4, 6), End.RIGHT, (0, 6)),
        PublicMove(2, ActionKind.DISCARD, None, None, (0, 4)),
    )
    assert view.last_move == view.history[-1] and view.last_played is Tile(4, 6)


def test_player_view_holds_its_own_tiles_and_dead_tiles_only() -> None:
    match = gaple_dead()
    mine = player_view(match, 2)
    assert set(mine.hand) == {Tile.parse(t) for t in ["5-5", "2-5", "1-3", "6-6", "3-6"]}
    assert mine.dead == (Tile(2, 3),)
    assert mine.legal == () and not mine.my_turn  # not seat 2's turn
    others = {t for seat in (0, 1, 3) for t in match.hand.hands[seat]}
    assert not others & set(tiles_in(mine))
    assert not FACE_DOWN & set(tiles_in(mine))


def test_player_view_on_its_turn_lists_its_legal_actions() -> None:
    match = gaple_dead()
    view = player_view(match, 3)
    assert view.my_turn and view.legal == match.legal_actions()
    assert view.playable() == {Tile(1, 4), Tile(2, 4), Tile(0, 6), Tile(0, 1)}
    assert set(view.ends_for(Tile(1, 4))) == {End.RIGHT}
    assert not view.must_discard() and not view.must_knock()
    stuck = started("gaple-dead", deal(*MIDDLE_HANDS, middle=MIDDLE))
    play(stuck, "0 0-2 left", "1 6-4")
    assert player_view(stuck, 2).must_discard()
    assert set(player_view(stuck, 2).legal) == {Discard(t) for t in stuck.hand.hands[2]}


def test_player_view_of_a_lead_offers_each_tile_without_an_end() -> None:
    match = started("pair", deal(*SIX_SIX_AT_0), first_lead="lot")
    view = player_view(match, 0)
    assert len(view.legal) == 7 and view.ends_for(Tile(0, 6)) == (None,)


def test_player_view_knock_flags() -> None:
    match = started("pair", deal(*PAIR_OUT))
    play(match, "1 6-6")
    assert player_view(match, 2).must_knock() and player_view(match, 2).legal == (KNOCK,)
    play(match, "2 knock")
    assert [p.knocked for p in table_view(match).players] == [False, False, True, False]
    assert table_view(match).history[-1] == PublicMove(2, ActionKind.KNOCK, None, None, (6, 6))


def test_table_view_reveals_every_hand_and_dead_tile_once_the_hand_is_over() -> None:
    match = gaple_dead()
    play(match, *example_moves("gaple_dead_middle_tie")[3:])
    view = table_view(match)
    assert view.hand_over and view.result is not None and view.to_move is None
    assert view.revealed_hands == tuple(tuple(h) for h in match.hand.hands)
    assert view.revealed_dead == ((Tile(1, 6),), (), (Tile(2, 3),), ())
    assert not FACE_DOWN & set(tiles_in(view))  # the face-down middle stays face down
    assert view.scores == (7, 3, 17, 3) and not view.match_over


def test_player_view_of_an_earlier_hand_shows_it_as_it_ended() -> None:
    match = gaple_dead()
    play(match, *example_moves("gaple_dead_middle_tie")[3:])
    left = {seat: tuple(match.hand.hands[seat]) for seat in range(4)}
    match.deal_from_seed(bytes(32))  # the next hand: the current view moves on to it
    assert player_view(match, 2).table.hand_number == 1
    for seat in range(4):
        ended = player_view(match, seat, 0)
        assert ended.table == table_view(match, 0) and ended.table.result is not None
        assert ended.hand == left[seat] and not ended.legal and not ended.my_turn
    assert player_view(match, 2, 0).dead == (Tile(2, 3),)


def test_player_view_of_a_seat_not_at_the_table_is_refused() -> None:
    match = gaple_dead()
    for seat in (4, -1):
        with pytest.raises(BadInputError, match="no seat"):
            player_view(match, seat)


def test_views_name_the_game_set_sides_and_target() -> None:
    match = started("pair", deal(*SIX_SIX_AT_0), target=150)
    view = table_view(match)
    assert (view.game, view.set, view.sides, view.target) == ("pair", 6, ((0, 2), (1, 3)), 150)
    assert [p.side for p in view.players] == [0, 1, 0, 1]
    assert view.seats == 4 and view.hand_number == 0 and view.opener == 0
    assert not view.dead_tiles and view.line == () and view.ends is None
    assert player_view(match, 0).legal == (Play(Tile(6, 6)),)


def test_every_game_describes_its_table_as_one_layout() -> None:
    """The line games too: a plain line with its lead's place and two open ends."""
    view = table_view(gaple_dead())  # 0-2 2-6 6-4, led by the turned-up 2-6
    layout = view.layout
    assert layout.kind == "line" and layout.plain and not layout.crosswise
    assert [(t.first, t.second) for t in layout.line] == [(0, 2), (2, 6), (6, 4)]
    assert layout.center == 1 and layout.line[1].tile is Tile(2, 6)
    assert [(e.end, e.numbers, e.open, e.tiles) for e in layout.ends] == [
        (End.LEFT, (0,), True, 1), (End.RIGHT, (4,), True, 1)
    ]
    assert layout.count == 4 and layout.off == () and layout.spinner is None
    assert [p.tile for p in view.line] == [t.tile for t in layout.line]
    for game in ("french", "matador", "six-matador", "bergen", "muggins", "kolbasa"):
        match = Match(game, 2)
        match.deal_hand(random.Random(3))
        assert not table_view(match).layout.plain, game


def test_a_players_view_carries_what_each_legal_action_scores_now() -> None:
    """Muggins: the lead 5-5 counts 10 at once; points stand beside each legal action."""
    hands = deal("5-5 0-1 0-2 0-3 1-2 1-3 1-4", "0-5 2-2 2-3 2-4 3-3 3-4 4-4").hands
    dealt = {t for hand in hands for t in hand}
    stock = tuple(t for t in sorted(full_set(6), key=lambda t: t.index) if t not in dealt)
    match = started("muggins", Deal(hands, (), 0, None, stock))
    view = player_view(match, 0)
    assert len(view.points) == len(view.legal)
    assert view.points_of(Play(Tile(5, 5))) == 10
    assert view.points_of(Play(Tile(0, 1))) == 0
    assert player_view(match, 1).points == ()  # not its turn: nothing to weigh
    line = player_view(gaple_dead(), 3)
    assert line.points == (0,) * len(line.legal) and line.drawn == ()
