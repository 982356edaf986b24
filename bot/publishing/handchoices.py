"""The hands channel's questions in place: a player's hand message while they pick an end
for a tile (or confirm a tile put face down), and back at their tiles, edited out of the
game's lock so that one private chat's flood wait holds back no other player's tap."""

from __future__ import annotations

from collections.abc import Callable

from telegram import InlineKeyboardMarkup

from engine import PlayerView, Tile

from ..gamemessages import HandMessage
from ..i18n import Translator
from ..models import Game, Status
from ..presentation import captions
from ..presentation.painter import Urgency
from ..presentation.pictures import PictureMaker
from ..service import GameService
from ..service.locks import Locks
from .messenger import Draft, Messenger, key_of

#: After a turn's stored key while its player is picking how a tile goes (see
#: :func:`.handsync._shows`).
CHOOSING = ":C"


class HandChoices:
    """Edits a seat's hand message for the choice its player is making."""

    def __init__(self, messenger: Messenger, service: GameService, pictures: PictureMaker,
                 locks: Locks, request: Callable[[int], None],
                 table_link: Callable[[Translator, Game], str]) -> None:
        self.messenger = messenger
        self.service = service
        self.pictures = pictures
        self.locks = locks
        self._request = request  # the publisher's: sync a game soon
        self._table_link = table_link  # the hands' way back to the table

    async def show(self, game: Game, view: PlayerView, t: Translator, choosing: Tile | None,
                   markup: InlineKeyboardMarkup, move_no: int) -> None:
        """Edit the seat's hand message while its player picks an end (or confirms a dead
        tile) for ``choosing``, or back at their tiles, at move ``move_no``: the caption says
        which tile, the picture raises it alone (or every playable tile again). Its stored
        key keeps what the turn shows (no sync sends it again) with the digest of the
        picture now shown, so that the next edit knows whether the picture must change.

        Called without the game's lock, which is held only to read the game and to store
        what the edit showed: the edit may wait out this chat's flood limit, and the other
        players' taps must not wait with it (QA). The seat's hand lock keeps its edits one
        at a time (a second tap's question, a sync's edit), so the key stored says what the
        message shows."""
        seat, user_id = view.seat, game.players[view.seat].user_id
        async with self.locks.hand(game.game_id, seat):
            async with self.locks.game(game.game_id):
                current = game.messages.hands.get(seat)
                if current is None or not _choosing(game, seat, user_id, move_no):
                    return  # (the move, or the message sent anew, asked for a sync)
                turn = (key_of(current.key) or "").removesuffix(CHOOSING)
                caption = captions.hand_caption(t, game, view, choosing,
                                                self._table_link(t, game))
                with self.pictures.hands_of(game.game_id):
                    drawing = self.pictures.hand_drawing(view, t.language, choosing)
            draft = await self.messenger.drawn(
                Draft(turn + (CHOOSING if choosing is not None else ""), caption, markup,
                      drawing=drawing), Urgency.HAND)
            edited = await self.messenger.edit(user_id, current.message_id, draft,
                                               current.key)
            async with self.locks.game(game.game_id):
                await self._choice_shown(game, seat, user_id, move_no, current,
                                         draft if edited else None)
        if choosing is None:  # back at the tiles: a link that changed meanwhile is put right
            self._request(game.game_id)

    async def _choice_shown(self, game: Game, seat: int, user_id: int, move_no: int,
                            edited: HandMessage, draft: Draft | None) -> None:
        """Store what the choice's edit of the seat's hand message ``edited`` showed
        (``draft``; None: the message was gone), if the game is still where it was asked
        and the message still the seat's: else the next sync shows what is current (the
        move or the message sent anew asked for it; asked again here, to be sure)."""
        now = game.messages.hands.get(seat)
        if now == edited and _choosing(game, seat, user_id, move_no):
            if draft is not None and draft.stored != edited.key:
                game.messages.hands[seat] = HandMessage(edited.message_id, draft.stored)
                await self.service.save_messages(game)
            return
        if draft is not None and now is not None and now.message_id == edited.message_id:
            # The game moved on while the edit waited (a timer played, a /stop): the
            # message shows the question of a turn gone. Stored as what it shows, so that
            # the sync edits it (its picture too) to what is current.
            game.messages.hands[seat] = HandMessage(edited.message_id, draft.stored)
        self._request(game.game_id)


def _choosing(game: Game, seat: int, user_id: int, move_no: int) -> bool:
    """Whether the person in ``seat`` (``user_id``) still chooses their move ``move_no``:
    the game is still played at that move, and it is still that seat's turn."""
    match = game.match
    return game.status is Status.PLAYING and game.move_no == move_no and match is not None \
        and match.to_move == seat and game.players[seat].user_id == user_id
