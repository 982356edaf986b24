"""How a hand ended: the match's scores, the points of play by reason, the hand's result and
its deal's seed. How the match ended is :mod:`bot.presentation.matchendtexts`."""

from __future__ import annotations

from collections.abc import Sequence

from engine import (
    ActionKind,
    DecidedBy,
    HandEnded,
    HandEndReason,
    PublicMove,
    ScoreReason,
    TableView,
)
from renderers import signed

from ..gamebook import presentation
from ..i18n import N_, Translator
from ..models import Game
from ..wording import and_list, code, named, pair_names
from .movetexts import mover

# Why points were scored, as nouns, in a hand's list of the points of play: "matadors 2 times
# 10" (the order here is the order of the list)
REASON_NOUNS: dict[ScoreReason, str] = {
    ScoreReason.FIFTEEN: N_("open ends"),  # (the picture says "count" beside a sum)
    ScoreReason.DOUBLE_HEADER: N_("double headers"),
    ScoreReason.TRIPLE_HEADER: N_("triple headers"),
    ScoreReason.DOUBLE_LEAD: N_("double lead"),
    ScoreReason.MATADOR: N_("matadors"),
    ScoreReason.JOINT: N_("tiles along"),
    ScoreReason.FREE_SIX: N_("free sixes"),
    ScoreReason.KNOCK: N_("knocks"),
    ScoreReason.OUT: N_("going out"),
    ScoreReason.BLOCKED: N_("blocked hand"),
}


#: The longest line of points of play that is still read at a glance (about two lines on a
#: phone); a longer one is split, a seat a line.
GLANCE = 100


def scores_line(t: Translator, view: TableView, names: Sequence[str]) -> str:
    """The match's scores (penalty points where the lowest total wins), with what this hand
    scored so far while it is played. How a penalty match is won is said once, in the lobby
    and on the first table (:func:`penalty_rule`), not in every caption."""
    parts = []
    for side, seats in enumerate(view.sides):
        who = pair_names(t, names, seats)
        parts.append(f"{who} {view.scores[side]}")
    if any(view.scored) and view.result is None:  # points scored in this hand so far
        hand = " · ".join(pair_names(t, names, seats) + f" {signed(view.scored[side])}"
                          for side, seats in enumerate(view.sides) if view.scored[side])
        return t("Score: {scores} (to {target}); this hand so far: {hand}",
                 scores=" · ".join(parts), target=view.target, hand=hand)
    if view.lowest_total_wins and view.match_over:  # the final message
        return t("Final penalty points: {scores}.", scores=" · ".join(parts))
    if view.lowest_total_wins:
        return t("Penalty points: {scores} (to {target})", scores=" · ".join(parts),
                 target=view.target)
    return t("Score: {scores} (to {target})", scores=" · ".join(parts), target=view.target)


def penalty_rule(t: Translator, target: int) -> str:
    """How a match of penalty points ends, said once (the lobby, the first table)."""
    return t.plural("The match ends when someone reaches {count} penalty point; the lowest "
                    "total wins.",
                    "The match ends when someone reaches {count} penalty points; the lowest "
                    "total wins.", target)


