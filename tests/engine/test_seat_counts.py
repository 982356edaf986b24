"""The table sizes a game's options fit: the lobby seats no more than can start."""

from __future__ import annotations

import pytest

from engine import VARIANTS, variant


def test_gaple_deads_deal_decides_the_tables_size() -> None:
    dead = variant("gaple-dead")
    assert dead.seat_counts_for({}) == (4, 5)
    assert dead.seat_counts_for({"deal": 7}) == dead.seat_counts_for({"deal": 6}) == (4,)
    assert dead.seat_counts_for({"deal": 5}) == (5,)


@pytest.mark.parametrize("name", sorted(VARIANTS))
def test_without_options_every_size_fits(name: str) -> None:
    assert variant(name).seat_counts_for({}) == variant(name).seat_counts


def test_options_that_fit_no_size_leave_every_size_to_the_start_to_refuse() -> None:
    assert variant("gaple-dead").seat_counts_for({"deal": 9}) == (4, 5)
