"""Names in the scripts players use render without tofu: the font covers them, what it cannot
draw (emoji) is left out, and long names are shortened with an ellipsis."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from renderers import fonts
from renderers.canvas import seat_names
from renderers.errors import FontNotFoundError
from renderers.labels import ENGLISH

SCRIPTS = {
    "icelandic": "ÞþÐðÆæÖöÁáÉéÍíÓóÚúÝý Þórdís Ægisdóttir, Guðrún",
    "indonesian and other latin": "Budi Santoso, Siti Nurhaliza, ÇçĞğŞşİıŁłŃńŚśŻżČčŠšŽžŘřŐőŰűÅåØøß",
    "vietnamese": "Nguyễn Ngọc Ánh, ạảấầẩẫậắằẳẵặẹẻẽếềểễệỉịọỏốồổỗộớờởỡợụủứừửữựỳỵỷỹĐđ",
    "russian": "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯабвгдеёжзийклмнопрстуфхцчшщъыьэюя",
    "other cyrillic": "ІіЇїЄєҐґЎўЈјЉљЊњЋћЏџҚқҢңӘәӨөҮүҰұҺһ",
}


@pytest.fixture
def fresh_fonts() -> Iterator[None]:
    """Forget the chosen font before and after, so that a test may hide one."""
    for cached in (fonts.font_files, fonts.font, fonts.drawable):
        cached.cache_clear()
    yield
    for cached in (fonts.font_files, fonts.font, fonts.drawable):
        cached.cache_clear()


def test_the_pypi_font_package_is_the_one_used() -> None:
    assert fonts.font_files().source == "font-roboto"


@pytest.mark.parametrize("script", SCRIPTS)
def test_the_font_covers_every_letter_of_the_script(script: str) -> None:
    text = SCRIPTS[script]
    missing = {char for char in text if ord(char) not in fonts.drawable()}
    assert not missing
    assert fonts.printable(text) == text


@pytest.mark.parametrize("bold", [False, True])
@pytest.mark.parametrize("script", SCRIPTS)
def test_no_letter_is_drawn_as_a_box(script: str, bold: bool) -> None:
    face = fonts.font(30, bold)
    tofu = bytes(face.getmask("\ue000"))  # a private-use point: the font's "missing" box
    for char in set(SCRIPTS[script]) - {" ", ","}:
        glyph = face.getmask(char)
        assert glyph.size[0] > 0 and bytes(glyph) != tofu, char


def test_emoji_and_joiners_are_left_out() -> None:
    assert fonts.printable("Budi 🎲 Santoso") == "Budi Santoso"
    assert fonts.printable("Siti 👩\u200d👩\u200d👧") == "Siti"
    assert fonts.printable("❤\ufe0f Anna\u0007") == "Anna"


def test_decomposed_accents_are_composed() -> None:
    assert fonts.printable("A\u0301sa") == "Ása"


def test_a_name_with_nothing_drawable_becomes_player_n() -> None:
    names = seat_names(["🎲🎲", "Ólafur", "\u200d", "Иван"], 4, ENGLISH)
    assert names == ("Player 1", "Ólafur", "Player 3", "Иван")


def test_long_names_are_shortened_with_an_ellipsis() -> None:
    face = fonts.font(30, True)
    name = "Дмитрий Александрович Соколов-Микитов"
    short = fonts.fit(name, face, 200)
    assert short.endswith(fonts.ELLIPSIS) and name.startswith(short[:-1])
    assert face.getlength(short) <= 200
    assert fonts.fit("Anna", face, 200) == "Anna"


def test_dejavu_is_the_fallback_without_the_package(
    monkeypatch: pytest.MonkeyPatch, fresh_fonts: None
) -> None:
    if fonts._system_fonts() is None:
        pytest.skip("DejaVu is not installed here (it is in the Docker image)")
    monkeypatch.setattr(fonts, "_package_fonts", lambda: None)
    assert fonts.font_files().source == "DejaVu Sans"
    assert fonts.printable(SCRIPTS["russian"]) == SCRIPTS["russian"]


def test_no_font_at_all_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, fresh_fonts: None, tmp_path: Path
) -> None:
    monkeypatch.setattr(fonts, "_package_fonts", lambda: None)
    monkeypatch.setattr(fonts, "SYSTEM_FONT_DIRS", (tmp_path,))
    with pytest.raises(FontNotFoundError, match="font-roboto"):
        fonts.font_files()
