"""Provably fair deals through Telegram, as a player checks them.

The group reads a hand's fingerprint before any tile is played, the seed in the hand's result,
and recomputes the deal with tests/fairness_check.py (written from docs/FAIRNESS.md, not the
engine) against what each player was sent privately and what they played; the check comes
privately through the result's button and /verify; a restart mid-hand keeps the deal's
fingerprint; in Russian too."""

from __future__ import annotations

import hashlib
import io
import re
import shlex
import shutil
from collections.abc import Iterable
from pathlib import Path

import pytest
import test_e2e_stored_games as stored
from bot_kit import Group

from bot.presentation.callbacks import decode
from bot.presentation.tilebuttons import Lay, TileIntent, TileTap
from bot.service.settings import GroupSettings
from engine import verify
from fakeapi import (
    CallbackQueryRecord,
    FakeTelegramServer,
    FakeUser,
    MessageVersion,
    StoredMessage,
)
from fakeapi.players import Table, random_choice
from tests import fairness_check  # the page's recipe, written without the engine

FINGERPRINT = re.compile(r"🔒[^\n]*?\b([0-9a-f]{16})\b")
REVEAL = re.compile(r"🔓[^\n]*?\b([0-9a-f]{64})\b[^\n]*?\b([0-9a-f]{16})\b")
TILE_BUTTON = re.compile(r"(?:[✅⬛] )?(\d{1,2})-(\d{1,2})")
CheckTile = tuple[int, int]


def tile(text: str) -> CheckTile:
    low, high = sorted(int(n) for n in text.split("-"))
    return (low, high)


def content(version: MessageVersion) -> str:
    return version.caption or version.text or ""


def fingerprint_of(version: MessageVersion) -> str | None:
    found = FINGERPRINT.search(content(version))
    return found.group(1) if found else None


def held(version: MessageVersion) -> set[CheckTile]:
    """The tiles a private hand message shows as its buttons."""
    rows = (version.reply_markup or {}).get("inline_keyboard", [])
    return {tile(f"{m.group(1)}-{m.group(2)}") for row in rows for button in row
            if (m := TILE_BUTTON.fullmatch(button["text"]))}


def hand_messages(group: Group, user: FakeUser, fingerprint: str) -> list[MessageVersion]:
    """Every version of the user's private hand messages of the hand with ``fingerprint``
    (those deleted since too: a hand's message goes when the next hand's comes)."""
    return [v for m in group.server.messages(user.private_chat, include_deleted=True)
            if m.from_bot for v in m.versions if fingerprint_of(v) == fingerprint and held(v)]


def dealt(group: Group, user: FakeUser, fingerprint: str) -> set[CheckTile]:
    """What the user was sent first for that hand: the tiles dealt to them."""
    return held(hand_messages(group, user, fingerprint)[0])


def table_fingerprints(group: Group) -> list[str]:
    """The fingerprints on the group's table pictures, newest last (every version)."""
    return [fp for m in group.messages() if m.photo for v in m.versions
            if (fp := fingerprint_of(v)) is not None]


def revealed(group: Group) -> list[tuple[str, str]]:
    """(seed, fingerprint) of each hand result shown in the group, in order."""
    return [(m.group(1), m.group(2)) for text in group.raw_texts()
            if (m := REVEAL.search(text))]


def seats(group: Group) -> dict[int, int]:
    """user id -> seat (seat 0: the first player listed at the table)."""
    return {p.user_id: seat for seat, p in enumerate(group.game().players)}


def the_deal(seed: str, highest: int, players: int, hand: int, middle: int, stock: bool,
             skip_without_double: bool = False) -> fairness_check.CheckedDeal:
    """The deal the page's recipe makes from ``seed`` (the first not skipped)."""
    for deal in fairness_check.deals(bytes.fromhex(seed), highest, players, hand, middle, stock):
        if deal.double_in_hand or not skip_without_double:
            return deal
    raise AssertionError("unreachable")


def plays(group: Group, fingerprint: str) -> list[tuple[int, CheckTile]]:
    """(seat, tile) of every tile a player laid or put face down in the hand: their taps on
    that hand's private messages that the bot took (answered without a refusal)."""
    seat_of = seats(group)
    made: list[tuple[int, CheckTile]] = []
    records: Iterable[CallbackQueryRecord] = group.server.world.callbacks.values()
    for record in records:
        button = decode(record.data)
        lays = isinstance(button, Lay) or (isinstance(button, TileTap)
                                           and button.intent is TileIntent.DISCARD)
        if (lays and record.answered and record.answer_text is None
                and fingerprint_of(record.message.versions[0]) == fingerprint):
            assert isinstance(button, Lay | TileTap)
            made.append((seat_of[record.user.id], (button.tile.low, button.tile.high)))
    return made


def check_message(group: Group, user: FakeUser) -> str:
    return next((m.text or "" for m in reversed(group.server.bot_messages(user.private_chat))
                 if m.text and "🔍" in m.text), "")


