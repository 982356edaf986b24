"""Names in texts: each keeps its own direction (FSI ... PDI) where it could move its
neighbours, and stays as typed where it cannot."""

from __future__ import annotations

from bot.models import Player
from bot.wording import FSI, PDI, isolated, mention, named, who


def test_right_to_left_names_and_directional_controls_are_isolated() -> None:
    assert isolated("عبد الرحمن") == f"{FSI}عبد الرحمن{PDI}"
    assert isolated("שרה") == f"{FSI}שרה{PDI}"
    overriding = "Eve\N{RIGHT-TO-LEFT OVERRIDE}x"  # an override left open flips what follows
    assert isolated(overriding) == f"{FSI}{overriding}{PDI}"


def test_left_to_right_names_stay_as_typed() -> None:
    for name in ("Ayu", "Þóra", "Сергей", "🤖 Rio", "R2-D2 :)", "123"):
        assert isolated(name) == name


def test_html_names_and_mentions_keep_the_isolates_outside_the_markup() -> None:
    assert named("<ع>") == f"{FSI}&lt;ع&gt;{PDI}"
    assert mention(7, "عمر") == f'{FSI}<a href="tg://user?id=7">عمر</a>{PDI}'
    assert mention(7, "Ayu") == '<a href="tg://user?id=7">Ayu</a>'
    assert who(Player(-1, "🤖 عمر")) == f"{FSI}🤖 عمر{PDI}"
