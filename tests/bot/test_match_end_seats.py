"""The match's end picture names the person a computer stood in for, with the rating change
they keep, as its caption does."""

from __future__ import annotations

import random
from typing import Any

import pytest

import renderers
from bot.models import Game, MatchRatings, Messages, Player, Status, computer
from bot.presentation.composer import TextComposer
from bot.presentation.pictures import PictureMaker
from engine import Match, MatchEnded
from goldens.positions import random_hand


def test_a_seat_handed_on_shows_whom_it_was_taken_from(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn: dict[str, Any] = {}

    def recorded(view: object, names: list[str], **kwargs: Any) -> bytes:
        drawn.update(names=names, changes=kwargs["rating_changes"])
        return b""
    monkeypatch.setattr(renderers, "render_match_end", recorded)
    match = Match("gaple", 4, {"target": 1})
    rng = random.Random(2)
    while match.winner is None:
        match.deal_hand(rng)
        list(random_hand(match, rng))  # (played out)
    rio = computer("normal", {1, 3, 4})
    players = [Player(1, "Ayu"), rio, Player(3, "Sergei"), Player(4, "Þóra")]
    for language, said in (("en", "🤖 Rio for Budi"), ("ru", "🤖 Rio вместо Budi")):
        game = Game(1, -100, Status.PLAYING, "gaple", {}, 1, players, match, 5, language,
                    Messages())
        ratings = MatchRatings((30, None, -10, -10), (), (("Budi", -30),), ((1, "Budi", -30),))
        [result] = TextComposer(PictureMaker("classic")).match_end(
            game, MatchEnded(match.winner, match.scores), ratings)
        assert result.drawing is not None
        result.drawing()
        assert drawn == {"names": ["Ayu", said.replace("Rio", rio.name.removeprefix("🤖 ")),
                                   "Sergei", "Þóra"],
                         "changes": (30, -30, -10, -10)}
        assert "Budi" in result.text and "-30" in result.text
