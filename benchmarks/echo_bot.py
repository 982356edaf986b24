"""The baseline of ``python -m benchmarks.latency``: the least a python-telegram-bot bot does
for a tap.

    TELEGRAM_BOT_TOKEN=... TELEGRAM_API_BASE_URL=http://127.0.0.1:PORT python -m benchmarks.echo_bot

/start in a group posts one message with one button; each tap on it is answered, then the
message is edited to count the taps (its button kept, so it can be tapped again). Nothing
else: no storage, no pictures, no rate limiter; the same HTTP stack and polling as the bot.

``ECHO_LOOP=uvloop`` runs it on uvloop's event loop, as the bot runs where uvloop is installed
(so that the latency benchmark compares like with like); ``asyncio`` (the default) on
asyncio's own, as a bare python-telegram-bot bot runs.
"""

from __future__ import annotations

import asyncio
import os

from telegram import InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.ext import Application, CallbackQueryHandler, CommandHandler, ContextTypes

BUTTON = InlineKeyboardMarkup([[InlineKeyboardButton("tap", callback_data="tap")]])


async def start(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    if update.effective_chat is not None:
        await context.bot.send_message(update.effective_chat.id, "taps: 0", reply_markup=BUTTON)


async def tapped(update: Update, context: ContextTypes.DEFAULT_TYPE) -> None:
    query = update.callback_query
    if query is None:
        return
    await query.answer()
    count = int(context.chat_data.get("taps", 0)) + 1 if context.chat_data is not None else 1
    if context.chat_data is not None:
        context.chat_data["taps"] = count
    await query.edit_message_text(f"taps: {count}", reply_markup=BUTTON)


def build(token: str, base: str) -> Application:  # type: ignore[type-arg]
    application = (
        Application.builder().token(token).base_url(f"{base}/bot")
        .base_file_url(f"{base}/file/bot").concurrent_updates(True).build()
    )
    application.add_handler(CommandHandler("start", start))
    application.add_handler(CallbackQueryHandler(tapped))
    return application


def main() -> None:
    if os.environ.get("ECHO_LOOP", "asyncio") == "uvloop":
        import uvloop

        asyncio.set_event_loop(uvloop.new_event_loop())  # run_polling runs on the set loop
    application = build(os.environ["TELEGRAM_BOT_TOKEN"], os.environ["TELEGRAM_API_BASE_URL"])
    application.run_polling(allowed_updates=[Update.MESSAGE, Update.CALLBACK_QUERY])


if __name__ == "__main__":
    main()
