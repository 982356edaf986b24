"""The demo's command refuses what it cannot play in one usage line, before starting a bot
(it used to wait for a turn that never came and end in a traceback)."""

from __future__ import annotations

import pytest

from fakeapi.demo import main


@pytest.mark.parametrize(("arguments", "said"), [
    (["--game", "gaple-dead", "--players", "3"], "gaple-dead is played by 4 to 5 players, not 3"),
    (["--game", "pair", "--players", "7"], "pair is played by 4 players, not 7"),
    (["--theme", "pink"], "invalid choice: 'pink'"),
])
def test_a_table_it_cannot_seat_or_draw_is_a_usage_error(
        arguments: list[str], said: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(arguments)
    assert stopped.value.code == 2
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err
