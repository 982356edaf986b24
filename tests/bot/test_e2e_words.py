"""What groups still felt at the table (issue 24), read through Telegram: a rule said once, a
Bergen hand's +2 with its reason, draws and the move they led to on one line, every
name kept to itself, two /newgame at once, /settings page by page, and the words each
language's readers asked for."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from bot_kit import Group, counting_seeds, lobby_button, plain
from test_e2e_hand_reasons import Script

import engine.match
from bot.service.settings import GroupSettings
from bot.wording import FSI, PDI
from engine import Deal, Tile
from fakeapi import FakeTelegramServer
from fakeapi.players import Table


def everything_said(group: Group) -> list[str]:
    """Every version of every group message (captions are edited in place), as read."""
    return [plain(v.caption or v.text or "") for m in group.messages() for v in m.versions]


def tiles(text: str) -> tuple[Tile, ...]:
    return tuple(Tile(int(t[0]), int(t[2])) for t in text.split())


async def speak(group: Group, language: str) -> None:
    assert group.runtime is not None
    await group.runtime.storage.save_chat_settings(
        group.chat.id, GroupSettings(language=language).to_json())


# --- 9. two /newgame at the same moment -----------------------------------------------------
async def test_two_newgames_at_the_same_moment_read_what_the_first_opened(group: Group) -> None:
    """Both updates reach the bot in one batch and are handled concurrently: the second
    sender waits for the chat's lock, then reads that a table is open, as if sent after."""
    ayu, budi = group.users[:2]
    async with group.bot():
        group.send(ayu, "/newgame gaple")
        group.send(budi, "/newgame gaple")
        await group.server.wait_for(lambda: group._lobby_or_none() is not None
                                    and group.said("A table is already open here"))
        await group.server.wait_idle(quiet=0.2)
    assert not group.said("A game is already running")
    assert len([t for t in group.texts() if "a new table" in t]) == 1


# --- 12. Matador's set ----------------------------------------------------------------------
async def test_matador_answers_a_set_it_does_not_play_with_the_set_it_does(group: Group) -> None:
    async with group.bot():
        group.send(group.users[0], "/newgame matador set=9")
        await group.server.wait_for(lambda: group.said("Matador is played with"))
    assert group.said("Matador is played with the double-6 set only.")
    assert not group.said("set is 6.")


# --- 5. every name isolated ------------------------------------------------------------------
ARABIC = "عبد الرحمن"
RLO = "\N{RIGHT-TO-LEFT OVERRIDE}"
# As each player typed their name -> as every text must write it (between FSI and PDI): an
# override left open stays (the PDI ends it), a stray PDI goes (it would end the isolate early),
# a long name is shortened inside its isolates.
WRITTEN = {"Budi": "Budi", ARABIC: ARABIC, f"Eve{PDI}{RLO}lyn": f"Eve{RLO}lyn",
           "Ä" * 30: "Ä" * 23 + "…"}


@pytest.fixture
def mixed(telegram: FakeTelegramServer, tmp_path: Path) -> Group:
    users = [telegram.add_user(name, language_code="en") for name in WRITTEN]
    chat = telegram.add_group("Domino evening", members=users, admins=users[:1])
    return Group(telegram, chat, users, tmp_path / "bot.sqlite3", counting_seeds())


def everything_read(group: Group) -> list[str]:
    """Every text anyone read from the bot: each version of each message in the group and in
    the players' private chats, their buttons, and the answers to their taps."""
    chats = [group.chat, *(user.private_chat for user in group.users)]
    versions = [v for chat in chats for m in group.server.bot_messages(chat) for v in m.versions]
    texts = [v.caption or v.text or "" for v in versions]
    texts += [button.text for v in versions for row in v.buttons for button in row]
    return texts + [tap.answer_text or "" for tap in group.server.world.callbacks.values()]


def assert_isolated_once(texts: list[str]) -> None:
    for text in texts:
        assert FSI + FSI not in text and PDI + PDI not in text, text
        assert text.count(FSI) == text.count(PDI), text
        for typed, written in WRITTEN.items():
            assert text.count(written) == text.count(FSI + written + PDI), text
            assert typed == written or typed not in text, text


async def test_every_name_is_isolated_once_wherever_it_is_written(mixed: Group) -> None:
    async with mixed.bot():
        table = await mixed.start("gaple target=1")  # the first hand decides the match
        await table.play_until(mixed.match_over)
        mixed.send(mixed.users[0], "/scoreboard")
        await mixed.server.wait_for(lambda: mixed.said("Scoreboard"))
    read = everything_read(mixed)
    assert_isolated_once(read)
    said = [v.caption or v.text or "" for m in mixed.messages() for v in m.versions]
    for written in WRITTEN.values():  # each is written in the group, isolated
        assert any(FSI + written + PDI in text for text in said), written
    assert not any("Ä" * 24 in text for text in read)
    lobby = next(t for t in said if "Players (4)" in t)
    assert f"1. {FSI}Budi{PDI}\n" in lobby and f"2. {FSI}{ARABIC}{PDI}" in lobby
    # The Arabic name starts lines of the table's moves: its isolate keeps them left-to-right.
    lines = [line for text in said for line in text.splitlines()]
    assert any(line.startswith(f"{FSI}{ARABIC}{PDI} ") for line in lines)
    score = next(line for line in lines if line.startswith("Score:"))
    assert f"{FSI}Budi{PDI} " in score and f"{FSI}{ARABIC}{PDI} " in score
    # A mention links the name alone: its isolates stay outside the link.
    version = next(v for m in mixed.messages() for v in m.versions
                   if "Players (4)" in (v.text or ""))
    units = (version.text or "").encode("utf-16-le")
    linked = [units[2 * e["offset"]: 2 * (e["offset"] + e["length"])].decode("utf-16-le")
              for e in version.entities if e["type"] == "text_mention"]
    assert linked and linked[0] == "Budi"


