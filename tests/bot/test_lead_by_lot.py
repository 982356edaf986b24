"""Who leads a hand the seat drawn by lot opens is told with the first table (player QA:
nobody knew why that seat led Matador's first hand); a lead the rules give by the tiles or
by the last hand says nothing of a lot."""

from __future__ import annotations

import random

from bot_kit import plain

from bot.gamemessages import Messages
from bot.i18n import translator
from bot.models import Game, Player, Status
from bot.presentation.captions import turn_lines
from engine import Match, table_view

NAMES = ("Ayu", "Budi", "Sergei", "Þóra")


def first_table_lines(name: str, seats: int, hands_before: int = 0) -> list[str]:
    """The turn lines of the first table of a hand of ``name`` (after ``hands_before`` hands
    played at random)."""
    rng = random.Random(5)
    match = Match(name, seats, {"target": 10_000}, automate=True)
    for _ in range(hands_before + 1):
        match.deal_hand(rng)
        if len(match.hands) <= hands_before:
            while not match.hand.over:
                seat = match.to_move
                assert seat is not None
                match.apply(seat, rng.choice(match.legal_actions()))
    players = [Player(n + 1, who) for n, who in enumerate(NAMES[:seats])]
    game = Game(1, -1, Status.PLAYING, name, {}, 1, players, match, 0, "en", Messages())
    return [plain(line) for line in turn_lines(translator("en"), game, table_view(match))]


def test_a_first_hand_led_by_lot_says_so() -> None:
    for name, seats in (("matador", 4), ("muggins", 3)):
        lines = first_table_lines(name, seats)
        assert len(lines) == 2 and lines[0].endswith(" leads: drawn by lot."), (name, lines)
        assert lines[0].split(" leads")[0] == lines[1].removeprefix("Your turn, ")[:-1]


def test_a_lead_by_the_tiles_or_by_the_last_winner_says_nothing_of_a_lot() -> None:
    assert not any("lot" in line for line in first_table_lines("gaple", 4))
    # Muggins: the first hand by lot, the next by its winner (Matador draws every hand's)
    assert not any("lot" in line for line in first_table_lines("muggins", 3, hands_before=1))
    assert "lot" in first_table_lines("matador", 4, hands_before=1)[0]
