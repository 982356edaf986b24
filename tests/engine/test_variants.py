"""The variant is the one place for its rules' facts: names, aliases, options, seats."""

from __future__ import annotations

import json

import pytest

from engine import (
    VARIANTS,
    BadInputError,
    HandEndReason,
    Match,
    OptionSpec,
    OptionValueError,
    Tile,
    UnknownGameError,
    UnknownOptionError,
    match_from_json,
    match_to_json,
    variant,
)
from engine import errors as errors_module
from engine.errors import DominoError
from engine.options import Options


def test_registry_lists_the_games_in_display_order() -> None:
    assert list(VARIANTS)[:3] == ["gaple", "gaple-dead", "pair"]


@pytest.mark.parametrize(
    ("typed", "game"),
    [
        ("gaple-mati", "gaple-dead"),
        ("MATI", "gaple-dead"),
        ("dead", "gaple-dead"),
        ("Gaple_Dead", "gaple-dead"),
        ("gaple dead", "gaple-dead"),
        ("pairs", "pair"),
        ("Partners", "pair"),
        ("парный", "pair"),
        ("GAPLE", "gaple"),
    ],
)
def test_a_game_is_found_by_any_of_its_names_in_any_case(typed: str, game: str) -> None:
    assert variant(typed).name == game


def test_an_unknown_game_is_refused_with_its_name() -> None:
    with pytest.raises(UnknownGameError) as caught:
        variant("chess")
    assert caught.value.name == "chess"
    assert isinstance(caught.value, BadInputError)
    assert caught.value.reason == "unknown_game" and caught.value.code == "bad_input"


def test_no_alias_names_two_games() -> None:
    seen: dict[str, str] = {}
    for game in VARIANTS.values():
        for name in (game.name, *game.aliases):
            key = name.lower().replace("_", "-").replace(" ", "-")
            assert seen.setdefault(key, game.name) == game.name
            assert name == name.lower()


def test_lowest_total_wins_only_in_penalty_games() -> None:
    assert {g.name for g in VARIANTS.values() if g.lowest_total_wins} >= {"gaple-dead"}
    assert not variant("pair").lowest_total_wins and not variant("gaple").lowest_total_wins


def test_option_specs_are_ordered_and_include_set_and_target() -> None:
    for game in VARIANTS.values():
        names = [spec.name for spec in game.option_specs]
        assert names[:2] == ["set", "target"]
        assert tuple(names) == game.option_names


def test_option_spec_repr_is_its_source() -> None:
    for game in VARIANTS.values():
        for spec in game.option_specs:
            assert eval(repr(spec), {"OptionSpec": OptionSpec}) == spec


@pytest.mark.parametrize(
    ("game", "name", "text", "value"),
    [
        ("gaple-dead", "deal", "7", 7),
        ("gaple-dead", "dead_tiles", "off", False),
        ("gaple-dead", "dead_tiles", "Yes", True),
        ("gaple-dead", "blank_double_25", "true", True),
        ("gaple-dead", "blank_double_25", "no", False),
        ("pair", "first_lead", "LOT", "lot"),
        ("pair", "target", "150", 150),
    ],
)
def test_option_parse_reads_what_a_user_types(
    game: str, name: str, text: str, value: object
) -> None:
    spec = variant(game).option_spec(name)
    assert spec is not None
    parsed = spec.parse(text)
    assert parsed == value and type(parsed) is type(value)


@pytest.mark.parametrize("text", ["8", "seven", "", "7.0", "-6"])
def test_option_parse_refuses_a_value_naming_the_option_and_what_it_allows(text: str) -> None:
    spec = variant("gaple-dead").option_spec("deal")
    assert spec is not None
    with pytest.raises(OptionValueError) as caught:
        spec.parse(text)
    assert caught.value.option == "deal" and caught.value.spec == spec
    assert caught.value.reason == "option_value"
    assert "6, 7 or 5" in str(caught.value)


@pytest.mark.parametrize("text", ["0", "1" * 30, "-5", "1e3"])
def test_a_typed_target_is_a_sane_positive_whole_number(text: str) -> None:
    spec = variant("pair").option_spec("target")
    assert spec is not None
    with pytest.raises(OptionValueError):
        spec.parse(text)  # what a person types: thirty digits are not read


@pytest.mark.parametrize("target", [0, -5, True, 100.0, "100"])
def test_a_target_is_a_positive_whole_number(target: object) -> None:
    with pytest.raises(OptionValueError):
        variant("pair").options({"target": target}, 4)


def test_any_positive_whole_number_is_a_target_as_the_rules_say() -> None:
    for target in (1, 1_000_001, 10**30):
        assert variant("pair").options({"target": target}, 4).target == target


def test_an_unknown_option_is_refused_with_its_name() -> None:
    with pytest.raises(UnknownOptionError) as caught:
        variant("gaple").options({"deal": 7}, 4)
    assert caught.value.option == "deal" and caught.value.code == "bad_input"


def test_option_values_of_the_wrong_type_are_refused() -> None:
    with pytest.raises(OptionValueError):
        variant("gaple-dead").options({"dead_tiles": 1}, 4)
    with pytest.raises(OptionValueError):
        variant("gaple-dead").options({"deal": True}, 4)


def test_default_options_per_seat_count() -> None:
    assert variant("gaple-dead").default_options(5).deal == 5
    assert variant("gaple-dead").default_options(4).deal == 6
    assert variant("gaple-dead").default_options(4).target == 101
    assert variant("pair").defaults.target == 100


