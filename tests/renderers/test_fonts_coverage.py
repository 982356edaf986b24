"""Names in the scripts players use render without tofu: the fonts cover them (Arabic script
with the bundled Noto Sans Arabic, joined and right to left; Chinese, Japanese and Korean with
WenQuanYi Micro Hei), what they cannot draw (emoji) is left out, and long names are shortened
with an ellipsis."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath

import pytest
from PIL import ImageFont

from engine import table_view
from goldens.positions import played
from renderers import canvas, fonts, render_table
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
    _forget()
    yield
    _forget()


def _forget() -> None:
    for cached in (fonts.font_files, fonts.font, fonts.drawable, fonts.ui_covers,
                   fonts._fallback_covers, fonts.fallback):
        cached.cache_clear()
    for lru in (canvas._lettering, canvas.width_of, canvas.fitted):
        lru.cache_clear()


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
    if fonts.shaping():  # DejaVu has Arabic letters, but draws them unjoined: not for them
        assert fonts.runs("محمد علي") == (("محمد علي", 1),)


def test_no_font_at_all_is_a_clear_error(
    monkeypatch: pytest.MonkeyPatch, fresh_fonts: None, tmp_path: Path
) -> None:
    monkeypatch.setattr(fonts, "_package_fonts", lambda: None)
    monkeypatch.setattr(fonts, "SYSTEM_FONT_DIRS", (tmp_path,))
    with pytest.raises(FontNotFoundError, match="font-roboto"):
        fonts.font_files()


ARABIC_NAMES = ("محمد علي", "فاطمة الزهراء", "عبد الرحمن")  # Arabic; Persian and Urdu share it


@pytest.mark.skipif(not fonts.shaping(), reason="Pillow here has no libraqm/FriBiDi")
def test_arabic_names_are_drawn_not_replaced() -> None:
    """tester5 F8: "محمد علي" was "Player 4" on every picture."""
    assert seat_names([*ARABIC_NAMES, "Ana"], 4, ENGLISH) == (*ARABIC_NAMES, "Ana")


def test_without_shaping_arabic_is_not_drawn_as_loose_letters(
        monkeypatch: pytest.MonkeyPatch, fresh_fonts: None) -> None:
    """Without libraqm the letters would stand apart, left to right: the name is replaced."""
    monkeypatch.setattr(fonts, "shaping", lambda: False)
    assert seat_names(["محمد علي", "Ana"], 2, ENGLISH) == ("Player 1", "Ana")


@pytest.mark.skipif(not fonts.shaping(), reason="Pillow here has no libraqm/FriBiDi")
def test_an_arabic_name_is_joined_and_right_to_left() -> None:
    """The picture's mask is the complex layout's (letters joined, first letter at the
    right), not the basic one's, which draws each letter alone from the left."""
    name = "محمد"
    drawn, _ = canvas._lettering(name, 40, True, "ls", (0.0, 0.0))
    shaped, _ = fonts.fallback(40, True).getmask2(name, "L", anchor="ls")
    assert bytes(drawn) == bytes(shaped) and drawn.size == shaped.size
    loose = ImageFont.truetype(str(fonts.ARABIC), 40, layout_engine=ImageFont.Layout.BASIC)
    assert bytes(loose.getmask2(name, "L", anchor="ls")[0]) != bytes(shaped)


@pytest.mark.skipif(not fonts.shaping(), reason="Pillow here has no libraqm/FriBiDi")
def test_mixed_names_are_cut_into_runs_in_the_order_they_are_seen() -> None:
    assert fonts.runs("Ali محمد") == (("Ali ", 0), ("محمد", 1))
    assert fonts.runs("محمد Ali") == (("Ali", 0), ("محمد ", 1))  # from the right
    assert fonts.runs("محمد 2") == (("محمد 2", 1),)  # the digit goes with the name
    assert fonts.runs("Ana 2") == (("Ana 2", 0),)
    assert fonts.runs("Ли 李") == (("Ли ", 0), ("李", 2))


@pytest.mark.skipif(not fonts.shaping(), reason="Pillow here has no libraqm/FriBiDi")
def test_a_right_to_left_name_in_a_line_keeps_its_direction_to_itself() -> None:
    """Issue 24: "Budi 7 · عبد الرحمن 30" showed "30" before the name (inside its run)."""
    assert fonts.runs("Budi 7 · عبد الرحمن 30") == (
        ("Budi 7 · ", 0), ("عبد الرحمن", 1), (" 30", 0))
    assert fonts.runs("Budi 7 · عبد الرحمن 30 · Ayu 5") == (
        ("Budi 7 · ", 0), ("عبد الرحمن", 1), (" 30 · Ayu 5", 0))
    assert fonts.runs("Budi · محمد 2 علي") == (("Budi · ", 0), ("محمد 2 علي", 1))


@pytest.mark.skipif(not fonts.shaping(), reason="Pillow here has no libraqm/FriBiDi")
def test_a_long_arabic_name_is_cut_at_its_end_with_the_ellipsis_on_the_left() -> None:
    name = "عبد الرحمن بن عبد العزيز آل سعود الطويل"
    short = canvas.fitted(name, 38, True, 300)
    assert short.endswith(fonts.ELLIPSIS) and name.startswith(short[:-1])
    assert canvas.width_of(short, 38, True) <= 300
    assert fonts.runs(short)[-1][0].endswith(fonts.ELLIPSIS)  # one run: laid right to left


@pytest.mark.skipif(not fonts.shaping(), reason="Pillow here has no libraqm/FriBiDi")
def test_the_table_draws_an_arabic_name(drawn_text: list[str]) -> None:
    view = table_view(played("gaple", 4, 6, seed=3))
    render_table(view, ("Ayu", "Budi", "Dewi", "محمد علي"))
    assert "محمد علي" in drawn_text and "Player 4" not in drawn_text


CJK_NAMES = ("王小明", "田中 さくら", "김민준", "陳大文")


def test_chinese_japanese_and_korean_names_are_drawn() -> None:
    assert seat_names([*CJK_NAMES], 4, ENGLISH) == CJK_NAMES
    for name in CJK_NAMES:
        assert {which for _, which in fonts.runs(name)} == {2}
    face = fonts.fallback(40, False, 2)
    tofu = bytes(face.getmask("\ue000"))
    for char in set("".join(CJK_NAMES)) - {" "}:
        glyph = face.getmask(char)
        assert glyph.size[0] > 0 and bytes(glyph) != tofu, char


def test_the_fallback_fonts_ship_with_their_licences_in_the_wheel() -> None:
    """Each font file and its licence beside it are package data of ``renderers``, so the
    wheel and the Docker image (``pip install .``) carry them; together some 3 MB packed."""
    folder = fonts.TYPEFACES
    licences = {"NotoSansArabic-VF.ttf": ("NotoSansArabic-OFL.txt", "SIL Open Font License"),
                "wqy-microhei.ttc": ("wqy-microhei-LICENSE.txt", "Apache License")}
    assert {fallback.path.name for fallback in fonts.FALLBACKS} == set(licences)
    for font_file, (licence, words) in licences.items():
        assert (folder / font_file).is_file() and words in (folder / licence).read_text()
    assert sum(f.stat().st_size for f in folder.iterdir()) < 7_000_000
    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())
    patterns = data["tool"]["setuptools"]["package-data"]["renderers"]
    for file in folder.iterdir():
        relative = PurePosixPath(file.relative_to(root / "renderers").as_posix())
        assert any(relative.match(pattern) for pattern in patterns), file.name
