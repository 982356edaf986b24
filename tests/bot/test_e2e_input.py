"""Whatever a user types, the bot answers within Telegram's limits, says what is allowed, and
reads no number it was not given; pictures are uploaded only when their bytes change."""

from __future__ import annotations

from bot_kit import Group

from bot.i18n import translator
from bot.presentation.lobbytexts import games_list
from fakeapi import FakeUser


def last_reply(group: Group, user: FakeUser | None = None) -> str:
    chat = group.chat if user is None else user.private_chat
    message = group.server.last_bot_message(chat)
    return "" if message is None else message.text or message.caption or ""


async def test_a_huge_game_name_is_quoted_short(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/newgame " + "x" * 4087)
        await group.server.wait_for(lambda: group.said("I don't know the game"))
    text = last_reply(group)
    assert len(text) < 300 and "x" * 31 + "…" in text and "x" * 40 not in text
    assert games_list(translator("en")) in text


async def test_rules_of_an_unknown_game_say_so_and_list_the_games(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/rules nosuch")
        await group.server.wait_for(lambda: group.said("There is no game called nosuch"))
        text = last_reply(group)
        assert games_list(translator("en")) in text
        group.users[0].send(group.chat, "/rules pair")
        await group.server.wait_for(lambda: last_reply(group) != text)
    assert "nosuch" not in last_reply(group)


async def test_a_table_number_with_a_leading_zero_is_no_table(group: Group) -> None:
    ayu, budi = group.users[:2]
    async with group.bot():
        ayu.send_private("/start")
        ayu.send(group.chat, "/newgame gaple")
        await group.server.wait_for(group._lobby_or_none)
        for payload in ("join01", "join0", "join" + "9" * 30, "hand01"):
            budi.open_deep_link(payload)
            await group.server.wait_for(
                lambda: "does not name a table" in last_reply(group, budi),
                message=payload)
            budi.send_private("hi")  # the next reply must be a new one
            await group.server.wait_idle()
        assert budi.id not in group.lobby().mentioned_user_ids
        budi.open_deep_link(f"join{group.game().game_id}")
        await group.server.wait_for(lambda: budi.id in group.lobby().mentioned_user_ids)


async def test_a_huge_target_is_refused_with_what_is_allowed(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/newgame pair target=99999999999999999999999999")
        await group.server.wait_for(lambda: group.said("target is a whole number from"))
        assert group.service.open_game_in(group.chat.id) is None


async def test_a_huge_scoreboard_filter_is_quoted_short(group: Group) -> None:
    async with group.bot():
        group.users[0].send(group.chat, "/scoreboard " + "y" * 4000)
        await group.server.wait_for(lambda: group.said("I don't know the filter"))
    assert len(last_reply(group)) < 300


async def test_stop_changes_captions_without_uploading_the_same_pictures(group: Group) -> None:
    ayu = group.users[0]
    async with group.bot():
        table = await group.start("pair")
        await table.play_one()
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        await group.server.wait_idle()
        media_before = len(group.server.requests_for("editMessageMedia"))
        shown = {(m.chat.id, m.message_id): m.photo.file_unique_id
                 for chat in [group.chat, *(u.private_chat for u in group.users[:4])]
                 for m in group.server.bot_messages(chat) if m.photo is not None}
        ayu.send(group.chat, "/stop")
        ask = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Yes, stop the game" in str(m.button_texts)), None))
        done = ayu.press(ask, "Yes, stop the game")
        await group.server.wait_for(lambda: done.answered)
        await group.server.wait_for(lambda: group.said("The game was stopped."))
        await group.runtime.publisher.idle()  # type: ignore[union-attr]
        await group.server.wait_idle()
    uploads = group.server.requests_for("editMessageMedia")[media_before:]
    for upload in uploads:  # a picture goes up again only when its bytes differ
        key = (upload.chat_id, upload.params["message_id"])
        now = group.server.message(group.server.world.chats[key[0]], key[1]).photo
        assert now is not None and now.file_unique_id != shown[key]
    captions = group.server.requests_for("editMessageCaption")
    assert group.chat.id in {r.chat_id for r in captions}  # the table: its caption alone
    assert len(uploads) + len({r.chat_id for r in captions} - {group.chat.id}) == 4
