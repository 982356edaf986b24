"""The half-time nudge in a player's private chat.

The warning that half a turn's time is gone edits the group's table and nothing else, and an
edit notifies nobody: a player who looked away learnt of their turn running out only from
the time-out (player QA). A short message in their private chat notifies them; it is deleted
once the turn has passed, so their chat keeps only their tiles.
"""

from __future__ import annotations

from collections.abc import Callable

from telegram.error import TelegramError

from ..gamemessages import Reminder
from ..i18n import Translator, translator
from ..models import Game, Status
from .messenger import Messenger


def due_seat(game: Game) -> int | None:
    """The seat to be nudged now: a person's whose turn is past its half-time warning and
    whose private chat the bot can write to."""
    match = game.match
    if (game.status is not Status.PLAYING or not game.timer.warned or not game.turn_seconds
            or match is None or match.to_move is None):
        return None
    seat = match.to_move
    player = game.players[seat]
    if player.is_computer or seat in game.messages.announced_unreachable:
        return None
    return seat


async def sync_reminders(messenger: Messenger, game: Game, languages: list[str | None],
                         now: float, way_back: Callable[[Translator], str]) -> bool:
    """Delete each nudge whose turn has passed and send the one due, saying the time left at
    ``now`` (a flood wait may have taken some of the half) and, by ``way_back``, which table
    it is (a player at two tables had two nudges alike); whether the game's messages changed
    (the caller saves them). A nudge is forgotten only once deleted (a
    deletion Telegram did not answer raises, and the next sync tries again); one that
    cannot be sent is not sent again this turn: the time-out plays for the player."""
    messages = game.messages
    due, move_no = due_seat(game), game.move_no  # (read before any wait: moves go on)
    changed = False
    for seat, reminder in list(messages.reminders.items()):
        if seat != due or reminder.move_no != move_no:
            if reminder.message_id:
                await messenger.delete(reminder.user_id, reminder.message_id)
            if messages.reminders.get(seat) is reminder:
                del messages.reminders[seat]
            changed = True
    if due is None or due in messages.reminders:
        return changed
    player = game.players[due]
    language = languages[due] if due < len(languages) else None
    t = translator(language or game.language)
    left = game.turn_seconds / 2 if game.deadline is None else game.deadline - now
    seconds = max(1, round(left))
    text = "\n".join(filter(None, [
        t.plural("⏳ Your turn: {count} second left, then I move for you.",
                 "⏳ Your turn: {count} seconds left, then I move for you.", seconds),
        way_back(t)]))
    try:
        sent = await messenger.send(player.user_id, text, None, None)
    except TelegramError:
        sent = 0  # (none to delete; not tried again this turn)
    messages.reminders[due] = Reminder(sent, move_no, player.user_id)
    return True