def test_gaple_dead_with_four_players_is_dealt_six_or_seven() -> None:
    with pytest.raises(OptionValueError) as caught:
        variant("gaple-dead").options({"deal": 5}, 4)
    assert caught.value.spec is not None and caught.value.spec.describe() == "6 or 7"


@pytest.mark.parametrize(("seated", "target"), [(1, 15), (2, 15), (3, 10), (4, 10)])
def test_a_lobby_shows_the_target_of_the_players_seated(seated: int, target: int) -> None:
    """Bergen is played to 15 by two, to 10 by three or four (D21)."""
    assert variant("bergen").lobby_options({}, seated).target == target


def test_a_lobby_takes_options_that_fit_another_seat_count_than_its_players() -> None:
    dead = variant("gaple-dead")
    assert dead.lobby_options({"deal": 5}, 1).deal == 5  # for five players
    assert dead.lobby_options({"deal": 7}, 4).deal == 7
    with pytest.raises(OptionValueError):
        dead.lobby_options({"deal": 3}, 4)  # no table is dealt three
    with pytest.raises(UnknownOptionError):
        dead.lobby_options({"spinner": True}, 4)


def test_options_to_dict_gives_every_option_of_the_game_and_get_reads_one() -> None:
    options = variant("pair").options({"block_count": "all"}, 4)
    assert options.to_dict() == {
        "set": 6,
        "target": 100,
        "first_lead": "6-6",
        "block_count": "all",
    }
    assert options.get("block_count") == "all"
    with pytest.raises(UnknownOptionError):
        options.get("deal")
    assert eval(repr(options), {"Options": Options}) == options


def test_stored_matches_keep_their_options_json() -> None:
    match = Match("gaple-dead", 5, {"blank_double_25": True})
    stored = json.loads(match_to_json(match))
    assert stored["options"] == {
        "set": 6,
        "target": 101,
        "deal": 5,
        "dead_tiles": True,
        "blank_double_25": True,
    }
    assert match_from_json(match_to_json(match)).options == match.options


def test_every_error_class_has_its_own_reason() -> None:
    classes = [
        c
        for c in vars(errors_module).values()
        if isinstance(c, type) and issubclass(c, DominoError)
    ]
    reasons = [c.reason for c in classes if c not in (DominoError,)]
    assert len(reasons) == len(set(reasons)), reasons
    assert {"not_your_turn", "hand_over", "tile_not_in_hand", "tile_does_not_fit", "wrong_lead",
            "must_play", "wrong_stuck_action", "end_required", "bad_input"} <= set(reasons)


@pytest.mark.parametrize("name", list(VARIANTS))
@pytest.mark.parametrize("reason", [HandEndReason.OUT, HandEndReason.BLOCKED])
def test_the_pips_decide_a_hand_exactly_where_they_change_its_result(
        name: str, reason: HandEndReason) -> None:
    """``pips_decide`` is the scoring's own fact: where it says no, other pips in hand
    leave the hand's result as it was; where it says yes, they change it."""
    game = variant(name)
    seats = game.seat_counts[0]
    light, heavy = [Tile(0, 1)], [Tile(5, 6)]  # no doubles (Bergen looks for them)
    if reason is HandEndReason.OUT:  # seat 0 went out; the others hold light or heavy tiles
        first = [[], *[light] * (seats - 1)]
        second = [[], *[heavy] * (seats - 1)]
    else:  # blocked: seat 0 is the lightest hand, then the heaviest
        first = [light, *[heavy] * (seats - 1)]
        second = [heavy, *[light] * (seats - 1)]
    scored = (0,) * len(game.sides(seats)) if game.keeps_scored else ()
    out = 0 if reason is HandEndReason.OUT else None

    def result(hands: list[list[Tile]]) -> object:
        options = game.default_options(seats)
        return game.score_hand(options, game.ending(options, reason, out, hands, scored,
                                                    [[] for _ in hands]))

    assert (result(first) != result(second)) is game.pips_decide(reason)


def test_only_a_matador_joins_a_blank_in_the_matador_games() -> None:
    assert variant("matador").only_matadors((0,)) and not variant("matador").only_matadors((3,))
    six = variant("six-matador")
    assert six.only_matadors((0,)) and not six.only_matadors((0, 6))
    assert variant("french").only_matadors((0,))
    assert not variant("muggins").only_matadors((0,)) and not variant("bergen").only_matadors((0,))
    assert not variant("gaple").only_matadors((0,))


def test_a_game_that_changes_any_laying_rule_is_played_on_the_board() -> None:
    """The plain line's fast path matches equal numbers only: a game that declares any rule
    of laying, joining or scoring in play of its own must not be handed to it."""
    from engine.match import LINE_HOOKS, plays_on_line
    from engine.variants.gaple import Gaple

    def declaring(hook: str) -> type[Gaple]:
        inherited = getattr(Gaple, hook)

        def own(self: Gaple, *args: object) -> object:
            return inherited(self, *args)

        return type(f"Own{hook.title()}", (Gaple,), {hook: own})

    assert plays_on_line(Gaple(), Gaple().defaults, 4)
    for hook in LINE_HOOKS:
        game = declaring(hook)()
        assert not plays_on_line(game, game.defaults, 4), hook
