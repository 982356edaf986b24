"""A move's pictures: its tap is answered first, and every picture (the table, the hands, a
hand's result, the match's end) is drawn in the painter's thread, off the event loop (issue
15)."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any, cast

from bot_kit import Group

from bot.computers import computer
from bot.handlers.runtime import Runtime
from bot.i18n import LANGUAGES, translator
from bot.models import Game, Player
from bot.presentation.pictures import Drawing, PictureMaker, labels_for, picture_names
from engine import table_view
from fakeapi.players import live_buttons
from renderers import render_table


def watch_drawings(runtime: Runtime, group: Group) -> list[tuple[str, bool, bool]]:
    """Every picture drawn from now on: (what, were all taps answered when it began, was it
    drawn off the event loop's thread)."""
    seen: list[tuple[str, bool, bool]] = []
    pictures = runtime.pictures
    loop_thread = threading.current_thread()

    def noted(what: str) -> None:
        seen.append((what, all(c.answered for c in group.server.callbacks),
                     threading.current_thread() is not loop_thread))

    def later(name: str) -> Callable[..., Drawing]:
        make: Callable[..., Drawing] = getattr(PictureMaker, name)

        def wrapped(*args: Any) -> Drawing:
            drawing = make(pictures, *args)

            def draw() -> bytes:
                noted(name)
                return drawing()
            return draw
        return wrapped

    for name in ("table_drawing", "hand_drawing", "hand_result_drawing", "match_end_drawing"):
        setattr(pictures, name, later(name))
    return seen


async def test_every_move_is_answered_before_any_of_its_pictures_is_drawn(group: Group) -> None:
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await group.server.wait_idle()
        seen = watch_drawings(runtime, group)
        while not group.hand_results():  # a hand's result too
            await table.play_one()
            await group.server.wait_idle()  # every picture of this move drawn and sent
        await runtime.publisher.idle()
    kinds = {what for what, _, _ in seen}
    assert {"table_drawing", "hand_drawing", "hand_result_drawing"} <= kinds
    assert all(answered for _, answered, _ in seen), [s for s in seen if not s[1]]
    assert all(off_loop for _, _, off_loop in seen), [s for s in seen if not s[2]]


async def test_the_table_and_the_hands_are_drawn_off_the_event_loop(group: Group) -> None:
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await group.server.wait_idle()
        seen = watch_drawings(runtime, group)
        await table.play_one()
        await group.server.wait_idle()
    drawn = [(what, off_loop) for what, _, off_loop in seen]
    assert ("table_drawing", True) in drawn and ("hand_drawing", True) in drawn
    assert all(off_loop for _, off_loop in drawn)


async def test_every_table_picture_drawn_from_the_last_is_the_table_drawn_whole(
        group: Group) -> None:
    """The table's pictures are drawn from its previous one (only the changed rows): what
    the group sees after each move is still exactly the table as it stands."""
    async with group.bot() as runtime:
        table = await group.start("pair")
        await group.server.wait_idle()
        checked = 0
        while checked < 12:
            await table.play_one()
            await group.server.wait_idle()
            await runtime.publisher.idle()
            game = group.game()
            assert game.match is not None
            shown = next(m for m in group.messages() if m.message_id == game.messages.table_message)
            assert shown.current.photo is not None
            whole = render_table(table_view(game.match), picture_names(game),
                                 theme=runtime.pictures.theme,
                                 labels=labels_for(game.language, game.game_name))
            assert shown.current.photo.data == whole, f"after move {checked + 1}"
            checked += 1
    assert checked >= 8


async def test_a_hand_result_picture_that_fails_costs_only_the_picture(group: Group) -> None:
    async with group.bot() as runtime:
        table = await group.start("gaple")
        await group.server.wait_idle()

        def broken(*args: Any) -> Drawing:
            def draw() -> bytes:
                raise OSError("no room left to draw")
            return draw

        runtime.pictures.hand_result_drawing = broken  # type: ignore[method-assign]
        while not group.hand_results():
            await table.play_one()
            await group.server.wait_idle()
        await runtime.publisher.idle()
        told = [m for m in group.messages() if re.match(r"Hand \d+ is over\.", m.content)]
        assert len(told) == 1 and told[0].current.photo is None
        assert group.game().match is not None and group.game().match.hand.number == 1
        await table.play_one()  # the next hand goes on


def test_pictures_name_computers_and_ribbons_as_the_texts_do() -> None:
    """Issue 24.8 and 24.2: "🤖 Rio" on pictures as in texts (not "Rio (AI)"); Kolbasa's
    ribbons named with the buttons' words (upper and lower, as drawn), and the match end's
    "rating change", from the catalogues."""
    game = cast(Game, SimpleNamespace(players=[Player(7, "Ayu"), computer("normal", set())]))
    assert picture_names(game) == ["Ayu", "🤖 Rio"]
    for language in LANGUAGES:
        t = translator(language)
        labels = labels_for(language, "kolbasa")
        assert (labels.upper, labels.lower) == (t("upper"), t("lower"))
        assert labels.rating == t("rating change")
        if language != "en":
            assert labels.rating != "rating change", language


async def test_a_moves_table_is_begun_before_its_commit_and_drawn_once(group: Group) -> None:
    """The table's picture of a move is begun as the move is accepted, before its commit is
    written (the painter's thread draws while SQLite's writes), and the sync after the commit
    sends that picture: one table drawing a move, and the group sees the table drawn whole."""
    async with group.bot() as runtime:
        table = await group.start("pair")
        await group.server.wait_idle()
        await runtime.publisher.idle()
        steps: list[str] = []
        storage = runtime.service.storage
        commit = storage.commit_move
        make = runtime.pictures.table_drawing

        async def noted_commit(*args: Any, **kwargs: Any) -> None:
            steps.append("commit")
            await commit(*args, **kwargs)

        def noted_drawing(game: Game, view: Any) -> Drawing:
            steps.append("table")
            return make(game, view)

        storage.commit_move = noted_commit  # type: ignore[method-assign]
        runtime.pictures.table_drawing = noted_drawing  # type: ignore[method-assign]
        played = 0
        while played < 6:
            game = group.game()
            assert game.match is not None
            hand = game.match.hand.number
            steps.clear()
            await table.play_one()
            await group.server.wait_idle()
            await runtime.publisher.idle()
            assert game.match is not None
            if game.match.hand.number != hand:
                continue  # a hand's end draws its result and the old table's last picture too
            assert steps == ["table", "commit"], steps
            shown = next(m for m in group.messages() if m.message_id == game.messages.table_message)
            assert shown.current.photo is not None
            assert shown.current.photo.data == render_table(
                table_view(game.match), picture_names(game), theme=runtime.pictures.theme,
                labels=labels_for(game.language, game.game_name))
            played += 1
        assert runtime.publisher.group.early.tables == {}


async def test_a_table_begun_for_a_move_that_was_not_committed_is_never_shown(
        group: Group) -> None:
    """A move whose commit fails leaves memory as the database has it; the picture begun for
    it is dropped, and the table shows the committed game."""
    async with group.bot() as runtime:
        table = await group.start("pair")
        await group.server.wait_idle()
        await runtime.publisher.idle()
        storage = runtime.service.storage
        commit = storage.commit_move

        async def failing(*args: Any, **kwargs: Any) -> None:
            raise OSError("the disk went away")

        storage.commit_move = failing  # type: ignore[method-assign]
        game = group.game()
        before = game.move_no
        await group.server.wait_for(lambda: table.whose_turn() is not None)
        turn = table.whose_turn()
        assert turn is not None
        user, message = turn
        record = user.press(message, table.choose(live_buttons(message)))  # a lead: one tap
        await group.server.wait_for(lambda: record.answered)
        await group.server.wait_idle()
        assert game.move_no == before and game.game_id in runtime.publisher.group.early.tables
        storage.commit_move = commit  # type: ignore[method-assign]
        runtime.publisher.tables.bring_down(game.game_id)  # the table drawn again, below
        await group.server.wait_idle()
        await runtime.publisher.idle()
        assert game.match is not None and runtime.publisher.group.early.tables == {}
        shown = next(m for m in group.messages() if m.message_id == game.messages.table_message)
        assert shown.current.photo is not None
        assert shown.current.photo.data == render_table(
            table_view(game.match), picture_names(game), theme=runtime.pictures.theme,
            labels=labels_for(game.language, game.game_name))
        await table.play_one()  # and the game goes on


async def test_the_hands_are_drafted_once_the_tables_early_picture_is_drawn(
        group: Group) -> None:
    """The hands' drafts (the event loop's Python) wait while the move's table is drawn early:
    beside it they took the interpreter lock from the picture."""
    async with group.bot() as runtime:
        table = await group.start("pair")
        await group.server.wait_idle()
        await runtime.publisher.idle()
        steps: list[str] = []
        pictures = runtime.pictures
        make_table, make_hand = pictures.table_drawing, pictures.hand_drawing

        def noted_table(game: Game, view: Any) -> Drawing:
            drawing = make_table(game, view)

            def draw() -> bytes:
                picture = drawing()
                steps.append("table drawn")
                return picture
            return draw

        def noted_hand(view: Any, language: str) -> Drawing:
            steps.append("hand drafted")
            return make_hand(view, language)

        pictures.table_drawing = noted_table  # type: ignore[method-assign]
        pictures.hand_drawing = noted_hand  # type: ignore[method-assign]
        checked = 0
        for _ in range(6):
            steps.clear()
            await table.play_one()
            await group.server.wait_idle()
            await runtime.publisher.idle()
            if "table drawn" in steps and "hand drafted" in steps:
                assert steps.index("table drawn") < steps.index("hand drafted"), steps
                checked += 1
    assert checked >= 4
