"""A player away, their seat handed to a computer by the creator: what the group and the
player read of it (not a leave), "Play again" seating them again in place of the computer
that stood in, and the offer's button taken away once the game is over."""

from __future__ import annotations

import time

from bot_kit import Group, plain
from test_e2e_offers import time_out_until_away

from bot.models import Player, SeatChange, Status
from fakeapi import StoredMessage
from fakeapi.players import Table


async def hand_budi_over(group: Group) -> Player:
    """Budi lets his time run out until he seems away, and Ayu, the creator, hands his seat
    to a computer player: the computer."""
    ayu = group.users[0]
    await group.start("gaple target=1")  # one hand decides the match
    offer = await time_out_until_away(group, 1)
    tap = ayu.press(offer, offer.buttons[0][0].callback_data or "")
    await group.server.wait_for(lambda: tap.answered)
    stand_in = group.game().players[1]
    assert stand_in.is_computer
    # The group hears it once (player QA: the offer edited to say it, and an announcement
    # "Rio takes the seat of Budi" below it): the answered offer goes, as an answered /stop
    # does, and the announcement says why and who plays now. (Before: the offer stayed.)
    news = (f"Budi ran out of time three turns in a row and seemed to be away: {stand_in.name} "
            "plays their seat now.")
    await group.server.wait_for(lambda: group.said(news) and offer.deleted,
                                message="no single word of the hand-over")
    assert sum(news in plain(m.content) or "takes the seat of Budi" in plain(m.content)
               for m in group.messages() if not m.deleted) == 1
    return stand_in


async def play_to_the_result(group: Group) -> StoredMessage:
    ayu, _budi, sergei, thora = group.users[:4]
    await Table(group.server, [ayu, sergei, thora]).play_until(group.match_over)
    return await group.server.wait_for(lambda: next(
        (m for m in group.server.bot_messages(group.chat)
         if m.content.startswith("The match is over")), None))


async def test_the_away_player_is_told_why_a_computer_has_their_seat(group: Group) -> None:
    budi = group.users[1]
    async with group.bot(computer_pause=0.05):
        stand_in = await hand_budi_over(group)
        note = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.content.startswith("🤖") and "seat" in m.content), None))
        assert plain(note.content) == (
            f"🤖 Your time ran out three turns in a row, so your seat was handed to "
            f"{stand_in.name.removeprefix('🤖 ')}, who plays it for now. Back? Tap “↩ Take my "
            "seat back” while the match is on. If the table plays again (“🔁 Play again”), "
            "your seat there is kept for you.\n"
            "↩ The table is in the group Domino evening.")  # which one (QA: two tables)
        assert note.button_texts == ["↩ Take my seat back"]  # (bot.service.returns)


async def test_the_groups_table_names_the_computer_at_once(group: Group) -> None:
    """Player QA: the table showed the away player's name (and the partner's hand its old
    partner) until the next move, a seat changing no move number."""
    async with group.bot(computer_pause=30):  # its move waits: the table is read first
        stand_in = await hand_budi_over(group)
        table_id = group.game().messages.table_message
        table = next(m for m in group.messages() if m.message_id == table_id)
        await group.server.wait_for(lambda: plain(stand_in.name) in plain(table.content))


async def test_the_player_on_turn_reads_the_computers_name_in_the_same_message(
        group: Group) -> None:
    """Player QA: the hand message of the player whose turn it was kept naming the away
    player until they moved. It is edited (a new message would notify them again)."""
    server = group.server
    async with group.bot(computer_pause=30) as runtime:
        stand_in = await hand_budi_over(group)
        game = group.game()
        on_turn = game.match.to_move  # type: ignore[union-attr]
        assert on_turn not in (None, 1)
        user = group.users[on_turn]
        await server.wait_for(lambda: any(
            plain(stand_in.name) in plain(m.content) for m in server.bot_messages(
                user.private_chat) if m.photo and not m.deleted))
        await runtime.publisher.idle()
        hands = [m for m in server.bot_messages(user.private_chat) if m.photo and not m.deleted]
        now = hands[-1]
        assert now.message_id == game.messages.hands[on_turn].message_id
        def counts(caption: str | None) -> str:  # (the moves since name who made them)
            return next(line for line in plain(caption or "").splitlines()
                        if line.startswith("Tiles in hand"))

        assert "Budi" in counts(now.versions[0].caption)  # sent before, edited since
        assert f" · {plain(stand_in.name)} " in counts(now.caption)