def hand_end_line(t: Translator, game: Game, view: TableView) -> str:
    """How the viewed hand ended, naming the tile: "Budi went out with 3-4", "Blocked after
    Þóra's 0-6", or when draws followed the last tile, that nothing was left to draw; where
    tiles were left in the stock but none fits (French), that no tile anywhere fits."""
    ended = view.result
    assert ended is not None
    last = len(view.history) - 1
    if ended.reason is HandEndReason.OUT and ended.out_seat is not None:
        name = named(game.player_at(ended.out_seat, view.hand_number, max(last, 0)).name)
        move = view.history[last] if last >= 0 else None
        if ended.by_play and move is not None and move.tile is not None:
            return t(presentation(view.game).went_out, name=name, tile=str(move.tile))
        if move is not None and move.kind is ActionKind.DISCARD and move.seat == ended.out_seat:
            # (player QA: "has no tiles left" read as going out, with the highest total)
            return t("{name} put their last tile face down and has none left.", name=name)
        if move is not None and move.kind is ActionKind.DRAW:
            # French: out once the stock is empty, here by another's draw (player QA: "has no
            # tiles left" alone, though they had had none for a round)
            return t("The stock is empty and {name} has no tiles left.", name=name)
        return t("{name} has no tiles left.", name=name)
    plays = [i for i, move in enumerate(view.history) if move.tile is not None]
    if not plays:
        return t("Blocked: nobody can lay a tile.")
    index = plays[-1]
    drew = any(move.kind is ActionKind.DRAW for move in view.history[index + 1:])
    if ended.nothing_fits and ended.stock_left:
        # French: the stock was not empty, but none of its tiles (nor any in hand) fits.
        if drew:
            return t("Blocked: no tile left, in any hand or in the stock, fits the ends.")
        return t("Blocked after {name}'s {tile}: no tile left, in any hand or in the stock, "
                 "fits the ends.", name=named(mover(game, view, index)),
                 tile=str(view.history[index].tile))
    if drew and 0 < ended.stock_left <= view.stock_reserve:
        # Bergen: the stock is down to its tiles never drawn. "Nothing left to draw" above
        # the result's "2 tiles were left in the stock" read as a contradiction.
        return t.plural("Blocked: only the {count} tile that is never drawn is left in the "
                        "stock, and nobody can lay a tile.",
                        "Blocked: only the {count} tiles that are never drawn are left in the "
                        "stock, and nobody can lay a tile.", ended.stock_left)
    if drew:
        # Draws came after the last tile (Matador, Muggins…): that tile did not block the
        # hand, the stock running out did.
        return t("Blocked: nothing left to draw, and nobody can lay a tile.")
    return t("Blocked after {name}'s {tile}: nobody can lay a tile.",
             name=named(mover(game, view, index)), tile=str(view.history[index].tile))


def points_list(t: Translator, moves: Sequence[PublicMove], seat: int) -> str:
    """A seat's points of play in a hand, by reason, each reason's sum: "open ends 30",
    "matadors 20, tiles along 8, knocks -12"; "" if the seat scored nothing. (Each lay's
    points were told in the caption as it was made: the result keeps to the sums.)"""
    return _sums_text(t, _point_sums(moves, seat))


def _sums_text(t: Translator, sums: Sequence[tuple[ScoreReason, int]]) -> str:
    return ", ".join(f"{t(REASON_NOUNS[reason])} {total}" for reason, total in sums)


def _point_sums(moves: Sequence[PublicMove], seat: int) -> list[tuple[ScoreReason, int]]:
    """A seat's points of play in a hand, each reason's sum, always in the same order."""
    amounts: dict[ScoreReason, list[int]] = {}
    for move in moves:
        if move.seat == seat:
            for amount, reason in move.points:
                amounts.setdefault(reason, []).append(amount)
    return [(reason, sum(amounts[reason])) for reason in REASON_NOUNS if amounts.get(reason)]


def hand_result_text(t: Translator, game: Game, ended: HandEnded, view: TableView) -> str:
    """The group's announcement of a hand's end: its result and its deal's seed."""
    return "\n".join([t("<b>Hand {number} is over.</b>", number=ended.hand_number + 1),
                      *hand_result_lines(t, game, ended, view), *seed_lines(t, view)])


