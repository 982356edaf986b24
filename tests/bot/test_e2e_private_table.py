"""Play from one place (issue 24): the private turn message carries the table as the group
sees it, /table and the "Table" button bring the group's table down to the bottom of the chat
(one live table message a game), the player's own knock is told once, in order, and a win is
celebrated with a message effect in the winner's private chat."""

from __future__ import annotations

import itertools
import re

from bot_kit import Group, plain

from bot.models import Status
from bot.publishing.cheers import WIN_EFFECT
from engine import table_view
from fakeapi import StoredMessage


def table_message(group: Group) -> StoredMessage:
    game = group.game()
    assert game.messages.table_message is not None
    return group.server.message(group.chat, game.messages.table_message)


def live_tables(group: Group) -> list[StoredMessage]:
    """The group's messages that still carry the table's buttons."""
    return [m for m in group.server.bot_messages(group.chat)
            if not m.deleted and "⬇ Table" in m.button_texts]


async def moved_below(group: Group, old: StoredMessage, after: StoredMessage) -> StoredMessage:
    """Wait until the table has left ``old`` for a message newer than ``after``."""
    game = group.game()
    await group.server.wait_for(lambda: (game.messages.table_message or 0) > after.message_id
                                and old.deleted)
    await group.runtime.publisher.idle()  # type: ignore[union-attr]
    return table_message(group)


async def said_below(group: Group, table: StoredMessage) -> None:
    """Someone's command in the group, and the bot's answer, below the table."""
    group.send(group.users[3], "/rules gaple")
    await group.server.wait_for(lambda: group.server.bot_messages(group.chat)[-1].message_id
                                > table.message_id)


async def talked(group: Group) -> None:
    """Someone says something plain in the group, and the bot receives it: it reads the
    group in full (privacy mode would have hidden that)."""
    said = group.send(group.users[4], "good luck, all")
    tails = group.runtime.publisher.group.tails  # type: ignore[union-attr]
    await group.server.wait_for(lambda: tails.newest(group.chat.id, None) == said.message_id)
    assert tails.reads_all(group.chat.id)


async def test_table_comes_down_from_the_group_and_stays_live(group: Group) -> None:
    async with group.bot():
        table = await group.start("gaple")
        await table.play_one()
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        old = table_message(group)
        assert old.button_texts == ["👀 My tiles", "⬇ Table"]
        talk = group.send(group.users[1], "/table")
        new = await moved_below(group, old, talk)
        assert new.photo and new.button_texts == ["👀 My tiles", "⬇ Table"]
        assert new.caption == old.caption  # the same table, only lower down
        # one live table a game
        assert [m.message_id for m in live_tables(group)] == [new.message_id]
        # The bot keeps editing the new one: a move changes it in place.
        sends = len(group.server.requests_for("sendPhoto", group.chat))
        await table.play_one()
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        assert table_message(group).message_id == new.message_id and new.caption != old.caption
        assert len(group.server.requests_for("sendPhoto", group.chat)) == sends
        # The private hands' way back to the table names the new message's group.
        hand = next(m for m in group.server.bot_messages(group.users[0].private_chat)
                    if not m.deleted and m.photo)
        assert "⬇ Table" in hand.button_texts


async def test_table_comes_down_from_private_and_from_both_buttons(group: Group) -> None:
    group.server.world.privacy_mode = False  # the bot reads the group: it knows what is last
    async with group.bot():
        await talked(group)
        table = await group.start("gaple")
        await table.play_one()
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        # /table in private: the player's game's table, in its group.
        old = table_message(group)
        ayu = group.users[0]
        asked = ayu.send_private("/table")
        reply = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(ayu.private_chat)
             if m.message_id > asked.message_id and not m.photo), None))
        assert reply.text == "Your table is at the bottom of the group now."
        new = await moved_below(group, old, old)
        group.runtime.publisher.group.reposts.repost_gap = 0.0  # type: ignore[union-attr]
        # The button on a private hand: the table is the group's last message already...
        hand = next(m for m in reversed(group.server.bot_messages(group.users[1].private_chat))
                    if not m.deleted and m.photo)
        record = group.users[1].press(hand, "⬇ Table")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == ("The table is already the last message in the group, as "
                                      "far as I can see. To post it again anyway, send /table.")
        # ... until the group talks below it.
        await said_below(group, new)
        record = group.users[1].press(hand, "⬇ Table")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "The table is at the bottom of the group now."
        newer = await moved_below(group, new, new)
        # The button beside "My tiles", pressed by anyone in the group.
        await said_below(group, newer)
        record = group.users[2].press(newer, "⬇ Table")
        await group.server.wait_for(lambda: record.answered)
        newest = await moved_below(group, newer, newer)
        assert [m.message_id for m in live_tables(group)] == [newest.message_id]
        # Someone who does not play: /table in private says so.
        outsider = group.users[4]
        asked = outsider.send_private("/table")
        answer = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(outsider.private_chat)
             if m.message_id > asked.message_id), None))
        assert answer.text == "You are not playing a game right now."


