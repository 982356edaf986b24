"""The pictures never hard-code a language: every word drawn comes from the labels or names."""

from __future__ import annotations

import re
from dataclasses import fields, replace

from engine import hand_tables, player_view, table_view
from goldens.positions import played, with_line
from goldens.samples import names_for, samples
from renderers import (
    TableLabels,
    render_hand,
    render_hand_result,
    render_match_end,
    render_replay,
    render_table,
)

# Every label in another language (with a marker), so that an English word left in the code
# would show up among the words drawn.
RUSSIAN = TableLabels(
    games=(("gaple", "Гапле"), ("gaple-dead", "Гапле: мёртвые кости"), ("pair", "Парный домино"),
           ("muggins", "Маггинс"), ("kolbasa", "Колбаса"), ("six-matador", "Шестерной матадор"),
           ("french", "Французская"), ("bergen", "Берген"), ("matador", "Матадор")),
    hand="Партия {number}",
    target="до {target}",
    set_name="дубль-{number}",
    player="Игрок {number}",
    score="очки",
    penalty="штраф",
    tiles="костей",
    dead="мёртвые",
    knock="рыба",
    to_move="ходит",
    middle="прикуп",
    winner="победа",
    draw="ничья",
    points="за партию",
    total="сумма",
    blocked="рыба!",
    went_out="вышел",
    match_won="матч выигран",
    match_drawn="матч вничью",
    your_tiles="Ваши кости",
    your_turn="ваш ход",
    you_went_out="вы вышли",
    hand_blocked="партия встала",
    hand_over="партия окончена",
    no_tiles_left="костей не осталось",
    lay_dead="сбросьте кость",
    ends="концы",
    stock="базар",
    in_play="сейчас",
    count="сумма концов",
    cut_off="отрезано",
    double_header="двойной дуплет",
    triple_header="тройной дуплет",
    only_matador="только матадор",
    ribbon_waits="ждёт другую ленту",
    counts_nothing="не считается",
    match_over="Матч окончен",
    final_score="итог",
    rating="изменение рейтинга",
    upper="верхняя",
    lower="нижняя",
    settlement="расчёт",
    replay_move="ход {number} из {moves}",
    replay_dealt="раздача",
)


def _leftover(drawn: list[str], allowed: list[str]) -> list[str]:
    """Drawn strings with every allowed word, digit and punctuation mark taken out; a word cut
    short with an ellipsis counts as the word it starts."""
    left = []
    for text in drawn:
        for word in sorted(allowed, key=len, reverse=True):
            text = text.replace(word, " ")
        cut = re.search(r"([\w-]+)…$", text)
        if cut and any(word.startswith(cut.group(1)) for word in allowed):
            text = text[: cut.start()]
        text = re.sub(r"[\d\s·&+\-|…]", "", text)
        if text:
            left.append(text)
    return left


def _allowed(names: tuple[str, ...]) -> list[str]:
    words = [title for _, title in RUSSIAN.games]
    for field in fields(RUSSIAN):
        value = getattr(RUSSIAN, field.name)
        if isinstance(value, str):
            words.extend(part for part in re.split(r"\{\w+\}", value) if part.strip())
            words.extend(value.split())  # a label wrapped over lines (the status box)
    for name in names:
        words.extend(name.split())
        words.extend(f"{word[0]}." for word in name.split())  # a long name's initials
    return words


def test_every_label_is_translated_in_the_test() -> None:
    english = TableLabels()
    for field in fields(TableLabels):
        assert getattr(RUSSIAN, field.name) != getattr(english, field.name), field.name


def test_every_word_on_every_picture_comes_from_labels_or_names(drawn_text: list[str]) -> None:
    names = names_for(5)
    dead = played("gaple-dead", 5, 6, seed=4, options={"set": 9})
    render_table(table_view(dead), names, labels=RUSSIAN)
    knocked = played("gaple", 4, 30, seed=6)
    render_table(table_view(knocked), names_for(4), labels=RUSSIAN)
    render_table(with_line(table_view(knocked), 91), ["🎲", "", "Ann", "Bo"], labels=RUSSIAN)
    over = table_view(played("pair", 4, 0, seed=5, until_over=True))
    render_hand_result(over, names_for(4), labels=RUSSIAN)
    render_replay(hand_tables(played("kolbasa", 2, 0, seed=2, until_over=True), 0),
                  names_for(2), labels=RUSSIAN)
    assert over.result is not None
    drawn_match = replace(over, match_over=True, match_winner=None,
                          result=replace(over.result, winner=None))
    render_hand_result(drawn_match, names_for(4), labels=RUSSIAN)
    seat = dead.to_move
    assert seat is not None
    render_hand(player_view(dead, seat), labels=RUSSIAN)
    for sample in samples():
        if sample.table is None:
            continue
        if sample.kind == "table":
            render_table(sample.table, sample.names, labels=RUSSIAN)
        elif sample.kind == "match-end":
            render_match_end(sample.table, sample.names, rating_changes=sample.ratings,
                             labels=RUSSIAN)
        elif sample.kind == "result":
            render_hand_result(sample.table, sample.names, labels=RUSSIAN)
        elif sample.kind == "hand" and sample.player is not None:
            render_hand(sample.player, labels=RUSSIAN)
    assert drawn_text
    allowed = _allowed(names + names_for(4) + ("Ann", "Bo") + names_for(3) + names_for(2))
    assert _leftover(drawn_text, allowed) == []
    assert "Игрок" in " ".join(drawn_text)  # the emoji-only and empty names
