"""A person's private chat that Telegram does not find (400 "chat not found": the account
deleted, a user id of an old database the bot never met since): as good as a chat whose
person blocked the bot. :class:`PrivateChatGoneError` is a ``Forbidden``, so that whatever
handles a blocked player handles this one too: their seat waits, the group is told once,
"My tiles" or /start brings it back (operator QA: each such send was an ERROR and a
traceback naming neither chat nor cause, retried, on every start)."""

from __future__ import annotations

from telegram.error import BadRequest, Forbidden


class PrivateChatGoneError(Forbidden):
    """Telegram does not find the private chat with ``chat_id``."""

    def __init__(self, chat_id: int, refusal: str) -> None:
        super().__init__(refusal)
        self.chat_id = chat_id


def private_chat_gone(chat_id: int, error: BaseException) -> bool:
    """Whether Telegram's refusal says that the private chat ``chat_id`` (a person's: a
    group's is :func:`.messenger.chat_gone`) is not found."""
    return chat_id > 0 and isinstance(error, BadRequest) \
        and "chat not found" in error.message.lower()
