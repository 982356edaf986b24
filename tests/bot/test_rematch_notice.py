"""Play again's word to the players it waits for names where the table is: the group, the
topic by its name, or "a topic" when the bot has not seen the topic's name (QA: it said the
group alone, as if the table were in General)."""

from __future__ import annotations

from bot_kit import plain

from bot.gamemessages import Messages
from bot.i18n import translator
from bot.models import Game, Player, Status
from bot.presentation.lobbytexts import invitation_closed, rematch_opened


def rematch(thread_id: int | None) -> Game:
    return Game(9, -100, Status.LOBBY, "pair", {}, 1, [Player(1, "Ayu"), Player(2, "Budi")],
                None, 0, "en", Messages(), pending=[2], thread_id=thread_id)


def test_the_notice_names_the_tables_place() -> None:
    t = translator("en")
    assert plain(rematch_opened(t, rematch(None), "Ayu", "Club")).startswith(
        "🔁 Ayu wants to play <b>Pair dominoes</b> again in Club,")
    assert "again in the topic Pairs of Club," in plain(
        rematch_opened(t, rematch(7), "Ayu", "Club", "Pairs"))
    assert "again in a topic of Club," in plain(rematch_opened(t, rematch(7), "Ayu", "Club"))


def test_in_russian_the_topic_and_group_are_quoted_as_the_hands_way_back_quotes_them() -> None:
    """Player QA: "Матадор в теме Матадор группы …" read as one name; the hands' footer
    ("↩ Стол — в теме «…» группы «…»") quotes both, and so does the invitation now."""
    t = translator("ru")
    footer = plain(t("↩ The table is in the topic {topic} of the group {group}.",
                     topic="Pairs", group="Club"))
    assert "«Pairs»" in footer and "«Club»" in footer  # (the way the footer names them)
    assert "в теме «Pairs» группы «Club»" in plain(
        rematch_opened(t, rematch(7), "Ayu", "Club", "Pairs"))
    assert "группы «Club»" in plain(rematch_opened(t, rematch(7), "Ayu", "Club"))
    assert "в группе «Club»" in plain(rematch_opened(t, rematch(None), "Ayu", "Club"))


def test_a_closed_invitation_says_why_it_waits_no_more() -> None:
    """Seated (however they joined), freed, started without them, closed unplayed; each
    with the table's place under it."""
    t, place = translator("en"), "↩ The table is in the group Club."
    game = rematch(None)
    said = []
    for change in ("seated", "freed", "started", "closed"):
        if change == "seated":
            game.pending.clear()
        elif change == "freed":
            game.players.pop()
        elif change == "started":
            game.status, game.match = Status.PLAYING, object()  # type: ignore[assignment]
        else:
            game.status, game.match = Status.CANCELLED, None
        said.append(plain(invitation_closed(t, game, 2, place)))
    assert said == [f"🔁 <b>Pair dominoes</b> again: {words}\n{place}" for words in (
        "✅ you are at the table.", "your seat is no longer kept for you.",
        "the table started without you.", "the table was closed before it started.")]
