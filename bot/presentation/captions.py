"""The captions of the group's table picture and of each player's private hand."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from engine import (
    ActionKind,
    Cut,
    End,
    LaidTile,
    LayoutView,
    OpenEnd,
    Play,
    PlayerView,
    TableView,
    Tile,
)

from ..i18n import N_, Translator
from ..models import Game, Status
from ..wording import (
    CAPTION_LIMIT,
    code,
    end_words,
    esc,
    fit_caption,
    isolated,
    named,
    partners,
    shorten,
    title,
    who,
)
from .laychoices import choice_question, lays_of
from .movetexts import drawn_for_you, moves_lines, own_move, since_last_turn
from .resulttexts import hand_end_line, hand_result_lines, penalty_rule, scores_line

# Kolbasa: the ribbon that must wait, explained where its ⏸ is shown; the ribbons named as
# the picture draws them, the engine's left end the upper one (wording.RIBBON_WORDS)
WAITS: dict[End, str] = {
    End.LEFT: N_("⏸ The upper ribbon waits until the lower one catches up."),
    End.RIGHT: N_("⏸ The lower ribbon waits until the upper one catches up."),
}


def _round_start(view: TableView, seats: int) -> int:
    """Where the last ``seats`` moves other than draws begin (with the draws among them)."""
    counted = 0
    for index in range(len(view.history) - 1, -1, -1):
        if view.history[index].kind is not ActionKind.DRAW:
            counted += 1
            if counted > seats:
                return index + 1
    return 0


def _layout_lines(t: Translator, view: TableView) -> list[str]:
    """The open ends, the ribbon that must wait (Kolbasa), and the stock's size where the
    hand has one."""
    layout = view.layout
    lines = [ends_line(t, layout)] if layout.ends else []
    waiting = waiting_line(t, layout)
    stock = [stock_line(t, view)] if view.stock_dealt else []
    return [*lines, *([waiting] if waiting else []), *stock]


def ends_line(t: Translator, layout: LayoutView) -> str:
    """A plain line's two numbers, "Open ends: 3 and 5."; other layouts' ends by name, "Open
    ends: left 3 · right 5 · up 2", Kolbasa's ribbons as the picture draws them, "upper 3 ·
    lower 5 ⏸" (the ribbon that must wait marked); where the game scores the count, what each
    end adds to it and the count, "left 0 · right 5-5 (10) · up 6 (not counted); count 10",
    so the parts add up to what a lay scores."""
    if layout.plain:
        left, right = (end.numbers[0] for end in layout.ends)
        return t("Open ends: {left} and {right}.", left=left, right=right)
    parts = []
    words = end_words(layout.kind)
    for end in layout.ends:
        text = f"{t(words[end.end])} {_end_numbers(t, end, layout.scores_count)}"
        parts.append(text if end.open else text + " ⏸")
    if layout.scores_count:
        return t("Open ends: {ends}; count {count}.", ends=" · ".join(parts),
                 count=layout.count)
    return t("Open ends: {ends}.", ends=" · ".join(parts))


#: Muggins: an end that adds nothing to the count (the spinner's empty arm), in the words
#: the picture's mark is explained with (player QA: a bare "1 (0)" said nothing).
NOT_COUNTED = N_("not counted")


def _end_numbers(t: Translator, end: OpenEnd, counted: bool) -> str:
    """An end's numbers; where the count scores, what the end adds when that is not its
    number: both halves of a crosswise double, "5-5 (10)", or nothing, "6 (not counted)"."""
    numbers = "/".join(map(str, end.numbers))
    if not counted or end.counted == end.numbers:
        return numbers
    if len(end.counted) > 1:
        return f"{'-'.join(map(str, end.counted))} ({sum(end.counted)})"
    if not sum(end.counted):
        return f"{numbers} ({t(NOT_COUNTED)})"
    return f"{numbers} ({sum(end.counted)})"


def waiting_line(t: Translator, layout: LayoutView) -> str:
    """Kolbasa: what the ⏸ by a ribbon's end means ("" while both ribbons may take a tile)."""
    waits = [end.end for end in layout.ends if not end.open]
    if not waits or waits[0] not in WAITS:
        return ""
    return t(WAITS[waits[0]])


