"""The words of replays: the animation's caption, the "🎞 Replay" button, the private list of
a player's recent hands."""

from __future__ import annotations

from collections.abc import Sequence

from engine import HandEnded

from ..i18n import N_, Translator
from ..models import Game
from ..wording import isolated, pair_names, short_name, title
from .callbacks import ReplayHand
from .pictures import hand_players

#: Under each hand's result (in the game's language).
REPLAY_BUTTON = N_("🎞 Replay")
#: The private /replay's list: the hands of a player's last matches, at most this many.
LISTED_HANDS = 8
#: ... of this many matches.
LISTED_MATCHES = 3

Rows = tuple[tuple[tuple[str, str], ...], ...]  # rows of (label, callback data)


def _result(game: Game, hand_number: int) -> HandEnded:
    match = game.match
    assert match is not None
    ended = match.hands[hand_number].result
    assert ended is not None
    return ended


def replay_caption(t: Translator, game: Game, hand_number: int) -> str:
    """The animation's caption: the game and hand, who won it, the points (HTML)."""
    ended, match = _result(game, hand_number), game.match
    assert match is not None
    heading = t("🎞 <b>{game}</b>, hand {number}", game=title(t, game.game_name),
                number=hand_number + 1)
    if ended.winner is None:
        return f"{heading}\n" + t("A drawn hand: nobody scored.")
    names = [p.name for p in hand_players(game, hand_number)]
    winners = pair_names(names, match.variant.sides(len(names))[ended.winner])
    if match.variant.lowest_total_wins:
        outcome = t("{name} won it with the lowest total.", name=winners)
    else:
        points = ended.points[ended.winner]
        outcome = t.plural("{name} won it: {count} point.", "{name} won it: {count} points.",
                           points, name=winners)
    return f"{heading}\n{outcome}"


def replay_label(t: Translator, game: Game, hand_number: int) -> str:
    """A hand's button in the private list: "🎞 Gaple, hand 2: Ayu won" (plain text)."""
    ended, match = _result(game, hand_number), game.match
    assert match is not None
    name, number = title(t, game.game_name), hand_number + 1
    if ended.winner is None:
        return t("🎞 {game}, hand {number}: drawn", game=name, number=number)
    names = [p.name for p in hand_players(game, hand_number)]
    side = match.variant.sides(len(names))[ended.winner]
    winners = " & ".join(isolated(short_name(names[seat])) for seat in side)
    return t("🎞 {game}, hand {number}: {name} won", game=name, number=number, name=winners)


def replay_list(t: Translator, games: Sequence[Game]) -> tuple[str, Rows]:
    """The private /replay: a player's recent hands, newest first, a button each; no
    buttons when there is none."""
    rows = [((replay_label(t, game, number), ReplayHand(game.game_id, number).encode()),)
            for game in games for number in reversed(game.finished_hands)][:LISTED_HANDS]
    if not rows:
        return t("You have not finished a hand with me yet, so there is nothing to replay. "
                 "Play a game in a group, then come back."), ()
    return t("Your last hands, newest first. Tap one to watch it again, move by move."), \
        tuple(rows)
