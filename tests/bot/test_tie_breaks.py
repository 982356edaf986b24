"""A gaple-dead hand whose lowest total is shared says what broke the tie, with the tiles that
did (RULES.md, gaple-dead: the lowest counted tile, then its lower half; no counted tile at all
beats some), in every language; a hand won outright says nothing of a tie."""

from __future__ import annotations

from dataclasses import replace

import pytest
from bot_kit import plain
from test_drawn_hands import first_hand_where

from bot.gamemessages import Messages
from bot.i18n import translator
from bot.models import Game, Player, Status
from bot.presentation.replaytexts import replay_caption
from bot.presentation.resulttexts import hand_result_text
from engine import Deal, DecidedBy, Decision, HandEnded, HandEndReason, Match, Tile, table_view

NAMES = ("Ayu", "Budi", "Sergei", "Þóra")


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile(*sorted(int(n) for n in word.split("-"))) for word in text.split())


def blocked_at_once(*hands: str) -> tuple[Game, HandEnded]:
    """Double-12 set: the turned-up 12-12 blocks the hand before anybody moves (nobody holds
    a 12), so the totals are the dealt hands."""
    deal = Deal(tuple(tiles(h) for h in hands), tiles("12-12 11-12 10-12 9-12"), 0, 12)
    match = Match("gaple-dead", 4, {"set": 12, "target": 1000})
    match.start_hand(deal)
    ended = match.hand.result
    assert ended is not None
    players = [Player(n + 1, name) for n, name in enumerate(NAMES)]
    return Game(1, -1, Status.PLAYING, "gaple-dead", {}, 1, players, match, 0, "en",
                Messages()), ended


# Ayu and Budi both have 42; Budi's lowest tile 0-1 (worth 1) beats Ayu's 0-2 (worth 2).
TIED_AT_42 = (
    "0-2 3-3 4-4 5-5 1-6 2-7",
    "0-1 1-2 3-4 2-9 4-8 0-8",
    "9-9 10-10 11-11 8-8 7-7 6-6",
    "9-10 10-11 9-11 8-10 8-11 7-11",
)


def lines(game: Game, ended: HandEnded, language: str = "en") -> list[str]:
    assert game.match is not None
    return plain(hand_result_text(translator(language), game, ended,
                                  table_view(game.match))).split("\n")


def test_a_tie_for_the_lowest_total_names_the_tiles_that_broke_it() -> None:
    game, ended = blocked_at_once(*TIED_AT_42)
    assert ended.totals[:2] == (42, 42) and ended.winner == 1
    said = lines(game, ended)
    assert ("Budi and Ayu are level on 42; the lowest counted tile breaks the tie: Budi's 0-1 "
            "against Ayu's 0-2.") in said
    assert "Budi wins the hand on the tie-break." in said
    assert not any("with the lowest total" in line for line in said)
    caption = plain(replay_caption(translator("en"), game, 0)).split("\n")[1]
    assert caption == "Budi won it on the tie-break."


@pytest.mark.parametrize(("language", "expected"), [
    ("ru", "У игроков Budi и Ayu поровну: 42. Решает младшая из "  # noqa: RUF001
           "засчитанных костяшек: 0-1 у игрока Budi против 0-2 у игрока Ayu."),  # noqa: RUF001
    ("id", "Budi dan Ayu sama-sama 42; seri ditentukan oleh kartu terendah yang dihitung: "
           "0-1 milik Budi lawan 0-2 milik Ayu."),
    ("is", "Budi og Ayu eru jöfn með 42; lægsti steinninn sem telur sker úr: 0-1 (Budi) "
           "gegn 0-2 (Ayu)."),
])
def test_the_tie_break_is_said_in_every_language(language: str, expected: str) -> None:
    game, ended = blocked_at_once(*TIED_AT_42)
    said = lines(game, ended, language)
    assert expected in said
    assert not any("tie" in line or "level" in line for line in said)  # nothing left English


def test_equal_lowest_tiles_are_decided_by_the_lower_half_and_three_tied_are_listed() -> None:
    game, ended = blocked_at_once(*TIED_AT_42)
    # The words for the engine's other reasons (its rules tests check when each is given).
    half = replace(ended, decision=Decision(DecidedBy.LOWER_HALF, (1, 0, 2),
                                            (Tile(1, 9), Tile(3, 7), Tile(2, 8))))
    assert ("Budi, Ayu and Sergei are level on 42; the lowest counted tile breaks the tie, "
            "and between tiles of equal value the one with the smaller lower half: Budi's 1-9 "
            "against Ayu's 3-7 and Sergei's 2-8.") in lines(game, half)
    empty = replace(ended, decision=Decision(DecidedBy.NO_TILES, (1, 0), (None, Tile(0, 0))))
    assert ("Budi and Ayu are level on 42; Budi has no tile left to count, which breaks the "
            "tie.") in lines(game, empty)


def test_a_hand_won_outright_says_nothing_of_a_tie() -> None:
    hands = list(TIED_AT_42)
    hands[0] = "0-2 3-3 4-4 5-5 1-6 3-7"  # Ayu 43: Budi has the lowest total alone
    game, ended = blocked_at_once(*hands)
    assert ended.winner == 1 and ended.decision is None
    said = lines(game, ended)
    assert "Budi wins the hand with the lowest total." in said
    assert not any("tie" in line for line in said)


def blocked_bergen_nobody_won() -> tuple[Game, HandEnded]:
    """A first Bergen hand, played at random, blocked with a tie for the fewest pips among
    the players holding no double (deals tried in turn)."""
    return first_hand_where("bergen", 3, lambda ended: ended.reason is HandEndReason.BLOCKED
                            and ended.winner is None)


def test_a_drawn_bergen_hand_says_who_tied_among_those_holding_no_double() -> None:
    """A lighter hand holding a double does not win a blocked hand (D20): the result says
    that the lightest of those holding none are level, not only that nobody won."""
    game, ended = blocked_bergen_nobody_won()
    assert ended.decision is not None and ended.decision.by is DecidedBy.NO_DOUBLE
    level = ended.decision.seats
    assert len(level) >= 2 and len({ended.totals[seat] for seat in level}) == 1
    names = " and ".join(NAMES[seat] for seat in level)  # two of three seats, or all three
    names = names.replace(" and ", ", ", len(level) - 2)
    said = lines(game, ended)
    assert (f"Of those holding no double, {names} have the fewest pips, level on "
            f"{ended.totals[level[0]]}.") in said
    assert any(line.startswith("A drawn hand") for line in said)
    assert any(line.startswith("Из тех, у кого нет дублей, самые лёгкие руки у игроков")  # noqa: RUF001
               for line in lines(game, ended, "ru"))