def stock_line(t: Translator, view: TableView) -> str:
    if not view.stock_count:
        return t("The stock is empty.")
    return t.plural("Stock: {count} tile.", "Stock: {count} tiles.", view.stock_count)


def turn_lines(t: Translator, game: Game, view: TableView) -> list[str]:
    """Whose turn it is, only while the game is on and the hand goes on."""
    if game.status is not Status.PLAYING or view.to_move is None or view.result is not None:
        return []
    player = game.players[view.to_move]
    if player.is_computer:
        lines = [t("{name} is thinking…", name=who(player))]
    elif view.to_move in game.timer.away:  # (its short turn: bot.service.commits._deadline)
        return [t("{name} seems to be away: I move for them in a moment.", name=who(player))]
    else:
        lines = [t("Your turn, {name}!", name=who(player))]
    if view.opener_by_lot and not view.history and view.to_move == view.opener:
        # (player QA: nobody knew why that seat led the hand of Matador)
        lines.insert(0, t("{name} leads: drawn by lot.", name=who(player)))
    if game.timer.warned and game.turn_seconds:
        lines.append(t.plural("⏳ {count} second left, then I move for you.",
                              "⏳ {count} seconds left, then I move for you.",
                              game.turn_seconds // 2))
    return lines


def table_caption(t: Translator, game: Game, view: TableView, seen: int | None = None,
                  closing: str = "") -> str:
    """The group's table caption. ``seen``: how many moves of this hand the group's table
    showed last (None: not known); every move since is told, however many were committed
    between two edits, and at least the last round. ``closing``: a last line (the game is
    over or stopped)."""
    names = game.names
    head = [t("<b>{title}</b> · hand {number}", title=esc(title(t, game.game_name)),
              number=view.hand_number + 1), *deal_lines(t, view)]
    # The last round of moves, so knocks and dead tiles are seen as they happen (draws from
    # the stock do not count towards the round: a player may draw many).
    first = _round_start(view, len(names))
    if seen is not None:
        first = max(0, min(first, seen))
    first_round = len(view.history) < len(names)
    if view.turned_up is not None and first_round:
        head.append(t("The middle tile {tile} was turned up.", tile=str(view.turned_up)))
    auto = set(game.timer.auto_moves)
    moves = moves_lines(t, game, view, range(first, len(view.history)), auto)
    tail = [hand_end_line(t, game, view)] if view.result is not None \
        else _layout_lines(t, view)
    tail.append(scores_line(t, view, names))
    if view.lowest_total_wins and view.hand_number == 0 and first_round:
        tail.append(penalty_rule(t, view.target))  # said once: the first table
    tail += turn_lines(t, game, view)
    if closing:
        tail.append(closing)
    return fit_caption("\n".join([*head, *latest_moves(head, moves, tail), *tail]))


# Stands for the oldest moves of a caption, left out to keep it within Telegram's limit.
ELIDED = "…"


def latest_moves(head: list[str], moves: list[str], tail: list[str]) -> list[str]:
    """As many of the latest ``moves`` as fit between ``head`` and ``tail`` in a caption: the
    oldest are left out first (never one in the middle), an ellipsis in their place."""
    room = CAPTION_LIMIT - len("\n".join([*head, *tail])) - 1
    kept = moves
    while kept and len("\n".join(kept)) > room:
        kept = kept[1:]
        room = CAPTION_LIMIT - len("\n".join([*head, ELIDED, *tail])) - 1
    return kept if kept is moves else [ELIDED, *kept]


def deal_lines(t: Translator, view: TableView) -> list[str]:
    """The deal's commitment, all hand long from the deal on: the fingerprint of the seed the
    result will show (docs/FAIRNESS.md). Second in a caption, which fit_caption never drops."""
    if view.fingerprint is None:
        return []
    return [t("🔒 Deal fingerprint: {fingerprint}", fingerprint=code(view.fingerprint))]


# What the bot does in a seat's name when nothing else is possible: not a turn of its own.
def line_text(t: Translator, layout: LayoutView) -> str:
    """The tiles laid, as they lie ("Line: 6-4 4-4 4-1."; Muggins' arms from the spinner out),
    for a player who plays from the private chat ("" before the lead)."""
    if not layout.line:
        return ""
    def row(tiles: Sequence[LaidTile]) -> str:
        return " ".join(f"{laid.first}-{laid.second}" for laid in tiles) or "—"
    if layout.kind == "ribbons" and layout.center is not None:
        # Kolbasa's ribbons grow side by side from the base, each told from the base out
        # (as one line, the upper ribbon, the engine's left, read as if it ran off to the
        # base's left); named upper and lower as the picture draws them.
        base = row(layout.line[layout.center : layout.center + 1])
        upper = [LaidTile(laid.tile, laid.second, laid.first, laid.cross)
                 for laid in reversed(layout.line[: layout.center])]
        return t("Base {base} · upper ribbon: {upper} · lower ribbon: {lower}.", base=base,
                 upper=row(upper), lower=row(layout.line[layout.center + 1 :]))
    parts = [row(layout.line)]
    if layout.up:
        parts.append(f"▲ {row(layout.up)}")
    if layout.down:
        parts.append(f"▼ {row(layout.down)}")
    return t("Line: {tiles}.", tiles=" · ".join(parts))


def hand_caption(
    t: Translator, game: Game, view: PlayerView, choosing: Tile | None = None,
    table_link: str = "", closing: str = "",
) -> str:
    """The private hand message: enough to play a whole match from the private chat;
    ``closing``, how the game ended, its last line but the way back to the table
    (``table_link``)."""
    table = view.table
    names = game.names
    lines = [t("<b>{title}</b> · hand {number}", title=esc(title(t, game.game_name)),
               number=table.hand_number + 1), *deal_lines(t, table)]
    over = table.result is not None or table.to_move is None
    # A waiting message names nothing that others' moves change, so it never goes stale.
    current = view.my_turn or over or choosing is not None
    lines += _acted_for(t, game, view)  # before the moves made since: it came first
    if not current:
        lines += own_move(t, game, view)
    since = since_last_turn(game, view)
    moves = moves_lines(t, game, table, since, reader=view.seat, draws=view.drawn_this_hand,
                        dead=view.dead) if current else []
    if moves:  # (before one's first move of the hand there was no last turn: Icelandic QA)
        lines.append(t("Since your last turn:") if since.start else t("This hand so far:"))
    tail = _away_line(t, game, view)
    if current and table.result is not None:  # the hand's end, as the group's result tells it
        tail += hand_result_lines(t, game, table.result, table)
    elif current:
        line = line_text(t, table.layout)
        tail += [*([line] if line else []), *_layout_lines(t, table)]
        tail.append(t("Tiles in hand: {counts}.", counts=" · ".join(
            f"{named(names[p.seat])} {p.tile_count}" for p in table.players)))
        tail.append(scores_line(t, table, names))
    tail += _turn_notes(t, game, view, current and choosing is None)
    side = next(s for s in table.sides if view.seat in s)
    if len(side) > 1:
        tail.append(t("Your partner: {name}.", name=partners(
            t, [named(names[s]) for s in side if s != view.seat])))
    if view.dead:
        tail.append(t("Your dead tiles: {tiles}.", tiles=", ".join(map(str, view.dead))))
    tail += _prompt(t, game, view, over, choosing)
    if closing:  # how the game ended, then where its table is: the way back is always last
        tail.append(closing)  # (player QA: the match's end came after it)
    if table_link:
        tail.append(table_link)
    # A caption over Telegram's limit loses its oldest moves, an ellipsis in their place, as the
    # table's does: fit_caption alone drops lines from the middle, often a move of the list,
    # which then left out a move the line and the counts below it showed (tester).
    bullets = ["• " + line for line in moves]
    return fit_caption("\n".join([*lines, *latest_moves(lines, bullets, tail), *tail]))


def table_place(t: Translator, group: str, topic: str, url: str | None) -> str:
    """The private hand's way back to its table: the group and the forum topic it is in, the
    last named a link to the table message where there is one (``url``); "" when the bot
    knows neither the group's name nor a link."""
    def place(name: str) -> str:
        return isolated(shorten(name, 64), lambda text: esc(text) if url is None
                        else f'<a href="{esc(url)}">{esc(text)}</a>')

    if group and topic:
        return t("↩ The table is in the topic {topic} of the group {group}.",
                 topic=place(topic), group=named(shorten(group, 64)))
    if group:
        return t("↩ The table is in the group {name}.", name=place(group))
    return t('↩ <a href="{url}">The table in the group</a>', url=esc(url)) if url else ""


def _turn_notes(t: Translator, game: Game, view: PlayerView, choosing_now: bool) -> list[str]:
    """Private: the tiles I drew for the player, what each lay would score now (on its turn,
    before a tile is picked), and the cut it may make."""
    if not _hand_on(game, view):
        return []
    history = view.table.history
    mine = [move for move in history if move.seat == view.seat]
    # Draws that ended in a knock are told with it, among the moves since the last turn.
    lines = [] if mine and mine[-1].kind is ActionKind.KNOCK else _drawn_lines(t, game, view)
    if choosing_now and view.my_turn:
        best: dict[tuple[Tile, End | None], int] = {}
        for action, points in zip(view.legal, view.points, strict=True):
            if isinstance(action, Play | Cut) and points:
                key = (action.tile, action.end if isinstance(action, Play) else None)
                best[key] = max(points, best.get(key, points))
        best = _one_lay_once(game, view, best)
        if best:
            lines.append(gains_line(
                t, [(tile, end, points) for (tile, end), points in best.items()],
                view.table.layout.kind))
    if view.my_turn and view.cuts():
        taker = game.players[(view.seat - 1) % len(game.players)]
        lines.append(t("You may cut with {tile}: the ribbon you give goes to {name}.",
                       tile=str(view.cuts()[0].tile), name=named(taker.name)))
    return lines


def _one_lay_once(game: Game, view: PlayerView, best: dict[tuple[Tile, End | None], int]
                  ) -> dict[tuple[Tile, End | None], int]:
    """``best`` with a tile that scores at several ends but is one lay (one tap lays it:
    :func:`laychoices.lays_of`) listed once, with no end (player QA: Bergen's 6-6 on ends
    6 and 6 read "6-6 left +3 · 6-6 right +3" above a button that asked nothing)."""
    ends = Counter(tile for tile, _ in best)
    merged = {tile for tile, count in ends.items() if count > 1 and game.match is not None
              and len(lays_of(view, tile, game.match)) == 1}
    once: dict[tuple[Tile, End | None], int] = {}
    for (tile, end), points in best.items():
        key = (tile, None if tile in merged else end)
        once[key] = max(points, once.get(key, points))
    return once


def _hand_on(game: Game, view: PlayerView) -> bool:
    """Whether the viewed hand is being played."""
    return game.match is not None and view.table.result is None \
        and game.status is Status.PLAYING


def _drawn_lines(t: Translator, game: Game, view: PlayerView) -> list[str]:
    """Private: the tiles I drew for the player on its latest turn, while that turn is the
    one to tell it about."""
    if not _hand_on(game, view) or not view.drawn:
        return []
    return [drawn_for_you(t, view.drawn)]


def gains_line(t: Translator, gains: Sequence[tuple[Tile, End | None, int]],
               kind: str = "line") -> str:
    """Private: what each playable tile would score now (each end named as on a layout of
    ``kind``)."""
    words = end_words(kind)
    parts = [f"{tile} {t(words[end])} +{points}" if end is not None else f"{tile} +{points}"
             for tile, end, points in gains]
    return t("Points if you lay now: {list}.", list=" · ".join(parts))


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
        prompt.append(choice_question(t, view, choosing, game.match))
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
                            seconds=game.turn_time(view.seat)))
    else:
        prompt.append(t("Not your turn yet: I will write when it is."))
    return prompt


def _acted_for(t: Translator, game: Game, view: PlayerView) -> list[str]:
    """What the bot chose in this seat's name when its time ran out, its latest chosen move
    (a knock it could not help is told among the moves since its last turn, once)."""
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
    return lines


def _away_line(t: Translator, game: Game, view: PlayerView) -> list[str]:
    """While the seat is taken for away, how to take it back (only while the hand is on)."""
    if view.seat in game.timer.away and game.status.open and view.table.result is None:
        return [t("You seem to be away: I keep making safe moves for you. Play a tile "
                  "yourself to take over again.")]
    return []
