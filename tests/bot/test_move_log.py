"""The moves a reader is told, on a deliberate Matador hand of two seats with a stock: the
group's caption tells every move since the table it saw last, dropping only the oldest to fit
Telegram's limit; a player is told each tile drawn for them, forced draws included."""

from __future__ import annotations

from bot_kit import plain
from test_lay_choices import game_of, started

from bot.i18n import translator
from bot.presentation import captions
from bot.wording import CAPTION_LIMIT
from engine import Match, Play, Tile, player_view, table_view

T = translator("en")


def forced_knocks() -> Match:
    """Ann leads, Bob lays, Ann lays; then Bob draws 1-4 and knocks, Ann draws 2-4 and
    knocks, and Bob draws 3-3 on the turn he is on."""
    match = started("matador", "1-2 4-6 4-4 4-5 5-5 5-6", "0-1 0-2 1-1 2-2 0-0 0-4",
                    stock="1-4 2-4 3-3")
    match.apply(0, Play(Tile(1, 2)))
    while match.hand.to_move is not None and len(match.hand.moves) < 8:
        match.apply(match.hand.to_move, match.hand.legal_actions()[0])  # Ann's first lay
    return match


def test_a_caption_tells_every_move_since_the_table_the_group_saw() -> None:
    match = forced_knocks()
    game, view = game_of(match), table_view(match)
    assert len(view.history) == 8
    lay = "Ann laid 4-5 on the right."
    assert lay not in plain(captions.table_caption(T, game, view))  # the last round only
    caption = plain(captions.table_caption(T, game, view, seen=2))  # shown up to Bob's lay
    assert lay in caption
    assert "Ann led" not in caption and "Bob laid" not in caption  # seen, and not this round
    assert "Bob laid 0-0" in plain(captions.table_caption(T, game, view, seen=1))
    assert "Ann led 1-2." in plain(captions.table_caption(T, game, view, seen=0))
    for tile in ("1-4", "2-4", "3-3"):  # drawn: never named to the group
        assert tile not in caption


def test_a_long_run_of_moves_loses_its_oldest_lines_first() -> None:
    head, tail = ["<b>Matador</b> · hand 1", "🔒 fingerprint"], ["Open ends", "Score", "Turn"]
    moves = [f"move {number}: " + "x" * 60 for number in range(40)]
    kept = captions.latest_moves(head, moves, tail)
    assert kept[0] == captions.ELIDED and kept[1:] == moves[-len(kept) + 1:]
    assert len("\n".join([*head, *kept, *tail])) <= CAPTION_LIMIT
    assert len("\n".join([*head, *moves[-len(kept):], *tail])) > CAPTION_LIMIT  # as many as fit
    assert captions.latest_moves(head, moves[:3], tail) == moves[:3]


def test_each_tile_drawn_for_a_player_is_named_to_them_in_order() -> None:
    match = forced_knocks()
    bob = player_view(match, 1)
    assert bob.drawn_this_hand == (Tile(1, 4), Tile(3, 3))
    assert player_view(match, 0).drawn_this_hand == (Tile(2, 4),)
    caption = plain(captions.hand_caption(T, game_of(match), bob))
    assert ("• I drew a tile for you: 1-4. You could not lay a tile, so I knocked for you."
            in caption)  # an earlier forced turn's draw, not only the latest turn's
    assert "• Ann drew a tile from the stock. Ann knocked." in caption
    assert "I drew a tile for you: 3-3." in caption  # the turn he is on
    assert caption.index("1-4") < caption.index("3-3")
    assert "2-4" not in caption  # Ann's draw is hers


def test_the_move_made_for_a_player_whose_time_ran_out_comes_before_the_moves_after_it() -> None:
    match = started("matador", "1-2 4-6 4-4 4-5 5-5 5-6", "0-1 0-2 1-1 2-2 0-0 0-4",
                    stock="1-4 2-4 3-3")
    match.apply(0, Play(Tile(1, 2)))
    game = game_of(match)
    match.apply(1, next(a for a in match.hand.legal_actions() if a.tile == Tile(0, 0)))
    game.timer.auto_moves.append("0:1")  # Bob's time ran out: the bot laid 0-0 for him
    match.apply(0, match.hand.legal_actions()[0])  # Ann's lay, after it
    assert match.hand.to_move == 1
    caption = plain(captions.hand_caption(T, game, player_view(match, 1)))
    timed_out = caption.index("⏰ Your time ran out: I laid")
    assert timed_out < caption.index("Since your last turn:") < caption.index("• Ann laid")