def hand_result_lines(t: Translator, game: Game, ended: HandEnded, view: TableView
                      ) -> list[str]:
    """How a hand ended, who won it and what, and the match's score after it: the group's
    result and each player's private message of the hand say the same."""
    names = game.names
    lines = [hand_end_line(t, game, view)]
    if ended.pips_count:  # not Six-matador's, nor after going out in Muggins, Bergen
        totals = ", ".join(
            f"{named(n)} {total}" for n, total in zip(names, ended.totals, strict=True))
        # Where the lowest total wins, what is counted (with gaple-dead's dead tiles) is a
        # penalty, not a prize: say so.
        lines.append(t("Penalty points this hand: {totals}.", totals=totals)
                     if view.lowest_total_wins else t("Pips counted: {totals}.", totals=totals))
    if ended.reason is HandEndReason.BLOCKED and any(len(side) > 1 for side in view.sides):
        # A blocked partnership hand is decided by the pairs' sums: show them.
        lines.append(t("Pairs' pips: {sums}.", sums=" · ".join(
            pair_names(t, names, side) + f" {sum(ended.totals[s] for s in side)}"
            for side in view.sides)))
    # Counted as the table's "Stock: 2 tiles." counts it: Bergen's two tiles never drawn
    # included (they are in the stock, RULES), so a blocked Bergen hand says its 2 too.
    if ended.stock_left:
        lines.append(t.plural("{count} tile was left in the stock.",
                              "{count} tiles were left in the stock.", ended.stock_left))
    lines += _scored_lines(t, view, ended, names)
    lines += decision_lines(t, ended, names)
    if ended.winner is None:
        lines.append(drawn_hand_line(t, view.lowest_total_wins, ended))
    else:
        side = view.sides[ended.winner]
        points = ended.points[ended.winner]
        if any(ended.scored) and len(side) == 1:  # points were scored during play
            lines.append(_hand_won(t, ended, named(names[side[0]])))
        elif view.lowest_total_wins and ended.decision is not None:  # a tie, broken
            lines.append(t("{name} wins the hand on the tie-break.", name=named(names[side[0]])))
        elif view.lowest_total_wins:
            lines.append(t("{name} wins the hand with the lowest total.",
                           name=named(names[side[0]])))
        elif len(side) == 1:
            lines.append(t("{name} wins the hand and scores {points}.", name=named(names[side[0]]),
                           points=points))
        else:
            lines.append(t("{first} and {second} win the hand and score {points}.",
                           first=named(names[side[0]]), second=named(names[side[1]]),
                           points=points))
    lines.append(scores_line(t, view, names))
    lines += played_on_lines(t, view, names)
    return lines


def played_on_lines(t: Translator, view: TableView, names: Sequence[str]) -> list[str]:
    """Why the match goes on although the target is reached: the lead is shared (docs/RULES.md,
    D3). Said with the hand's result (player QA: the next hand began with no word why)."""
    if not view.tied_past_target or view.result is None:
        return []
    best = min(view.scores) if view.lowest_total_wins else max(view.scores)
    level = [pair_names(t, names, seats) for side, seats in enumerate(view.sides)
             if view.scores[side] == best]
    if len(level) < 2:
        return []
    return [t("{names} share the lead on {score}, so the match goes on until one is ahead "
              "alone.", names=and_list(t, level), score=best)]


def drawn_hand_line(t: Translator, lowest_total_wins: bool, ended: HandEnded) -> str:
    """What a hand nobody won leaves: a tie for the lowest total still adds everyone's
    penalty points (French, gaple-dead); points scored during play stand (Six-matador,
    Muggins, Bergen); elsewhere nobody scores."""
    if any(ended.points) and lowest_total_wins:
        return t("A drawn hand: nobody wins it, and everyone's penalty points count.")
    if any(ended.points):
        return t("A drawn hand: nobody wins it; the points scored during play count.")
    return t("A drawn hand: nobody scores.")


def seed_lines(t: Translator, view: TableView) -> list[str]:
    """The hand is over: the seed its deal was made from, which anyone can check against the
    fingerprint shown before the hand (last in the result, which fit_caption never drops)."""
    if view.seed is None or view.fingerprint is None:
        return []
    return [t("🔓 The deal's seed: {seed}. Its SHA-256 starts with {fingerprint}, the "
              "fingerprint shown before the hand.", seed=code(view.seed),
              fingerprint=code(view.fingerprint))]


