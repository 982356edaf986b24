"""The bot's HTTP side: the webhook endpoint, health checks and Prometheus metrics, and the
judgement of Telegram's webhook (:mod:`.webhookwatch`).

May import ``bot.errors``, ``bot.logs``, ``bot.cli`` (the version), aiohttp, prometheus-client
and python-telegram-bot; nothing of the game.
"""
