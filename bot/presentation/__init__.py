"""What players read, see and tap: texts, keyboards, button data, announcements, pictures.

May import the shared modules of ``bot``, the service's values (``bot.service``'s ratings and
scoreboards), ``bot.storage``'s pure helpers, the engine's views, the renderers and
python-telegram-bot's keyboard types; never the handlers nor the publishing.
"""
