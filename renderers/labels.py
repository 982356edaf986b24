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
    # The private picture kept after its hand ended: its pill, by how the hand ended (the
    # player went out, nobody could lay, or another went out), and the line on the felt
    # where no tile is left in the player's hand.
    you_went_out: str = "you went out"
    hand_blocked: str = "hand blocked"
    hand_over: str = "hand over"
    no_tiles_left: str = "no tiles left"
    lay_dead: str = "lay one face down"
    ends: str = "ends"
    # The draw pile's name, beside its count in the header (where the hand dealt one).
    stock: str = "stock"
    # Where a game scores during play: before a seat's points of this hand, "hand +12".
    in_play: str = "hand"
    # The layouts beyond a plain line and their status box.
    cut_off: str = "cut off"  # Kolbasa: the tiles a cut took out of play
    count: str = "count"  # Muggins: the open ends added up
    counts_nothing: str = "not counted"  # Muggins: explains a ringed end mark
    double_header: str = "double header"  # Bergen: both ends show one number
    triple_header: str = "triple header"  # ... and one end tile is a double
    # Explains the marks of ends only a matador may take; French calls its matadors honours,
    # so the caller gives French tables "honour only" here (dataclasses.replace).
    only_matador: str = "matador only"
    ribbon_waits: str = "waits for the other ribbon"  # Kolbasa: explains a grey end mark
    # Kolbasa: each ribbon named as the buttons and captions call it, by where it lies on the
    # picture: "▲ upper" the engine's left end, "▼ lower" its right.
    upper: str = "upper"
    lower: str = "lower"
    # The end of a match.
    match_over: str = "Match over"
    final_score: str = "final score"
    rating: str = "rating change"  # the match end's column: how each rating moved
    settlement: str = "wins or pays"  # Six-matador: each score settled against the winner's
    # A hand's replay: under each table, which move it shows, of how many ("move 12/31"),
    # and under the hand as dealt, before the first move.
    replay_move: str = "move {number}/{moves}"
    replay_dealt: str = "dealt"

    def game_title(self, game: str) -> str:
        """The game's display name, or its code name when the catalogue lacks it."""
        return dict(self.games).get(game, game)


ENGLISH = TableLabels()
