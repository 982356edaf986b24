"""What General reads when a forum topic with a table in it is closed or deleted."""

from __future__ import annotations

import itertools

from bot.gamemessages import Messages
from bot.i18n import LANGUAGES, translator
from bot.models import Game, MatchRatings, Player, Status
from bot.presentation.composer import TextComposer
from bot.presentation.pictures import PictureMaker
from engine import Match

PLAYERS = [Player(n, name) for n, name in enumerate(("Ann", "Bob", "Cid", "Dan"), 1)]
NO_RATINGS = MatchRatings()


def table(language: str, started: bool) -> Game:
    match = Match("gaple", 4) if started else None
    return Game(1, -100, Status.PLAYING if started else Status.LOBBY, "gaple", {}, 1, PLAYERS,
                match, 5, language, Messages(), thread_id=7)


def test_general_names_the_topic_and_says_whether_a_game_or_a_lobby_ended() -> None:
    """Several games may be played in one forum: the topic's name (when the bot learnt it)
    tells which; a table not started yet is closed, not a game ended "with no result"."""
    composer = TextComposer(PictureMaker("classic"))
    for language, started, deleted, topic in itertools.product(
            LANGUAGES, (True, False), (True, False), ("Weekend", None)):
        [said] = composer.topic_gone(table(language, started), deleted, NO_RATINGS, topic)
        t = translator(language)
        assert ("Weekend" in said.text) is (topic is not None), said.text
        assert t("Gaple") in said.text and "/newgame" in said.text
        if language == "en":
            assert ("no result" in said.text) is started, said.text
            assert ("deleted" in said.text) is deleted and ("closed" in said.text) is (
                not deleted or not started), said.text


def test_a_topics_name_is_escaped_for_html() -> None:
    """Sent as HTML: "Tom & <Jerry>" raw would make Telegram refuse the notice."""
    composer = TextComposer(PictureMaker("classic"))
    [said] = composer.topic_gone(table("en", True), False, NO_RATINGS, "Tom & <Jerry>")
    assert "Tom &amp; &lt;Jerry&gt;" in said.text
