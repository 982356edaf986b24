"""Every hand's end reaches each player's private chat: its message, edited to show how the
hand ended and what it scored (what the group's result says), kept with no buttons (the
last, the match's end, with Play again) above the next hand's, in the player's own
language."""

from __future__ import annotations

import re
import time

from bot_kit import Group, lobby_button, plain

from bot.i18n import translator
from bot.models import Status
from bot.service.settings import GroupSettings
from bot.wording import partners
from engine import table_view
from fakeapi import FakeUser, StoredMessage
from fakeapi.players import Table, active_hand

TITLES = {"en": "hand", "ru": "кон", "id": "ronde", "is": "umferð"}


def hand_messages(group: Group, user: FakeUser) -> dict[int, list[StoredMessage]]:
    """The user's hand messages still in their private chat, by hand number (from 1)."""
    kept: dict[int, list[StoredMessage]] = {}
    for message in group.server.bot_messages(user.private_chat):
        number = re.search(r" · \S+ (\d+)\n", plain(message.caption or ""))
        if message.photo and not message.deleted and number:
            kept.setdefault(int(number.group(1)), []).append(message)
    return kept


def told_as_in_the_group(result: str, language: str) -> list[str]:
    """The lines of the group's (English) hand result a player reading ``language`` must
    find in their own message of the hand, said in that language."""
    t = translator(language)
    lines = result.split("\n")
    expected = []
    end = lines[1]
    if out := re.fullmatch(r"Domino! (.+) went out with (\d+-\d+)\.", end):
        expected.append(t("Domino! {name} went out with {tile}.", name=out[1], tile=out[2]))
    elif blocked := re.fullmatch(r"Blocked after (.+)'s (\d+-\d+): nobody can lay a tile\.", end):
        expected.append(t("Blocked after {name}'s {tile}: nobody can lay a tile.",
                          name=blocked[1], tile=blocked[2]))
    else:
        raise AssertionError(f"an end not foreseen: {end}")
    for line in lines[2:]:
        if won := re.fullmatch(r"(.+) and (.+) win the hand and score (\d+)\.", line):
            expected.append(t("{first} and {second} win the hand and score {points}.",
                              first=won[1], second=won[2], points=int(won[3])))
        elif line == "A drawn hand: nobody scores.":
            expected.append(t(line))
        elif score := re.fullmatch(r"Score: (.+) \(to (\d+)\)", line):
            sides = [re.fullmatch(r"(.+) & (.+) (\d+)", side) for side in score[1].split(" · ")]
            scores = " · ".join(f"{partners(t, [side[1], side[2]])} {side[3]}"
                                for side in sides if side is not None)
            expected.append(t("Score: {scores} (to {target})", scores=scores,
                              target=int(score[2])))
    assert len(expected) == 3, result
    return expected


async def test_every_hand_ends_in_each_private_chat_in_its_language(group: Group) -> None:
    languages = ["en", "ru", "is", "id"]
    for user, language in zip(group.users, languages, strict=False):
        user.language_code = language
    async with group.bot():
        for user in group.users[:4]:
            user.send_private("/start")
        group.send(group.users[0], "/newgame pair target=60")
        lobby = await group.server.wait_for(group._lobby_or_none)
        for user in group.users[1:4]:
            record = user.press(lobby, lobby_button(lobby, "j") or "")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        start = group.users[0].press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        await Table(group.server, group.users[:4]).play_until(group.match_over)
        assert group.game().status is Status.FINISHED
    results = group.hand_results()
    assert len(results) >= 2  # a match of several hands
    for user, language in zip(group.users[:4], languages, strict=True):
        t = translator(language)
        kept = hand_messages(group, user)
        # One message a hand stays in the chat (the turns' came and went): no more sent.
        assert sorted(kept) == list(range(1, len(results) + 1)), (language, sorted(kept))
        for number, result in enumerate(results, 1):
            [message] = kept[number]
            caption = plain(message.caption or "")
            assert f" · {TITLES[language]} {number}\n" in caption
            for line in told_as_in_the_group(result, language):
                assert line in caption, (language, number, line, caption)
            last = number == len(results)
            assert (t("This hand is over.") in caption) is not last
            assert ("🏆" in caption) is last  # the match's end, under its last hand
            # none left to tap but, under the match's end, its Play again (as the group's)
            assert message.button_texts == ([t("🔁 Play again")] if last else []), \
                (language, number)
        assert active_hand(group.server, user) is None


async def test_hands_ended_by_a_computer_or_the_timer_are_told_too(group: Group) -> None:
    """One person against a computer in Bergen (a stock, points during play): the turn timer
    plays every other turn of theirs; hands end on either's move."""
    ayu = group.users[0]
    ayu.language_code = "ru"
    async with group.bot(computer_pause=0.01) as runtime:
        await runtime.storage.save_chat_settings(  # the group English, Ayu's chat Russian
            group.chat.id, GroupSettings(language="en").to_json())
        ayu.send_private("/start")
        group.send(ayu, "/newgame bergen")
        lobby = await group.server.wait_for(group._lobby_or_none)
        gid = group.game().game_id
        seated = ayu.press(lobby, f"a:{gid}:1")
        await group.server.wait_for(lambda: seated.answered)
        start = ayu.press(lobby, lobby_button(lobby, "s") or "")
        await group.server.wait_for(lambda: start.answered)
        game, table, turns = group.game(), Table(group.server, [ayu]), 0
        while game.status is Status.PLAYING:
            await group.server.wait_for(
                lambda: active_hand(group.server, ayu) is not None
                or game.status is not Status.PLAYING, timeout=30)
            if game.status is not Status.PLAYING:
                break
            turns += 1
            if turns % 2:  # (away after three time-outs in a row, the game would end)
                await table.play_one()
                continue
            async with runtime.locks.game(gid):  # their time runs out, now
                game.deadline = time.time()
                await runtime.service.expire(game, game.move_no)
            await runtime.publisher.idle()
        await runtime.publisher.idle()
        computer = game.players[1].name
        assert game.match is not None
        # Some hand ended on a move the timer made for Ayu.
        assert any(f"{n}:{len(table_view(game.match, n).history) - 1}" in game.timer.auto_moves
                   for n in range(len(game.match.hands)))
    results = group.hand_results()
    assert len(results) >= 2 and game.status is Status.FINISHED
    # Some hand ended on the computer's move (its end line names it).
    assert any(computer in r.split("\n")[1] for r in results), results
    kept = hand_messages(group, ayu)
    assert sorted(kept) == list(range(1, len(results) + 1))
    t = translator("ru")
    for number, result in enumerate(results, 1):
        [message] = kept[number]
        caption = plain(message.caption or "")
        assert message.button_texts == ([t("🔁 Play again")] if number == len(results) else [])
        score = re.search(r"^Score: (.+) \(to (\d+)\)$", result, re.M)
        assert score is not None
        assert t("Score: {scores} (to {target})", scores=score[1], target=int(score[2])) \
            in caption, caption
        assert t("This hand is over.") in caption or number == len(results)
