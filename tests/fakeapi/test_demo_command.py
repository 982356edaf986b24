"""The demo's command refuses what it cannot play in one usage line, before starting a bot
(it used to wait for a turn that never came and end in a traceback)."""

from __future__ import annotations

import pytest

from fakeapi.demo import SEED_LIMIT, deal_seeds, main


@pytest.mark.parametrize(("arguments", "said"), [
    (["--game", "gaple-dead", "--players", "3"], "gaple-dead is played by 4 to 5 players, not 3"),
    (["--game", "pair", "--players", "7"], "pair is played by 4 players, not 7"),
    (["--game", "matador", "--players", "0"], "matador is played by 2 to 4 players, not 0"),
    (["--theme", "pink"], "invalid choice: 'pink'"),
    (["--seed", "-5"], "argument --seed: a seed is from 0 to 10**74 - 1, not -5"),
    (["--seed", str(SEED_LIMIT)], f"not {SEED_LIMIT}"),
    (["--seed", "one"], "argument --seed: not a whole number: 'one'"),
])
def test_a_table_it_cannot_seat_or_draw_is_a_usage_error(
        arguments: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(arguments)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


@pytest.mark.parametrize("seed", [0, SEED_LIMIT - 1])
def test_every_seed_it_accepts_makes_its_deal_seeds(seed: int) -> None:
    seeds = list(deal_seeds(seed))
    assert len(set(seeds)) == len(seeds) and {len(s) for s in seeds} == {32}

