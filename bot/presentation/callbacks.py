"""Callback data: any 64 bytes a client sends, decoded strictly into a button, or ``None``.

Any client can send any 64 bytes, so :func:`decode` trusts nothing: data that does not match a
known form exactly is ``None``, and every field is range-checked. Buttons that act on a game
carry its id, and those that act on a position its move number, so a stale one is recognised.
Buttons already sitting in chats keep working after an upgrade: a kind's earlier forms
(``earlier_forms``) decode into today's value.

The kinds are declared (:mod:`.buttonforms`) beside their values (:mod:`.gamebuttons`,
:mod:`.tilebuttons`); this module gathers them all, as :data:`Button`, for decoding and for
PTB's routing by family (:data:`PATTERNS`).
"""

from __future__ import annotations

import re
from typing import get_args

from .buttonforms import KINDS, MAX_BYTES, ButtonData, Form, Kind
from .gamebuttons import (
    AddComputer,
    CheckDeal,
    ChooseLanguage,
    LeaveAnswer,
    LobbyTap,
    PickGame,
    PlayAgain,
    ReplaceAway,
    ReplayHand,
    SettingTap,
    ShowHand,
    ShowRules,
    ShowTable,
    StopAnswer,
    TakeSeatBack,
)
from .tilebuttons import BackToHand, Lay, TileTap

Button = (PickGame | ShowRules | PlayAgain | LobbyTap | AddComputer | TileTap | Lay
          | BackToHand | ShowHand | ShowTable | StopAnswer | LeaveAnswer | ReplaceAway | SettingTap
          | ReplayHand | CheckDeal | TakeSeatBack | ChooseLanguage)

#: Every kind of button, in the order of :data:`Button`: the order :func:`decode` tries their
#: forms in, and :data:`PATTERNS` lists a family's prefixes in.
_KINDS: tuple[Kind, ...] = tuple(KINDS[cls] for cls in get_args(Button))
if len(_KINDS) != len(KINDS):  # a kind declared but left out of Button would never decode
    raise TypeError("every kind of button declared must be one of Button")
_FORMS: tuple[tuple[re.Pattern[str], Form, type[ButtonData]], ...] = tuple(
    (form.regex(), form, k.cls) for k in _KINDS for form in (k.form, *k.earlier_forms))


def kinds_of(family: str) -> tuple[type[ButtonData], ...]:
    """The kinds of button the handler of ``family`` serves."""
    return tuple(k.cls for k in _KINDS if k.family == family)


def _family_pattern(family: str) -> str:
    prefixes = [form.prefix_pattern for k in _KINDS if k.family == family
                for form in (k.form, *k.earlier_forms)]
    return "^(?:" + "|".join(dict.fromkeys(prefixes)) + "):"


# PTB routing: each family of buttons by its prefix (decode still checks the whole form).
PATTERNS: dict[str, str] = {
    family: _family_pattern(family) for family in dict.fromkeys(
        k.family for k in _KINDS)}


def decode(data: str | None) -> Button | None:
    """The button ``data`` stands for, or ``None`` when it is garbled or forged."""
    if not data or len(data.encode()) > MAX_BYTES:
        return None
    for regex, form, cls in _FORMS:
        if m := regex.fullmatch(data):
            try:
                return cls(**form.read(m.groups()))  # type: ignore[return-value]
            except (ValueError, IndexError, KeyError):
                return None
    return None

