"""An away player back at the table: the offer to hand their seat to a computer goes, as an
answered offer does (player QA: its "seems to be away" and its working button stayed until the
match ended, a tap answered only "That player is at the table and plays on."), after a
restart too; an offer for another seat still away stays."""

from __future__ import annotations

import time

from bot_kit import Group, plain
from test_e2e_offers import table_message, time_out_until_away

from bot.gamemessages import Messages
from bot.models import AWAY_AFTER, Status
from fakeapi import StoredMessage
from fakeapi.players import Table


def _offer_of(group: Group, name: str) -> StoredMessage:
    return next(m for m in group.server.messages(group.chat, include_deleted=True)
                if m.from_bot and f"{name} ran out of time three turns in a row and seems"
                in plain(m.versions[0].text or ""))


async def _time_out(group: Group) -> None:
    """The player to move lets their time run out (made due at once, as the timer does)."""
    runtime, game = group.runtime, group.game()
    assert runtime is not None
    async with runtime.locks.game(game.game_id):
        game.deadline = time.time()
        await runtime.service.expire(game, game.move_no)


async def _play_until_seat_plays(group: Group, seat: int) -> None:
    """Every seat but ``seat`` plays on (the away ones time out), until ``seat``'s player
    plays a tile of their own."""
    game = group.game()
    others = Table(group.server, [u for s, u in enumerate(group.users[:4])
                                  if s != seat and s not in game.timer.away])
    while True:
        assert game.status is Status.PLAYING, "the match ended first"
        to_move = game.match.to_move  # type: ignore[union-attr]
        if to_move == seat:
            await Table(group.server, [group.users[seat]]).play_one()
            return
        if to_move in game.timer.away:
            await _time_out(group)
        else:
            await others.play_one()


async def test_the_offer_goes_once_its_player_is_back(group: Group) -> None:
    async with group.bot() as runtime:
        await group.start("pair")
        offer = await time_out_until_away(group, 2)  # Sergei
        await runtime.publisher.idle()
        assert group.game().messages.offer_seats == {offer.message_id: 2}
        await _play_until_seat_plays(group, 2)
        await group.server.wait_for(lambda: group.said("Sergei is back and plays on."))
        await group.server.wait_for(lambda: offer.deleted, message="the offer stayed")
        await runtime.publisher.idle()
        messages = group.game().messages
        assert (messages.offers, messages.offer_seats) == ([], {})


async def test_an_offer_past_its_deletion_says_the_player_is_back(group: Group) -> None:
    """Past the 48 hours a bot may delete a message, the offer says the player is back and
    loses its button; a tap sent before that (its data) is refused as before."""
    ayu = group.users[0]
    async with group.bot() as runtime:
        await group.start("pair")
        offer = await time_out_until_away(group, 2)
        data = offer.buttons[0][0].callback_data or ""
        await runtime.publisher.idle()
        group.server.fail_next("deleteMessage", chat=group.chat,
                               description="Bad Request: message can't be deleted for everyone")
        await _play_until_seat_plays(group, 2)
        await group.server.wait_for(lambda: not offer.buttons, message="the offer kept its button")
        assert plain(offer.text or "") == "Sergei is back and plays on."
        assert not offer.deleted
        late = ayu.press_raw(offer, data)
        await group.server.wait_for(lambda: late.answered)
        assert late.answer_text == "That player is at the table and plays on."
        assert not group.game().players[2].is_computer
        await runtime.publisher.idle()
        assert group.game().messages.offers == []


async def test_after_a_restart_the_back_players_offer_goes_and_the_other_stays(
        group: Group) -> None:
    """Budi and Sergei both seem away; the bot restarts; Sergei plays: his offer goes (its
    seat was stored with the game's messages), Budi's, who is still away, keeps its button."""
    async with group.bot() as runtime:
        await group.start("pair")
        game = group.game()
        others = Table(group.server, [group.users[0], group.users[3]])
        while not (group.said("Budi ran out of time") and group.said("Sergei ran out of time")):
            assert game.status is Status.PLAYING, "the match ended before both were away"
            if game.match.to_move in (1, 2):  # type: ignore[union-attr]
                await _time_out(group)
            else:
                await others.play_one()
        await runtime.publisher.idle()
    budi, sergei = _offer_of(group, "Budi"), _offer_of(group, "Sergei")
    stored = Messages.from_json(group.game().messages.to_json())
    assert stored.offer_seats == {budi.message_id: 1, sergei.message_id: 2}
    async with group.bot() as runtime:
        await _play_until_seat_plays(group, 2)
        await group.server.wait_for(lambda: sergei.deleted, message="Sergei's offer stayed")
        await runtime.publisher.idle()
        assert not budi.deleted and budi.buttons
        assert group.game().messages.offers == [budi.message_id]


async def test_the_offer_comes_below_the_table_that_shows_the_move_that_made_it(
        group: Group) -> None:
    """Player QA: "Sergei … seems to be away" was posted just before the table's edit that
    showed his third timed-out move: the table is edited first, the offer follows it."""
    async with group.bot() as runtime:
        await group.start("pair")
        game = group.game()
        others = Table(group.server, [u for s, u in enumerate(group.users[:4]) if s != 2])
        while not (game.match.to_move == 2  # type: ignore[union-attr]
                   and game.timer.timeouts.get(2) == AWAY_AFTER - 1):
            assert game.status is Status.PLAYING, "the match ended first"
            if game.match.to_move == 2:  # type: ignore[union-attr]
                await _time_out(group)
            else:
                await others.play_one()
        await runtime.publisher.idle()
        table = await table_message(group)
        hand = game.match.hand.number  # type: ignore[union-attr]
        before = len(group.server.requests_for(chat=group.chat))
        await _time_out(group)  # the third: he seems away
        await group.server.wait_for(lambda: group.said("seems to be away"))
        await runtime.publisher.idle()
        assert game.match.hand.number == hand  # type: ignore[union-attr]
        calls = [(r.method, r.params.get("message_id"), "seems to be away" in str(
            r.params.get("text", ""))) for r in group.server.requests_for(chat=group.chat)]
        offer = next(i for i, call in enumerate(calls) if call[2])
        edit = next(i for i, (method, message_id, _) in enumerate(calls)
                    if i >= before and method.startswith("edit")
                    and str(message_id) == str(table.message_id))
        assert edit < offer, calls[before:]


def test_messages_stored_before_the_offers_seats_load_with_none() -> None:
    old = '{"offers": [41, 42]}'
    loaded = Messages.from_json(old)
    assert (loaded.offers, loaded.offer_seats) == ([41, 42], {})
    assert Messages.from_json(loaded.to_json()) == loaded
