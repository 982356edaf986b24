"""The bot's HTTP side: the webhook endpoint, health checks and Prometheus metrics.

May import ``bot.errors``, aiohttp, prometheus-client and python-telegram-bot; nothing of the
game.
"""
