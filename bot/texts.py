"""Every sentence the bot says, built from views and events in one language.

Messages are HTML (Telegram parse mode): names are escaped here and nowhere else. Nothing in
this module reads a hidden tile: it is given public views, events, and one seat's own view.
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engine import (
    ActionKind,
    End,
    Event,
    HandEnded,
    HandEndReason,
    Match,
    MatchEnded,
    OptionSpec,
    Play,
    PlayerView,
    PublicMove,
    TableView,
    Tile,
    table_view,
    variant,
)

from . import stocktexts
from .callbacks import PlayAgain, ReplaceAway
from .gamebook import GAMES, presentation
from .i18n import N_, Translator, translator
from .models import Game, Outgoing, Player, Status
from .stockplay import drawn_tiles, gains

if TYPE_CHECKING:
    from .pictures import PictureMaker

CAPTION_LIMIT = 1024
NAME_LIMIT = 24
#: The lobby's mark by a seat the bot cannot reach in private.
UNREACHABLE = "📵"
#: The lobby's button that opens the private chat (its deep link seats the player too).
PRIVATE_CHAT_BUTTON = N_("💬 Open my private chat")


def short_name(name: str) -> str:
    """Names as the bot stores them: at most ``NAME_LIMIT`` characters, with an ellipsis."""
    name = " ".join(name.split()) or "?"
    return name if len(name) <= NAME_LIMIT else name[: NAME_LIMIT - 1].rstrip() + "…"


def fit_caption(text: str, limit: int = CAPTION_LIMIT) -> str:
    """Keep a caption within Telegram's limit by dropping whole lines from its middle
    (never cutting a tag in half); the first line and the last two stay."""
    lines = text.split("\n")
    while len("\n".join(lines)) > limit and len(lines) > 3:
        del lines[len(lines) // 2]
    return "\n".join(lines)[:limit] if len("\n".join(lines)) > limit else "\n".join(lines)


def esc(text: str) -> str:
    return html.escape(text, quote=False)


def shorten(text: str, limit: int = 32) -> str:
    """What a user typed, on one line and at most ``limit`` characters, for plain text."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def quote(text: str, limit: int = 32) -> str:
    """What a user typed, to be quoted back in HTML: shortened, so that no reply can exceed
    Telegram's limits whatever they type, and escaped."""
    return esc(shorten(text, limit))


def allowed(t: Translator, game: str, spec: OptionSpec) -> str:
    """What an option allows, as a player reads it: "6 or 7", "on or off", "1 to 10000";
    where the game's entry words the choices a group picks, those."""
    if not spec.choices:
        return t("a whole number from {low} to {high}", low=spec.low, high=spec.high)
    worded = presentation(game).options.get(spec.name)
    offered = [c for c in spec.choices if worded is None or c in worded.choices]
    # What to type: /newgame reads on/off (and true/false, yes/no) in English only.
    words = ["on" if c is True else "off" if c is False else str(c) for c in offered]
    return or_list(t, words)


def or_list(t: Translator, words: Sequence[str]) -> str:
    """"6 or 7", "3, 4 or 5": one of ``words``."""
    if len(words) == 1:
        return words[0]
    return t("{choices} or {last}", choices=", ".join(words[:-1]), last=words[-1])


def mention(user_id: int, name: str) -> str:
    return f'<a href="tg://user?id={user_id}">{esc(name)}</a>'


def who(player: Player) -> str:
    """A player as the group reads them: a mention for people, a plain name for computers."""
    return esc(player.name) if player.is_computer else mention(player.user_id, player.name)


def title(t: Translator, game: str) -> str:
    return t(presentation(game).title)


def rules_text(t: Translator, game: str) -> str:
    """The game's rules, with its target for the fewest players, and the target of the
    other table sizes where it differs (Bergen: 15 for two, 10 for three or four)."""
    spec = variant(game)
    targets = {seats: spec.default_target(seats) for seats in spec.seat_counts}
    first = targets[spec.seat_counts[0]]
    text = t(presentation(game).rules, target=first)
    others = [seats for seats in spec.seat_counts if targets[seats] != first]
    for target in dict.fromkeys(targets[seats] for seats in others):
        counts = or_list(t, [str(seats) for seats in others if targets[seats] == target])
        text += " " + t.plural("With {seats} players, the target is {count} point.",
                               "With {seats} players, the target is {count} points.", target,
                               seats=counts)
    return text


