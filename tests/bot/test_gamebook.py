"""One presentation entry per game, and no other list of games in the bot."""

from __future__ import annotations

import random
import re
from pathlib import Path

from bot.gamebook import GAMES, PRESENTATIONS, find_game, name_key, names_of, read_game
from bot.gamemessages import Messages
from bot.i18n import LANGUAGES, translator
from bot.models import Game, Player, Status
from bot.presentation.lobbytexts import games_list, option_example, rules_text, table_rules_text
from engine import VARIANTS, HandEndReason, Match, Tile, player_view, table_view, variant

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


def test_kolbasa_rules_name_the_ribbons_as_the_picture_draws_them() -> None:
    """Player QA: the picture draws the ribbons one above the other, both running right; the
    rules said they grow "left and right", and players looked for a ribbon running left."""
    rules = PRESENTATIONS["kolbasa"].rules
    assert "two ribbons grow from it side by side, an upper and a lower one" in rules
    assert "left" not in rules and "right" not in rules


def titles() -> list[tuple[str, str, str]]:
    """(game, language, the game's name as that language's buttons, /rules and lobby show it),
    from the catalogues."""
    return [(game, language, translator(language)(PRESENTATIONS[game].title))
            for game in GAMES for language in LANGUAGES]


#: How a keyboard without these letters writes them (Icelandic, Russian's ё).
PLAIN = str.maketrans({"á": "a", "é": "e", "í": "i", "ó": "o", "ú": "u", "ý": "y", "ö": "o",
                       "ð": "d", "þ": "th", "æ": "ae", "ё": "е", "Ё": "Е"})  # noqa: RUF001


def test_a_game_is_found_by_its_name_in_every_language_however_it_is_typed() -> None:
    """QA: "/newgame Домино парами", "/rules Gaple með dauðum steinum" named no game; the whole
    name is read, whatever its case, hyphens or spaces, with or without accents or ё."""
    for game, language, name in titles():
        spellings = {name, name.upper(), name.lower(), name.replace("-", " "),
                     name.replace(" ", "-"), name.translate(PLAIN), name.lower().translate(PLAIN)}
        for typed in spellings:
            words = typed.split()
            assert find_game(typed) == game, (language, typed)
            assert read_game(words) == (game, len(words)), (language, typed)
            assert read_game([*words, "target=150", "x"]) == (game, len(words)), (language, typed)


def test_no_name_names_two_games() -> None:
    owner: dict[str, str] = {}
    for game in GAMES:
        for name in names_of(game):
            assert owner.setdefault(name_key(name), game) == game, (name, owner[name_key(name)])
    assert len(owner) > 4 * len(GAMES)  # ids, aliases and the titles of four languages


def test_the_longest_name_wins_and_the_words_after_it_are_options() -> None:
    """ "Gaple with dead tiles" starts with "Gaple", "Matador enam" with "Matador": the
    longer game, not the shorter one followed by words that are no options."""
    for words, found in [
        ("Gaple with dead tiles", ("gaple-dead", 4)),
        ("Gaple with dead tiles deal=7", ("gaple-dead", 4)),
        ("Gaple with dead", ("gaple", 1)),
        ("Gaple deal-7", ("gaple", 1)),
        ("gaple dead", ("gaple-dead", 2)),
        ("Matador enam target=50", ("six-matador", 2)),
        ("Six matador", ("six-matador", 2)),
        ("Гапле со сбросом", ("gaple-dead", 3)),  # noqa: RUF001
        ("Domino", None),
        ("chess gaple", None),
        ("target=150", None),
    ]:
        assert read_game(words.split()) == found, words
    assert find_game("Gaple with dead") is None and find_game("Domino") is None
    assert read_game(["x" * 4000] * 2000) is None


def test_the_games_are_listed_by_their_names_in_the_chats_language_with_the_id_to_type() -> None:
    for language in LANGUAGES:
        t = translator(language)
        listed = games_list(t).split(", ")
        assert len(listed) == len(GAMES) and len(games_list(t)) < 1000, language
        for game, shown in zip(GAMES, listed, strict=True):
            name = t(PRESENTATIONS[game].title)
            assert shown in (name, f"{name} ({game})"), (language, shown)
            assert shown == f"{name} ({game})" or name_key(name) == name_key(game)
    assert games_list(translator("en")).startswith(
        "Gaple, Gaple with dead tiles (gaple-dead), Pair dominoes (pair), Kolbasa, ")


def test_the_example_of_an_option_is_one_the_game_takes() -> None:
    assert option_example("gaple-dead") == "deal=7"
    for game in GAMES:
        name, value = option_example(game).split("=")
        spec = variant(game).option_spec(name)
        assert spec is not None and spec.parse(value) != spec.default, game


def test_gaple_rules_say_how_a_blocked_hand_scores_and_who_leads_after_a_draw() -> None:
    """Player QA: /rules gaple said who wins a blocked hand but not that the winner scores
    the others' pips, nor who leads after a drawn hand (docs/RULES.md, gaple)."""
    rules = PRESENTATIONS["gaple"].rules
    assert "the fewest pips wins and scores the same way" in rules
    assert "a tie is a drawn hand that scores nothing, and its leader leads the next" in rules
    for language in ("ru", "id", "is"):
        assert translator(language)(rules) != rules, language


def test_gaple_dead_rules_say_who_wins_a_tie_with_no_tiles_and_that_a_match_can_be_drawn(
        ) -> None:
    """Player QA asked both; /rules says what the engine decides (engine.variants.gaple_dead:
    ``score`` ranks a seat with no counted tiles first among equal totals, ``match_result``
    gives no winner when the lowest running total is shared at the end)."""
    t = translator("en")
    rules = rules_text(t, "gaple-dead")
    spec = variant("gaple-dead")
    options = spec.options({}, 4)
    # Ayu went out (no tiles), Budi kept 0-0 alone: both total 0, and Ayu wins the hand.
    hands = [[], [Tile(0, 0)], [Tile(5, 6)], [Tile(6, 6)]]
    end = spec.ending(options, HandEndReason.OUT, 0, hands)
    assert end.totals[:2] == (0, 0) and spec.score(options, end).winner == 0
    assert ("In a tied hand, a player left with no tiles at all (none in hand, none dead) wins "
            "over a player who has some.") in rules
    assert spec.match_result(options, (101, 40, 40, 70)) == (True, None)
    assert rules.endswith(
        "If the lowest running total is shared when the match ends, the match is a draw.")
    # Gaple's match is never drawn (one side scores a hand: one reaches the target first).
    assert rules_text(t, "gaple").endswith("First to 100 points wins the match.")


def test_the_rules_at_a_filling_bergen_table_say_the_target_of_each_size() -> None:
    """/rules at a Bergen table of one seated player said the two-player target alone, yet
    the table may start with three; once started, or with a target chosen, the table's own."""
    t = translator("en")
    three_or_four = "With 3 or 4 players, the target is 10 points."

    def rules(status: Status, seated: int, options: dict[str, object]) -> str:
        players = [Player(n + 1, f"P{n}") for n in range(seated)]
        game = Game(1, -100, status, "bergen", options, 1, players, None, 5, "en", Messages())
        return table_rules_text(t, game)

    for seated in (1, 2, 3):
        assert three_or_four in rules(Status.LOBBY, seated, {})
    assert three_or_four not in rules(Status.LOBBY, 1, {"target": 15})
    playing = rules(Status.PLAYING, 2, {})
    assert three_or_four not in playing and "First to 15 points" in playing
