"""The match's end picture names the person a computer stood in for, with the rating change
they keep, as its caption does: on a row of their own, never on the computer's (player QA:
"1 🤖 Rio for Budi -40" on the winning row read as the winner losing 40)."""

from __future__ import annotations

import random
from typing import Any

import pytest

import renderers
from bot.computers import computer
from bot.gamemessages import Messages
from bot.models import Game, MatchRatings, Player, Status
from bot.presentation.composer import TextComposer
from bot.presentation.pictures import PictureMaker
from engine import Match, MatchEnded
from goldens.positions import random_hand


def test_a_seat_handed_on_shows_whom_it_was_taken_from(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: dict[str, Any] = {}

    def recorded(view: object, names: list[str], **kwargs: Any) -> bytes:
        drawn.update(names=names, changes=kwargs["rating_changes"],
                     replaced=kwargs["replaced"])
        return b""
    monkeypatch.setattr(renderers, "render_match_end", recorded)
    match = Match("gaple", 4, {"target": 1})
    rng = random.Random(2)
    while match.winner is None:
        match.deal_hand(rng)
        list(random_hand(match, rng))  # (played out)
    rio = computer("normal", {1, 3, 4})
    zeno = computer("normal", {1, 3, 4, rio.user_id})
    players = [Player(1, "Ayu"), rio, Player(3, "Sergei"), zeno]
    game = Game(1, -100, Status.PLAYING, "gaple", {}, 1, players, match, 5, "en", Messages())
    ratings = MatchRatings((30, None, -10, None), (("Þóra", -20),), (("Budi", -30),),
                           ((1, "Budi", -30), (3, "Þóra", -20)))
    [result] = TextComposer(PictureMaker("classic")).match_end(
        game, MatchEnded(match.winner, match.scores), ratings)
    assert result.drawing is not None
    result.drawing()
    rio_name, zeno_name = (p.name.removeprefix("🤖 ") for p in (rio, zeno))
    assert drawn == {"names": ["Ayu", rio.name, "Sergei", zeno.name],
                     "changes": (30, None, -10, None),  # (a computer's row: no change)
                     "replaced": (("Budi", f"away: {rio_name} played on", -30),
                                  ("Þóra", f"left: {zeno_name} played on", -20))}
    assert "Budi" in result.text and "-30" in result.text
