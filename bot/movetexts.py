"""Moves as the players read them, the scores, and how a hand and a match ended."""

from __future__ import annotations

from collections.abc import Sequence

from engine import (
    ActionKind,
    End,
    HandEnded,
    HandEndReason,
    MatchEnded,
    PublicMove,
    TableView,
    variant,
)

from . import stocktexts
from .gamebook import presentation
from .i18n import Translator
from .models import Game, Status
from .wording import esc


def describe_move(t: Translator, move: PublicMove, name: str, timed_out: bool = False,
                  taker: str = "") -> str:
    """One move as the group reads it, with what it scored; ``name`` is whoever made it and
    ``taker`` whoever took the piece of a cut (both escaped here)."""
    text = _describe_move(t, move, esc(name), esc(taker))
    scored = stocktexts.move_points(t, move)
    if scored:
        text += " " + scored
    if timed_out:
        return "⏰ " + text + " " + t("(time ran out: I moved for them)")
    return text


def _describe_move(t: Translator, move: PublicMove, name: str, taker: str) -> str:
    if move.kind is ActionKind.PLAY:
        assert move.tile is not None
        if move.ends_before is None:
            return t("{name} led {tile}.", name=name, tile=str(move.tile))
        if move.cross or move.end in (End.UP, End.DOWN):
            return stocktexts.describe_lay(t, move, name)
        if move.end is End.LEFT:
            return t("{name} laid {tile} on the left.", name=name, tile=str(move.tile))
        return t("{name} laid {tile} on the right.", name=name, tile=str(move.tile))
    if move.kind is ActionKind.KNOCK:
        cost = stocktexts.knock_cost(move)
        if cost:  # Six-matador: "Ayu knocked: -6." (the sentence says why)
            return t("{name} knocked: {points}.", name=name, points=cost)
        return t("{name} knocked.", name=name)
    if move.kind is ActionKind.DRAW:
        return stocktexts.describe_draw(t, name)
    if move.kind is ActionKind.CUT:
        return stocktexts.describe_cut(t, move, name, taker)
    return t("{name} put a tile face down (dead tile).", name=name)


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
                auto: set[str] | None = None, reader: int | None = None) -> list[str]:
    """The moves ``indices`` of the viewed hand, one line each; draws in a row are one line.
    ``reader``: the seat whose private message they are for (a ribbon it took is told to
    it, with the tiles)."""
    lines = []
    for index in indices:
        move = view.history[index]
        if move.kind is ActionKind.DRAW:
            if not _draw_before_more(view, index) or index == indices[-1]:
                lines.append(stocktexts.describe_draws(
                    t, esc(mover(game, view, index)),
                    min(_draws_in_a_row(view, index), index - indices[0] + 1)))
            continue
        taker = ""
        if move.kind is ActionKind.CUT:  # the previous seat takes the piece
            seat = (move.seat - 1) % len(view.players)
            if seat == reader:
                lines.append(stocktexts.describe_cut_to_taker(
                    t, move, esc(mover(game, view, index))))
                continue
            taker = game.player_at(seat, view.hand_number, index).name
        lines.append(describe_move(t, move, mover(game, view, index),
                                   auto is not None and f"{view.hand_number}:{index}" in auto,
                                   taker))
    return lines


def mover(game: Game, view: TableView, index: int) -> str:
    """The name of whoever made move ``index`` of the viewed hand (as they were then)."""
    return game.player_at(view.history[index].seat, view.hand_number, index).name


def scores_line(t: Translator, view: TableView, names: Sequence[str]) -> str:
    parts = []
    for side, seats in enumerate(view.sides):
        who = " & ".join(esc(names[s]) for s in seats)
        parts.append(f"{who} {view.scores[side]}")
    if any(view.scored) and view.result is None:  # points scored in this hand so far
        hand = " · ".join(" & ".join(esc(names[s]) for s in seats) + f" {view.scored[side]:+d}"
                          for side, seats in enumerate(view.sides) if view.scored[side])
        return t("Score: {scores} (to {target}); this hand so far: {hand}",
                 scores=" · ".join(parts), target=view.target, hand=hand)
    if variant(view.game).lowest_total_wins and view.match_over:  # the final message
        return t("Final penalty points: {scores}.", scores=" · ".join(parts))
    if variant(view.game).lowest_total_wins:
        return t("Penalty points: {scores}. The match ends when someone reaches {target}; "
                 "the lowest total wins.", scores=" · ".join(parts), target=view.target)
    return t("Score: {scores} (to {target})", scores=" · ".join(parts), target=view.target)


def hand_end_line(t: Translator, game: Game, view: TableView) -> str:
    """How the viewed hand ended, naming the tile: "Budi went out with 3-4", "Blocked after
    Þóra's 0-6"."""
    ended = view.result
    assert ended is not None
    last = len(view.history) - 1
    if ended.reason is HandEndReason.OUT and ended.out_seat is not None:
        name = esc(game.player_at(ended.out_seat, view.hand_number, max(last, 0)).name)
        move = view.history[last] if last >= 0 else None
        if ended.by_play and move is not None and move.tile is not None:
            return t(presentation(game.game_name).went_out, name=name, tile=str(move.tile))
        return t("{name} has no tiles left.", name=name)
    plays = [i for i, move in enumerate(view.history) if move.tile is not None]
    if not plays:
        return t("Blocked: nobody can lay a tile.")
    index = plays[-1]
    return t("Blocked after {name}'s {tile}: nobody can lay a tile.",
             name=esc(mover(game, view, index)), tile=str(view.history[index].tile))


