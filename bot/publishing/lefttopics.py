"""A game's lobby and table left in its forum topic once the topic was closed to the bot (the
game ended for it, and moved to General): a bot may edit its messages in a closed topic, not
post there, so they are brought to show the end in place, without their buttons, as any
ended game's are (QA: the table still said whose turn it was, with live buttons), and never
posted anew. A deleted topic's are forgotten at the stop (:meth:`GameService.topic_gone`)."""

from __future__ import annotations

from ..models import Game
from .messenger import Draft, Messenger


def left_in_topic(game: Game) -> bool:
    """Whether the game's group messages are those left in its closed topic."""
    return game.messages.topic_gone


async def edit_left_lobby(messenger: Messenger, game: Game, draft: Draft,
                          thread_id: int | None) -> bool:
    """The lobby left in the closed topic shows ``draft`` (the table closed, or the game
    started); whether the game's messages changed."""
    messages = game.messages
    if messages.lobby is None or messages.lobby_key == draft.key or thread_id != game.thread_id:
        return False  # (drafted for the topic before the stop: the stop's sync drafts anew)
    if not await messenger.edit(game.chat_id, messages.lobby, draft):
        messages.lobby = None  # gone
    messages.lobby_key = draft.key
    return True


async def edit_left_table(messenger: Messenger, game: Game, draft: Draft, number: int,
                          thread_id: int | None) -> bool:
    """The table left in the closed topic shows ``draft`` (of hand ``number``: the game
    stopped); an earlier hand's table, the next hand's not posted yet, loses its buttons.
    Whether the game's messages changed."""
    messages = game.messages
    message_id = messages.table_message
    if message_id is None or thread_id != game.thread_id:
        return False  # (drafted for the topic before the stop: the stop's sync drafts anew)
    if messages.table_hand == number and await messenger.edit(
            game.chat_id, message_id, draft, messages.table_key):
        messages.table_key = draft.stored
        return True
    if messages.table_hand != number:
        await messenger.retire(game.chat_id, message_id, delete=False)
    if messages.table_message == message_id:  # (done with: gone, or an earlier hand's)
        messages.table_message = None
    return True
