"""The six games of seed 002 through Telegram: whole matches for every seat count, computer
players, a restart with a stock on the table, and the secrecy of hands and stock."""

from __future__ import annotations

import re

import pytest
from bot_kit import Group, counting_seeds, die_after_commit, plain

from bot.models import Status
from engine import ActionKind, Tile, match_to_dict, table_view, variant
from fakeapi import FakeTelegramServer
from fakeapi.players import Table, is_end, random_choice

TILE = re.compile(r"\b(\d{1,2})-(\d{1,2})\b")
# Low targets keep the suite fast; each still takes several hands.
LOW_TARGETS = {"kolbasa": 25, "matador": 25, "six-matador": 20, "french": 25, "muggins": 30,
               "bergen": 4}
MATCHES = [(game, seats) for game in LOW_TARGETS for seats in variant(game).seat_counts]


def everything_said(group: Group) -> list[str]:
    """Every version of every group message (the table's caption is edited in place)."""
    return [v.caption or v.text or "" for m in group.messages() for v in m.versions]


def newgame(game: str) -> str:
    return f"{game} target={LOW_TARGETS[game]}"


@pytest.mark.parametrize(("game", "players"), MATCHES)
async def test_a_whole_match_of_each_new_game_for_each_seat_count(
    group: Group, game: str, players: int
) -> None:
    async with group.bot():
        table = await group.start(newgame(game), players)
        table.choose = random_choice(players)  # every kind of second tap gets its turn
        moves = await table.play_until(group.match_over)
        finished = group.game()
    assert finished.status is Status.FINISHED and finished.game_name == game
    match = finished.match
    assert match is not None and match.over and moves > 3
    assert len(group.hand_results()) == len(match.hands)  # one result message per hand
    ends = [t for t in group.texts() if t.startswith("The match is over")]
    assert len(ends) == 1
    if variant(game).lowest_total_wins:
        assert "with the lowest total" in ends[0] and "Final penalty points:" in ends[0]
        assert "The match ends when" not in ends[0]  # it has ended
    drew = any(m.kind is ActionKind.DRAW for hand in match.hands for _, m in hand.moves)
    if drew:  # the group read how many were drawn, and what is left
        said = everything_said(group)
        assert any(re.search(r"drew (a tile|\d+ tiles) from the stock|After drawing "
                             r"(a tile|\d+ tiles): ", t) for t in said)
        assert any(re.search(r"Stock: \d+ tiles?\.", t) for t in said)


@pytest.mark.parametrize("game", list(LOW_TARGETS))
async def test_computer_players_fill_the_seats(group: Group, game: str) -> None:
    group.users[0].send_private("/start")
    async with group.bot(computer_pause=0.02):
        group.users[0].send(group.chat, f"/newgame {newgame(game)}")
        lobby = await group.server.wait_for(group._lobby_or_none)
        gid = group.game().game_id
        for level in (1, 2):
            record = group.users[0].press(lobby, f"a:{gid}:{level}")
            await group.server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
        start = group.users[0].press(lobby, f"s:{gid}")
        await group.server.wait_for(lambda: start.answered)
        assert start.answer_text == "Let's play!"
        table = Table(group.server, group.users[:1])
        await table.play_until(group.match_over)
        game_row = group.game()
    assert game_row.status is Status.FINISHED
    assert [p.is_computer for p in game_row.players] == [False, True, True]


async def test_nothing_in_the_group_names_a_tile_in_a_hand_or_in_the_stock(group: Group) -> None:
    """Until a hand is over, the group sees only tiles laid on the table: never one held,
    nor one drawn from the stock or still in it; no group keyboard names a tile."""
    async with group.bot():
        table = await group.start(newgame("muggins"), 2)
        table.choose = random_choice(5)
        await table.play_until(group.match_over)
        game = group.game()
    match = game.match
    assert match is not None
    hand_number = 0
    checked = 0
    for message in group.server.bot_messages(group.chat):
        for version in message.versions:
            text = version.caption or version.text or ""
            result = re.match(r"Hand (\d+) is over", text)
            if result:  # a hand result lays every hand open: that is the rule
                hand_number = int(result.group(1))
                continue
            at = re.search(r"· hand (\d+)", text)
            number = int(at.group(1)) - 1 if at else min(hand_number, len(match.hands) - 1)
            view = table_view(match, number)
            laid = {m.tile for m in view.history if m.tile is not None}
            shown = {Tile(int(a), int(b)) for a, b in TILE.findall(text)}
            assert shown <= laid, text
            checked += 1
        for row in message.buttons:
            for button in row:
                assert not TILE.search(button.text) and "|" not in button.text, button.text
    assert checked > 20


def points_of_play(text: str) -> list[str] | None:
    """A hand result's points of play, a seat each: on one line, or a line per seat when one
    would be too long to read at a glance (None: the result lists none)."""
    one_line = re.search(r"^Scored during the hand: (.*)\.$", text, re.MULTILINE)
    if one_line:
        return one_line.group(1).split(" · ")
    if "\nScored during the hand:\n" in text:
        return re.findall(r"^• (.*)$", text, re.MULTILINE)
    return None