def hand_result_text(t: Translator, game: Game, ended: HandEnded, view: TableView) -> str:
    names = game.names
    lines = [t("<b>Hand {number} is over.</b>", number=ended.hand_number + 1),
             hand_end_line(t, game, view)]
    rules = variant(game.game_name)
    if rules.pips_decide(ended.reason):  # not Six-matador's, nor after going out in Muggins, Bergen
        lines.append(t("Pips counted: {totals}.", totals=", ".join(
            f"{esc(n)} {total}" for n, total in zip(names, ended.totals, strict=True))))
    if ended.reason is HandEndReason.BLOCKED and any(len(side) > 1 for side in view.sides):
        # A blocked partnership hand is decided by the pairs' sums: show them.
        lines.append(t("Pairs' pips: {sums}.", sums=" · ".join(
            " & ".join(esc(names[s]) for s in side) + f" {sum(ended.totals[s] for s in side)}"
            for side in view.sides)))
    if ended.stock_left > rules.stock_reserve:  # Bergen's two reserved tiles tell nothing
        lines.append(t.plural("{count} tile was left in the stock.",
                              "{count} tiles were left in the stock.", ended.stock_left))
    listed = [(seat, stocktexts.points_list(t, view.history, seat)) for seat in range(len(names))]
    if any(words for _, words in listed):
        lines.append(t("Points of play: {scores}.", scores=" · ".join(
            f"{esc(names[seat])} {ended.scored[view.players[seat].side]} ({words})"
            for seat, words in listed if words)))
    if ended.winner is None:
        lines.append(t("A drawn hand: nobody scores."))
    else:
        side = view.sides[ended.winner]
        if ended.lowest_double is not None:  # Bergen: not the pips, the doubles decided
            lines.append(t("Everyone holds a double: {name}'s {tile} is the lowest.",
                           name=esc(names[side[0]]), tile=str(ended.lowest_double)))
        points = ended.points[ended.winner]
        if any(ended.scored) and len(side) == 1:  # points were scored during play
            lines.append(_hand_won(t, ended, esc(names[side[0]])))
        elif variant(game.game_name).lowest_total_wins:
            lines.append(t("{name} wins the hand with the lowest total.",
                           name=esc(names[side[0]])))
        elif len(side) == 1:
            lines.append(t("{name} wins the hand and scores {points}.", name=esc(names[side[0]]),
                           points=points))
        else:
            lines.append(t("{first} and {second} win the hand and score {points}.",
                           first=esc(names[side[0]]), second=esc(names[side[1]]), points=points))
    lines.append(scores_line(t, view, names))
    return "\n".join(lines)


def _hand_won(t: Translator, ended: HandEnded, name: str) -> str:
    """Who won a hand of a game that scores during play, and what winning it added."""
    assert ended.winner is not None
    points = ended.points[ended.winner]
    extra = points - ended.scored[ended.winner]
    if not extra and ended.scored[ended.winner] == max(ended.scored):
        # Six-matador: the most points of play win the hand, and winning adds nothing
        return t("{name} wins the hand with the most points: {points}.", name=name,
                 points=points)
    if ended.reason is HandEndReason.OUT:
        return t("{name} wins the hand: +{extra} for going out, {points} in this hand.",
                 name=name, extra=extra, points=points)
    if not extra:  # Muggins: the others' pips less the winner's, rounded, may come to 0
        return t("{name} wins the blocked hand: {points} in this hand.", name=name,
                 points=points)
    return t("{name} wins the blocked hand: +{extra} for it, {points} in this hand.",
             name=name, extra=extra, points=points)


def settlement_line(t: Translator, view: TableView, names: Sequence[str]) -> str:
    """Six-matador's settling up (D25), or "" where the game has none."""
    if view.settlement is None:
        return ""
    return t("Settling up (the winner gets the difference from each): {list}.", list=" · ".join(
        " & ".join(esc(names[s]) for s in seats) + f" {view.settlement[side]:+d}"
        for side, seats in enumerate(view.sides)))


def game_end_line(t: Translator, game: Game) -> str:
    """How the game ended, for a player's private message."""
    match = game.match
    if game.status is Status.FINISHED and match is not None and match.result is not None:
        winner = match.result.winner
        if winner is None:
            return t("The match is over: it is a draw.")
        return t("The match is over: 🏆 {names} won it.", names=" & ".join(
            esc(game.players[s].name) for s in match.sides[winner]))
    if game.status is Status.STOPPED:
        return t("The game was stopped: nobody wins it.")
    return t("The game is over.")


def match_result_text(t: Translator, game: Game, ended: MatchEnded, view: TableView) -> str:
    names = game.names
    lines = [t("<b>The match is over.</b>")]
    if ended.winner is None:
        lines.append(t("It is a draw."))
    else:
        side = view.sides[ended.winner]
        if view.lowest_total_wins:
            lines.append(t("🏆 {name} wins the match with the lowest total!",
                           name=esc(names[side[0]])))
        elif len(side) == 1:
            lines.append(t("🏆 {name} wins the match!", name=esc(names[side[0]])))
        else:
            lines.append(t("🏆 {first} and {second} win the match!",
                           first=esc(names[side[0]]), second=esc(names[side[1]])))
    lines.append(scores_line(t, view, names))
    settled = settlement_line(t, view, names)
    if settled:
        lines.append(settled)
    lines.append(t("Play again with the same players and rules: tap below, or /newgame."))
    return "\n".join(lines)
