"""The Telegram messages a game owns (:class:`Messages`), by id with what each shows, kept
with the game so that a restart can bring them up to date; and their stored JSON form."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .storedjson import dumps


@dataclass(frozen=True, slots=True)
class HandMessage:
    message_id: int
    key: str  # what it shows: the publisher skips edits that would change nothing


@dataclass(frozen=True, slots=True)
class Reminder:
    """A half-time nudge sent to a player's private chat, for the turn made at ``move_no``."""

    message_id: int
    move_no: int
    user_id: int  # whose chat it is in (the seat may have changed hands since)


@dataclass(slots=True)
class Messages:
    """The Telegram messages a game owns, kept so a restart can bring them up to date."""

    lobby: int | None = None
    lobby_key: str | None = None
    table_message: int | None = None  # the group's picture of the table, with "My tiles"
    table_hand: int | None = None  # the hand number the table message shows
    table_key: str | None = None
    hands: dict[int, HandMessage] = field(default_factory=dict)  # by seat
    # The seats whose player the group was told the bot cannot reach in private (once each).
    announced_unreachable: list[int] = field(default_factory=list)
    topic_gone: bool = False  # its lobby and table were in a topic that is closed or gone
    # The /stop and /leave questions asked in the group and not yet answered: their buttons
    # are taken away when the game ends, so a late tap is never offered.
    questions: list[int] = field(default_factory=list)
    # How many moves of hand ``table_hand`` the table's caption showed when last sent: the
    # next caption tells every move since (several may be committed between two edits).
    table_moves: int | None = None
    # The bot was removed from the group (my_chat_member): the game stopped for that, which
    # its players' private messages say, the group being closed to the bot.
    bot_removed: bool = False
    # The lobby's calls to start (the table is ready, or open the private chat first) posted
    # in the group: of no use once the lobby is closed (started or cancelled), when the
    # group's sync deletes them; nor once a newer call is posted (deleted then too).
    calls: list[int] = field(default_factory=list)
    # The offers posted in the group to hand an away player's seat to a computer: their
    # buttons are taken away when the game ends, however it ends (a tap would do nothing).
    # One answered (the seat handed) is deleted, and leaves the list.
    offers: list[int] = field(default_factory=list)
    # The group's notices that a seat's tiles cannot reach its player, by seat: deleted once
    # their tiles do (the notice would say otherwise for the rest of the game).
    unreachable_notes: dict[int, int] = field(default_factory=dict)
    # The half-time nudges in players' private chats, by seat: deleted once the turn passes.
    reminders: dict[int, Reminder] = field(default_factory=dict)
    # With ``bot_removed``: the group itself was deleted (Telegram said so, no update did),
    # which the players' private messages say rather than that the bot was removed.
    group_gone: bool = False
    # The ways back ("↩ Take my seat back") offered in private to players whose seat went to
    # a computer while they were away, by user id (their private chat), oldest first: the
    # hands' sync takes the button off every one but the newest, and off all of them once
    # the seat is theirs again or the match is over (one live offer at most, never a dead
    # one). Each id with its kind: True, an old hand's picture (its caption holds the words);
    # False, a text message of its own; None, not known (stored before the kind was: a
    # caption's edit is tried first). Games stored before it have none.
    back_offers: dict[int, dict[int, bool | None]] = field(default_factory=dict)
    # A rematch's private invitations ("🔁 … your seat is kept for you", with its Join), by
    # user id: edited once the seat is taken, freed, or the table started or closed, so that
    # none keeps a live button (player QA). Forgotten once edited.
    invitations: dict[int, int] = field(default_factory=dict)
    # A rematch's players' last hand messages of the match it plays again, by user id: their
    # "🔁 Play again" button goes once the rematch starts (it would open nothing then);
    # forgotten then, or when the rematch is closed before it starts (the button works again).
    again_hands: dict[int, int] = field(default_factory=dict)
    # The seat each of ``offers`` offers to hand on, by the offer's id: the group's sync
    # deletes an offer once its seat's player is back (its button would be refused, its
    # words say they are away). An offer stored before this has no seat here: it goes once
    # nobody at the table is away. Ids no longer among ``offers`` are dropped as they go.
    offer_seats: dict[int, int] = field(default_factory=dict)
    # The group's answers to a /table in the gap after the table's last re-post ("The table
    # comes down … in a few seconds"): deleted by the group's sync once no table waits to
    # come down (it came, or the game ended, or a restart dropped the wait: player QA, the
    # notice stayed for good, even when the promised table never came).
    table_notices: list[int] = field(default_factory=list)
    # The group's notices that its table cannot be shown, the group refusing the bot's photos
    # ("I may not send photos in this group", and the answers to /table saying so): deleted
    # by the group's sync once a table is posted there again (QA: they stayed, untrue).
    photo_notices: list[int] = field(default_factory=list)
    # With ``bot_removed``: when (the service's clock) the bot was removed from the group,
    # stopping the game; cleared once the group, the bot added back, was told so (see
    # :meth:`bot.service.chats.Chats.removal_to_tell`).
    removed_at: float | None = None
    # With ``topic_gone``: the topic was deleted, not closed (the players' private messages
    # say which; a closed topic's table is still there, and shows the stop).
    topic_deleted: bool = False
    # The match's winners cheered in private ("🎉 You won the match"), by user id: once each,
    # whatever edits their result later (QA: a restart after the group was renamed or
    # upgraded edited it, and cheered them again). Games stored before it have none.
    cheered: list[int] = field(default_factory=list)

    def to_json(self) -> str:
        return dumps(
            {
                "lobby": self.lobby,
                "lobby_key": self.lobby_key,
                "table": self.table_message,
                "table_hand": self.table_hand,
                "table_key": self.table_key,
                "hands": {str(s): [m.message_id, m.key] for s, m in self.hands.items()},
                "unreachable": self.announced_unreachable,
                "topic_gone": self.topic_gone,
                "questions": self.questions,
                "table_moves": self.table_moves,
                "bot_removed": self.bot_removed,
                "calls": self.calls,
                "offers": self.offers,
                "unreachable_notes": {str(s): m for s, m in self.unreachable_notes.items()},
                "reminders": {str(s): [r.message_id, r.move_no, r.user_id]
                              for s, r in self.reminders.items()},
                "group_gone": self.group_gone,
                "back_offers": {str(u): [[m, photo] for m, photo in ids.items()]
                                for u, ids in self.back_offers.items()},
                "invitations": {str(u): m for u, m in self.invitations.items()},
                "again_hands": {str(u): m for u, m in self.again_hands.items()},
                "offer_seats": {str(m): s for m, s in self.offer_seats.items()},
                "table_notices": self.table_notices,
                "photo_notices": self.photo_notices,
                "removed_at": self.removed_at,
                "topic_deleted": self.topic_deleted,
                "cheered": self.cheered,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Messages:
        data = json.loads(text or "{}")
        return cls(
            data.get("lobby"),
            data.get("lobby_key"),
            data.get("table"),
            data.get("table_hand"),
            data.get("table_key"),
            {int(s): HandMessage(v[0], v[1]) for s, v in data.get("hands", {}).items()},
            list(data.get("unreachable", [])),
            bool(data.get("topic_gone", False)),
            [int(m) for m in data.get("questions", [])],
            data.get("table_moves"),
            bool(data.get("bot_removed", False)),
            [int(m) for m in data.get("calls", [])],
            [int(m) for m in data.get("offers", [])],
            {int(s): int(m) for s, m in data.get("unreachable_notes", {}).items()},
            {int(s): Reminder(*map(int, r)) for s, r in data.get("reminders", {}).items()},
            bool(data.get("group_gone", False)),
            {int(u): dict(map(_back_offer, ids))
             for u, ids in data.get("back_offers", {}).items()},
            {int(u): int(m) for u, m in data.get("invitations", {}).items()},
            {int(u): int(m) for u, m in data.get("again_hands", {}).items()},
            {int(m): int(s) for m, s in data.get("offer_seats", {}).items()},
            [int(m) for m in data.get("table_notices", [])],
            [int(m) for m in data.get("photo_notices", [])],
            _float_or_none(data.get("removed_at")),
            bool(data.get("topic_deleted", False)),
            [int(u) for u in data.get("cheered", [])],
        )


def left_behind(open_game: bool) -> dict[str, object]:
    """A game's messages that its group's move to a supergroup leaves behind in the old group,
    as forgotten (new lists and maps each time: the game keeps and changes them). Nobody can
    tap them there any more, and the supergroup numbers its messages anew: an old id there
    names some other message. An open game's lobby and table are posted anew in the
    supergroup (their keys forgotten too). A closed game's keep what they showed: its
    messages are left as they are, none posted again (QA: a finished match's table kept the
    old group's id, so a restart read a link to some other message of the supergroup in its
    hands, edited every player's result again and cheered its winners a second time)."""
    fields: dict[str, object] = {
        "lobby": None, "table_message": None, "questions": [], "calls": [], "offers": [],
        "unreachable_notes": {}, "offer_seats": {}, "table_notices": [], "photo_notices": []}
    if open_game:
        fields |= {"lobby_key": None, "table_key": None}
    return fields


def leave_group(text: str, open_game: bool) -> str:
    """A game's stored messages (:meth:`Messages.to_json`) once its group moved to a
    supergroup (:func:`left_behind`); ``text`` itself when it names nothing there (most of a
    group's old games: not written again)."""
    messages = Messages.from_json(text)
    behind = left_behind(open_game)
    if all(getattr(messages, name) == value for name, value in behind.items()):
        return text
    for name, value in behind.items():
        setattr(messages, name, value)
    return messages.to_json()


def _back_offer(stored: int | list[Any]) -> tuple[int, bool | None]:
    """One stored way back: ``[id, photo]``, or a plain id as stored before its kind was
    (not known)."""
    if isinstance(stored, list):
        message_id, photo = stored
        return int(message_id), None if photo is None else bool(photo)
    return int(stored), None


def _float_or_none(stored: Any) -> float | None:
    return None if stored is None else float(stored)
