"""The composer that turns a game's changes into announcements for the group, with pictures."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import Event, HandEnded, MatchEnded, TableView, table_view

from ..i18n import N_, Translator, translator
from ..models import Game, MatchRatings, Outgoing, Player, Status
from ..wording import fit_caption, isolated, named, shorten, title, who
from .gamebuttons import CheckDeal, PlayAgain, ReplaceAway, ReplayHand
from .lobbytexts import PRIVATE_CHAT_BUTTON
from .matchendtexts import match_result_text, rating_line, unfinished_seed_lines
from .replaytexts import REPLAY_BUTTON
from .resulttexts import hand_result_text

if TYPE_CHECKING:
    from .pictures import PictureMaker


#: Why a game in a forum topic ended, said in General: by (whether it had started, whether
#: its topic was deleted rather than closed, whether the topic's name is known).
_TOPIC_GONE = {
    (True, True, False): N_("The topic of the {game} game was deleted, so the game ends with "
                            "no result. Open a new table with /newgame."),
    (True, False, False): N_("The topic of the {game} game was closed, so the game ends with "
                             "no result. Open a new table with /newgame."),
    (True, True, True): N_("The topic “{topic}” was deleted, so its {game} game ends with no "
                           "result. Open a new table with /newgame."),
    (True, False, True): N_("The topic “{topic}” was closed, so its {game} game ends with no "
                            "result. Open a new table with /newgame."),
    (False, True, False): N_("The topic of the {game} table was deleted before the game "
                             "started, so the table is closed. Open a new one with /newgame."),
    (False, False, False): N_("The topic of the {game} table was closed before the game "
                              "started, so the table is closed. Open a new one with /newgame."),
    (False, True, True): N_("The topic “{topic}” was deleted before its {game} game started, "
                            "so the table is closed. Open a new one with /newgame."),
    (False, False, True): N_("The topic “{topic}” was closed before its {game} game started, "
                             "so the table is closed. Open a new one with /newgame."),
}

#: The group hears that a computer took the seat of a player who seemed away (the offer to
#: hand it on, answered, is deleted: this is the one word of it the group reads).
SEAT_HANDED = N_("{name} ran out of time three turns in a row and seemed to be away: {computer} "
                 "plays their seat now.")
#: The group hears that a person took back their seat from the computer that had it.
RETURNED = N_("{name} is back and takes their seat from {computer}.")


class TextComposer:
    """The service's :class:`~bot.games.Composer`: announcements for the group, with pictures."""

    def __init__(self, pictures: PictureMaker) -> None:
        self.pictures = pictures

    def away(self, game: Game, seat: int) -> list[Outgoing]:
        t = translator(game.language)
        player = game.players[seat]
        offer = ReplaceAway(game.game_id, seat).encode()
        if game.creator_at_table():
            text = t("{name} ran out of time three turns in a row and seems to be away. I keep "
                     "making safe moves for them. The game's creator or an admin can hand the "
                     "seat to a computer player, or end the game with /stop.", name=who(player))
        else:  # who may answer the offer then (bot.service.seats.Seats.replace_away)
            text = t("{name} ran out of time three turns in a row and seems to be away. I keep "
                     "making safe moves for them. Anyone playing at this table can hand the "
                     "seat to a computer player; an admin can also end the game with /stop.",
                     name=who(player))
        # (the button says what a tap does: "A computer plays for X" read as news, QA)
        return [Outgoing(text, buttons=(
            ((t("🤖 Hand {name}'s seat to a computer", name=isolated(player.name)), offer),),))]

    def back(self, game: Game, seat: int) -> list[Outgoing]:
        t = translator(game.language)
        return [Outgoing(t("{name} is back and plays on.", name=who(game.players[seat])))]

    def ready(self, game: Game) -> list[Outgoing]:
        t = translator(game.language)
        creator = next((p for p in game.players if p.user_id == game.creator_id), None)
        if creator is None:
            return []
        return [Outgoing(t("✅ {name}, the table is ready: press Start in the lobby.",
                           name=who(creator)))]

    def private_chats_needed(self, game: Game) -> list[Outgoing]:
        """The table has its players, but the bot cannot send some of them their tiles."""
        t, waiting = translator(game.language), game.unreachable_players
        return [Outgoing(t.plural(
            "{names}: the table is ready, but I cannot send you your tiles yet. Tap “{button}” "
            "in the lobby, then Start in our chat.",
            "{names}: the table is ready, but I cannot send you your tiles yet. Each of you "
            "needs to tap “{button}” in the lobby, then Start in our chat.", len(waiting),
            names=", ".join(who(p) for p in waiting), button=t(PRIVATE_CHAT_BUTTON)))]

    def stopped(self, game: Game, by: str, ratings: MatchRatings) -> list[Outgoing]:
        """The match ended with no result; those who left it keep their losses, and their
        rating changes are said as a finished match's are."""
        t = translator(game.language)
        if not by:
            text = t("Everybody at the table is away, so the game ends with no result.")
        else:
            text = t("{name} stopped the game. Nobody wins it.", name=by)
        return [Outgoing("\n".join([with_leavers(t, text, game, ratings),
                                    *unfinished_seed_lines(t, game)]))]

    def topic_gone(self, game: Game, deleted: bool, ratings: MatchRatings,
                   topic: str | None = None) -> list[Outgoing]:
        """Said in the General topic: which game ended there (by its topic's name, when the
        bot knows it: a forum may play several games at once), and why (and, as at a stop,
        how its leavers' ratings moved). A table that had not started is closed, not
        ended."""
        t = translator(game.language)
        names = {"game": title(t, game.game_name), "topic": named(shorten(topic or "", 40))}
        started = game.status is not Status.LOBBY and game.match is not None
        text = t(_TOPIC_GONE[started, deleted, bool(topic)], **names)
        return [Outgoing("\n".join([with_leavers(t, text, game, ratings),
                                    *unfinished_seed_lines(t, game)]))]

    def replaced(self, game: Game, leaving: Player, newcomer: Player, away: bool = False
                 ) -> list[Outgoing]:
        """A computer took a seat: its player left (/leave), or seemed ``away`` and the offer
        to hand the seat on was answered (said why, as the offer's question was)."""
        t = translator(game.language)
        if away:
            return [Outgoing(t(SEAT_HANDED, name=who(leaving), computer=named(newcomer.name)))]
        return [Outgoing(t("{computer} takes the seat of {name} and plays on for them.",
                           computer=named(newcomer.name), name=named(leaving.name)))]

    def returned(self, game: Game, person: Player, computer: Player) -> list[Outgoing]:
        """A person took back the seat a computer was handed while they were away."""
        t = translator(game.language)
        return [Outgoing(t(RETURNED, name=who(person), computer=named(computer.name)))]

    def announcements(self, game: Game, events: Sequence[Event]) -> list[Outgoing]:
        t = translator(game.language)
        out: list[Outgoing] = []
        match = game.match
        assert match is not None
        # Points, draws and cuts are told in the table's caption: see bot.presentation.movetexts.
        for event in events:
            # Called before the next hand is dealt, so the current hand is the one that ended.
            if isinstance(event, HandEnded):
                view = table_view(match)
                out.append(Outgoing(fit_caption(hand_result_text(t, game, event, view)),
                                    buttons=hand_result_buttons(t, game, view),
                                    drawing=self.pictures.hand_result_drawing(game, view)))
        return out  # the match's end: see match_end

    def match_end(self, game: Game, ended: MatchEnded, ratings: MatchRatings
                  ) -> list[Outgoing]:
        t = translator(game.language)
        match = game.match
        assert match is not None
        again = ((t("🔁 Play again"), PlayAgain(game.game_id).encode()),)
        view = table_view(match)
        # A seat a computer took: the person who sat there has a row of their own with the
        # rating change they keep, as the caption says it (player QA: the picture showed the
        # computer alone, then put the person's loss on the computer's, the winner's, row).
        replaced = [(seat, name, change, (name, change) in ratings.away)
                    for seat, name, change in ratings.handed_on]
        return [Outgoing(fit_caption(match_result_text(t, game, ended, view, ratings)),
                         buttons=(again,),
                         drawing=self.pictures.match_end_drawing(game, view, ratings.seats,
                                                                 replaced))]


def with_leavers(t: Translator, text: str, game: Game, ratings: MatchRatings) -> str:
    """``text`` of a match stopped with no result, and below it how the loss each leaver
    keeps moved their rating (the seats' changes are None: a stop moves nobody else)."""
    if not ratings.leavers and not ratings.away:
        return text
    return f"{text}\n{rating_line(t, game.game_name, game.names, ratings)}"


def hand_result_buttons(t: Translator, game: Game, view: TableView
                        ) -> tuple[tuple[tuple[str, str], ...], ...]:
    """Under a hand's result, one row: its replay, and its deal's check, sent privately to
    whoever taps it (for a deal made from a seed)."""
    row = [(t(REPLAY_BUTTON), ReplayHand(game.game_id, view.hand_number).encode())]
    if view.seed is not None:
        row.append((t("🔍 Check the deal"), CheckDeal(game.game_id, view.hand_number).encode()))
    return (tuple(row),)