async def test_the_away_player_back_in_private_is_told_why_no_tiles_come(group: Group) -> None:
    """A /start, plain or from the group's "My tiles" link, is not greeted as a newcomer's."""
    budi = group.users[1]
    async with group.bot(computer_pause=0.05):
        await hand_budi_over(group)
        for command in ("/start", f"/start hand{group.game().game_id}"):
            sent = budi.send_private(command)
            answer = await group.server.wait_for(lambda s=sent: next(  # type: ignore[misc]
                (m for m in group.server.bot_messages(budi.private_chat)
                 if m.message_id > s.message_id and not m.photo), None))
            assert plain(answer.content).startswith(  # and the way back (its button)
                "🤖 Your time ran out three turns in a row, so your seat was handed to ")
            assert answer.button_texts == ["↩ Take my seat back"]


async def test_a_start_from_an_away_player_seated_at_another_table_sends_those_tiles(
        group: Group) -> None:
    """The table where they still play comes first (review: they were told of the seat
    they lost, and got no tiles)."""
    budi, sergei = group.users[1], group.users[2]
    async with group.bot(computer_pause=0.05) as runtime:
        await hand_budi_over(group)
        chat = group.server.add_group("Second", members=[budi, sergei], admins=[budi])
        other = Group(group.server, chat, [budi, sergei], group.database, group.seeds)
        other.runtime = runtime
        await other.start("kolbasa", players=2)
        await runtime.publisher.idle()
        sent = budi.send_private("/start")
        hand = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(budi.private_chat)
             if m.message_id > sent.message_id and m.photo), None), message="no tiles")
        assert "Second" in plain(hand.content)
        await runtime.publisher.idle()
        assert not [m for m in group.server.bot_messages(budi.private_chat)
                    if m.message_id > sent.message_id and "took your seat" in m.content]


async def test_the_result_says_the_away_player_was_replaced_not_that_they_left(
        group: Group) -> None:
    async with group.bot(computer_pause=0.05):
        await hand_budi_over(group)
        words = plain((await play_to_the_result(group)).content)
        assert "Budi (replaced by a computer while away) " in words  # (still a loss: README)
        assert "left the match" not in words


async def test_play_again_seats_the_away_player_not_the_computer_that_stood_in(
        group: Group) -> None:
    ayu, budi, sergei, thora = group.users[:4]
    async with group.bot(computer_pause=0.05):
        await hand_budi_over(group)
        first = group.game()
        result = await play_to_the_result(group)
        again = sergei.press(result, "🔁 Play again")
        await group.server.wait_for(lambda: again.answered)
        rematch = group.service.open_game_in(group.chat.id)
        assert rematch is not None and rematch.game_id != first.game_id
        # The seats turned one place, Budi in his own, the computer that stood in gone.
        assert [p.name for p in rematch.players] == ["Budi", "Sergei", "Þóra", "Ayu"]
        assert set(rematch.pending) == {budi.id, thora.id, ayu.id}
        back = budi.press(result, "🔁 Play again")  # his tap confirms his seat, as Join would
        await group.server.wait_for(lambda: back.answered)
        assert back.answer_text == "You joined the game."
        assert budi.id not in rematch.pending


def test_a_seat_change_stored_before_the_away_mark_reads_as_a_leave() -> None:
    ayu = Player(7, "Ayu")
    assert SeatChange.from_json([2, 0, 5, [7, "Ayu"]]) == SeatChange(2, 0, 5, ayu)
    assert SeatChange(2, 0, 5, ayu).to_json() == [2, 0, 5, [7, "Ayu"]]
    away = SeatChange(2, 0, 5, ayu, away=True)
    assert SeatChange.from_json(away.to_json()) == away