async def test_table_in_a_group_without_a_game_says_so(group: Group) -> None:
    async with group.bot():
        asked = group.send(group.users[0], "/table")
        answer = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if m.message_id > asked.message_id), None))
        assert answer.text == "No game is being played here: /newgame opens a table."


async def test_the_turn_message_shows_the_table_as_the_group_sees_it(group: Group) -> None:
    async with group.bot():
        table = await group.start("gaple")
        for _ in range(6):
            await table.play_one()
        _user, message = await group.server.wait_for(table.whose_turn)
        caption = message.caption or ""
        game = group.game()
        assert game.match is not None
        laid = [f"{t.first}-{t.second}" for t in table_view(game.match).layout.line]
        line = re.search(r"^Line: ((?:\d+-\d+ ?)+)\.$", caption, re.M)
        assert line, caption
        tiles = line.group(1).split()
        assert tiles == laid and len(tiles) >= 2
        # The line's halves meet: each tile's second half is the next one's first.
        assert all(a.split("-")[1] == b.split("-")[0] for a, b in itertools.pairwise(tiles))
        ends = re.search(r"^Open ends: (\d+) and (\d+)\.$", caption, re.M)
        assert ends and (ends.group(1), ends.group(2)) == (tiles[0].split("-")[0],
                                                           tiles[-1].split("-")[1])
        assert re.search(r"^Tiles in hand: .+\.$", caption, re.M)
        assert re.search(r"^Score: ", caption, re.M)
        assert "⬇ Table" in message.button_texts


async def test_a_knock_is_told_once_in_order_among_the_moves(group: Group) -> None:
    async with group.bot(computer_pause=0.05):
        table = await group.start("gaple")
        game = group.game()

        def knocked_turn() -> bool:
            """A player's turn whose message tells a knock made for them."""
            turn = table.whose_turn()
            return turn is not None and "so I knocked for you" in (turn[1].caption or "")

        await table.play_until(lambda: knocked_turn() or game.status is not Status.PLAYING)
        assert knocked_turn(), "no knock in the whole match"
        user, message = table.whose_turn()  # type: ignore[misc]
        seat = group.users.index(user)
        caption = plain(message.caption or "")
        lines = caption.splitlines()
        bullets = [line for line in lines if line.startswith("• ")]
        assert caption.count("so I knocked for you") == 1, caption
        # In order: the bullets are the moves since the player last chose one themselves.
        assert game.match is not None
        history = game.match.hand.moves
        chosen = [i for i, (mover, action) in enumerate(history)
                  if mover == seat and type(action).__name__ not in ("Knock", "Draw")]
        since = history[chosen[-1] + 1 if chosen else 0:]
        assert len(bullets) == len(since), caption
        for bullet, (mover, _action) in zip(bullets, since, strict=True):
            if mover == seat:
                assert bullet == "• You could not lay a tile, so I knocked for you.", caption
            else:
                assert bullet.startswith("• " + game.players[mover].name), caption
        # Never in a waiting message: said once, in the turn's list.
        for other in group.server.bot_messages(user.private_chat):
            for version in other.versions:
                text = version.caption or ""
                if "so I knocked for you" in text:
                    assert "Since your last turn:" in text, text


async def test_the_winner_is_cheered_in_private_with_a_message_effect(group: Group) -> None:
    async with group.bot():
        table = await group.start("gaple target=10")
        await table.play_until(group.match_over)
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        game = group.game()
        assert game.status is Status.FINISHED and game.match is not None
        result = game.match.result
        assert result is not None and result.winner is not None
        winners = {game.players[s].user_id for s in game.match.sides[result.winner]}
    cheers = [r for r in group.server.requests if r.params.get("message_effect_id")]
    assert cheers and all(r.ok and r.method == "sendMessage" for r in cheers)
    assert all(r.params["message_effect_id"] == WIN_EFFECT for r in cheers)
    assert sorted(r.chat_id for r in cheers) == sorted(winners)  # each winner once, privately
    for user in group.users[:4]:
        said = [plain(m.text) for m in group.server.bot_messages(user.private_chat)
                if m.text and "You won the match" in m.text]
        # (and which match: a player may be at two tables)
        assert said == ([f"🎉 You won the match. Well played!\n↩ The table is in the group "
                         f"{group.chat.title}."] if user.id in winners else [])


