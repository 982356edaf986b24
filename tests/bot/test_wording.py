"""Names in texts: every one kept to its own direction (FSI ... PDI), once, with its own
directional controls unable to reach past it; cuts never leave an isolate open."""

from __future__ import annotations

import pytest

from bot import wording
from bot.i18n import LANGUAGES, translator
from bot.models import Player
from bot.publishing.delivery import answer_tap
from bot.wording import FSI, PDI, cut, fit_caption, isolated, mention, named, neutralised, who

LRI, RLI = "\N{LEFT-TO-RIGHT ISOLATE}", "\N{RIGHT-TO-LEFT ISOLATE}"
RLO = "\N{RIGHT-TO-LEFT OVERRIDE}"


def test_every_name_is_isolated_whatever_its_script() -> None:
    for name in ("عبد الرحمن", "שרה", "Ayu", "Þóra", "Сергей", "🤖 Rio", "R2-D2 :)", "123"):
        assert isolated(name) == f"{FSI}{name}{PDI}"


def test_a_names_own_override_is_kept_and_ended_by_the_isolate() -> None:
    overriding = f"Eve{RLO}x"  # an override left open would flip what follows
    assert isolated(overriding) == f"{FSI}{overriding}{PDI}"


def test_a_stray_pdi_in_a_name_cannot_close_the_isolate_early() -> None:
    assert neutralised(f"Eve{PDI}عمر") == "Eveعمر"
    assert isolated(f"{PDI}{PDI}Eve") == f"{FSI}Eve{PDI}"


def test_an_isolate_a_name_leaves_open_is_closed_inside_ours() -> None:
    # (as after a truncation): our PDI must close our FSI, not the name's RLI
    assert isolated(f"Eve {RLI}عمر") == f"{FSI}Eve {RLI}عمر{PDI}{PDI}"


def test_a_name_already_isolated_is_wrapped_once() -> None:
    assert isolated(f"{FSI}Ayu{PDI}") == f"{FSI}Ayu{PDI}"
    assert isolated(f"{LRI}{FSI}Ayu{PDI}{PDI}") == f"{FSI}Ayu{PDI}"
    # two isolates side by side are the name's own: kept whole inside ours
    assert isolated(f"{RLI}a{PDI} {RLI}b{PDI}") == f"{FSI}{RLI}a{PDI} {RLI}b{PDI}{PDI}"


def test_html_names_and_mentions_keep_the_isolates_outside_the_markup() -> None:
    assert named("<ع>") == f"{FSI}&lt;ع&gt;{PDI}"
    assert mention(7, "عمر") == f'{FSI}<a href="tg://user?id=7">عمر</a>{PDI}'
    assert mention(7, "Ayu") == f'{FSI}<a href="tg://user?id=7">Ayu</a>{PDI}'
    assert who(Player(-1, "🤖 عمر")) == f"{FSI}🤖 عمر{PDI}"
    assert who(Player(5, "Ayu")) == mention(5, "Ayu")


def test_a_cut_never_splits_an_isolated_name_or_a_tag() -> None:
    text = f"Score: {named('Budi')} 7 · {named('عبد الرحمن')} 30"
    for limit in range(len(text) + 1):
        part = cut(text, limit)
        assert len(part) <= limit and text.startswith(part)
        assert part.count(FSI) == part.count(PDI), (limit, part)
    assert cut(f"x <b>{named('Ayu')}</b>", 4) == "x "
    assert cut("a &amp; b", 4) == "a "
    long_line = f"{named('Ayu')} " * 300
    assert fit_caption(long_line).count(FSI) == fit_caption(long_line).count(PDI)


def test_a_toast_is_cut_within_telegrams_limit_and_never_splits_a_name() -> None:
    names = wording.toast_names([Player(i, "Ann" + "n" * 30) for i in range(8)])
    text = wording.toast(f"Waiting for {names} to confirm with Join.")
    assert len(text) <= wording.TOAST_LIMIT and text.endswith("…")
    assert text.count(FSI) == text.count(PDI)  # a name is whole or left out
    assert wording.toast("Saved.") == "Saved."


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_rematch_toasts_fit_with_three_of_the_longest_names(language: str) -> None:
    """Three unconfirmed players with names as long as the bot keeps them: Start's refusal
    and the freed seats' answer fit whole, in every language (not cut by the safety net)."""
    t = translator(language)
    names = wording.toast_names(
        [Player(i, wording.short_name("Wolfeschlegelsteinhausenberger " * 2)) for i in range(3)])
    texts = [t("Waiting for {names} to confirm with Join. To go on without them, free their "
               "seats with the 🪑 button.", names=names),
             t.plural("Seat freed: {names}. Others can Join now, or add a computer player (🤖).",
                      "Seats freed: {names}. Others can Join now, or add computer players (🤖).",
                      3, names=names)]
    assert all(len(text) <= wording.TOAST_LIMIT for text in texts), [len(x) for x in texts]


async def test_a_tap_is_answered_within_the_limit_whatever_its_text() -> None:
    answered: list[str | None] = []

    class Query:
        id = "1"

        async def answer(self, text: str | None = None, url: str | None = None) -> None:
            answered.append(text)

    assert await answer_tap(Query(), "x" * 300, None)  # type: ignore[arg-type]
    assert answered and len(answered[0] or "") == wording.TOAST_LIMIT


def test_partners_are_joined_as_each_language_joins_them() -> None:
    """Russian QA: «Победа: Оля & Ваня» reads as code; «Оля и Ваня» as people say it."""
    assert wording.partners(translator("en"), ["Ayu", "Sergei"]) == "Ayu & Sergei"
    assert wording.partners(translator("ru"), ["Оля", "Ваня"]) == "Оля и Ваня"
    assert wording.partners(translator("ru"), ["Оля"]) == "Оля"


def test_a_name_ending_in_an_initial_takes_no_second_full_stop() -> None:
    """Indonesian QA: "Pasanganmu: Siti Nurhaliza Binti A.." under every hand."""
    t = translator("en")
    assert t("Your partner: {name}.", name=named("Siti Nurhaliza B. A.")) == \
        f"Your partner: {named('Siti Nurhaliza B. A.')}"
    assert t("Your partner: {name}.", name=named("Ayu")) == f"Your partner: {named('Ayu')}."
