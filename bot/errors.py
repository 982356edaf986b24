"""The bot's one exception hierarchy. Each error carries a message id from the catalogue, so
what a user sees is always a translated sentence, never a traceback."""

from __future__ import annotations


class BotError(Exception):
    """Base of every error the bot raises on purpose."""


class ConfigError(BotError):
    """A setting is missing or malformed; the bot stops with one clear line."""


class UserError(BotError):
    """Something a user asked for cannot be done; ``message`` is a catalogue msgid.

    ``params`` fill the message's named placeholders after translation.
    """

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params = params


class StorageError(BotError):
    """The database is unusable (for example a schema newer than this code)."""
