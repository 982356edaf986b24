"""The bot's one exception hierarchy. Each refusal carries a message id from the catalogue, so
what a user sees is always a translated sentence, never a traceback.

The service refuses with :class:`UserError` (a msgid and its parameters), or with one of its
typed kinds below where a handler needs more than a sentence: whose turn it is, or which
private-chat link to offer. Handlers decode, call the service and word its answer.
"""

from __future__ import annotations

from typing import ClassVar

from .i18n import N_


class BotError(Exception):
    """Base of every error the bot raises on purpose."""


class ConfigError(BotError):
    """A setting is missing or malformed; the bot stops with one clear line."""


class UserError(BotError):
    """Something a user asked for cannot be done; ``message`` is a catalogue msgid.

    ``params`` fill the message's named placeholders after translation. The typed refusals
    below are keyed by ``code`` and bring their own message.
    """

    code: ClassVar[str] = "refused"

    def __init__(self, message: str, **params: object) -> None:
        super().__init__(message)
        self.message = message
        self.params = params


class NotPlayingError(UserError):
    """The user has no seat in the game the request is about."""

    code = "not_playing"

    def __init__(self, message: str = N_("You are not playing in this game.")) -> None:
        super().__init__(message)


class SeatHandedOnError(NotPlayingError):
    """The user played in the game, but a computer player has their seat now: they left it,
    or it was handed on while they were away."""

    code = "seat_handed_on"

    def __init__(self, away: bool, seat: int | None = None) -> None:
        if seat is not None:  # (they may take it back: bot.service.returns)
            super().__init__(N_(
                "A computer player took your seat while you were away and plays it for now: "
                "“↩ Take my seat back” in our private chat gives it back to you."))
        else:
            super().__init__(N_(
                "A computer player took your seat while you were away and plays on. If the "
                "table plays again (“🔁 Play again”), your seat there is kept for you.")
                if away else N_("You left this game: a computer player plays your seat now."))
        #: The seat they may take back now, None when they may not.
        self.seat = seat


class GameOverError(UserError):
    """The game is no longer being played."""

    code = "game_over"

    def __init__(self) -> None:
        super().__init__(N_("This game is over."))


class OutOfDateError(UserError):
    """The button was made for a position, message or game that has moved on."""

    code = "out_of_date"

    def __init__(self) -> None:
        super().__init__(N_("That button is out of date."))


class SupersededError(UserError):
    """A finished match's "Play again" after a newer game opened in its place: only the
    latest result's starts a table (an old one would open a table its players left long
    ago, and take the place from the latest)."""

    code = "superseded"

    def __init__(self) -> None:
        super().__init__(N_("A newer game has been played here since: use the latest "
                            "result's 🔁 Play again, or /newgame."))


class NotYourTurnError(UserError):
    """Another seat is to move: ``to_move_name`` names its player as it goes into a text
    (isolated, :func:`bot.wording.isolated`), None when nobody is to move."""

    code = "not_your_turn"

    def __init__(self, to_move_name: str | None = None) -> None:
        if to_move_name is None:
            super().__init__(N_("It is not your turn."))
        else:
            super().__init__(N_("It is {name}'s turn; I will write when it is yours."),
                             name=to_move_name)
        self.to_move_name = to_move_name


class PrivateChatClosedError(UserError):
    """The bot cannot write to the user in private yet, and must before this can be done:
    ``payload`` is the /start parameter of the link that opens the chat and then does it
    (``join<game>`` takes the seat, ``hand<game>`` sends the tiles)."""

    code = "private_chat_closed"

    def __init__(self, payload: str) -> None:
        super().__init__(N_("Open {link} and press Start: then I can send you your tiles."))
        self.payload = payload


class StorageError(BotError):
    """The database is unusable (for example a schema newer than this code)."""
