"""Bringing Telegram up to date from committed state: the syncs, sends and edits, the outbox,
Telegram's limits, lost answers.

May import the shared modules of ``bot``, ``bot.service`` (what was committed),
``bot.presentation`` (what each message shows), ``bot.storage`` (the notices' rows, the
update fence), ``bot.serving.metrics`` and python-telegram-bot; never the handlers.
"""
