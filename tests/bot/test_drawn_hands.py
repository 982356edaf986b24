"""A hand nobody wins says what it leaves: in French every penalty counts, in Six-matador the
points of play stand (never "nobody scores" over points that count)."""

from __future__ import annotations

import random
from collections.abc import Callable

from bot_kit import plain

from bot.gamemessages import Messages
from bot.i18n import translator
from bot.models import Game, Player, Status
from bot.presentation.replaytexts import replay_caption
from bot.presentation.resulttexts import hand_result_text
from engine import ActionKind, HandEnded, Match, table_view

NAMES = ("Ayu", "Budi", "Sergei", "Þóra")


def first_hand_where(name: str, seats: int, wanted: Callable[[HandEnded], bool],
                     tries: int = 3000, last: ActionKind | None = None
                     ) -> tuple[Game, HandEnded]:
    """A game of ``name`` whose first hand, played at random, ended as ``wanted`` says (deals
    tried in turn), with a move of kind ``last`` its last if given."""
    for seed in range(tries):
        rng = random.Random(seed)
        match = Match(name, seats, automate=True)
        match.deal_hand(random.Random(rng.random()))
        while not match.hand.over:
            seat = match.to_move
            assert seat is not None
            match.apply(seat, rng.choice(match.legal_actions()))
        ended = match.hand.result
        if ended is not None and wanted(ended) \
                and last in (None, table_view(match).history[-1].kind):
            players = [Player(n + 1, who) for n, who in enumerate(NAMES[:seats])]
            return Game(1, -1, Status.PLAYING, name, {}, 1, players, match, 0, "en",
                        Messages()), ended
    raise AssertionError(f"no such {name} hand in {tries} deals")


def drawn_first_hand(name: str, seats: int) -> tuple[Game, HandEnded]:
    """A game of ``name`` whose first hand nobody won, with points."""
    return first_hand_where(name, seats, lambda ended: ended.winner is None and any(ended.points))


def result_lines(game: Game, ended: HandEnded, language: str) -> list[str]:
    assert game.match is not None
    text = hand_result_text(translator(language), game, ended, table_view(game.match))
    return plain(text).split("\n")


def test_a_drawn_french_hand_still_adds_every_penalty() -> None:
    game, ended = drawn_first_hand("french", 3)
    lines = result_lines(game, ended, "en")
    assert "A drawn hand: nobody wins it, and everyone's penalty points count." in lines
    assert not any("nobody scores" in line for line in lines)
    assert any(line.startswith("Penalty points: ") for line in lines)  # the totals, added
    assert "Ronde seri: tidak ada pemenang, dan poin penalti semua pemain tetap dihitung." in \
        result_lines(game, ended, "id")
    caption = plain(replay_caption(translator("en"), game, 0)).split("\n")[1]
    assert caption == "A drawn hand: nobody wins it, and everyone's penalty points count."


def test_a_drawn_six_matador_hand_keeps_the_points_of_play() -> None:
    game, ended = drawn_first_hand("six-matador", 2)
    assert any(ended.scored)
    lines = result_lines(game, ended, "en")
    assert "A drawn hand: nobody wins it; the points scored during play count." in lines
    assert "Кон вничью: победителя нет, но очки, набранные по ходу кона, засчитываются." in \
        result_lines(game, ended, "ru")


def test_a_last_tile_put_face_down_is_not_told_as_going_out() -> None:
    """Gaple-dead: a player who empties their hand by a dead tile has often the highest
    total; "has no tiles left" read as a win (player QA)."""
    game, ended = first_hand_where(
        "gaple-dead", 4, lambda ended: ended.out_seat is not None and not ended.by_play)
    name = NAMES[ended.out_seat]  # type: ignore[index]
    assert f"{name} put their last tile face down and has none left." in \
        result_lines(game, ended, "en")


def test_a_french_hand_ended_by_the_stock_running_out_says_so() -> None:
    """French: a player who laid their last tile while the stock held tiles plays on; the
    hand ends once the stock is empty, here by another's draw. The result said only "Euler
    has no tiles left", though Euler had had none for a round (player QA)."""
    game, ended = first_hand_where(
        "french", 3, lambda ended: ended.out_seat is not None, last=ActionKind.DRAW)
    name = NAMES[ended.out_seat]  # type: ignore[index]
    assert f"The stock is empty and {name} has no tiles left." in \
        result_lines(game, ended, "en")