def result_message(group: Group, seed: str) -> StoredMessage:
    return next(m for m in group.messages() if seed in (m.caption or m.text or ""))


def runs_clean(command: str) -> bool:
    """The check message's command line, run as a player would (engine.verify's exit 0)."""
    words = shlex.split(command)
    assert words[:3] == ["python", "-m", "engine.verify"], words
    return verify.run(words[3:], io.StringIO()) == 0


async def start_all_humans(group: Group, game: str, players: int) -> tuple[Table, str]:
    """Start a table of people; the fingerprint the group's table shows before any tile is
    played, once every player has their tiles (with the same fingerprint)."""
    table = await group.start(game, players)
    fingerprint = await group.server.wait_for(
        lambda: next(reversed(table_fingerprints(group)), None),
        message="no fingerprint on the table")
    await group.server.wait_for(lambda: all(
        hand_messages(group, user, fingerprint) for user in group.users[:players]),
        message="a player has no tiles with the fingerprint")
    assert not group.server.world.callbacks or all(  # nobody has tapped a tile yet
        not isinstance(decode(r.data), Lay) for r in group.server.world.callbacks.values())
    return table, fingerprint


@pytest.mark.parametrize("language", ["en", "ru"])
async def test_a_hand_is_checked_from_its_seed_as_a_player_would(
        group: Group, language: str) -> None:
    if language != "en":
        for user in group.users:
            user.language_code = language
    async with group.bot() as runtime:
        await runtime.storage.save_chat_settings(
            group.chat.id, GroupSettings(language=language).to_json())
        table, fingerprint = await start_all_humans(group, "pair", 4)
        given = {seat: dealt(group, user, fingerprint)
                 for user, seat in ((u, seats(group)[u.id]) for u in group.users[:4])}
        await table.play_until(lambda: bool(revealed(group)))
        seed, shown = revealed(group)[0]
        played = plays(group, fingerprint)

        # the seed's SHA-256 starts with what the group saw before the hand
        assert shown == fingerprint
        assert hashlib.sha256(bytes.fromhex(seed)).hexdigest().startswith(fingerprint)
        # the page's recipe makes the deal each player was sent, and every tile laid was
        # laid by the seat it was dealt to (pair's first hand skips deals without a double)
        deal = the_deal(seed, 6, 4, 7, 0, False, skip_without_double=True)
        for seat, tiles in given.items():
            assert tiles == set(deal.hands[seat]), seat
        assert played and all(t in deal.hands[seat] for seat, t in played)
        assert len({t for _, t in played}) == len(played)

        # the check, privately, through the result's button and /verify
        budi, sergei, dewi = group.users[1], group.users[2], group.users[4]
        result = result_message(group, seed)
        data = next(b.callback_data or "" for row in result.buttons for b in row
                    if (b.callback_data or "").startswith("V:"))
        record = budi.press(result, data)
        await group.server.wait_for(lambda: record.answered)
        words = {"en": ("I sent the check", "Deal check", "cannot write to you"),
                 "ru": ("Я прислал проверку", "Проверка раздачи", "не могу тебе написать")}
        assert words[language][0] in (record.answer_text or "")
        text = await group.server.wait_for(lambda: check_message(group, budi))
        assert words[language][1] in text and seed in text and fingerprint in text
        assert text.count("✓") == 3 and "✗" not in text
        command = re.search(r"python -m engine\.verify[^\n]*", text)
        assert command is not None and runs_clean(command.group(0).replace("&quot;", '"'))
        assert f"--seat {seats(group)[budi.id]} " in command.group(0)
        sergei.send_private("/verify")
        mine = await group.server.wait_for(lambda: check_message(group, sergei))
        assert seed in mine and mine.count("✓") == 3
        # a button of /verify's, in private; and a hand still being played
        asked = next(m for m in group.server.bot_messages(sergei.private_chat)
                     if m.text == mine)
        again = sergei.press_raw(asked, data)
        await group.server.wait_for(lambda: again.answered)
        assert again.answer_text is None
        await group.server.wait_for(lambda: sum(
            seed in (m.text or "") for m in group.server.bot_messages(sergei.private_chat)) == 2)
        going_on = budi.press_raw(result, data.rsplit(":", 1)[0] + ":1")
        await group.server.wait_for(lambda: going_on.answered)
        game = group.game()
        assert game.match is not None
        refusal = ({"en": "out of date", "ru": "не работает"} if game.match.over  # (hand 1 won
                   else {"en": "still being played", "ru": "ещё идёт"})  # the match: no hand 2)
        assert refusal[language] in (going_on.answer_text or "")
        # Dewi never opened a private chat: the toast says to, first
        stranger = dewi.press(result, data)
        await group.server.wait_for(lambda: stranger.answered)
        assert words[language][2] in (stranger.answer_text or "")