async def test_the_table_already_last_is_not_posted_again(group: Group) -> None:
    """QA: "⬇ Table" pressed on a table that is the group's last message posted it again
    anyway, for whoever pressed it. /table, a message below the table, still brings it.
    Only a bot seen to read every message of the group can tell (privacy mode off, and it
    received a plain message there)."""
    group.server.world.privacy_mode = False
    async with group.bot() as rt:
        await talked(group)
        table = await group.start("gaple")
        await table.play_one()
        await rt.publisher.idle()
        old = table_message(group)
        sends = len(group.server.requests_for("sendPhoto", group.chat))
        for user in group.users[1:4]:
            record = user.press(old, "⬇ Table")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
            assert record.answer_text == (
                "The table is already the last message in the group, as far as I can see. "
                "To post it again anyway, send /table.")
        await rt.publisher.idle()
        assert len(group.server.requests_for("sendPhoto", group.chat)) == sends
        assert not old.deleted and table_message(group) is old
        talk = group.send(group.users[1], "/table")
        await moved_below(group, old, talk)


async def test_a_group_never_seen_read_in_full_gets_the_table_down(group: Group) -> None:
    """The bot's privacy mode is off, but it has received nothing privacy mode would have
    hidden in this group (privacy mode applies as it was when the bot joined, and no bot
    receives other bots' messages): it cannot tell that the table is last, so the button
    brings it down."""
    group.server.world.privacy_mode = False
    async with group.bot() as rt:
        table = await group.start("gaple")
        await table.play_one()
        await rt.publisher.idle()
        old = table_message(group)
        assert not rt.publisher.group.tails.reads_all(group.chat.id)
        record = group.users[1].press(old, "⬇ Table")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "The table is at the bottom of the group now."
        await moved_below(group, old, old)


async def test_in_privacy_mode_the_button_always_brings_the_table_down(group: Group) -> None:
    """A bot in privacy mode (Telegram's default) sees no talk below its table, so it cannot
    tell that the table is still last: "⬇ Table" brings it down, as people expect after
    talking, and the gap keeps a row of presses to one post."""
    async with group.bot() as rt:
        table = await group.start("gaple")
        await table.play_one()
        await rt.publisher.idle()
        old = table_message(group)
        group.send(group.users[2], "nice one, Budi")  # below the table, never delivered
        record = group.users[1].press(old, "⬇ Table")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == "The table is at the bottom of the group now."
        await moved_below(group, old, old)


async def test_the_table_is_posted_again_at_most_once_in_a_moment(group: Group) -> None:
    """One /table after another: the second waits for the gap after the first re-post (a
    /table or a tap meanwhile is told so), and every request in the gap comes to one post."""
    async with group.bot() as rt:
        rt.publisher.group.reposts.repost_gap = 5.0  # (the asserts below fit in it at ease)
        table = await group.start("gaple")
        await table.play_one()
        await rt.publisher.idle()
        old = table_message(group)
        first = await moved_below(group, old, group.send(group.users[1], "/table"))
        sends = len(group.server.requests_for("sendPhoto", group.chat))
        for user in group.users[2:4]:
            asked = group.send(user, "/table")
            told = await group.server.wait_for(lambda a=asked: next(  # type: ignore[misc]
                (m for m in group.server.bot_messages(group.chat)
                 if m.message_id > a.message_id and not m.photo), None))
            assert told.text == "The table comes down to the bottom of the group in a few seconds."
        record = group.users[4].press(first, "⬇ Table")
        await group.server.wait_for(lambda: record.answered)
        assert record.answer_text == ("The table comes down to the bottom of the group in a "
                                      "few seconds.")
        await rt.publisher.idle()
        assert table_message(group) is first and not first.deleted  # not yet
        await moved_below(group, first, told)
        await rt.publisher.idle()
        assert len(group.server.requests_for("sendPhoto", group.chat)) == sends + 1


async def test_a_game_let_go_forgets_its_table_waiting_to_come_down(group: Group) -> None:
    """A fleet worker gives the game's shard away (or the game leaves memory): the table
    asked to come down after the gap is not posted by this process, and no gap is kept."""
    async with group.bot() as rt:
        reposts = rt.publisher.group.reposts
        reposts.repost_gap = 60.0
        table = await group.start("gaple")
        await table.play_one()
        await rt.publisher.idle()
        old = table_message(group)
        first = await moved_below(group, old, group.send(group.users[1], "/table"))
        game = group.game()
        assert rt.table_down(game) > 0  # waits for the gap
        assert reposts.asked(game.game_id) and game.game_id in reposts.moved_at
        rt.publisher.tables.forget([game.game_id])
        assert not reposts.asked(game.game_id) and game.game_id not in reposts.moved_at
        assert not rt.publisher.tables._coming_down
        assert rt.table_down(game) == 0  # (asked anew: no gap kept)
        await moved_below(group, first, first)
