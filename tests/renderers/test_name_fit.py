"""Long names in the pictures keep the words that tell people apart: the first name whole and
later words to their initials (Icelandic QA: "H. Þ. Guðmu…" named nobody), or, where two at
the table share a first word, that word to its initial (player QA: "Muhammad Rizky Pratama"
and "Muhammad Fajar ..." both read "Muham…" beside the turn's pill)."""

from __future__ import annotations

from renderers.canvas import fitted_name, shared_first, width_of
from renderers.fonts import fit_name


def test_a_name_that_fits_stays_whole() -> None:
    assert fit_name("Ayu Lestari", len, 11) == "Ayu Lestari"


def test_later_words_go_to_initials_last_first_and_the_first_name_stays() -> None:
    name = "Hólmfríður Þórdís Guðmundsdóttir"
    assert fit_name(name, len, 20) == "Hólmfríður Þórdís G."
    assert fit_name(name, len, 16) == "Hólmfríður Þ. G."
    assert fit_name(name, len, 12) == "Hólmfríður"  # the first name alone, where it fits
    assert fit_name(name, len, 8) == "Hólmfrí…"


def test_a_first_word_shared_at_the_table_goes_to_its_initial_first() -> None:
    name = "Muhammad Rizky Pratama"
    assert fit_name(name, len, 16, first_shared=True) == "M. Rizky Pratama"
    assert fit_name(name, len, 13, first_shared=True) == "M. R. Pratama"
    assert fit_name(name, len, 9, first_shared=True) == "M. Rizky…"
    assert fit_name("Muhammad", len, 5) == "Muha…"  # one word: cut as any text is


def test_names_share_a_first_word_whatever_its_case_and_a_computers_mark() -> None:
    names = ["Muhammad Rizky", "muhammad Fajar", "🤖 Rio", "Rio Ferdinand", "Ayu"]
    assert shared_first(names) == (True, True, True, True, False)


def test_two_long_names_sharing_a_first_word_differ_where_the_pill_leaves_room() -> None:
    room = width_of("Muham…", 30, True) * 2  # about what a seat beside its pill keeps
    first = fitted_name("Muhammad Rizky Pratama", 30, True, room, first_shared=True)
    second = fitted_name("Muhammad Fajar Nugroho", 30, True, room, first_shared=True)
    assert first != second and first.startswith("M. ") and second.startswith("M. ")
    assert width_of(first, 30, True) <= room and width_of(second, 30, True) <= room
