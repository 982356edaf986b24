"""The chats games are played in and their people: a group's settings and its /settings
menu, the users the bot knows, the messages a game keeps (questions asked and answered), a
forum topic closed or deleted, a group that became a supergroup."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..gamemessages import left_behind
from ..i18n import supported_language
from ..models import Game, Status
from .commits import Commits
from .locks import Locks
from .settings import GroupSettings


class Chats(Commits):
    """Groups, users, and a game's messages and place in Telegram."""

    async def group_settings(self, chat_id: int) -> GroupSettings:
        """The house rules, turn time and language the group's new tables take."""
        return GroupSettings.from_json(await self.storage.chat_settings(chat_id))

    async def save_group_settings(self, chat_id: int, settings: GroupSettings) -> None:
        """Store the group's settings whole: for a group's first settings, or a test's. A
        change to them goes through :meth:`change_group_settings` (or, under the chat's
        lock, :meth:`_changed_settings`), which reads them as they are first."""
        await self.storage.save_chat_settings(chat_id, settings.to_json())

    async def change_group_settings(
        self, chat_id: int, change: Callable[[GroupSettings], GroupSettings], locks: Locks,
    ) -> tuple[GroupSettings, list[int]]:
        """Apply one change (a /settings choice) to the group's settings as stored now,
        under the chat's lock: two admins' taps, or a tap while the group's first table
        gives it its language, each keep the other's change (updates run side by side, and
        each writes the settings whole). A new language is spoken at once, under the same
        lock (:meth:`speak_in`). The settings now, and the games to bring up to date. What
        ``change`` raises (a choice no longer offered) is raised, and nothing is saved."""
        async with locks.chat(chat_id):
            was = await self.group_settings(chat_id)
            settings = await self._changed_settings(chat_id, change, was)
            spoken = []
            if settings.spoken is not None and settings.spoken != was.spoken:
                spoken = await self.speak_in(chat_id, settings.spoken, locks)
            return settings, spoken

    async def bot_added(self, chat_id: int, adder_language: str | None, locks: Locks
                        ) -> list[int]:
        """The bot was added to the group: it speaks the language of whoever added it (its
        welcome's) when no admin chose one, and the bot speaks it; the games to bring up to
        date (a lobby open in a group that had no language yet). Only a group with no
        automatic language yet takes one: added back, or its upgrade to a supergroup told as
        the bot joining it, by someone else, it keeps the one it had (review: that person's
        language was spoken at once by open games, even mid-match); an admin chooses
        another in /settings."""
        language = supported_language(adder_language)
        if language is None:  # (its first table to start gives it one: table_started)
            return []
        return (await self.change_group_settings(
            chat_id, lambda now: now if now.auto_language is not None
            else replace(now, auto_language=language), locks))[1]

    async def table_started(self, game: Game, locks: Locks) -> None:
        """A table started: a group with no language yet (added by someone whose language
        the bot does not speak, or before it noted whose) speaks that table's from now on.
        One cancelled does not count (QA: a guest's table, cancelled, set the group's).
        Takes the chat's lock: not to be called under the game's."""
        if (await self.group_settings(game.chat_id)).spoken is None:
            await self.change_group_settings(
                game.chat_id, lambda now: now if now.spoken is not None
                else replace(now, auto_language=game.language), locks)

    async def _changed_settings(
        self, chat_id: int, change: Callable[[GroupSettings], GroupSettings],
        settings: GroupSettings | None = None,
    ) -> GroupSettings:
        """The group's settings (``settings``: as just read) changed and stored; the caller
        holds the chat's lock (``Locks.chat``), which every change takes."""
        if settings is None:
            settings = await self.group_settings(chat_id)
        changed = change(settings)
        if changed != settings:
            await self.save_group_settings(chat_id, changed)
        return changed

    async def speak_in(self, chat_id: int, language: str, locks: Locks) -> list[int]:
        """The group chose another language: its open games, in every topic, speak it from
        now on (their house rules stay as they were set: a language is no rule, and two
        languages in one place read as a fault). The games changed, to bring up to date."""
        changed = []
        for game in self.open_games_in(chat_id):
            async with locks.game(game.game_id):
                if game.status.open and game.language != language:
                    async with self.undone_on_failure(game):
                        game.language = language
                        await self.storage.save_language(game)
                    changed.append(game.game_id)
        return changed

    async def settings_menu(self, chat_id: int) -> int | None:
        """The group's live /settings message: only its buttons change anything."""
        return await self.storage.settings_menu(chat_id)

    async def settings_menu_posted(self, chat_id: int, message_id: int | None) -> None:
        """A /settings menu was posted (it replaces the last one), or closed (None)."""
        await self.storage.save_settings_menu(chat_id, message_id)

    async def remember_user(self, user_id: int, name: str, username: str | None,
                            language: str | None, private_ok: bool | None = None) -> None:
        """Keep a user's name and language (and, when known, whether their private chat
        with the bot is open)."""
        await self.storage.remember_user(user_id, name, username, language, private_ok)

    async def save_messages(self, game: Game) -> None:
        await self.storage.save_messages(game)

    async def asked(self, game_id: int, message_id: int, chat_id: int) -> None:
        """A /stop or /leave question was posted in ``chat_id``: it is closed when the game
        ends (at once when it ended while the question was on its way). One posted in a
        group that has since become a supergroup stays behind with the game's other old
        messages (:meth:`migrate_chat`): its id in the supergroup names another message."""
        game = await self.hold(game_id)
        if game is None or game.chat_id != chat_id:
            return
        game.messages.questions.append(message_id)
        await self.storage.save_messages(game)
        if not game.status.open:  # ended meanwhile: the sync closes it now (a running game's
            self._changed(game)   # timers are left alone: a computer's move is not re-armed)

    async def answered(self, game: Game, message_id: int) -> None:
        """A question, or an offer to hand an away player's seat on, was answered (and taken
        away): nothing is left to close there when the game ends."""
        kept = [ids for ids in (game.messages.questions, game.messages.offers)
                if message_id in ids]
        for ids in kept:
            ids.remove(message_id)
        if kept:
            await self.storage.save_messages(game)

    async def topic_gone(self, game: Game, thread_id: int, deleted: bool,
                         quiet: bool = False) -> bool:
        """The game's topic was closed or deleted: the game ends with no result, its last
        words go to the General topic instead (``quiet``: none, a lobby nobody saw). The
        messages of a deleted topic are forgotten; a closed topic's lobby and table stay
        known, for the group's sync to show the end there (a bot may edit its messages in a
        closed topic, not post), never to be posted anew. False when that was already done
        (or the game has moved on)."""
        if not game.status.open or game.thread_id != thread_id:
            return False
        status = Status.STOPPED if game.status is Status.PLAYING else Status.CANCELLED
        ratings = await self._stop_ratings(game)
        topic = await self.storage.topic_name(game.chat_id, thread_id)  # named in General
        forgotten = {"lobby": None, "table_message": None} if deleted else {}
        # (all of it undone should the stop fail to commit: the game plays on in its topic)
        async with self.undone_on_failure(game, topic_gone=True, topic_deleted=deleted,
                                          **forgotten):
            game.thread_id = None
            said = [] if quiet else self.composer.topic_gone(game, deleted, ratings, topic)
            await self._set_status(game, status, said, drop_outbox=True)
        return True

    async def migrate_chat(self, old_chat_id: int, new_chat_id: int) -> None:
        """A group became a supergroup: its games follow it. Their lobby, table, questions,
        offers and /table's notices stay behind in the old group, where nobody can tap them
        any more, and the supergroup numbers its messages anew (an old id there names some
        other message): the next sync posts an open game's lobby and table in the
        supergroup, a closed game's are left as they were (:func:`left_behind`; the storage
        leaves them so in the games not in memory too)."""
        moving = [game for game in self._by_id.values() if game.chat_id == old_chat_id]
        for game in moving:  # forgotten before the move commits: whoever reads the game
            # after it (a fleet's other worker) posts anew too
            async with self.messages_undone_on_failure(game, **left_behind(game.status.open)):
                await self.storage.save_messages(game)
        await self.storage.migrate_chat(old_chat_id, new_chat_id)
        for game in moving:
            game.chat_id = new_chat_id
            behind = left_behind(game.status.open)
            if any(getattr(game.messages, name) != value for name, value in behind.items()):
                # posted in the old group while the move was being saved (a /leave's
                # question kept then; CI saw its id edited in the supergroup, where it named
                # the bot's answer to /help): it stays behind too
                async with self.messages_undone_on_failure(game, **behind):
                    await self.storage.save_messages(game)
            self._remember(game)
            self._changed(game)  # (in a fleet: let go when the new id is another's shard)
