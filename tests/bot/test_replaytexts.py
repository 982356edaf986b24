"""The words of replays: the caption names the hand, its winners and points; the private list
holds the newest hands first, a few."""

from __future__ import annotations

import random

from bot_kit import plain

from bot.gamemessages import Messages
from bot.i18n import translator
from bot.models import Game, Player, Status
from bot.presentation.callbacks import decode
from bot.presentation.gamebuttons import ReplayHand
from bot.presentation.lobbytexts import help_text
from bot.presentation.replaytexts import (
    LISTED_HANDS,
    replay_caption,
    replay_list,
)
from engine import Match


def played(game_id: int, name: str, hands: int, seed: int) -> Game:
    """A game of ``name`` whose first ``hands`` hands were played at random to their end,
    and one more dealt."""
    match, rng = Match(name, 4, automate=True), random.Random(seed)
    for _ in range(hands):
        match.deal_hand(random.Random(rng.random()))
        while not match.hand.over:
            seat = match.to_move
            assert seat is not None
            match.apply(seat, rng.choice(match.legal_actions()))
        if match.over:
            break
    if not match.over:
        match.deal_hand(random.Random(seed))
    return Game(game_id, -1, Status.PLAYING, name, {}, 1,
                [Player(n + 1, who) for n, who in enumerate(("Ayu", "Budi", "Sergei", "Þóra"))],
                match, 0, "en", Messages())


def test_the_caption_names_the_hand_its_winners_and_points() -> None:
    game = played(3, "gaple", 1, seed=4)
    assert game.finished_hands == [0]
    caption = plain(replay_caption(translator("en"), game, 0))
    heading, outcome = caption.split("\n")
    assert heading == "🎞 <b>Gaple</b>, hand 1"
    assert game.match is not None
    ended = game.match.hands[0].result
    assert ended is not None
    if ended.winner is None:
        assert outcome == "A drawn hand: nobody scores."
    else:
        points = ended.points[ended.winner]
        assert outcome.endswith(f"won it: {points} point{'s' * (points != 1)}.")
    russian = plain(replay_caption(translator("ru"), game, 0))
    assert russian.startswith("🎞 <b>Гапле</b>, кон 1\n")


def first_game_won_by_a_pair(seed: int = 0) -> Game:
    """A pair game whose first hand a partnership won (seeds tried in turn, from ``seed``)."""
    for attempt in range(seed, seed + 50):
        game = played(5, "pair", 1, seed=attempt)
        assert game.match is not None
        ended = game.match.hands[0].result
        if ended is not None and ended.winner is not None:
            return game
    raise AssertionError("no pair hand won in 50 deals")


def test_a_pair_won_it_in_every_language_with_the_verb_for_two() -> None:
    game = first_game_won_by_a_pair()
    assert game.match is not None
    ended = game.match.hands[0].result
    assert ended is not None and ended.winner is not None
    first, second = (game.players[s].name for s in game.match.sides[ended.winner])
    points = ended.points[ended.winner]
    words = {"en": f"{first} and {second} won it: {points} point",
             "ru": f"Кон берут {first} и {second}: {points} очк",
             "id": f"{first} dan {second} menang ronde ini dan dapat {points} poin",
             "is": f"{first} og {second} unnu umferðina: {points} stig"}
    labels = {"en": f"{first} & {second} won", "ru": f"выигрывают {first} и {second}",
              "id": f"{first} & {second} menang", "is": f"{first} og {second} unnu"}
    for language, outcome in words.items():
        t = translator(language)
        assert outcome in plain(replay_caption(t, game, 0)).split("\n")[1], language
        _, rows = replay_list(t, [game])
        assert plain(rows[0][0][0]).endswith(labels[language]), language


def test_the_private_list_holds_the_newest_hands_first_and_a_few() -> None:
    oldest, older, newer = (played(1, "gaple", 5, seed=1), played(2, "gaple", 5, seed=3),
                            played(3, "pair", 2, seed=2))
    text, rows = replay_list(translator("en"), [newer, older, oldest])
    assert text.startswith("Your last hands, newest first.")
    taps = [decode(data) for row in rows for _, data in row]
    expected = [ReplayHand(game.game_id, n) for game in (newer, older, oldest)
                for n in reversed(game.finished_hands)]
    assert len(expected) > LISTED_HANDS and taps == expected[:LISTED_HANDS]
    labels = [plain(label) for row in rows for label, _ in row]
    assert labels[0].startswith(f"🎞 Pair dominoes, hand {newer.finished_hands[-1] + 1}: ")
    text, rows = replay_list(translator("en"), [])
    assert rows == () and "nothing to replay" in text


def test_help_tells_of_replay_in_each_language() -> None:
    for language in ("en", "ru", "id", "is"):
        text = help_text(translator(language))
        assert text.startswith("<b>") and text.endswith(")") and "🎞 /replay — " in text
