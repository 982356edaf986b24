"""The objects a running bot shares, kept in ``application.bot_data``."""

from __future__ import annotations

from dataclasses import dataclass

from telegram.ext import ContextTypes

from .config import Settings
from .locks import Locks
from .pictures import PictureMaker
from .publisher import Publisher
from .ratelimit import FloodLimiter
from .service import GameService
from .storage import Storage
from .timers import Timers

KEY = "runtime"


@dataclass(slots=True)
class Runtime:
    settings: Settings
    storage: Storage
    service: GameService
    publisher: Publisher
    locks: Locks
    pictures: PictureMaker
    timers: Timers
    limiter: FloodLimiter


def runtime(context: ContextTypes.DEFAULT_TYPE) -> Runtime:
    value = context.application.bot_data[KEY]
    assert isinstance(value, Runtime)
    return value