async def test_the_away_offer_loses_its_button_when_the_game_ends(group: Group) -> None:
    """Both people away: the first one's offer is left untapped, the second's stops the game
    with no result; the offer keeps its words and loses its button."""
    ayu = group.users[0]
    async with group.bot(computer_pause=0.05) as runtime:
        await group.open_table("matador", players=2)
        lobby = group.lobby()
        await group.server.wait_for(lambda: "🤖 + normal" in str(lobby.button_texts))
        for label in ("🤖 + normal", "▶ Start"):
            record = ayu.press(lobby, label)
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        game = group.game()
        assert game.status is Status.PLAYING
        while game.status is Status.PLAYING:
            seat = game.match.to_move  # type: ignore[union-attr]
            if seat is not None and not game.players[seat].is_computer:
                async with runtime.locks.game(game.game_id):
                    game.deadline = time.time()
                    await runtime.service.expire(game, game.move_no)
            else:  # the computer's move, made by its timer
                moved = game.move_no
                await group.server.wait_for(lambda m=moved: game.move_no != m)  # type: ignore[misc]
        assert game.status is Status.STOPPED
        await group.server.wait_for(
            lambda: group.said("Everybody at the table is away, so the game ends"))
        offer = next(m for m in group.server.bot_messages(group.chat)
                     if "seems to be away" in (m.text or ""))
        await group.server.wait_for(lambda: not offer.buttons)
        assert "seems to be away" in (offer.text or "")
        await runtime.publisher.idle()
        assert group.game().messages.offers == []


def _away_offer(group: Group) -> StoredMessage:
    return next(m for m in group.server.messages(group.chat, include_deleted=True)
                if m.from_bot and "seems to be away" in (m.versions[0].text or ""))


def _calls_on(group: Group, message: StoredMessage) -> list[str]:
    """The Bot API methods the bot called on ``message`` (in the group), in order."""
    return [r.method for r in group.server.requests_for(chat=group.chat)
            if r.params.get("message_id") == message.message_id]


async def test_the_deleted_offer_costs_no_call_when_the_game_ends(group: Group) -> None:
    """Review: the answered offer, deleted, stayed among the game's offers, and the match's
    end spent an editMessageReplyMarkup on a message no longer there."""
    async with group.bot(computer_pause=0.05) as runtime:
        await hand_budi_over(group)
        offer = _away_offer(group)
        assert group.game().messages.offers == []
        await play_to_the_result(group)
        await runtime.publisher.idle()
        assert _calls_on(group, offer) == ["deleteMessage"]


async def test_an_offer_past_its_deletion_says_who_took_the_seat(group: Group) -> None:
    """Past the 48 hours a bot may delete a message, the answered offer's words say the seat
    was handed on (its "can hand the seat" would read as still open), and it loses its button,
    so the game's end has nothing left to do there."""
    ayu = group.users[0]
    async with group.bot(computer_pause=0.05) as runtime:
        await group.start("gaple target=1")
        offer = await time_out_until_away(group, 1)
        await runtime.publisher.idle()
        group.server.fail_next("deleteMessage", chat=group.chat,
                               description="Bad Request: message can't be deleted for everyone")
        tap = ayu.press(offer, offer.buttons[0][0].callback_data or "")
        await group.server.wait_for(lambda: tap.answered)
        stand_in = group.game().players[1]
        assert tap.answer_text == "A computer player takes the seat."
        await group.server.wait_for(lambda: "plays their seat now" in (offer.text or ""))
        assert plain(offer.text or "") == (
            f"Budi ran out of time three turns in a row and seemed to be away: "
            f"{plain(stand_in.name)} plays their seat now.")
        assert not offer.buttons and not offer.deleted
        await play_to_the_result(group)
        await runtime.publisher.idle()
        assert _calls_on(group, offer) == ["deleteMessage", "editMessageText"]


async def test_a_second_tap_on_the_offer_hears_the_seat_was_handed_already(
        group: Group) -> None:
    """Review: a tap racing the first (come before the offer was deleted) was told the away
    player was at the table and played on."""
    ayu = group.users[0]
    async with group.bot(computer_pause=30):
        await group.start("gaple target=1")
        offer = await time_out_until_away(group, 1)
        data = offer.buttons[0][0].callback_data or ""
        taps = [ayu.press(offer, data), ayu.press(offer, data)]
        await group.server.wait_for(lambda: all(tap.answered for tap in taps))
        assert sorted(tap.answer_text or "" for tap in taps) == [
            "A computer player already plays that seat.", "A computer player takes the seat."]
