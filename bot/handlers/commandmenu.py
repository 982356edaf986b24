"""The commands Telegram lists in its menus, per scope (groups, private chats) and per
language: what :func:`register_commands` sets at start, beside the handlers that answer them."""

from __future__ import annotations

from telegram import Bot, BotCommand, BotCommandScopeAllGroupChats, BotCommandScopeAllPrivateChats

from ..i18n import DEFAULT_LANGUAGE, LANGUAGES, N_, translator

#: /table in both menus
TABLE_COMMAND = N_("Bring the table down to the bottom of the group")
GROUP_COMMANDS = (
    ("newgame", N_("Open a domino table")),
    ("notify", N_("Tell me in private when a table opens here")),
    ("table", TABLE_COMMAND),
    ("hand", N_("Send me my tiles again")),
    ("leave", N_("Leave the game")),
    ("stop", N_("Stop the running game")),
    ("scoreboard", N_("Who wins in this group")),
    ("stats", N_("My statistics")),
    ("settings", N_("House rules, turn timer, language")),
    ("language", N_("The group's language")),
    ("rules", N_("How the games are played")),
    ("help", N_("What I can do")),
    ("replay", N_("Watch the last hand again, move by move")),
)
PRIVATE_COMMANDS = (
    ("hand", N_("Send me my tiles again")),
    ("table", TABLE_COMMAND),
    ("stats", N_("My statistics")),
    ("rules", N_("How the games are played")),
    ("help", N_("What I can do")),
    ("replay", N_("Watch my last hands again, move by move")),
    ("verify", N_("Check the deal of a hand I played")),
    ("language", N_("Which language I write to you in")),
)


async def register_commands(bot: Bot) -> None:
    """Command lists per scope (groups, private chats) and per language."""
    for language in LANGUAGES:
        t = translator(language)
        code = None if language == DEFAULT_LANGUAGE else language
        for scope, listed in ((BotCommandScopeAllGroupChats(), GROUP_COMMANDS),
                              (BotCommandScopeAllPrivateChats(), PRIVATE_COMMANDS)):
            await bot.set_my_commands([BotCommand(c, t(d)) for c, d in listed], scope=scope,
                                      language_code=code)