async def test_names_in_tap_answers_and_stats_are_isolated(mixed: Group) -> None:
    async with mixed.bot():
        await mixed.open_table("gaple", players=3)
        lobby, creator = mixed.lobby(), mixed.users[0]
        seated = creator.press(lobby, f"a:{mixed.game().game_id}:1")  # a computer: 4th seat
        await mixed.server.wait_for(lambda: seated.answered)
        start = creator.press(lobby, lobby_button(lobby, "s") or "")
        await mixed.server.wait_for(lambda: start.answered)
        user, _ = await mixed.server.wait_for(Table(mixed.server, mixed.users[:3]).whose_turn)
        other = mixed.users[(mixed.users.index(user) + 1) % 3]
        hand = await mixed.server.wait_for(lambda: next(  # (it may come after the first's)
            (m for m in reversed(mixed.server.bot_messages(other.private_chat)) if m.photo), None))
        tile = next(b for row in hand.buttons for b in row if b.callback_data)
        refused = other.press(hand, tile.text)
        await mixed.server.wait_for(lambda: refused.answered)
        mixed.users[3].send_private("/stats")
        await mixed.server.wait_for(lambda: any(
            "has not finished a match" in (m.text or "")
            for m in mixed.server.bot_messages(mixed.users[3].private_chat)))
    assert (seated.answer_text or "").startswith(FSI)
    assert (refused.answer_text or "").startswith("It is " + FSI)
    assert_isolated_once(everything_read(mixed))


# --- 11. /settings page by page -------------------------------------------------------------
async def test_settings_show_each_games_house_rules_on_its_own_page(group: Group) -> None:
    ayu = group.users[0]
    async with group.bot():
        ayu.send(group.chat, "/settings")
        menu = await group.server.wait_for(lambda: next(
            (m for m in group.server.bot_messages(group.chat)
             if "Settings of this group" in (m.text or "")), None))
        first = menu.text or ""
        assert "Every game is played by its own rules here." in first
        assert "Deal:" not in first and "Target:" not in first and len(first) < 400

        async def tap(label: str) -> None:
            record = ayu.press(menu, label)
            await group.server.wait_for(lambda: record.answered)

        await tap("Gaple with dead tiles …")
        assert "Deal: 6 each (5 with five players), the rest in the middle" in (menu.text or "")
        assert "Kolbasa" not in (menu.text or "")  # one game a page
        await tap("Deal: 6 each (5 with five players), the rest in the middle")
        await tap("7 each, none in the middle")
        await tap("↩ Back")
        assert "House rules changed for: Gaple with dead tiles." in (menu.text or "")


# --- 10 and 3. Bergen's blocked hand; draws and the move they led to -------------------------
# Found by playing random lays: three players block; only Ayu (seat 0) holds no double.
BERGEN = {
    "deal": ("2-6 1-5 5-6 0-0 1-2 2-4", "2-2 0-1 1-3 3-5 0-2 6-6", "4-6 4-4 3-4 1-4 4-5 0-4"),
    "stock": "2-5 3-6 0-6 1-1 0-3 3-3 2-3 1-6 0-5 5-5",
    "actions": [("0-0", ""), ("0-1", "left"), ("0-4", "right"), ("1-5", "left"),
                ("3-5", "left"), ("4-6", "right"), ("5-6", "right"), ("1-3", "left"),
                ("1-4", "left"), ("2-4", "left"), ("0-2", "left"), ("4-5", "right"),
                ("3-4", "right"), ("0-6", "left"), ("6-6", "left"), ("2-6", "left"),
                ("2-2", "left"), ("0-3", "right"), ("2-5", "left")],
}


