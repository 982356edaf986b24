"""One presentation entry per game, and no other list of games in the bot."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.gamebook import GAMES, PRESENTATIONS, find_game
from bot.i18n import LANGUAGES, translator
from engine import VARIANTS, Match, Tile, player_view, table_view, variant

BOT = Path(__file__).parents[2] / "bot"


def test_every_entry_presents_an_engine_variant_and_words_each_of_its_options() -> None:
    for name, entry in PRESENTATIONS.items():
        spec = variant(name)
        assert spec.name == name
        worded = set(entry.options)
        assert worded == set(spec.option_names) - {"set", "target"}, name
        for option, words in entry.options.items():
            choices = spec.option_spec(option).choices  # type: ignore[union-attr]
            assert set(words.choices) <= set(choices), (name, option)
            assert spec.defaults.get(option) in words.choices, (name, option)
            assert set(words.in_force) <= set(choices) - {spec.defaults.get(option)}


def test_the_bots_games_are_its_entries_in_menu_order() -> None:
    assert tuple(PRESENTATIONS) == GAMES
    assert set(GAMES) <= set(VARIANTS)


def test_games_are_found_by_name_and_alias_in_any_case() -> None:
    for game in GAMES:
        assert find_game(game) == game
        assert find_game(game.upper()) == game
        for alias in variant(game).aliases:
            assert find_game(alias) == game
    assert find_game("nosuch") is None


def test_every_title_and_rules_text_is_translated() -> None:
    for language in LANGUAGES:
        t = translator(language)
        for entry in PRESENTATIONS.values():
            assert "{target}" not in t(entry.rules, target=100)
            if language != "en":
                assert t(entry.title) != entry.title or entry.title == "Gaple", (language, entry)


def test_no_other_module_of_the_bot_names_a_game() -> None:
    """Adding a game touches its variant, its entry and the catalogues: nothing else. (A
    schema migration names the games whose stored data it rewrites: that is history.)"""
    named = re.compile("|".join(rf'"{re.escape(game)}"' for game in VARIANTS))
    offenders = [
        f"{path.name}:{number}"
        for path in BOT.rglob("*.py") if path.name not in ("gamebook.py", "schema.py")
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if named.search(line)
    ]
    assert offenders == []


def test_gaple_dead_rules_say_who_leads_when_nothing_lies_in_the_middle() -> None:
    """With 7 tiles each (all 28 dealt) no middle tile is turned up: 0-0 leads the first
    hand. The rules text said only that the first middle tile starts the line."""
    match = Match("gaple-dead", 4, {"deal": 7})
    match.deal_hand(random.Random(0))  # whatever the shuffle: every tile is in a hand
    seat = table_view(match).to_move
    assert seat is not None
    assert {action.tile for action in player_view(match, seat).legal} == {Tile(0, 0)}  # type: ignore[attr-defined]
    rules = PRESENTATIONS["gaple-dead"].rules
    assert "with 7 each there is no middle: the holder of 0-0 leads it" in rules
    assert "(or 7 with the deal=7 option)" in rules  # what /newgame reads, not "deal-7"
    for language, zero_zero in {"ru": "пусто-пусто", "id": "balak kosong", "is": "0-0"}.items():
        assert zero_zero in translator(language)(rules), language


def test_six_matador_rules_say_a_0_end_takes_only_a_matador_though_0_and_6_make_6() -> None:
    """RULES.md: on a free 0 only a matador may be laid, although 0 + 6 = 6; the rules text
    said only "As Matador", whose 0 takes nothing along for another reason (7 - 0 is no half).
    And Russian counts a matador as a thing: "10 за матадор", not "за матадора"."""
    rules = PRESENTATIONS["six-matador"].rules
    assert "A 0 end takes only a matador, though 0 and 6 make 6." in rules
    for language, zero in {"ru": "поставить только матадор", "id": "Ujung 0",
                           "is": "0 má aðeins"}.items():
        assert zero in translator(language)(rules), language
    russian = translator("ru")
    for entry in PRESENTATIONS.values():
        texts = [entry.rules, *(words for option in entry.options.values()
                                for words in (option.label, *option.in_force.values()))]
        assert not any("за матадора" in russian(text) for text in texts), entry.name
