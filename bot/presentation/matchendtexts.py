"""How a match ended, or a game before its match did: the match's result, the settling up, the
moves of the group's ratings, a player's last line of it, and the seed of a hand left unfinished.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from engine import MatchEnded, TableView, unfinished_seed
from renderers import signed

from ..i18n import LANGUAGES, N_, Translator, translator
from ..models import Game, MatchRatings, Status
from ..wording import code, esc, named, pair_names, partners, title
from .resulttexts import scores_line

#: How a game stopped as the bot was removed from its group ended: in its players' private
#: messages, and in the group's welcome when the bot is added back soon after.
BOT_REMOVED = N_("The game was stopped: I was removed from the group.")
#: The match result's last line, over its "🔁 Play again" button.
PLAY_AGAIN = N_("Play again with the same players and rules: tap below, or /newgame.")

def unfinished_seed_lines(t: Translator, game: Game) -> list[str]:
    """A game ended before its hand did: the seed of that hand's deal, now that nothing is
    left to play with it, to check against the fingerprint shown before it (QA: a player who
    suspected the deal of a stopped game had nothing to check)."""
    revealed = None if game.match is None else unfinished_seed(game.match)
    if revealed is None:
        return []
    seed, print_ = revealed
    return [t("🔓 The unfinished hand's seed: {seed}. Its SHA-256 starts with {fingerprint}, "
              "the fingerprint shown before the hand.", seed=code(seed),
              fingerprint=code(print_))]


def settlement_line(t: Translator, view: TableView, names: Sequence[str]) -> str:
    """Six-matador's settling up (D25), or "" where the game has none."""
    if view.settlement is None:
        return ""
    return t("Settling up (the winner gets the difference from each): {list}.", list=" · ".join(
        pair_names(t, names, seats) + f" {signed(view.settlement[side])}"
        for side, seats in enumerate(view.sides)))


def game_end_line(t: Translator, game: Game) -> str:
    """How the game ended, for a player's private message."""
    match = game.match
    if game.status is Status.FINISHED and match is not None and match.result is not None:
        winner = match.result.winner
        if winner is None:
            return t("The match is over: it is a draw.")
        return t("The match is over: 🏆 {names} won it.", names=partners(
            t, [named(game.players[s].name) for s in match.sides[winner]]))
    if game.status is Status.STOPPED and game.messages.group_gone:
        return t("The game was stopped: its group was deleted.")
    if game.status is Status.STOPPED and game.messages.bot_removed:
        return t(BOT_REMOVED)
    if game.status is Status.STOPPED and game.messages.topic_gone:
        return t("The game was stopped: its topic was deleted.") if game.messages.topic_deleted \
            else t("The game was stopped: its topic was closed, and I may not write there.")
    if game.status is Status.STOPPED:
        return t("The game was stopped: nobody wins it.")
    return t("The game is over.")


def rating_line(t: Translator, game: str, names: Sequence[str], ratings: MatchRatings,
                sides: int = 2) -> str:
    """How the match moved each person's rating on the group's board of ``game`` (named: a
    bare /scoreboard rates every game together, which moves by other figures; review), said
    to be a change ("" when nobody has one: computers are kept off the board), those who
    left it or were replaced while away last: it counted as lost for them. Among three
    ``sides`` or more, it says the ratings follow the places (player QA, twice: the second
    of four lost the match, yet rose)."""
    moved = [f"{named(name)} {signed(change)}" for name, change in zip(
        names, ratings.seats, strict=True) if change is not None]
    moved += [t("{name} (left the match) {change}", name=named(name), change=signed(change))
              for name, change in ratings.leavers]
    moved += [t("{name} (replaced by a computer while away) {change}", name=named(name),
                change=signed(change)) for name, change in ratings.away]
    if not moved:
        return ""
    if sides > 2:
        return t("Rating change on this group's {game} scoreboard, by each player's place in "
                 "the match: {list}.", game=esc(title(t, game)), list=" · ".join(moved))
    return t("Rating change on this group's {game} scoreboard: {list}.",
             game=esc(title(t, game)), list=" · ".join(moved))


def match_result_text(t: Translator, game: Game, ended: MatchEnded, view: TableView,
                      ratings: MatchRatings | None = None) -> str:
    names = game.names
    lines = [t("<b>The match is over.</b>")]
    if ended.winner is None:
        lines.append(t("It is a draw."))
    else:
        side = view.sides[ended.winner]
        if view.lowest_total_wins:
            lines.append(t("🏆 {name} wins the match with the lowest total!",
                           name=named(names[side[0]])))
        elif len(side) == 1:
            lines.append(t("🏆 {name} wins the match!", name=named(names[side[0]])))
        else:
            lines.append(t("🏆 {first} and {second} win the match!",
                           first=named(names[side[0]]), second=named(names[side[1]])))
    lines.append(scores_line(t, view, names))
    settled = settlement_line(t, view, names)
    if settled:
        lines.append(settled)
    if ratings is not None and ratings.seats:
        lines.append(rating_line(t, game.game_name, names, ratings, len(view.sides)))
    lines.append(t(PLAY_AGAIN))
    return "\n".join(line for line in lines if line)


def without_play_again(caption_html: str) -> str:
    """A match result's words once its "Play again" button is taken off (a newer game was
    played): the line pointing to the button left out, in whichever language it was written."""
    pointers = {translator(language)(PLAY_AGAIN) for language in LANGUAGES}
    return "\n".join(line for line in caption_html.split("\n")
                     if html.unescape(line) not in pointers)  # (however it was escaped)
