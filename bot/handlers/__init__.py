"""Handlers: decode an update (a command, a button, a timer's job), call the game service, reply.

May import the shared modules of ``bot`` (errors, i18n, models, gamebook, wording, ...),
``bot.service``, ``bot.presentation``, ``bot.publishing``, ``bot.serving``, the engine and
python-telegram-bot. :mod:`.runtime` holds the running bot's shared objects every handler
reaches. Nothing imports handlers but the wiring (``bot.app``, ``bot.launch``, ``bot.health``)
and a fleet worker (``bot.fleet.worker`` and ``bot.fleet.moves``, for :mod:`.runtime` only).
"""
