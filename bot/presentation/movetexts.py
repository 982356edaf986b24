"""Moves as the players read them: lays and what they scored, knocks, draws, cuts, tiles put
face down; one line per move, draws in a row as one.

How the group hears of a hand (every game, one policy): everything that happens during a hand
(each lay with what it scored and why, draws, knocks, Kolbasa's cut and who takes the piece) is
told in the table's caption, the one group message kept up to date, whose lines show every
move since the group's previous edit of it (several may be committed between two edits), at
least the last round, the oldest left out first when they would not fit; the hand's result
then lists every seat's points of play by reason (:mod:`bot.presentation.resulttexts`). New
group messages are sent only for a hand's result, the match's result, and what asks someone to
act (the table is ready, a player seems away). A group playing every evening reads the table,
not a stream of "Ayu scores 5"; and every group message counts against Telegram's 20 a minute.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine import ActionKind, End, PlayerView, PublicMove, ScoreReason, TableView, Tile

from ..i18n import N_, Translator
from ..models import Game
from ..wording import named
from .cuttexts import describe_cut, describe_cut_to_taker


@dataclass(frozen=True, slots=True)
class Said:
    """One move's sentence in both grammatical persons: as the group reads it, of the mover
    by name (``{name}``), and as the mover reads its own move in its private chat, of "you"
    (player QA: "✔ Played: Ayu laid 3-4 on the left." in Ayu's own chat)."""

    them: str
    you: str

    def to(self, you: bool) -> str:
        """The msgid for the mover (``you``) or for everybody else."""
        return self.you if you else self.them


# A lay: (end, across) -> sentence
_LAID: dict[tuple[End, bool], Said] = {
    (End.LEFT, False): Said(N_("{name} laid {tile} on the left."),
                            N_("You laid {tile} on the left.")),
    (End.RIGHT, False): Said(N_("{name} laid {tile} on the right."),
                             N_("You laid {tile} on the right.")),
    (End.UP, False): Said(N_("{name} laid {tile} upwards."), N_("You laid {tile} upwards.")),
    (End.DOWN, False): Said(N_("{name} laid {tile} downwards."),
                            N_("You laid {tile} downwards.")),
    (End.LEFT, True): Said(N_("{name} laid {tile} across on the left."),
                           N_("You laid {tile} across on the left.")),
    (End.RIGHT, True): Said(N_("{name} laid {tile} across on the right."),
                            N_("You laid {tile} across on the right.")),
    (End.UP, True): Said(N_("{name} laid {tile} across upwards."),
                         N_("You laid {tile} across upwards.")),
    (End.DOWN, True): Said(N_("{name} laid {tile} across downwards."),
                           N_("You laid {tile} across downwards.")),
}
# ... on Kolbasa's ribbons, named as the picture draws them (wording.RIBBON_WORDS); no tile
# lies across on a ribbon
_LAID_ON_RIBBON: dict[End, Said] = {
    End.LEFT: Said(N_("{name} laid {tile} on the upper ribbon."),
                   N_("You laid {tile} on the upper ribbon.")),
    End.RIGHT: Said(N_("{name} laid {tile} on the lower ribbon."),
                    N_("You laid {tile} on the lower ribbon.")),
}
_LED = Said(N_("{name} led {tile}."), N_("You led {tile}."))
# A tile put face down: the group is not shown which, its player is.
_PUT_DOWN = Said(N_("{name} put a tile face down (dead tile)."),
                 N_("You put {tile} face down (dead tile)."))
_TIMED_OUT = Said(N_("(time ran out: I moved for them)"), N_("(time ran out: I moved for you)"))

# Why a lay scored, after "+15: ..." (a knock's cost is said in its own sentence: knock_cost)
REASONS: dict[ScoreReason, str] = {
    ScoreReason.FIFTEEN: N_("the open ends add up to {points}"),
    ScoreReason.DOUBLE_HEADER: N_("a double header"),
    ScoreReason.TRIPLE_HEADER: N_("a triple header"),
    ScoreReason.DOUBLE_LEAD: N_("the hand was led with a double"),
    ScoreReason.MATADOR: N_("a matador laid across"),
    ScoreReason.JOINT: N_("a tile laid along"),
    ScoreReason.FREE_SIX: N_("a free 6 left open"),
    ScoreReason.OUT: N_("going out"),
    ScoreReason.BLOCKED: N_("the lightest hand in a blocked hand"),
}


def describe_move(t: Translator, move: PublicMove, name: str, timed_out: bool = False,
                  taker: str = "", last: bool = False, kind: str = "line", you: bool = False,
                  face_down: Tile | None = None) -> str:
    """One move with what it scored, as the group reads it, or with ``you`` as its mover
    reads it in its own private chat; ``name`` is whoever made it and ``taker`` whoever took
    the piece of a cut (both escaped here); ``last``: the hand ended with it; ``kind``: the
    layout's (``LayoutView.kind``), which names its ends; ``face_down``: the tile a discard
    put face down, told only to its mover (``you``: needed then)."""
    text = _describe_move(t, move, named(name), named(taker) if taker else "", last, kind, you,
                          face_down)
    scored = move_points(t, move)
    if scored:
        text += " " + scored
    if timed_out:
        return "⏰ " + text + " " + t(_TIMED_OUT.to(you))
    return text


def _describe_move(t: Translator, move: PublicMove, name: str, taker: str, last: bool,
                   kind: str, you: bool, face_down: Tile | None) -> str:
    """The move's own sentence (names already escaped); the mover's own knocks and draws
    were the bot's doing, and say so."""
    if move.kind is ActionKind.PLAY:
        assert move.tile is not None
        if move.ends_before is None:
            return t(_LED.to(you), name=name, tile=str(move.tile))
        assert move.end is not None
        if kind == "ribbons" and move.end in _LAID_ON_RIBBON:
            return t(_LAID_ON_RIBBON[move.end].to(you), name=name, tile=str(move.tile))
        return t(_LAID[move.end, bool(move.cross)].to(you), name=name, tile=str(move.tile))
    if move.kind is ActionKind.KNOCK:
        if you:
            return knocked_for_you(t, move)
        cost = knock_cost(move)
        if cost:  # Six-matador: "Ayu knocked: -6." (the sentence says why)
            return t("{name} knocked: {points}.", name=name, points=cost)
        return t("{name} knocked.", name=name)
    if move.kind is ActionKind.DRAW:
        return drew_for_you(t, 1) if you else describe_draws(t, name, 1)
    if move.kind is ActionKind.CUT:
        return describe_cut(t, move, name, taker, last, you)
    assert face_down is not None or not you
    return t(_PUT_DOWN.to(you), name=name, tile=str(face_down))


def move_points(t: Translator, move: PublicMove) -> str:
    """What one lay scored, after the lay's own sentence: "+20: the open ends add up to
    20.", "+6: a tile laid along, a free 6 left open." ("" if none, and for a knock, whose
    sentence says its cost: see :func:`knock_cost`)."""
    if not move.points or move.kind is ActionKind.KNOCK:
        return ""
    points = sum(amount for amount, _ in move.points)
    why = ", ".join(t(REASONS[reason], points=abs(amount)) for amount, reason in move.points)
    return f"{points:+d}: {why}."


def knock_cost(move: PublicMove) -> str:
    """What a knock cost, signed ("-6" in Six-matador's strict scoring), or "" if nothing."""
    cost = sum(amount for amount, _ in move.points) if move.kind is ActionKind.KNOCK else 0
    return f"{cost:+d}" if cost else ""


def knocked_for_you(t: Translator, move: PublicMove) -> str:
    """The reader's own knock, in its private message, with what it cost (Six-matador)."""
    cost = knock_cost(move)
    return t("You could not lay a tile, so I knocked for you: {points}.", points=cost) \
        if cost else t("You could not lay a tile, so I knocked for you.")


def put_down_for_you(t: Translator, tile: Tile) -> str:
    """The reader's last tile, which fitted nowhere, put face down by the bot (dead tiles: the
    only legal move, so nobody is asked), in its private message."""
    # (player QA, gaple-dead: a tile there was no choosing took two taps while the timer ran)
    return t("You could not lay a tile, so I put your last tile, {tile}, face down for you "
             "(dead tile).", tile=str(tile))


def last_tile_down(view: TableView, index: int) -> bool:
    """Whether move ``index`` put its seat's last tile face down, ending the hand: the only
    legal move then, made by the engine (``Match.forced_action``), never chosen."""
    move, ended = view.history[index], view.result
    return (move.kind is ActionKind.DISCARD and ended is not None
            and index + 1 == len(view.history) and ended.out_seat == move.seat
            and not ended.by_play)


def drawn_for_you(t: Translator, tiles: tuple[Tile, ...]) -> str:
    """The tiles the bot drew for the reader, in its private message."""
    return t.plural("I drew a tile for you: {tiles}.", "I drew {count} tiles for you: {tiles}.",
                    len(tiles), tiles=", ".join(map(str, tiles)))


def drew_for_you(t: Translator, count: int) -> str:
    """``count`` tiles the bot drew for the reader, told without the tiles (they were played
    or knocked with since)."""
    if count == 1:
        return t("I drew a tile for you.")
    return t.plural("I drew {count} tile for you.", "I drew {count} tiles for you.", count)


def describe_draws(t: Translator, name: str, count: int) -> str:
    """``count`` tiles drawn in a row from the stock (``name`` already escaped)."""
    if count == 1:
        return t("{name} drew a tile from the stock.", name=name)
    return t.plural("{name} drew {count} tile from the stock.",
                    "{name} drew {count} tiles from the stock.", count, name=name)


def _draw_before_more(view: TableView, index: int) -> bool:
    """A draw followed by another draw of the same seat: the caption says the last one,
    with how many were drawn in a row."""
    history = view.history
    return (history[index].kind is ActionKind.DRAW and index + 1 < len(history)
            and history[index + 1].kind is ActionKind.DRAW
            and history[index + 1].seat == history[index].seat)


def _draws_in_a_row(view: TableView, index: int) -> int:
    """How many tiles the seat of draw ``index`` had drawn in a row, that one included."""
    seat, count = view.history[index].seat, 0
    while index >= 0 and view.history[index].kind is ActionKind.DRAW \
            and view.history[index].seat == seat:
        count += 1
        index -= 1
    return count


def moves_lines(t: Translator, game: Game, view: TableView, indices: range,
                auto: set[str] | None = None, reader: int | None = None,
                draws: tuple[Tile, ...] = (), dead: tuple[Tile, ...] = ()) -> list[str]:
    """The moves ``indices`` of the viewed hand, one line each; draws in a row are one line,
    and the move that ends them (the same seat's lay, knock or cut) shares it. ``reader``:
    the seat whose private message they are for: its own moves are told to it in the second
    person ("You laid 3-4 on the left.", "You put 1-6 face down (dead tile)."), the knocks
    and the last tile put face down the bot made for it as such (``dead``: its dead tiles, in
    order),
    with the tiles drawn for it (``draws``: every tile it drew this hand, in order), its draws
    of the turn it is on are left to the turn's notes, and a ribbon it took is told to it with
    the tiles."""
    lines = []
    for index in indices:
        move = view.history[index]
        own = reader is not None and move.seat == reader and seated_then(game, view, index)
        if move.kind is ActionKind.DRAW:
            if own and not _move_after_draws(view, index):
                if view.result is not None and index + 1 == len(view.history):
                    # the hand ended on its draw: no turn's notes will tell the tiles
                    count = min(_draws_in_a_row(view, index), index - indices[0] + 1)
                    lines.append(_drawn_before(t, view, index + 1, count, draws))
                continue  # drawing on the turn it is on: the turn's notes tell the tiles
            if not _draw_before_more(view, index) or index == indices[-1]:
                if _move_after_draws(view, index) and index != indices[-1]:
                    continue  # told with the move that follows
                lines.append(describe_draws(
                    t, named(mover(game, view, index)),
                    min(_draws_in_a_row(view, index), index - indices[0] + 1)))
            continue
        if own and dead and last_tile_down(view, index):
            text = put_down_for_you(t, dead[-1])
        else:
            text = _one_move(t, game, view, index, auto, reader, dead)
        count = min(_draws_in_a_row(view, index - 1), index - indices[0]) \
            if _move_after_draws(view, index - 1) else 0
        if count:
            text = _after_draws(_drawn_before(t, view, index, count, draws) if own
                                else describe_draws(t, named(mover(game, view, index)), count),
                                text)
        lines.append(text)
    return lines


def _drawn_before(t: Translator, view: TableView, index: int, count: int,
                  draws: tuple[Tile, ...]) -> str:
    """To the player they were drawn for, the ``count`` draws just before its move ``index``:
    the tiles, from ``draws`` (every tile it drew this hand), else how many."""
    seat = view.history[index - 1].seat
    made = sum(1 for move in view.history[:index]
               if move.seat == seat and move.kind is ActionKind.DRAW)
    if len(draws) < made:
        return drew_for_you(t, count)
    return drawn_for_you(t, draws[made - count:made])


def _after_draws(drew: str, text: str) -> str:
    """A move, told as ``text``, on one line after the draws that led to it, told as
    ``drew``: the draws are a sentence of their own ("Budi drew 2 tiles from the stock. Budi
    laid …"; to the player they were drawn for, "I drew 2 tiles for you: 1-2, 3-4. You
    could not …"), so each sentence starts as written in every language; a move made when
    time ran out keeps its ⏰ at the start of the line."""
    timed = "⏰ "
    if text.startswith(timed):
        return timed + drew + " " + text.removeprefix(timed)
    return drew + " " + text


def _move_after_draws(view: TableView, index: int) -> bool:
    """Whether draw ``index`` is the last of a run its seat ends with a move of its own."""
    history = view.history
    return (index >= 0 and history[index].kind is ActionKind.DRAW
            and index + 1 < len(history)
            and history[index + 1].kind is not ActionKind.DRAW
            and history[index + 1].seat == history[index].seat)


def _one_move(t: Translator, game: Game, view: TableView, index: int, auto: set[str] | None,
              reader: int | None, dead: tuple[Tile, ...] = ()) -> str:
    """Move ``index`` (not a draw), as its reader reads it: the reader's own in the second
    person (``dead``: its dead tiles, in order, the one a discard put face down among them)."""
    move = view.history[index]
    taker = ""
    if move.kind is ActionKind.CUT:  # the previous seat takes the piece
        seat = (move.seat - 1) % len(view.players)
        if seat == reader and seated_then(game, view, index, seat):
            return describe_cut_to_taker(t, move, named(mover(game, view, index)))
        taker = game.player_at(seat, view.hand_number, index).name
    you, face_down = move.seat == reader and seated_then(game, view, index), None
    if you and move.kind is ActionKind.DISCARD:
        put = sum(1 for earlier in view.history[:index + 1]
                  if earlier.seat == reader and earlier.kind is ActionKind.DISCARD)
        face_down = dead[put - 1] if put <= len(dead) else None
        you = face_down is not None  # (a reader's dead tiles not given: as the group has it)
    return describe_move(t, move, mover(game, view, index),
                         auto is not None and f"{view.hand_number}:{index}" in auto, taker,
                         last=view.result is not None and index + 1 == len(view.history),
                         kind=view.layout.kind, you=you, face_down=face_down)


def seated_then(game: Game, view: TableView, index: int, seat: int | None = None) -> bool:
    """Whether ``seat`` (the mover's) was held by whoever holds it now when move ``index`` of
    the viewed hand was made: a computer's moves while the seat's player was away are not
    that player's (review: "✔ You laid 4-6" after "↩ Take my seat back")."""
    seat = view.history[index].seat if seat is None else seat
    return game.player_at(seat, view.hand_number, index).user_id == game.players[seat].user_id


def mover(game: Game, view: TableView, index: int) -> str:
    """The name of whoever made move ``index`` of the viewed hand (as they were then)."""
    return game.player_at(view.history[index].seat, view.hand_number, index).name


FORCED = (ActionKind.DRAW, ActionKind.KNOCK)


def since_last_turn(game: Game, view: PlayerView) -> range:
    """The moves of this hand made since ``view``'s seat last chose a move (all of them if it
    has not yet this hand): its own forced draws and knocks are among them, in order, and its
    last tile put face down (unless its time had run out: :func:`captions._acted_for` says so)."""
    history = view.table.history
    number = view.table.hand_number
    mine = [i for i, move in enumerate(history)
            if move.seat == view.seat and move.kind not in FORCED
            and seated_then(game, view.table, i)
            and not (last_tile_down(view.table, i)
                     and f"{number}:{i}" not in game.timer.auto_moves)]
    return range(mine[-1] + 1 if mine else 0, len(history))


#: A waiting message's first line after the player's own move, the move as its player
#: reads it, "✔ You laid 3-4 on the left." (player QA: a tap, a silent toast, and the message
#: said only "not your turn yet"; then, in Indonesian: the player's own chat spoke of them as
#: the group does, "✔ Played: Ayu laid 3-4 on the left.").
OWN_MOVE = "✔ {move}"


def own_move(t: Translator, game: Game, view: PlayerView) -> list[str]:
    """The seat's latest chosen move of the hand while it waits (none made by the bot for
    it: captions tells those), so the tap that made it is confirmed."""
    history = view.table.history
    mine = since_last_turn(game, view).start - 1
    if mine < 0 or view.table.result is not None \
            or f"{view.table.hand_number}:{mine}" in game.timer.auto_moves:
        return []
    return [OWN_MOVE.format(move=line) for line in moves_lines(
        t, game, view.table, range(mine, mine + 1), reader=view.seat,
        draws=view.drawn_this_hand, dead=view.dead)] if history[mine].seat == view.seat else []
