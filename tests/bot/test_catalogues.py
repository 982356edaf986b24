"""Translation catalogues: complete, compiled, and faithful to every placeholder."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import bot
from bot.computers import COMPUTER_NAMES
from bot.gamebook import GAMES, presentation
from bot.handlers.menu import LANGUAGE_NAMES, general_value
from bot.i18n import LANGUAGES, pick_language, translator
from bot.presentation.houserules import game_value
from bot.presentation.pictures import PICTURE_WORDS, labels_for
from bot.service.settings import GENERAL
from catalogues import extract, load, missing, stale
from renderers.labels import TableLabels

PLACEHOLDER = re.compile(r"\{[a-z_]+\}")


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_of_the_code_is_translated(language: str) -> None:
    assert missing(language) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_compiled_catalogues_match_their_sources(language: str) -> None:
    assert not stale(language), "run: python -m catalogues update"


TRANSLATED = [language for language in LANGUAGES if language != "en"]


def translations(language: str) -> list[tuple[str, str]]:
    """(English msgid, translation) for every message of the code, each plural form apart."""
    catalog = load(language)
    pairs = []
    for message in extract():
        if not message.id:
            continue  # the catalogue header
        entry = catalog.get(message.id)
        assert entry is not None, message.id
        source = message.id if isinstance(message.id, str) else message.id[0]
        forms = entry.string if isinstance(entry.string, (tuple, list)) else (entry.string,)
        pairs += [(str(source), str(form)) for form in forms]
    return pairs


def test_icelandic_is_a_language_players_can_pick() -> None:
    assert "is" in LANGUAGES
    assert set(LANGUAGE_NAMES) == set(LANGUAGES)
    assert pick_language("is") == "is" and pick_language("is-IS") == "is"
    assert translator("is")("It is not your turn.") == "Þú átt ekki leik."


def test_icelandic_plurals_follow_its_two_forms() -> None:
    t = translator("is")

    def matches(count: int) -> str:
        return t.plural("{count} match", "{count} matches", count)

    assert [matches(n) for n in (1, 21, 101)] == ["1 leikur", "21 leikur", "101 leikur"]
    assert [matches(n) for n in (2, 11, 111, 0)] == ["2 leikir", "11 leikir", "111 leikir",
                                                      "0 leikir"]


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_placeholders_and_markup(language: str) -> None:
    catalog = load(language)
    for message in extract():
        if not message.id:
            continue  # the catalogue header
        entry = catalog.get(message.id)
        assert entry is not None
        source, text = str(message.id), str(entry.string)
        assert set(PLACEHOLDER.findall(source)) == set(PLACEHOLDER.findall(text)), source
        assert sorted(re.findall(r"</?b>", source)) == sorted(re.findall(r"</?b>", text)), source
        assert text.count("\n") == source.count("\n"), source


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_short_message_stays_within_a_toast(language: str) -> None:
    """Telegram cuts a callback answer at 200 characters; short English ones may be answers."""
    for source, text in translations(language):
        if len(source) <= 120:
            assert len(text) <= 200, text


def test_russian_calls_a_tile_one_thing() -> None:
    """A tile is a костяшка everywhere, never a камень (stone) as in other games' apps."""
    texts = [text.lower() for _, text in translations("ru")]
    assert not [text for text in texts if "камн" in text or "камен" in text]
    assert any("костяшк" in text for text in texts)


def test_indonesian_off_is_not_dead() -> None:
    """'mati' means dead (kartu mati, the dead tiles); a setting that is off is not 'mati'."""
    t = translator("id")
    assert "mati" not in t("off").lower().split()
    values = [general_value(t, name, choice) for name, choices in GENERAL.items()
              if name != "default_game"  # the game titles: "Gaple kartu mati" is a name
              for choice in choices]
    values += [game_value(t, game, name, choice) for game in GAMES
               for name, option in presentation(game).options.items()
               for choice in option.choices]
    assert values and not [value for value in values if "mati" in value.lower().split()]
    assert "mati" in t(presentation("gaple-dead").title).lower().split()  # dead is dead


def test_computer_players_are_not_named_after_a_game_word() -> None:
    """A name like "Kartu" made sentences such as "Kartu 🤖 Kartu sudah habis"."""
    words = set()
    for language in LANGUAGES:
        for source, text in translations(language):
            words |= set(re.findall(r"\w+", (text or source).lower()))
            words |= set(re.findall(r"\w+", source.lower()))
    words |= {word[:-1] for word in words if word.endswith("s")}  # pips: pip
    names = {name.lower() for level in COMPUTER_NAMES.values() for name in level}
    assert not names & words
    assert len(names) == sum(len(level) for level in COMPUTER_NAMES.values())


def test_a_translator_speaks_the_language_it_is_asked_for() -> None:
    assert translator("ru")("It is not your turn.") != "It is not your turn."
    assert translator("id-ID")("It is not your turn.") != "It is not your turn."
    assert translator("is")("It is not your turn.") != "It is not your turn."
    assert translator("xx")("It is not your turn.") == "It is not your turn."
    assert translator(None).language == "en"


def _words(text: str) -> list[str]:
    return re.findall(r"\w+", text.lower())


def _rules_body(text: str) -> str:
    """A rules text without its bold title (French is a "Французская партия" by name)."""
    return re.sub(r"<b>.*?</b>", "", text)