async def test_muggins_points_are_told_in_the_table_caption_not_in_messages_of_their_own(
    group: Group,
) -> None:
    """Every point with its reason, in the one table message and the hand's result: the group
    gets no message per scoring lay (each would count against Telegram's 20 a minute)."""
    async with group.bot():
        table = await group.start(newgame("muggins"), 3)
        await table.play_until(group.match_over)
        game = group.game()
    match = game.match
    assert match is not None and match.over
    texts = group.texts()
    assert not [t for t in texts if re.search(r"scores \d+ points?:", t)]
    tables = [t for t in texts if re.match(r"Muggins · hand \d+", t)]
    results = group.hand_results()
    others = [t for t in texts if t not in tables and t not in results]
    assert len(tables) == len(results) == len(match.hands)
    # the lobby and the match's result ("the table is ready" is deleted once it started)
    assert len(others) == 2, others
    said = everything_said(group)
    assert any(re.search(r"\+(\d+): the open ends add up to \1\.", t) for t in said)
    for number, text in enumerate(results):
        hand = match.hands[number]
        assert hand.result is not None
        listed = points_of_play(text)
        names = game.names
        if not any(hand.result.scored):
            assert listed is None
            continue
        assert listed is not None, text
        for part in listed:
            name, total, *_ = part.split(" ")
            assert part.endswith(" (open ends)"), part  # its one reason, its sum not said twice
            assert hand.result.scored[names.index(name)] == int(total)


async def test_six_matador_match_result_settles_up(group: Group) -> None:
    """D25: the winner gets the difference from each other player, shown (not added) in the
    match's result and on its picture; the debts with their minus sign."""
    async with group.bot():
        table = await group.start(newgame("six-matador"), 3)
        await table.play_until(group.match_over)
        game = group.game()
    match = game.match
    assert match is not None and match.over and match.winner is not None
    end = next(m for m in group.messages() if (m.caption or "").startswith("The match is over"))
    assert end.photo is not None  # the match-end picture
    settled = variant("six-matador").settlement(match.scores, match.winner)  # type: ignore[attr-defined]
    expected = " · ".join(f"{name} {value:+d}" for name, value in zip(game.names, settled,
                                                                       strict=True))
    assert f"Settling up (the winner gets the difference from each): {expected}." in plain(
        end.caption or "")
    assert settled[match.winner] == sum(match.scores[match.winner] - s for s in match.scores)


def private_captions(group: Group, seat: int) -> list[str]:
    user = group.users[seat]
    return [v.caption or v.text or "" for m in group.server.bot_messages(user.private_chat)
            for v in m.versions]


DREW = re.compile(r"I drew (?:a tile|\d+ tiles) for you: ([\d\-, ]+)\.")


async def test_the_player_is_told_privately_which_tiles_were_drawn(group: Group) -> None:
    """The bot draws for a player who cannot lay; only that player reads the faces."""
    async with group.bot():
        table = await group.start(newgame("french"), 2)
        await table.play_until(lambda: any(
            DREW.search(c) for seat in (0, 1) for c in private_captions(group, seat)))
        game = group.game()
    match = game.match
    assert match is not None
    hand = match.hand
    for seat in (0, 1):
        for caption in private_captions(group, seat):
            said = DREW.search(caption)
            if said and f"hand {hand.number + 1}" in caption:
                drawn = {Tile(int(a), int(b)) for a, b in TILE.findall(said.group(1))}
                assert drawn <= set(hand.deal.stock[: hand.drawn])  # from the stock
                assert not drawn & set(hand.deal.hands[seat])  # not dealt to them
                assert drawn <= set(hand.deal.hands[seat]) | {
                    t for s, a in hand.moves if s == seat for t in [getattr(a, "tile", None)]
                } | set(hand.hands[seat])  # and held (or laid) by them since
    assert not any(DREW.search(t) for t in everything_said(group))  # never in the group


async def play_muggins(group: Group, restart_after: int | None) -> dict[str, object]:
    """A whole Muggins match with fixed seeds and choices; optionally the bot dies right after
    committing a move in the middle of a hand with a stock, before telling anybody."""
    async with group.bot() as runtime:
        table = await group.start(newgame("muggins"), 3)
        for _ in range(restart_after or 0):
            await table.play_one()
        if restart_after is not None:
            user, message = await group.server.wait_for(table.whose_turn)
            assert group.game().match.hand.stock_left > 0  # type: ignore[union-attr]
            die_after_commit(runtime)
            before = group.game().move_no
            label = next(b.text for row in message.buttons for b in row if b.text.startswith("✅"))
            record = user.press(message, label)
            await group.server.wait_for(lambda: record.answered)
            # Answered first: then either the question shows, or the move is committed.
            await group.server.wait_for(lambda: group.game().move_no != before or any(
                is_end(text) for text in message.button_texts))
            follow = [b.text for row in message.buttons for b in row if is_end(b.text)]
            if follow:
                record = user.press(message, follow[0])
                await group.server.wait_for(lambda: record.answered)
            # A move's tap is answered before the move is committed: wait for the commit.
            await group.server.wait_for(lambda: group.game().move_no != before)
            committed = group.game().move_no
    async with group.bot():
        if restart_after is not None:
            assert group.game().move_no == committed  # nothing lost, nothing applied twice
            await group.server.wait_for(lambda: table.whose_turn() is not None)
        await table.play_until(group.match_over)
    game = group.game()
    assert game.match is not None and game.status is Status.FINISHED
    return match_to_dict(game.match)


async def test_a_restart_mid_hand_with_a_stock_ends_the_same(tmp_path: object) -> None:
    results = []
    for restart_after in (None, 5):
        async with FakeTelegramServer() as server:
            users = [server.add_user(n, language_code="en") for n in ("A", "B", "C")]
            chat = server.add_group("G", members=users, admins=users[:1])
            group = Group(server, chat, users, tmp_path / f"m{restart_after}.db",  # type: ignore[operator]
                          counting_seeds(5151))
            results.append(await play_muggins(group, restart_after))
            server.assert_no_violations()
    assert results[0]["hands"] == results[1]["hands"]
