"""A player whose seat went to a computer while away is offered the way back in private each
time they reach for their old seat, yet only the newest offer has a live button (player QA:
four copies, each with "↩ Take my seat back", and every one kept it after the seat was back
or the match was over): the older ones lose it, and all of them once the seat is theirs
again or the match is over, a restart in between or not."""

from __future__ import annotations

from bot_kit import Group, plain
from test_e2e_away import hand_budi_over, play_to_the_result
from test_e2e_take_back import BACK, the_offer

from bot.presentation.tilebuttons import TileIntent, TileTap
from engine import Tile
from fakeapi import FakeUser, StoredMessage

#: Which table, as each offer says (a person may play at two).
PLACE = "↩ The table is in the group Domino evening."
#: An offer's words once a newer one holds the button.
NEWER = "This offer is no longer open: the newest one is below.\n" + PLACE


def not_inviting(group: Group, user: FakeUser) -> bool:
    """Whether no message of ``user``'s private chat invites a tap on "↩ Take my seat back"
    without having the button (player QA: the offers that lost it still said "Tap ...")."""
    return all(BACK in m.button_texts for m in group.server.bot_messages(user.private_chat)
               if not m.deleted and BACK in m.content)


def live_offers(group: Group, user: FakeUser) -> list[StoredMessage]:
    """The messages of ``user``'s private chat whose "↩ Take my seat back" still works."""
    return [m for m in group.server.bot_messages(user.private_chat)
            if not m.deleted and BACK in m.button_texts]


async def newest_offer(group: Group, user: FakeUser, after: int) -> StoredMessage:
    """The offer sent (or edited in place: ``after`` is then its own id minus one) after
    message ``after``, once it is the only live one."""
    return await group.server.wait_for(lambda: next(
        (m for m in live_offers(group, user) if m.message_id > after
         and len(live_offers(group, user)) == 1), None), message="no single live offer")


async def test_each_new_offer_replaces_the_last_and_taking_back_clears_them_all(
        group: Group) -> None:
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        robot = await hand_budi_over(group)
        game = group.game()
        farewell = await the_offer(group, budi)  # (his last hand, edited into the offer)
        await runtime.publisher.idle()
        table = next(m for m in group.messages()
                     if m.message_id == game.messages.table_message)
        mine = budi.press(table, "👀 My tiles")
        await group.server.wait_for(lambda: mine.answered)
        second = await newest_offer(group, budi, farewell.message_id)
        # Its words go with its button (player QA: "Tap ↩ Take my seat back" stayed under
        # no button); the newest offer says why.
        await group.server.wait_for(lambda: plain(farewell.content) == NEWER)
        assert farewell.button_texts == [] and robot.name not in farewell.content
        sent = budi.send_private("/hand")
        third = await newest_offer(group, budi, sent.message_id)
        await group.server.wait_for(lambda: plain(second.content) == NEWER)
        assert second.button_texts == []
        # A tile of his old hand: that message offers it again, and is the live one.
        tile = TileTap(game.game_id, game.move_no - 1, Tile(0, 1), TileIntent.CHOOSE_END)
        old = budi.press_raw(farewell, tile.encode())
        await group.server.wait_for(lambda: old.answered)
        await newest_offer(group, budi, farewell.message_id - 1)
        await group.server.wait_for(lambda: third.button_texts == [])
        await runtime.publisher.idle()
        assert live_offers(group, budi) == [farewell] and plain(third.content) == NEWER
    async with group.bot(computer_pause=0.05) as runtime:  # (a restart keeps them)
        # (in his old hand's picture: its caption is edited when it closes)
        assert group.game().messages.back_offers == {budi.id: {farewell.message_id: True}}
        fourth = budi.send_private("/hand")
        offer = await newest_offer(group, budi, fourth.message_id)
        await group.server.wait_for(lambda: farewell.button_texts == [])
        tap = budi.press(offer, BACK)
        await group.server.wait_for(lambda: tap.answered)
        assert group.game().players[1].user_id == budi.id
        await runtime.publisher.idle()
        assert live_offers(group, budi) == []
        assert group.game().messages.back_offers == {}
        assert not_inviting(group, budi)


async def test_the_match_over_without_him_clears_every_offer(group: Group) -> None:
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        await hand_budi_over(group)
        farewell = await the_offer(group, budi)
        await runtime.publisher.idle()
        assert live_offers(group, budi) == [farewell]
        sent = budi.send_private("/hand")
        newest = await newest_offer(group, budi, sent.message_id)
        await play_to_the_result(group)
        await runtime.publisher.idle()
        assert live_offers(group, budi) == []
        assert group.game().messages.back_offers == {}
        assert plain(farewell.content) == NEWER
        assert plain(newest.content) == (  # (its words say why, with its button gone)
            "This match is over: your seat can no longer be taken back.\n" + PLACE)
        assert not_inviting(group, budi)


async def test_a_text_offer_closes_in_one_call(group: Group) -> None:
    """Review: the sync closed every offer as one of unknown kind, a caption's edit first,
    refused ("no caption") for an offer sent as a message of its own, then its text's."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        await hand_budi_over(group)
        await the_offer(group, budi)
        sent = budi.send_private("/hand")
        newest = await newest_offer(group, budi, sent.message_id)
        assert not newest.photo
        assert group.game().messages.back_offers[budi.id][newest.message_id] is False
        await play_to_the_result(group)
        await runtime.publisher.idle()
        assert plain(newest.content).startswith("This match is over")
        calls = [r.method for r in group.server.requests_for(chat=budi.private_chat)
                 if r.params.get("message_id") == newest.message_id]
        assert calls == ["editMessageText"]
