"""A match result whose "Play again" button is taken off loses the line that points to it."""

from __future__ import annotations

from bot.i18n import LANGUAGES, translator
from bot.presentation.matchendtexts import PLAY_AGAIN, without_play_again
from bot.wording import esc


def test_the_pointer_to_the_button_goes_in_every_language_and_nothing_else() -> None:
    for language in LANGUAGES:
        t = translator(language)
        words = "<b>Pair dominoes</b>: the match is over\n🏆 Ann &amp; Bob win the match!"
        assert without_play_again(f"{words}\n{esc(t(PLAY_AGAIN))}") == words
        assert without_play_again(words) == words  # (cut short by the caption's limit)
