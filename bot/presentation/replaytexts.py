"""The words of replays: the animation's caption, the "🎞 Replay" button, the private list of
a player's recent hands."""

from __future__ import annotations

from collections.abc import Sequence

from engine import HandEnded

from ..i18n import N_, Translator
from ..models import Game
from ..wording import isolated, named, short_name, title
from .gamebuttons import ReplayHand
from .pictures import hand_players
from .resulttexts import drawn_hand_line

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
        return f"{heading}\n" + drawn_hand_line(t, match.variant.lowest_total_wins, ended)
    names = [p.name for p in hand_players(game, hand_number)]
    side = match.variant.sides(len(names))[ended.winner]
    points = ended.points[ended.winner]
    if match.variant.lowest_total_wins and ended.decision is not None:  # a tie, broken
        outcome = t("{name} won it on the tie-break.", name=named(names[side[0]]))
    elif match.variant.lowest_total_wins:
        outcome = t("{name} won it with the lowest total.", name=named(names[side[0]]))
    elif len(side) == 2:  # a pair: the verb agrees with two in some languages
        outcome = t.plural("{first} and {second} won it: {count} point.",
                           "{first} and {second} won it: {count} points.", points,
                           first=named(names[side[0]]), second=named(names[side[1]]))
    else:
        outcome = t.plural("{name} won it: {count} point.", "{name} won it: {count} points.",
                           points, name=named(names[side[0]]))
    return f"{heading}\n{outcome}"


def replay_label(t: Translator, game: Game, hand_number: int) -> str:
    """A hand's button in the private list: "🎞 Gaple, hand 2: Ayu won" (plain text)."""
    ended, match = _result(game, hand_number), game.match
    assert match is not None
    name, number = title(t, game.game_name), hand_number + 1
    if ended.winner is None:
        return t("🎞 {game}, hand {number}: drawn", game=name, number=number)
    names = [p.name for p in hand_players(game, hand_number)]
    side = [isolated(short_name(names[seat]))
            for seat in match.variant.sides(len(names))[ended.winner]]
    if len(side) == 2:
        return t("🎞 {game}, hand {number}: {first} & {second} won", game=name,
                 number=number, first=side[0], second=side[1])
    return t("🎞 {game}, hand {number}: {name} won", game=name, number=number, name=side[0])


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
