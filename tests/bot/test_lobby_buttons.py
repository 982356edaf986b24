"""The lobby's buttons, read on a phone: what each says it does."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest
from telegram import InlineKeyboardMarkup

from bot.computers import computer
from bot.gamemessages import Messages
from bot.i18n import LANGUAGES, translator
from bot.models import Game, Player, Status
from bot.presentation import keyboards, lobbytexts
from bot.presentation.callbacks import decode
from bot.presentation.gamebuttons import AddComputer, LobbyAction, LobbyTap
from bot.publishing.groupsync import GroupSync
from engine import Match


def test_the_button_that_takes_a_computer_off_says_so_in_words_on_its_own_row() -> None:
    """'🤖 ✕' (tester) told nobody what it did: it names the act, in every language, on a
    row of its own, the phone's whole width, where its words are never cut."""
    game = Game(1, -100, Status.LOBBY, "gaple", {}, 1, [Player(1, "Ann"), computer("easy", {1})],
                None, 5, "en", Messages())
    for language in LANGUAGES:
        markup = keyboards.lobby(translator(language), game, "domino_bot")
        rows = [[(b.text, decode(b.callback_data) if b.callback_data else None) for b in row]
                for row in markup.inline_keyboard]
        removing = [row for row in rows
                    if any(tap == LobbyTap(1, LobbyAction.REMOVE_COMPUTER) for _, tap in row)]
        assert len(removing) == 1 and len(removing[0]) == 1, rows
        label = removing[0][0][0]
        assert label.startswith("🤖") and len(label) <= 30, label
        assert len(re.findall(r"\w+", label)) >= 2, label  # words, not a bare mark


def test_a_lobby_whose_buttons_changed_alone_is_edited(monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    """A lobby posted before a version that adds a button (the rematch's 🪑) got it only
    when its words next changed: the key the lobby's message is kept under covers its
    buttons as well as its words."""
    game = Game(1, -100, Status.LOBBY, "gaple", {}, 1, [Player(1, "Ann")], None, 5, "en",
                Messages())
    sync = SimpleNamespace(messenger=SimpleNamespace(bot_username="domino_bot"))
    before = GroupSync._lobby_draft(sync, game)  # type: ignore[arg-type]
    assert before is not None and before.markup is not None
    fewer = InlineKeyboardMarkup(before.markup.inline_keyboard[:-1])
    monkeypatch.setattr(keyboards, "lobby", lambda *args: fewer)
    after = GroupSync._lobby_draft(sync, game)  # type: ignore[arg-type]
    assert after is not None and after.text == before.text and after.key != before.key


def test_a_lobby_shows_no_button_that_could_only_be_refused() -> None:
    """A full table offers no computer to add, a table without one none to take off (the
    taps were refused: "This game is full.", "There is no computer player at this table.")."""
    def taps(players: list[Player]) -> set[object]:
        game = Game(1, -100, Status.LOBBY, "pair", {}, 1, players, None, 5, "en", Messages())
        return {type(tap) if isinstance(tap, AddComputer) else tap
                for row in keyboards.lobby(translator("en"), game, "bot").inline_keyboard
                for tap in (decode(b.callback_data) for b in row if b.callback_data)}
    people = [Player(n, name) for n, name in enumerate(("Ann", "Bob", "Cid", "Dan"), 1)]
    remove = LobbyTap(1, LobbyAction.REMOVE_COMPUTER)
    assert AddComputer in taps(people[:3]) and remove not in taps(people[:3])
    assert AddComputer not in taps(people) and remove not in taps(people)
    with_computer = [*people[:3], computer("hard", {1, 2, 3})]
    assert AddComputer not in taps(with_computer) and remove in taps(with_computer)
    assert {AddComputer, remove} <= taps(with_computer[1:])


def test_a_started_tables_lobby_keeps_the_lobbys_first_paragraph() -> None:
    """The lobby's message, once its game has started, keeps the lobby's heading (the game
    and its options, a penalty game's rule line too) above "The game has started."."""
    sync = SimpleNamespace(messenger=SimpleNamespace(bot_username="domino_bot"))
    for name in ("pair", "french", "bergen"):
        match = Match(name, 4)
        for language in LANGUAGES:
            t = translator(language)
            game = Game(1, -100, Status.LOBBY, name, {}, 1,
                        [Player(n, letter) for n, letter in enumerate("ABCD", 1)], None, 5,
                        language, Messages(lobby=10))
            lobby = lobbytexts.lobby_text(t, game)
            game.status, game.match = Status.PLAYING, match
            draft = GroupSync._lobby_draft(sync, game)  # type: ignore[arg-type]
            assert draft is not None
            assert draft.text == lobby.split("\n\n")[0] + "\n" + t("The game has started.")
            # the game, its options (and a penalty game's rule), that it has started
            assert draft.text.count("\n") == (3 if name == "french" else 2)
