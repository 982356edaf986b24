"""A plain text written to the bot in private: the bot reads commands only, and such a text
went unanswered, as if the bot were down ("hi, what do I do?" mid-game; "hello?" with no
game: QA). One line answers it, in the writer's language: where their tiles are, or
where to begin. Groups send the bot no such text (privacy mode)."""

from __future__ import annotations

from telegram import Update
from telegram.ext import ContextTypes

from ..i18n import N_, Translator
from ..models import Game, Status
from ..presentation import keyboards
from .runtime import runtime
from .start import seated_text, told_why_left
from .updates import reply, tr

#: At one table, not their turn.
TILES_ABOVE = N_("Your tiles are in my message above. It is not your turn yet: I will write "
                 "when it is.")
#: At one table, their turn.
YOUR_TURN = N_("It is your turn: tap a marked tile in my message above.")
#: No table: what the bot answers, and how to begin.
NO_GAME = N_("I answer commands only: /help lists them. To play, add me to a group and type "
             "/newgame there.")


def _my_turn(game: Game, user_id: int) -> bool:
    seat = game.seat_of(user_id)
    return game.match is not None and seat is not None and game.match.to_move == seat


def tiles_text(t: Translator, playing: list[Game], user_id: int) -> str:
    """Where the tiles of someone playing at ``playing`` (one table or more) are, and
    whether it is their turn."""
    turns = sum(_my_turn(game, user_id) for game in playing)
    if len(playing) == 1:
        return t(YOUR_TURN if turns else TILES_ABOVE)
    text = t.plural("Your tiles are in my messages above, one for each of your {count} table.",
                    "Your tiles are in my messages above, one for each of your {count} tables.",
                    len(playing))
    if turns:
        text += " " + t.plural("It is your turn at {count} of them: tap a marked tile there.",
                               "It is your turn at {count} of them: tap a marked tile there.",
                               turns)
    return text


async def private_text_handler(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    """A person's plain text in private (not a command, an edit, a forward nor a bot's):
    one answer."""
    user, message = update.effective_user, update.message
    if user is None or user.is_bot or message is None or not message.text:
        return
    rt, t = runtime(context), tr(update)
    games = await rt.service.read_games_of_user(user.id)
    playing = [g for g in games if g.status is Status.PLAYING]
    if playing:
        await reply(update, tiles_text(t, playing, user.id))
        return
    waiting = [g for g in games if g.status is Status.LOBBY and user.id not in g.pending]
    if waiting:  # as /start says it
        await reply(update, await seated_text(rt, t, waiting))
        return
    if await told_why_left(update, rt, t, user.id):  # as /start: not "add me to a group"
        return
    await reply(update, t(NO_GAME), reply_markup=keyboards.add_to_group(t, rt.bot_username))
