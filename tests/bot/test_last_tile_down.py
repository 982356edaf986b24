"""The private words for a last tile the bot put face down (gaple-dead: the only legal move,
made by the engine): said once, among the moves since the player's last turn, like a knock
made for them; a discard made when time ran out (a game saved before the engine made it)
keeps its own "⏰ Your time ran out" line and is not told twice."""

from __future__ import annotations

from dataclasses import replace

from bot_kit import plain
from test_e2e_forced_discard import DEAL, TAPS
from test_lay_choices import game_of

from bot.i18n import translator
from bot.models import Game, Player
from bot.presentation import captions, movetexts
from engine import Discard, Match, Play, Tile, player_view

T = translator("en")
DOWN = "You could not lay a tile, so I put your last tile, 0-0, face down for you (dead tile)."


def played(automatic: bool) -> tuple[Game, Match]:
    """:data:`DEAL` played by its taps; then Ayu's 0-0 goes face down, by the engine or, as
    before, by her timer (``automatic`` False)."""
    match = Match("gaple-dead", 4)
    match.start_hand(DEAL)
    for tap in TAPS:
        tile = Tile(*map(int, tap.split("-")))
        seat = match.to_move
        assert seat is not None
        match.apply(seat, next(a for a in match.legal_actions()
                               if isinstance(a, Play | Discard) and a.tile == tile))
    assert match.forced_action() == Discard(Tile(0, 0))
    game = replace(game_of(match), players=[Player(seat + 1, name) for seat, name
                                            in enumerate(("Ayu", "Budi", "Sergei", "Þóra"))])
    if automatic:
        match.play_forced()
    else:
        match.apply(0, Discard(Tile(0, 0)))
        game.timer.auto_moves.append(f"0:{len(match.hand.moves) - 1}")
    return game, match


def test_the_player_is_told_once_that_their_last_tile_went_face_down() -> None:
    game, match = played(automatic=True)
    view = player_view(match, 0)
    told = movetexts.moves_lines(T, game, view.table, movetexts.since_last_turn(game, view),
                                 reader=0, draws=view.drawn_this_hand, dead=view.dead)
    assert told[-1] == DOWN and told.count(DOWN) == 1
    caption = captions.hand_caption(T, game, view)
    assert caption.count(DOWN) == 1 and "time ran out" not in caption
    # the others read it as any dead tile, its face unseen
    other = player_view(match, 1)
    assert plain(movetexts.moves_lines(T, game, other.table, range(len(other.table.history)),
                                       reader=1)[-1]) == "Ayu put a tile face down (dead tile)."


def test_a_last_tile_put_down_when_time_ran_out_is_told_as_such() -> None:
    game, match = played(automatic=False)
    caption = captions.hand_caption(T, game, player_view(match, 0))
    assert DOWN not in caption
    assert "⏰ Your time ran out: I put 0-0 face down for you." in caption
