"""A way back to a seat ("↩ Take my seat back") that no longer works loses its button, and its
words say why: the seat taken back (in an old hand's picture that cannot be deleted, as past
the 48 hours a bot may), or the seat no longer theirs to take (left with /leave since)."""

from __future__ import annotations

from bot_kit import Group, plain
from test_e2e_away import hand_budi_over
from test_e2e_back_offers import NEWER, PLACE, newest_offer
from test_e2e_leave_stop import leave
from test_e2e_take_back import BACK, the_offer

from fakeapi import StoredMessage

#: Telegram's refusal past the 48 hours a bot may delete a message in.
TOO_OLD = "Bad Request: message can't be deleted for everyone"


def refused_delete(group: Group, message: StoredMessage) -> bool:
    """Whether the bot's deleteMessage of ``message`` (in a private chat) was refused."""
    return [r.status for r in group.server.requests_for("deleteMessage", message.chat)
            if r.params.get("message_id") == message.message_id] == [400]


async def back_by_a_newer_offer(group: Group) -> tuple[StoredMessage, str]:
    """Budi, away, his seat handed on, is offered the way back in his last hand's picture,
    then again (/hand) in a message of its own, whose button he taps: the first offer, and
    its button's data (a client may still show it)."""
    budi = group.users[1]
    await hand_budi_over(group)
    farewell = await the_offer(group, budi)
    data = farewell.buttons[0][0].callback_data or ""
    sent = budi.send_private("/hand")
    newest = await newest_offer(group, budi, sent.message_id)
    await group.server.wait_for(lambda: plain(farewell.content) == NEWER)
    tap = budi.press(newest, BACK)
    await group.server.wait_for(lambda: tap.answered)
    assert group.game().players[1].user_id == budi.id
    return farewell, data


async def test_a_tapped_offer_that_cannot_be_deleted_says_the_seat_was_taken_back(
        group: Group) -> None:
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        robot = await hand_budi_over(group)
        offer = await the_offer(group, budi)
        await runtime.publisher.idle()
        group.server.fail_next("deleteMessage", chat=budi.private_chat, description=TOO_OLD)
        tap = budi.press(offer, BACK)
        await group.server.wait_for(lambda: tap.answered)
        await group.server.wait_for(lambda: offer.button_texts == [], message="its button")
        assert refused_delete(group, offer)
        assert not offer.deleted and plain(offer.content) == (
            f"✅ You took your seat back from {plain(robot.name)}. Your tiles come below.")


async def test_an_old_picture_offer_tapped_once_the_seat_is_back_says_so(
        group: Group) -> None:
    """The seat back, a tap on the old offer (a client still showing its button) deletes
    it; where it cannot be deleted, its words say the seat is his again."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        farewell, data = await back_by_a_newer_offer(group)
        await runtime.publisher.idle()
        group.server.fail_next("deleteMessage", chat=budi.private_chat, description=TOO_OLD)
        late = budi.press_raw(farewell, data)
        await group.server.wait_for(lambda: late.answered)
        await group.server.wait_for(lambda: plain(farewell.content) != NEWER)
        assert refused_delete(group, farewell)
        assert not farewell.deleted and plain(farewell.content) == (
            "✅ Your seat is yours again: your tiles are in the newest message.\n" + PLACE)


async def test_an_offer_tapped_after_a_leave_says_it_is_closed(group: Group) -> None:
    """Back, then gone with /leave: the seat is no longer his to take back."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05) as runtime:
        farewell, data = await back_by_a_newer_offer(group)
        await leave(group, budi)
        await runtime.publisher.idle()
        late = budi.press_raw(farewell, data)
        await group.server.wait_for(lambda: late.answered)
        await group.server.wait_for(lambda: plain(farewell.content) != NEWER)
        assert not farewell.deleted and farewell.button_texts == []
        assert plain(farewell.content) == "This offer is no longer open.\n" + PLACE
