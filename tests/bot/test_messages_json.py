"""A game's messages survive a restart: what is stored reads back the same."""

from __future__ import annotations

from bot.gamemessages import HandMessage, Messages, Reminder, leave_group


def test_every_kind_of_message_reads_back_as_stored() -> None:
    messages = Messages(lobby=1, lobby_key="l", table_message=2, table_hand=0, table_key="t",
                        hands={1: HandMessage(3, "k")}, announced_unreachable=[2],
                        topic_gone=True, questions=[4], table_moves=5, bot_removed=True,
                        calls=[6], offers=[7], unreachable_notes={2: 8},
                        reminders={1: Reminder(9, 10, 11)}, group_gone=True,
                        back_offers={12: {13: True, 14: False}, 15: {16: None}},
                        invitations={17: 18}, again_hands={19: 20}, offer_seats={7: 1},
                        table_notices=[21], cheered=[22],
                        photo_notices=[23], removed_at=24.5, topic_deleted=True)
    assert Messages.from_json(messages.to_json()) == messages


def test_messages_stored_before_notices_and_nudges_were_kept_read_as_none() -> None:
    old = '{"lobby": 1, "unreachable": [2], "offers": [7]}'
    assert Messages.from_json(old) == Messages(lobby=1, announced_unreachable=[2], offers=[7])


def test_messages_stored_before_ways_back_were_kept_have_none() -> None:
    """A game stored before the private offers of a seat back were kept reads none."""
    assert Messages.from_json('{"lobby": 1}').back_offers == {}
    assert Messages.from_json(Messages(back_offers={-5: {1: False}}).to_json()).back_offers == {
        -5: {1: False}}


def test_ways_back_stored_before_their_kind_was_read_as_of_unknown_kind() -> None:
    """Stored as plain ids (before their kind was kept): a caption's edit is tried first."""
    old = '{"back_offers": {"12": [13, 14]}}'
    assert Messages.from_json(old).back_offers == {12: {13: None, 14: None}}


def test_a_rematchs_private_messages_survive_a_restart() -> None:
    """A rematch's invitations and its players' last hands of the match before (their Play
    again) are edited after a restart too; a game stored before them has none."""
    assert Messages.from_json('{"lobby": 1}').invitations == {}
    stored = Messages(invitations={5: 6}, again_hands={5: 7}).to_json()
    assert Messages.from_json(stored).invitations == {5: 6}
    assert Messages.from_json(stored).again_hands == {5: 7}


def test_a_topic_gone_stored_before_closed_and_deleted_were_told_apart_reads_as_closed() -> None:
    assert not Messages.from_json('{"topic_gone": true}').topic_deleted


def test_a_game_stored_before_its_winners_cheers_were_kept_has_none() -> None:
    assert Messages.from_json('{"lobby": 1}').cheered == []


def test_a_group_upgraded_leaves_a_closed_games_table_as_it_showed_and_an_open_ones_to_post(
        ) -> None:
    """The old group's ids are forgotten either way (they name other messages in the
    supergroup); a closed game keeps what its lobby and table showed, so that no sync posts
    them again, and all of its private messages."""
    stored = Messages(lobby=1, lobby_key="l", table_message=2, table_hand=3, table_key="t",
                      hands={0: HandMessage(4, "k")}, questions=[5], calls=[6], offers=[7],
                      unreachable_notes={1: 8}, offer_seats={7: 1}, table_notices=[9],
                      cheered=[10]).to_json()
    left = Messages(lobby_key="l", table_hand=3, table_key="t", hands={0: HandMessage(4, "k")},
                    cheered=[10])
    assert Messages.from_json(leave_group(stored, open_game=False)) == left
    left.lobby_key = left.table_key = None
    assert Messages.from_json(leave_group(stored, open_game=True)) == left
