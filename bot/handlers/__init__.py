"""Handlers: decode an update (a command, a button, a timer's job), call the game service, reply.

May import the shared modules of ``bot`` (errors, i18n, models, gamebook, wording, runtime),
``bot.service``, ``bot.presentation``, ``bot.publishing``, the engine and python-telegram-bot.
Nothing imports handlers but the wiring (``bot.app``).
"""