def help_text(t: Translator) -> str:
    return t(
        "<b>Dominoes for your group</b>\n"
        "/newgame [game] [option=value …] — open a table: friends press Join, the creator "
        "presses Start; the 🤖 buttons seat computer players\n"
        "/hand — your tiles again, in our private chat\n"
        "/leave — leave the game (a computer player takes your seat)\n"
        "/stop — end the running game (its creator or an admin)\n"
        "/scoreboard [game] [week|month|all] — who wins in this group\n"
        "/stats — your own figures across groups\n"
        "/settings — house rules, turn timer, language (admins)\n"
        "/rules [game] — how each game is played\n\n"
        "Games: {games}. For example: /newgame gaple-dead deal=7 target=150\n"
        "Your tiles come to you privately, so open a private chat with me before you join.",
        games=", ".join(GAMES),
    )


def options_line(t: Translator, game: Game) -> str:
    # The target and the rest as they will be for the players seated (Bergen: 15 for two,
    # 10 for three or four), or for the fewest seats the options fit while few are seated.
    opts = variant(game.variant).lobby_options(game.options, len(game.players))
    parts = [t("double-{n} set", n=opts.set),
             t.plural("to {count} point", "to {count} points", opts.target)]
    if game.turn_seconds:
        parts.append(t("{seconds} s a turn", seconds=game.turn_seconds))
    else:
        parts.append(t("no turn timer"))
    chosen = opts.to_dict()
    for name, words in presentation(game.variant).options.items():
        if chosen[name] in words.in_force:
            parts.append(t(words.in_force[chosen[name]]))
    return " · ".join(parts)


def lobby_status(t: Translator, game: Game) -> str:
    """Whether the table can start, and if not, how many players it still needs."""
    low, high, seated = min(game.seat_counts), max(game.seat_counts), len(game.players)
    creator = next((p for p in game.players if p.user_id == game.creator_id), None)
    if game.pending:
        return t("Playing again: ⏳ {names}, press Join to keep your seat (or Leave).",
                 names=", ".join(who(p) for p in game.players if p.user_id in game.pending))
    if seated < low:
        need = t.plural("{count} more player needed.", "{count} more players needed.",
                        low - seated)
        if low != high:
            need += " " + t("The game takes {low} to {high} players.", low=low, high=high)
        return need
    if game.cut_off:  # Start would be refused: say whom it waits for
        return t.plural("{count} player: waiting for {names} to open a private chat with me.",
                        "{count} players: waiting for {names} to open a private chat with me.",
                        seated, names=names_of(game.cut_off))
    ready = t.plural("{count} player: {name} can start.", "{count} players: {name} can start.",
                     seated, name=esc(creator.name) if creator else "?")
    if seated < high:
        ready += " " + t.plural("{count} more can still join.", "{count} more can still join.",
                                high - seated)
    return ready


def lobby_text(t: Translator, game: Game) -> str:
    lines = [
        t("<b>{title}</b>: a new table", title=esc(title(t, game.variant))),
        options_line(t, game),
        "",
        t("Players ({count}):", count=len(game.players)),
    ]
    lines += [f"{i + 1}. {who(p)}" + (" ⏳" if p.user_id in game.pending else "")
              + (f" {UNREACHABLE}" if p.user_id in game.unreachable else "")
              for i, p in enumerate(game.players)]
    if game.partnerships:
        lines += ["", t("Pairs: {pairs}.", pairs=" · ".join(
            " & ".join(who(game.players[s]) for s in side) for side in game.partnerships))]
    lines += ["", lobby_status(t, game)]
    if game.cut_off:
        lines.append(private_chat_hint(t, game))
    lines.append(t("Press Join to take a seat; the creator presses Start."))
    return "\n".join(lines)


def names_of(players: Sequence[Player]) -> str:
    return ", ".join(esc(p.name) for p in players)


def private_chat_hint(t: Translator, game: Game) -> str:
    """Who must open a private chat with the bot before the game can start, and how."""
    return t.plural(
        "{mark} I cannot send {names} their tiles yet: tap “{button}” below, then Start "
        "in our chat.",
        "{mark} I cannot send {names} their tiles yet: each of them needs to tap “{button}” "
        "below, then Start in our chat.", len(game.cut_off), mark=UNREACHABLE,
        names=names_of(game.cut_off), button=t(PRIVATE_CHAT_BUTTON))


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


def _round_start(view: TableView, seats: int) -> int:
    """Where the last ``seats`` moves other than draws begin (with the draws among them)."""
    counted = 0
    for index in range(len(view.history) - 1, -1, -1):
        if view.history[index].kind is not ActionKind.DRAW:
            counted += 1
            if counted > seats:
                return index + 1
    return 0


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


