"""Long names in the pictures keep the words that tell people apart: first words go to their
initials before anything is cut (player QA: "Muhammad Rizky Pratama" and "Muhammad Fajar ..."
both read "Muham…" beside the turn's pill)."""

from __future__ import annotations

from renderers.canvas import fitted_name, width_of
from renderers.fonts import fit_name


def test_a_name_that_fits_stays_whole() -> None:
    assert fit_name("Ayu Lestari", len, 11) == "Ayu Lestari"


def test_first_words_go_to_initials_before_anything_is_cut() -> None:
    assert fit_name("Muhammad Rizky Pratama", len, 16) == "M. Rizky Pratama"
    assert fit_name("Muhammad Rizky Pratama", len, 13) == "M. R. Pratama"


def test_when_no_initials_fit_the_first_shortened_form_is_cut() -> None:
    assert fit_name("Muhammad Rizky Pratama", len, 9) == "M. Rizky…"
    assert fit_name("Muhammad", len, 5) == "Muha…"  # one word: cut as any text is


def test_two_long_names_sharing_a_first_word_differ_where_the_pill_leaves_room() -> None:
    room = width_of("Muham…", 30, True) * 2  # about what a seat beside its pill keeps
    first = fitted_name("Muhammad Rizky Pratama", 30, True, room)
    second = fitted_name("Muhammad Fajar Nugroho", 30, True, room)
    assert first != second and first.startswith("M. ") and second.startswith("M. ")
    assert width_of(first, 30, True) <= room and width_of(second, 30, True) <= room
