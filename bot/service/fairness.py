"""Checking a hand's deal: who may see the check that "🔍 Check the deal" and /verify show.

The check itself is the engine's (:func:`engine.check_deal`), made again from the stored match,
never from what a caption said. A hand still being played is refused (its seed is secret until
it ends), and so is a hand of a match stored before deals had seeds.
"""

from __future__ import annotations

from engine import DealCheck, HandNotOverError, NoSeedError, check_deal

from ..errors import OutOfDateError, UserError
from ..i18n import N_
from ..models import Game
from .memory import GameMemory

#: How many of a player's games /verify looks through for their hands.
RECENT_GAMES = 5
#: How many earlier hands /verify offers as buttons.
EARLIER_HANDS = 8

HAND_GOING_ON = N_("That hand is still being played: its seed stays secret until it ends.")
NO_SEED = N_("That hand was dealt before deals had seeds, so it has no seed to check.")
NOT_YOURS = N_("You can check the hands of your own games here, or any hand with the button "
               "in the group where it was played.")


def hand_check(game: Game, number: int) -> DealCheck:
    """The check of hand ``number`` (from 0) of ``game``'s match; :class:`UserError` when it
    cannot be checked: still being played, or dealt without a seed."""
    match = game.match
    if match is None or not 0 <= number < len(match.hands):
        raise OutOfDateError()
    try:
        return check_deal(match, number)
    except HandNotOverError:
        raise UserError(HAND_GOING_ON) from None
    except NoSeedError:
        raise UserError(NO_SEED) from None


def check_for(game: Game, number: int, user_id: int, chat_id: int | None) -> DealCheck:
    """The check a user asked for, from a button in ``chat_id`` (None: the private chat):
    of a game they played, or from the group where it was played (the group saw the seed)."""
    if not game.played_by(user_id) and chat_id != game.chat_id:
        raise UserError(NOT_YOURS)
    return hand_check(game, number)


async def checkable_hands(memory: GameMemory, user_id: int, limit: int = EARLIER_HANDS + 1
                          ) -> list[tuple[Game, int]]:
    """The finished hands of the user's recent games (at most ``limit``), newest first: what
    /verify shows (the first) and offers (the rest). A hand dealt before deals had seeds is
    among them: its check says so."""
    found: list[tuple[Game, int]] = []
    for game in await memory.played_games(user_id, RECENT_GAMES):
        found += [(game, n) for n in reversed(game.finished_hands)]
        if len(found) >= limit:
            break
    return found[:limit]