def _scored_lines(t: Translator, view: TableView, ended: HandEnded, names: Sequence[str]
                  ) -> list[str]:
    """Each seat's points of play in the hand, by reason: on one line while it reads at a
    glance, else a line per seat (Six-matador's four seats with four reasons each ran to some
    300 characters on one line)."""
    seats = []
    for seat in range(len(names)):
        sums = _point_sums(view.history, seat)
        if not sums:
            continue
        total = ended.scored[view.players[seat].side]
        if len(sums) == 1 and sums[0][1] == total:  # "Budi 35 (count)", not "(count 35)"
            words = t(REASON_NOUNS[sums[0][0]])
        else:
            words = _sums_text(t, sums)
        seats.append(f"{named(names[seat])} {total} ({words})")
    if not seats:
        return []
    one_line = t("Scored during the hand: {scores}.", scores=" · ".join(seats))
    if len(one_line) <= GLANCE:
        return [one_line]
    return [t("Scored during the hand:"), *("• " + seat for seat in seats)]


def decision_lines(t: Translator, ended: HandEnded, names: Sequence[str]) -> list[str]:
    """Why the winner won where the lowest total alone does not say (the engine's
    :class:`Decision`): gaple-dead's tie-break, with the tiles that broke it; Bergen's
    doubles in a blocked hand, and in one nobody won, who tied. Nothing where the totals say
    it all."""
    decision = ended.decision
    if decision is None:
        return []
    if ended.winner is None:  # Bergen: the lightest of those holding no double are level
        return [t("Of those holding no double, {names} have the fewest pips, level on {total}.",
                  names=and_list(t, [named(names[seat]) for seat in decision.seats]),
                  total=ended.totals[decision.seats[0]])]
    winner = named(names[decision.seats[0]])
    if decision.by is DecidedBy.LOWEST_DOUBLE:
        return [t("Everyone holds a double: {name}'s {tile} is the lowest.", name=winner,
                  tile=str(decision.tiles[0]))]
    if decision.by is DecidedBy.NO_DOUBLE:
        if len(decision.seats) == 1:
            return [t("{name} is the only one holding no double.", name=winner)]
        return [t("{name} has the lightest hand of those holding no double.", name=winner)]
    level = and_list(t, [named(names[seat]) for seat in decision.seats])
    total = ended.totals[decision.seats[0]]
    if decision.by is DecidedBy.NO_TILES:
        return [t("{names} are level on {total}; {name} has no tile left to count, which "
                  "breaks the tie.", names=level, total=total, name=winner)]
    tiles = [t("{name}'s {tile}", name=named(names[seat]), tile=str(tile))
             for seat, tile in zip(decision.seats, decision.tiles, strict=True)]
    if decision.by is DecidedBy.LOWER_HALF:
        return [t("{names} are level on {total}; the lowest counted tile breaks the tie, and "
                  "between tiles of equal value the one with the smaller lower half: {winner} "
                  "against {others}.", names=level, total=total, winner=tiles[0],
                  others=and_list(t, tiles[1:]))]
    return [t("{names} are level on {total}; the lowest counted tile breaks the tie: {winner} "
              "against {others}.", names=level, total=total, winner=tiles[0],
              others=and_list(t, tiles[1:]))]


def _hand_won(t: Translator, ended: HandEnded, name: str) -> str:
    """Who won a hand of a game that scores during play, and what winning it added."""
    assert ended.winner is not None
    points = ended.points[ended.winner]
    extra = points - ended.scored[ended.winner]
    if not extra and not ended.pips_count:
        # The points of play alone decided (Six-matador: the pips left count for nothing and
        # winning adds nothing): the hand's highest score, which knocks may put below 0.
        return t("{name} wins the hand with the highest score: {points}.", name=name,
                 points=points)
    # Nothing scored during play: the hand's points are what winning added, said once
    # (player QA: "+10 for going out, 10 in this hand").
    alone = extra == points
    if ended.reason is HandEndReason.OUT:
        if alone:
            return t("{name} wins the hand: +{points} for going out.", name=name,
                     points=points)
        return t("{name} wins the hand: +{extra} for going out, {points} in this hand.",
                 name=name, extra=extra, points=points)
    if not extra:  # Muggins: the others' pips less the winner's, rounded, may come to 0
        return t("{name} wins the blocked hand: {points} in this hand.", name=name,
                 points=points)
    if alone:
        return t("{name} wins the blocked hand: +{points}.", name=name, points=points)
    return t("{name} wins the blocked hand: +{extra} for winning it, {points} in this hand.",
             name=name, extra=extra, points=points)