@pytest.fixture
def bergen_deal(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    deal = Deal(tuple(tiles(hand) for hand in BERGEN["deal"]), (), 0, None,
                tiles(str(BERGEN["stock"])))
    monkeypatch.setattr(engine.match, "seeded_deal", lambda *args, **kwargs: deal)
    return {"deal": [hand.split() for hand in BERGEN["deal"]],
            "stock": str(BERGEN["stock"]).split(),
            "actions": [{"play": tile, "end": end} if end else {"play": tile}
                        for tile, end in BERGEN["actions"]]}


async def test_bergens_plus_two_to_the_only_hand_without_a_double_says_why(
        group: Group, bergen_deal: dict[str, Any]) -> None:
    async with group.bot():
        table = await group.start("bergen", players=3)
        await Table(group.server, table.players, Script(bergen_deal, "bergen")).play_until(
            lambda: bool(group.hand_results()))
    result = group.hand_results()[0].splitlines()
    # draws came after the last tile laid: it was not that tile that blocked the hand
    assert result[1] == ("Blocked: only the 2 tiles that are never drawn are left in the stock, "
                         "and nobody can lay a tile.")
    reason = result.index("Ayu is the only one holding no double.")
    assert result[reason + 1].startswith("Ayu wins the blocked hand: +2 for winning it")
    # A draw and the knock or lay it led to are one line of the table's caption.
    said = "\n".join(everything_said(group))
    assert re.search(r"^(\w+) drew (a tile|\d+ tiles) from the stock\. \1 (knocked|laid \d-\d)",
                     said, re.MULTILINE)
    assert not re.search(r"drew a tile from the stock\.\n\w+ (knocked|laid)", said)


# --- 3 and 12. gaple-dead's rule said once, its penalties named so (in Russian) ---------------
async def test_gaple_dead_says_how_the_match_ends_once_and_names_penalties(group: Group) -> None:
    rule = "Партия кончается, когда чьи-то штрафные очки дойдут до 101"
    async with group.bot():
        await speak(group, "ru")
        table = await group.start("gaple-dead")
        await table.play_until(lambda: any(t.startswith("Кон 1 окончен") for t in group.texts()))
    said = everything_said(group)
    assert any(rule in t for t in said if "новый стол" in t)  # the lobby
    captions = [t for t in said if t.startswith("Гапле со сбросом · кон 1")]  # noqa: RUF001
    assert rule in captions[0] and rule not in captions[-1]
    assert all(re.search(r"^Штрафные очки: .* \(до 101\)$", c, re.MULTILINE) for c in captions)
    result = next(t for t in group.texts() if t.startswith("Кон 1 окончен"))
    assert "Штрафные очки за кон:" in result and "Очки на руках" not in result
    assert not any("лицом вниз" in t for t in said)


# --- 12. each language's words --------------------------------------------------------------
async def test_russian_speaks_ty_throughout(group: Group) -> None:
    sergei = group.users[2]
    sergei.language_code = "ru"
    async with group.bot():
        sergei.send_private("/help")
        sergei.send_private("/rules muggins")
        sergei.send_private("/rules kolbasa")
        await group.server.wait_for(lambda: len(group.server.bot_messages(
            sergei.private_chat)) >= 3)
    texts = [m.text or "" for m in group.server.bot_messages(sergei.private_chat)]
    assert any("Домино для твоей группы" in t for t in texts)
    assert any("Ставь костяшки" in t and "сверху и снизу" in t for t in texts)
    for text in texts:
        assert not re.search(r"\b(вы|вас|вам|ваш\w*)\b|\w+(ите|йте)\b", text, re.IGNORECASE), text


async def test_icelandic_leave_and_cancel_differ_and_ribbons_are_rows(group: Group) -> None:
    async with group.bot():
        await speak(group, "is")
        group.send(group.users[0], "/newgame kolbasa")
        lobby = await group.server.wait_for(group._lobby_or_none)
        group.send(group.users[0], "/rules kolbasa")
        group.send(group.users[0], "/rules muggins")
        await group.server.wait_for(lambda: group.said("snúningssteinninn"))
    assert "Yfirgefa borðið" in lobby.button_texts and "Hætta við" in lobby.button_texts
    kolbasa = next(t for t in group.texts() if "pylsan" in t)  # its rules
    assert "tvær raðir" in kolbasa and "borða" not in kolbasa
    assert not group.said("snúðurinn")


async def test_indonesian_lays_are_pasang(group: Group) -> None:
    async with group.bot():
        await speak(group, "id")
        table = await group.start("gaple")
        await table.play_until(lambda: any("memasang" in t for t in everything_said(group)))
    assert not any("menjalankan" in t for t in everything_said(group))


# --- 7. the match end's rating column -------------------------------------------------------
async def test_the_match_end_says_ratings_change_and_a_first_match_moves_them_its_way(
        group: Group) -> None:
    """The ordinal showed +208 and losers near 0; the rating is mu itself (provisional while
    new): the winner of four gains about what three wins of two would, each loser loses."""
    async with group.bot():
        table = await group.start("gaple target=1")  # the first hand decides the match
        await table.play_until(group.match_over)
    end = next(t for t in group.texts() if t.startswith("The match is over"))
    line = next(line for line in end.splitlines() if line.startswith("Rating change"))
    # (among four, the ratings follow the places: player QA, a second of four rose)
    assert line.startswith("Rating change on this group's Gaple scoreboard, by each player's "
                           "place in the match: ")
    changes = [int(figure) for figure in re.findall(r" ([+-]\d+)", line)]
    assert len(changes) == 4 and all(abs(change) <= 160 for change in changes), line
    assert sorted(changes)[-2] < 0 < max(changes)  # one winner, and every loser falls