@pytest.mark.parametrize("game", GAMES)
def test_russian_rules_say_partiya_only_for_a_match(game: str) -> None:
    """A hand is a кон: "партия" (a match) may stand only where the English rules say match."""
    rules = presentation(game).rules
    russian = _rules_body(translator("ru")(rules)).lower()
    assert russian.count("парти") <= _words(_rules_body(rules)).count("match"), russian


@pytest.mark.parametrize("game", GAMES)
def test_icelandic_rules_say_deplar_for_pips_and_laest_for_blocked(game: str) -> None:
    """The catalogue's words: pips are deplar, a blocked hand is læst (not augu or stífla,
    which crept into the six games' rules)."""
    icelandic = translator("is")(presentation(game).rules).lower()
    assert not [word for word in _words(icelandic) if word.startswith(("aug", "stífl"))]


def test_icelandic_says_stifla_nowhere_and_a_turn_is_not_a_hand() -> None:
    """umferð is a hand; a turn (a player's move) is not an umferð."""
    for source, text in translations("is"):
        assert "stífl" not in text.lower(), text
        words = _words(source)
        if "turn" in words and "hand" not in words:
            assert "umferð" not in text.lower(), (source, text)


def test_russian_speaks_to_one_player_as_ty() -> None:
    """The catalogue says ты to a player (вы only to a group, in the rules and the help)."""
    addressed = {presentation(game).rules for game in GAMES}
    formal = re.compile(r"\b(вы|вас|вам|вами|ваш\w*)\b")
    found = [text for source, text in translations("ru")
             if source not in addressed and not source.startswith("<b>Dominoes for your group")
             and formal.search(text.lower())]
    assert found == []


def test_every_word_drawn_on_a_picture_is_extracted() -> None:
    """Most picture words are the renderers' defaults, read from TableLabels and written in
    no ``N_`` call: the extractor must still find each, or it stays English everywhere."""
    extracted = {m.id for m in extract() if m.id}
    own = {msgid for game in GAMES for msgid in presentation(game).picture_words.values()}
    assert set(PICTURE_WORDS) == {name for name, kind in TableLabels.__annotations__.items()
                                  if kind == "str"}
    assert not (set(PICTURE_WORDS.values()) | own) - extracted


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pictures_words_differ_where_the_english_ones_do(language: str) -> None:
    """The result picture heads one column "points" (this hand) and one "score" (the match):
    Icelandic had "stig" for both."""
    for game in (None, *GAMES):
        labels, english = labels_for(language, game), labels_for("en", game)
        words: dict[str, set[str]] = {}
        for name in TableLabels.__dataclass_fields__:
            if isinstance(getattr(labels, name), str):
                words.setdefault(getattr(labels, name), set()).add(getattr(english, name))
        assert not {word: sources for word, sources in words.items() if len(sources) > 1}


def _translator_calls() -> list[tuple[str, int, ast.Call]]:
    """Every call in bot/ that translates a literal sentence: ``t("...")``,
    ``translator_of(query)("...")``, ``translator(language)("...")`` and
    ``t.plural("...", "...", n)``."""
    calls = []
    for path in sorted(Path(bot.__file__).parent.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                    and isinstance(node.args[0].value, str):
                calls.append((path.name, node.lineno, node))
    return calls


def _translates(call: ast.Call) -> bool:
    func = call.func
    if isinstance(func, ast.Name):
        return func.id == "t"
    return isinstance(func, ast.Call) and isinstance(func.func, ast.Name) \
        and func.func.id in ("translator_of", "translator", "tr")


def test_every_sentence_the_code_translates_is_in_the_catalogues() -> None:
    """The extractor misses some call shapes (``translator_of(query)("...")``, or a bare
    ``t`` among a plural's arguments, which cut it down to its singular): such a sentence
    stayed English in every language, and the other checks, which start from what was
    extracted, pass."""
    extracted = {m.id if isinstance(m.id, str) else m.id[0]: m.id for m in extract() if m.id}
    lost = []
    for name, line, call in _translator_calls():
        first = call.args[0]
        assert isinstance(first, ast.Constant)
        if isinstance(call.func, ast.Attribute) and call.func.attr == "plural":
            second = call.args[1] if len(call.args) > 1 else None
            if isinstance(second, ast.Constant) and extracted.get(first.value) != (
                    first.value, second.value):
                lost.append(f"{name}:{line} {first.value!r} (plural)")
        elif _translates(call) and first.value not in extracted:
            lost.append(f"{name}:{line} {first.value!r}")
    assert lost == []


def test_the_last_hands_result_says_the_match_is_won_not_who_won() -> None:
    """The last hand's result marks its hand's winner, under the match's verdict in the
    header: Russian's verdict "победитель" ("the winner") read as that hand winner having won
    the match (a French demo: the computer who went out, while Þóra won the match)."""
    for language in LANGUAGES:
        labels = labels_for(language)
        assert labels.match_won not in (labels.winner, labels.draw), language
        assert labels.match_drawn not in (labels.winner, labels.draw), language
    assert "партия" in labels_for("ru").match_won and "партия" in labels_for("ru").match_drawn


def test_a_turn_without_a_clock_reads_as_no_limit_not_as_a_switch_turned_off() -> None:
    """Player QA: "Turn time: off" (id "nonaktif") read as the timer being broken."""
    assert general_value(translator("en"), "turn_seconds", 0) == "no limit"
    assert general_value(translator("id"), "turn_seconds", 0) == "tanpa batas"