def _ends_lines(t: Translator, view: TableView) -> list[str]:
    """The open ends (all four in Muggins) and, in the games with a stock, its size."""
    if view.layout is not None:
        lines = [stocktexts.ends_line(t, view.layout)] if view.layout.ends else []
        waiting = stocktexts.waiting_line(t, view.layout)
        stock = [stocktexts.stock_line(t, view)] if view.stock_dealt else []
        return [*lines, *([waiting] if waiting else []), *stock]
    if view.ends is not None:
        return [t("Open ends: {left} and {right}.", left=view.ends[0], right=view.ends[1])]
    return []


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
            return t(presentation(game.variant).went_out, name=name, tile=str(move.tile))
        return t("{name} has no tiles left.", name=name)
    plays = [i for i, move in enumerate(view.history) if move.tile is not None]
    if not plays:
        return t("Blocked: nobody can lay a tile.")
    index = plays[-1]
    return t("Blocked after {name}'s {tile}: nobody can lay a tile.",
             name=esc(mover(game, view, index)), tile=str(view.history[index].tile))


def turn_lines(t: Translator, game: Game, view: TableView) -> list[str]:
    """Whose turn it is, only while the game is on and the hand goes on."""
    if game.status is not Status.PLAYING or view.to_move is None or view.result is not None:
        return []
    player = game.players[view.to_move]
    if player.is_computer:
        lines = [t("{name} is thinking…", name=who(player))]
    else:
        lines = [t("Your turn, {name}!", name=who(player))]
    if game.timer.warned and game.turn_seconds:
        lines.append(t.plural("⏳ {count} second left, then I move for you.",
                              "⏳ {count} seconds left, then I move for you.",
                              game.turn_seconds // 2))
    return lines


def table_caption(t: Translator, game: Game, view: TableView) -> str:
    names = game.names
    lines = [t("<b>{title}</b> · hand {number}", title=esc(title(t, game.variant)),
               number=view.hand_number + 1)]
    # The last round of moves, so knocks and dead tiles are seen as they happen (draws from
    # the stock do not count towards the round: a player may draw many).
    first = _round_start(view, len(names))
    if view.turned_up is not None and len(view.history) < len(names):
        lines.append(t("The middle tile {tile} was turned up.", tile=str(view.turned_up)))
    auto = set(game.timer.auto_moves)
    lines += moves_lines(t, game, view, range(first, len(view.history)), auto)
    if view.result is not None:
        lines.append(hand_end_line(t, game, view))
    else:
        lines += _ends_lines(t, view)
    lines.append(scores_line(t, view, names))
    lines += turn_lines(t, game, view)
    return fit_caption("\n".join(lines))


def hand_result_text(t: Translator, game: Game, ended: HandEnded, view: TableView) -> str:
    names = game.names
    lines = [t("<b>Hand {number} is over.</b>", number=ended.hand_number + 1),
             hand_end_line(t, game, view)]
    rules = variant(game.variant)
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
        elif variant(game.variant).lowest_total_wins:
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


def since_last_turn(game: Game, view: PlayerView) -> range:
    """The moves of this hand made since ``view``'s seat last moved (all of them if it has
    not moved yet this hand)."""
    history = view.table.history
    mine = [i for i, move in enumerate(history) if move.seat == view.seat]
    return range(mine[-1] + 1 if mine else 0, len(history))


def hand_caption(
    t: Translator, game: Game, view: PlayerView, choosing: Tile | None = None,
    table_link: str = "",
) -> str:
    """The private hand message: enough to play a whole match from the private chat."""
    table = view.table
    names = game.names
    lines = [t("<b>{title}</b> · hand {number}", title=esc(title(t, game.variant)),
               number=table.hand_number + 1)]
    over = table.result is not None or table.to_move is None
    # A waiting message names nothing that others' moves change, so it never goes stale.
    current = view.my_turn or over or choosing is not None
    if current:
        moves = since_last_turn(game, view)
        if len(moves):
            lines.append(t("Since your last turn:"))
            lines += ["• " + line for line in moves_lines(t, game, table, moves,
                                                          reader=view.seat)]
    lines += _acted_for(t, game, view)
    if current:
        if table.result is not None:
            lines.append(hand_end_line(t, game, table))
        else:
            lines += _ends_lines(t, table)
        lines.append(t("Tiles in hand: {counts}.", counts=" · ".join(
            f"{esc(names[p.seat])} {p.tile_count}" for p in table.players)))
        lines.append(scores_line(t, table, names))
    lines += _stock_lines(t, game, view, current and choosing is None)
    side = next(s for s in table.sides if view.seat in s)
    if len(side) > 1:
        lines.append(t("Your partner: {name}.", name=" & ".join(
            esc(names[s]) for s in side if s != view.seat)))
    if view.dead:
        lines.append(t("Your dead tiles: {tiles}.", tiles=", ".join(map(str, view.dead))))
    lines += _prompt(t, game, view, over, choosing)
    if table_link:
        lines.append(table_link)
    return fit_caption("\n".join(lines))


def _stock_lines(t: Translator, game: Game, view: PlayerView, choosing_now: bool) -> list[str]:
    """Private, in the games with a stock: the tiles I drew for the player, and what each
    playable tile would score now (on its turn, before a tile is picked)."""
    match = _stock_hand_on(game, view)
    if match is None:
        return []
    history = view.table.history
    mine = [move for move in history if move.seat == view.seat]
    # Draws that ended in a knock are told before it (see _acted_for), in the order made.
    lines = [] if mine and mine[-1].kind is ActionKind.KNOCK else _drawn_lines(t, game, view)
    if choosing_now and view.my_turn:
        best: dict[tuple[Tile, End | None], int] = {}
        for action, points in gains(match, view.seat, view).items():
            key = (action.tile, action.end if isinstance(action, Play) else None)
            best[key] = max(points, best.get(key, points))
        if best:
            lines.append(stocktexts.gains_line(
                t, [(tile, end, points) for (tile, end), points in best.items()]))
    if view.my_turn and view.cuts():
        taker = game.players[(view.seat - 1) % len(game.players)]
        lines.append(t("You may cut with {tile}: the ribbon you give goes to {name}.",
                       tile=str(view.cuts()[0].tile), name=esc(taker.name)))
    return lines


def _stock_hand_on(game: Game, view: PlayerView) -> Match | None:
    """The match, while the viewed hand of a game with a stock is being played."""
    match = game.match
    if view.table.layout is None or match is None or view.table.result is not None \
            or game.status is not Status.PLAYING:
        return None
    return match


def _drawn_lines(t: Translator, game: Game, view: PlayerView) -> list[str]:
    """Private, in the games with a stock: the tiles I drew for the player on its latest
    turn, while that turn is the one to tell it about."""
    match = _stock_hand_on(game, view)
    if match is None:
        return []
    drawn = drawn_tiles(match, view.seat)
    return [stocktexts.drawn_line(t, drawn)] if drawn else []


def _prompt(t: Translator, game: Game, view: PlayerView, over: bool, choosing: Tile | None
            ) -> list[str]:
    """What the hand message asks of its player now."""
    prompt: list[str] = []
    if game.status is not Status.PLAYING:
        return []  # the publisher says how the game ended
    if over:
        prompt.append(t("This hand is over."))
    elif choosing is not None and view.must_discard():
        prompt.append(t("Put {tile} face down? It counts against you.", tile=str(choosing)))
    elif choosing is not None:
        prompt.append(t("Where does {tile} go? Tap an end.", tile=str(choosing)))
    elif view.my_turn:
        if view.must_discard():
            prompt.append(t("You cannot lay a tile: choose one to put face down. "
                            "It counts against you."))
        elif view.table.ends is None:
            prompt.append(t("Your lead: tap a marked tile."))
        else:
            prompt.append(t("Your turn: tap a marked tile to lay it."))
        if game.turn_seconds:
            prompt.append(t("⏳ {seconds} s to move, then I move for you.",
                            seconds=game.turn_seconds))
    else:
        prompt.append(t("Not your turn yet: I will write when it is."))
    return prompt


def _acted_for(t: Translator, game: Game, view: PlayerView) -> list[str]:
    """What the bot did in this seat's name since it last chose a move itself."""
    lines = []
    history = view.table.history
    mine = [i for i, move in enumerate(history) if move.seat == view.seat]
    if mine:
        last = mine[-1]
        move = history[last]
        if f"{view.table.hand_number}:{last}" in game.timer.auto_moves:
            if move.tile is not None and move.kind is ActionKind.PLAY:
                lines.append(t("⏰ Your time ran out: I laid {tile} for you.", tile=str(move.tile)))
            elif move.kind is ActionKind.DISCARD and view.dead:
                lines.append(t("⏰ Your time ran out: I put {tile} face down for you.",
                               tile=str(view.dead[-1])))
        elif move.kind is ActionKind.KNOCK:  # with what it cost (Six-matador: 6)
            lines += _drawn_lines(t, game, view)  # the draws it followed, first
            cost = stocktexts.knock_cost(move)
            lines.append(t("You could not lay a tile, so I knocked for you: {points}.",
                           points=cost) if cost else
                         t("You could not lay a tile, so I knocked for you."))
    if view.seat in game.timer.away:
        lines.append(t("You seem to be away: I keep making safe moves for you. Play a tile "
                       "yourself to take over again."))
    return lines


class TextComposer:
    """The service's :class:`~bot.games.Composer`: announcements for the group, with pictures."""

    def __init__(self, pictures: PictureMaker) -> None:
        self.pictures = pictures

    def away(self, game: Game, seat: int) -> list[Outgoing]:
        t = translator(game.language)
        player = game.players[seat]
        offer = ReplaceAway(game.game_id, seat).encode()
        return [Outgoing(
            t("{name} ran out of time three turns in a row and seems to be away. I keep making "
              "safe moves for them. The game's creator or an admin can hand the seat to a "
              "computer player, or end the game with /stop.",
              name=who(player)),
            buttons=(((t("🤖 A computer plays for {name}", name=player.name), offer),),),
        )]

    def ready(self, game: Game) -> list[Outgoing]:
        t = translator(game.language)
        creator = next((p for p in game.players if p.user_id == game.creator_id), None)
        if creator is None:
            return []
        return [Outgoing(t("✅ {name}, the table is ready: press Start in the lobby.",
                           name=who(creator)))]

    def unreachable(self, game: Game) -> list[Outgoing]:
        """The table has its players, but the bot cannot send some of them their tiles."""
        t = translator(game.language)
        return [Outgoing(t.plural(
            "{names}: the table is ready, but I cannot send you your tiles yet. Tap “{button}” "
            "in the lobby, then Start in our chat.",
            "{names}: the table is ready, but I cannot send you your tiles yet. Each of you "
            "needs to tap “{button}” in the lobby, then Start in our chat.", len(game.cut_off),
            names=", ".join(who(p) for p in game.cut_off), button=t(PRIVATE_CHAT_BUTTON)))]

    def stopped(self, game: Game, by: str) -> list[Outgoing]:
        t = translator(game.language)
        if not by:
            return [Outgoing(t("Everybody at the table is away, so the game ends with no "
                               "result."))]
        return [Outgoing(t("{name} stopped the game. Nobody wins it.", name=by))]

    def topic_gone(self, game: Game, deleted: bool) -> list[Outgoing]:
        """Said in the General topic: which game ended there, and why."""
        t = translator(game.language)
        name = title(t, game.variant)
        if deleted:
            text = t("The topic of the {game} game was deleted, so the game ends with no "
                     "result. Open a new table with /newgame.", game=name)
        else:
            text = t("The topic of the {game} game was closed, so the game ends with no "
                     "result. Open a new table with /newgame.", game=name)
        return [Outgoing(text)]

    def replaced(self, game: Game, leaving: Player, newcomer: Player) -> list[Outgoing]:
        t = translator(game.language)
        return [Outgoing(t("{computer} takes the seat of {name} and plays on for them.",
                           computer=esc(newcomer.name), name=esc(leaving.name)))]

    def announcements(self, game: Game, events: Sequence[Event]) -> list[Outgoing]:
        t = translator(game.language)
        out: list[Outgoing] = []
        match = game.match
        assert match is not None
        # Points, draws and cuts are told in the table's caption: see bot.stocktexts.
        for event in events:
            # Called before the next hand is dealt, so the current hand is the one that ended.
            if isinstance(event, HandEnded):
                view = table_view(match)
                out.append(Outgoing(fit_caption(hand_result_text(t, game, event, view)),
                                    drawing=self.pictures.hand_result_drawing(game, view)))
        return out  # the match's end: see match_end

    def match_end(self, game: Game, ended: MatchEnded, rating_changes: Sequence[int | None]
                  ) -> list[Outgoing]:
        t = translator(game.language)
        match = game.match
        assert match is not None
        again = ((t("🔁 Play again"), PlayAgain(game.game_id).encode()),)
        view = table_view(match)
        return [Outgoing(fit_caption(match_result_text(t, game, ended, view)),
                         buttons=(again,),
                         drawing=self.pictures.match_end_drawing(game, view, rating_changes))]