async def test_a_turned_up_middle_tile_and_the_seat_drawn_by_lot_come_from_the_seed(
        group: Group) -> None:
    """Gaple-dead deals four tiles to the middle and turns the first up; the seat drawn by
    lot plays first in the match's first hand."""
    async with group.bot():
        table, fingerprint = await start_all_humans(group, "gaple-dead", 4)
        first = await group.server.wait_for(table.whose_turn)
        given = {seats(group)[u.id]: dealt(group, u, fingerprint) for u in group.users[:4]}
        turned = re.search(r"The middle tile (\d+-\d+) was turned up",
                           "\n".join(group.texts()))
        await table.play_until(lambda: bool(revealed(group)))
        seed, shown = revealed(group)[0]
        played = plays(group, fingerprint)
    assert shown == fingerprint == fairness_check.fingerprint(bytes.fromhex(seed))
    deal = the_deal(seed, 6, 4, 6, 4, False)
    assert all(given[seat] == set(deal.hands[seat]) for seat in range(4))
    assert turned is not None and tile(turned.group(1)) == deal.middle[0]
    assert seats(group)[first[0].id] == deal.lot
    assert played and all(t in deal.hands[seat] for seat, t in played)


async def test_tiles_drawn_from_the_stock_come_in_the_seeds_order(group: Group) -> None:
    """French for two, hand after hand until someone has drawn: each hand's deal is the
    seed's, and every tile a player held that was not dealt to them was among the first
    tiles of the seed's stock, as many as were drawn."""
    async with group.bot():
        table, _ = await start_all_humans(group, "french target=200", 2)
        table.choose = random_choice(2)
        drawn_any = False
        for number in range(1, 5):
            await table.play_until(lambda n=number: len(revealed(group)) >= n)  # type: ignore[misc]
            seed, fingerprint = revealed(group)[number - 1]
            deal = the_deal(seed, 6, 2, 5, 0, True)
            left = re.search(r"(\d+) tiles? (?:was|were) left in the stock",
                             result_message(group, seed).caption or "")
            drawn = len(deal.stock) - (int(left.group(1)) if left else 0)
            for user in group.users[:2]:
                seat = seats(group)[user.id]
                versions = hand_messages(group, user, fingerprint)
                assert held(versions[0]) == set(deal.hands[seat])
                extra = set().union(*(held(v) for v in versions)) - set(deal.hands[seat])
                assert extra <= set(deal.stock[:drawn]), (number, seat, extra)
                drawn_any = drawn_any or bool(extra)
            for seat, laid in plays(group, fingerprint):
                assert laid in deal.hands[seat] or laid in deal.stock[:drawn]
            if drawn_any:
                break
    assert drawn_any, "four hands of French for two and nobody drew"


async def test_a_restart_in_the_middle_of_a_hand_keeps_its_seed(group: Group) -> None:
    async with group.bot():
        table, fingerprint = await start_all_humans(group, "pair", 4)
        for _ in range(3):
            await table.play_one()
    async with group.bot():
        await table.play_one()  # the table is brought up to date after the move
        await group.server.wait_for(lambda: table_fingerprints(group)[-1] == fingerprint
                                    and len(table_fingerprints(group)) > 1)
        assert set(table_fingerprints(group)) == {fingerprint}
        await table.play_until(lambda: bool(revealed(group)))
        seed, shown = revealed(group)[0]
    assert shown == fingerprint
    assert hashlib.sha256(bytes.fromhex(seed)).hexdigest()[:16] == fingerprint


async def test_a_hand_dealt_before_seeds_says_it_has_none(tmp_path: Path) -> None:
    """A database from before seeds (tests/bot/stored): /verify of a player of its finished
    match says that hand has no seed to check."""
    database = tmp_path / "bot.sqlite3"
    shutil.copyfile(stored.STORED / "before-refactor.sqlite3", database)
    async with FakeTelegramServer() as server:
        groups = stored.groups_on(server, database)
        stored.restore_chats(server)
        finished = groups["finished"]
        async with finished.bot(computer_pause=0.02):
            await server.wait_idle()
            player = finished.users[0]
            player.send_private("/verify")
            said = await server.wait_for(lambda: check_message(finished, player))
    assert "dealt before deals had seeds" in said and "✓" not in said


async def test_verify_during_a_first_hand_says_its_seed_is_secret_until_it_ends(
        group: Group) -> None:
    """Not that the player has finished no hand (QA: the wrong reason, while playing one)."""
    budi, dewi = group.users[1], group.users[4]
    async with group.bot():
        await group.start("pair")
        await group.server.wait_idle()  # the hands sent first: the next message answers
        for user, said in ((budi, "That hand is still being played: its seed stays secret "
                                  "until it ends."),
                           (dewi, "You have not finished a hand yet: once you have, /verify "
                                  "shows its check.")):
            sent = user.send_private("/verify")
            answer = await group.server.wait_for(lambda u=user, s=sent: next(  # type: ignore[misc]
                (m for m in group.server.bot_messages(u.private_chat)
                 if m.message_id > s.message_id), None))
            assert answer.content == said
