"""A player's "Since your last turn:" list, read against the group's lines for the same moves,
on four-seat hands with a stock played from a seed: every move once and in order, the bot's
draws and knocks for the reader among them; a caption that would pass Telegram's limit loses
its oldest moves (an ellipsis in their place), never one from the middle. A tester found the
moves around the reader's automatic knocks missing while the line and the tile counts below
showed them: the caption was past the limit, and the line dropped to fit was the list's middle."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, replace

import pytest
from test_lay_choices import game_of

from bot.i18n import translator
from bot.models import Game, Player
from bot.presentation import captions, movetexts
from bot.wording import CAPTION_LIMIT, named
from engine import ActionKind, Match, PlayerView, PublicMove, player_view

T = translator("en")
NAMES = ("Ayu Lestari", "Budi Santoso", "Sergei Ivanov", "Þóra Jónsdóttir")
READER = 0  # whose private message is read
LINK = T("↩ The table is in the group {name}.", name=named("Domino evening"))


@dataclass(frozen=True)
class Turn:
    """What the reader is told on one of its turns (or at the hand's end)."""

    game: Game
    view: PlayerView
    caption: str  # the whole private message, as the bot sends it
    listed: list[str]  # the lines under "Since your last turn:", as they stand in it
    told: list[str]  # every move of the range, as told to the reader
    group: list[str]  # the same moves, as the group's table tells them

    @property
    def moves(self) -> list[PublicMove]:
        history = self.view.table.history
        return [history[i] for i in movetexts.since_last_turn(self.game, self.view)]


def turns(game_name: str, seed: int) -> Iterator[Turn]:
    """The reader's turns in a hand of ``game_name`` for four, dealt and played at random from
    ``seed``, the draws and knocks nobody decides made as the bot makes them; then its end."""
    rng = random.Random(seed)
    match = Match(game_name, 4)
    match.deal_hand(rng)
    game = replace(game_of(match), players=[Player(seat + 1, name)
                                            for seat, name in enumerate(NAMES)], turn_seconds=90)
    while True:
        match.play_forced()
        if match.hand.over or match.to_move == READER:
            yield told(game, player_view(match, READER))
        if match.hand.over:
            return
        match.apply(match.to_move, rng.choice(match.legal_actions()))  # type: ignore[arg-type]


def told(game: Game, view: PlayerView) -> Turn:
    table = view.table
    indices = movetexts.since_last_turn(game, view)
    caption = captions.hand_caption(T, game, view, table_link=LINK)
    lines = caption.split("\n")
    listed: list[str] = []
    # (before the reader's first move of the hand there was no last turn: Icelandic QA)
    header = T("Since your last turn:") if indices.start else T("This hand so far:")
    assert T("This hand so far:" if indices.start else "Since your last turn:") not in lines
    if header in lines:
        after = lines[lines.index(header) + 1:]
        listed = after[:next((i for i, line in enumerate(after)
                              if not line.startswith(("• ", captions.ELIDED))), len(after))]
    return Turn(game, view, caption, listed,
                movetexts.moves_lines(T, game, table, indices, reader=READER,
                                      draws=view.drawn_this_hand),
                movetexts.moves_lines(T, game, table, indices))


def check(turn: Turn) -> None:
    """The list is the range's moves as told to the reader, the latest of them if not all fit;
    the moves of the others read as the group reads them, each of the reader's knocks once."""
    mine = named(NAMES[READER])
    assert [line for line in turn.told if "for you" not in line] == \
        [line for line in turn.group if not line.startswith(mine)]
    knocked = [move for move in turn.moves
               if move.seat == READER and move.kind is ActionKind.KNOCK]
    own = [line for line in turn.told if "knocked for you" in line]
    assert len(own) == len(knocked)
    assert all(line.endswith(movetexts.knocked_for_you(T, knock))
               for line, knock in zip(own, knocked, strict=True))
    drawn = [line for line in turn.told if "for you" in line and line not in own]
    # draws the reader did not knock after: only those the hand ended on (else its turn's)
    assert not drawn or (drawn == turn.told[-1:] and turn.view.table.result is not None)
    bullets = ["• " + line for line in turn.told]
    assert len(turn.caption) <= CAPTION_LIMIT
    if turn.listed[:1] == [captions.ELIDED]:  # the oldest left out, to fit
        kept = turn.listed[1:]
        assert kept == bullets[len(bullets) - len(kept):] and len(kept) < len(bullets)
    else:
        assert turn.listed == bullets


def stuck_then_laid(turn: Turn) -> bool:
    """Whether the reader drew and then knocked, and another seat laid a tile right after."""
    moves = turn.moves
    return any(a.seat == b.seat == READER and a.kind is ActionKind.DRAW
               and b.kind is ActionKind.KNOCK and c.seat != READER and c.kind is ActionKind.PLAY
               for a, b, c in zip(moves, moves[1:], moves[2:], strict=False))


def own_knocks(turn: Turn) -> int:
    return sum(move.seat == READER and move.kind is ActionKind.KNOCK for move in turn.moves)


@pytest.mark.parametrize("game_name", ["bergen", "matador"])
def test_the_moves_after_the_readers_automatic_knocks_are_told(game_name: str) -> None:
    """Seed 0 deals each game a hand where the bot knocks twice for the reader before its
    turn, once after drawing for it, another seat laying right after that knock, and the
    message would pass the limit: the moves from its last knock on are all told, the other
    seats' as the group tells them (the middle of the list went missing)."""
    turn = next((turn for turn in turns(game_name, 0)
                 if stuck_then_laid(turn) and own_knocks(turn) >= 2), None)
    assert turn is not None, "the seed no longer deals the case: pick another"
    check(turn)
    assert turn.listed[0] == captions.ELIDED  # too long for every move: the oldest went
    last = max(i for i, line in enumerate(turn.told) if "for you" in line)
    assert turn.listed[last - len(turn.told):] == ["• " + line for line in turn.told[last:]]
    laid = [line for line in turn.group if " laid " in line and not line.startswith(
        named(NAMES[READER]))]
    assert any(a.startswith("• I drew ") and "knocked for you" in a
               and b.removeprefix("• ") in laid
               for a, b in zip(turn.listed, turn.listed[1:], strict=False))


@pytest.mark.parametrize(("game_name", "seed"), [
    (game, seed) for game in ("bergen", "matador", "six-matador") for seed in range(4)])
def test_every_turns_list_tells_the_moves_since_in_order(game_name: str, seed: int) -> None:
    for turn in turns(game_name, seed):
        check(turn)


def test_the_games_end_closes_the_message_and_only_old_moves_give_it_room() -> None:
    """How the game ended is the message's last line but the way back to the table, which
    is always last (player QA: the match's end came after it); to fit it, the oldest moves
    give way (the line added after the caption was fitted once cost a line from its
    middle)."""
    closing = T("The match is over: 🏆 {names} won it.", names=named(NAMES[1]))
    listed = ("• ", captions.ELIDED)
    for turn in turns("matador", 0):
        caption = captions.hand_caption(T, turn.game, turn.view, table_link=LINK,
                                        closing=closing)
        assert caption.endswith(f"\n{closing}\n{LINK}") and len(caption) <= CAPTION_LIMIT
        before = [line for line in turn.caption.split("\n") if not line.startswith(listed)]
        after = [line for line in caption.split("\n") if not line.startswith(listed)]
        assert after[:-2] + after[-1:] == before
