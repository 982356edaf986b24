"""Every word the pictures show, so that the bot can fill them from its translation catalogues.

The renderers never hard-code a language: the English defaults here are what the bot's
gettext catalogues translate. Templates carry ``{number}``/``{target}`` placeholders so that a
language can put the number where its grammar wants it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class TableLabels:
    # (code name, title) for each game, from the caller's catalogues: the renderers keep no
    # list of games; a game missing here is shown by its code name.
    games: tuple[tuple[str, str], ...] = ()
    hand: str = "Hand {number}"
    target: str = "to {target}"
    set_name: str = "double-{number}"
    player: str = "Player {number}"
    score: str = "score"
    penalty: str = "penalty"  # the score of a game whose points count against a side
    tiles: str = "tiles"
    dead: str = "dead"
    knock: str = "knock"
    to_move: str = "to move"
    middle: str = "middle"
    winner: str = "winner"
    draw: str = "draw"
    points: str = "points"
    total: str = "total"
    blocked: str = "blocked"
    went_out: str = "went out"
    match_won: str = "match won"
    match_drawn: str = "match drawn"
    your_tiles: str = "Your tiles"  # the private picture's title, before "Hand n"
    your_turn: str = "your turn"
    lay_dead: str = "lay one face down"
    ends: str = "ends"

    def game_title(self, game: str) -> str:
        """The game's display name, or its code name when the catalogue lacks it."""
        return dict(self.games).get(game, game)


ENGLISH = TableLabels()
