"""The words and the picture of a scoreboard and of a player's figures."""

from __future__ import annotations

from datetime import UTC, date, datetime, tzinfo

from renderers.scoreboard import (
    ScoreboardLabels,
    ScoreboardRow,
    rating_text,
    render_scoreboard,
)

from ..i18n import N_, Translator
from ..service.ratings import PROVISIONAL_MATCHES, Standing, places
from ..service.scoreboards import PlayerStats, Scoreboard
from ..storage import penalty_points
from ..wording import esc, named, title

TEXT_ROWS = 10  # players listed in a scoreboard message
PICTURE_ROWS = 15  # players drawn on a scoreboard picture


#: A day of each month as the scoreboard's period starts ("since 7 December"; Icelandic QA:
#: "since 2026-12-07" read as a computer's date). A week or a month back: no year needed.
MONTH_DAYS = (N_("{day} January"), N_("{day} February"), N_("{day} March"), N_("{day} April"),
              N_("{day} May"), N_("{day} June"), N_("{day} July"), N_("{day} August"),
              N_("{day} September"), N_("{day} October"), N_("{day} November"),
              N_("{day} December"))


def day_and_month(t: Translator, day: date) -> str:
    """``day`` as people write it in the reader's language: "7 December", "7 декабря"."""
    return t(MONTH_DAYS[day.month - 1], day=day.day)


def board_heading(t: Translator, board: Scoreboard, tz: tzinfo = UTC, *,
                  stopped: bool = True) -> tuple[str, str]:
    """The board's title and its details line (period, number of matches, and with
    ``stopped`` of those stopped after someone left, whose losses its leavers' records count:
    the message says it, the picture's one line has no room), translated; dates are the
    group's (``tz``), as for :func:`month_start`."""
    heading = (
        t("Scoreboard") if board.game is None
        else t("Scoreboard: {game}", game=title(t, board.game))
    )
    if board.since is None:
        period = t("all time")
    else:
        period = t("since {date}", date=day_and_month(t, datetime.fromtimestamp(board.since,
                                                                             tz).date()))
    details = [period, t.plural("{count} match", "{count} matches", board.matches)]
    if board.stopped and stopped:
        details.append(t.plural("{count} match stopped after someone left",
                                "{count} matches stopped after someone left", board.stopped))
    return heading, " · ".join(details)


def _rating(s: Standing) -> str:
    """The player's rating as the board writes it, marked while provisional."""
    return rating_text(s.rating, s.provisional)


def provisional_note(t: Translator, standings: tuple[Standing, ...]) -> list[str]:
    """The footnote that says what the mark of a provisional rating means, where some rating
    is provisional (none: no line)."""
    if not any(s.provisional for s in standings):
        return []
    # TRANSLATORS: "?" is the mark after a rating ("1158?"), kept as it is
    return [t.plural(
        "? after a rating: provisional, fewer than {count} match played; a scoreboard lists "
        "it after the established ones.",
        "? after a rating: provisional, fewer than {count} matches played; a scoreboard lists "
        "it after the established ones.", PROVISIONAL_MATCHES)]


def _details(t: Translator, s: Standing, penalty: bool) -> list[str]:
    """The figures after the rating and the record, shared by both messages."""
    # (none played: a player whose seat a computer took before a hand ended)
    parts = [t("hands won: {won} of {played}", won=s.hands_won, played=s.hands_played)
             ] if s.hands_played else []
    if s.points is not None:
        words = N_("penalty points: {points}") if penalty else N_("points: {points}")
        parts.append(t(words, points=s.points))
    if s.streak > 1:  # a streak of one is just the last result
        parts.append(t.plural("{count} win in a row", "{count} wins in a row", s.streak))
    elif s.streak < -1:
        parts.append(t.plural("{count} loss in a row", "{count} losses in a row", -s.streak))
    return parts


def _record(t: Translator, s: Standing) -> str:
    record = t("won {won} of {played} ({percent}%)", won=s.won, played=s.played,
               percent=round(100 * s.win_rate))
    return record + ", " + t("drawn {count}", count=s.drawn) if s.drawn else record


#: A board of every game when the group played several: its ratings are not any game's.
ALL_GAMES = N_("Ratings here take every game together; /scoreboard with a game's name shows "
               "that game's own.")


def scoreboard_text(t: Translator, board: Scoreboard, limit: int = TEXT_ROWS, *,
                    tz: tzinfo = UTC, in_topic: bool = False) -> str:
    """The board as an HTML message (the picture's text fallback), best ``limit`` players;
    asked for in a forum topic, it says that it counts the whole group's games (a topic's
    players would otherwise take it for their topic's)."""
    heading, details = board_heading(t, board, tz)
    lines = [f"<b>{esc(heading)}</b>", esc(details)]
    if in_topic:
        lines.append(t("This board counts the games of every topic in this group."))
    if board.penalty_points:
        lines.append(t("Points here are penalties: fewer is better."))
    if board.game is None and board.points_game is None and board.standings:
        lines.append(t(ALL_GAMES))
    if not board.standings:
        return "\n".join([*lines, "", t("No finished matches yet: open a table with "
                                         "/newgame.")])
    lines.append("")
    for place, s in zip(places(board.standings), board.standings[:limit], strict=False):
        head = t("{place}. <b>{name}</b>, rating {rating}", place=place, name=named(s.name),
                 rating=_rating(s))
        figures = [_record(t, s), *_details(t, s, board.penalty_points)]
        lines.append(f"{head}: {'; '.join(figures)}")
    if len(board.standings) > limit:
        lines.append(t("… and {count} more", count=len(board.standings) - limit))
    # (the note where a row shown, here or on the picture, is provisional)
    shown = board.standings[:max(limit, PICTURE_ROWS)]
    return "\n".join([*lines, *provisional_note(t, shown)])


def stats_text(t: Translator, stats: PlayerStats) -> str:
    """One player's figures per game as an HTML message."""
    if not stats.games:
        return t("{name} has not finished a match yet.", name=named(stats.name))
    lines = [t("<b>{name}</b>: figures across groups", name=named(stats.name))]
    for game in stats.games:
        s = game.standing
        lines += [
            "",
            t("<b>{game}</b>, rating {rating}", game=esc(title(t, game.game)),
              rating=_rating(s)),
            _record(t, s),
            *filter(None, ["; ".join(_details(t, s, penalty_points(game.game)))]),
            t.plural("in {count} group", "in {count} groups", game.groups),
        ]
    notes = provisional_note(t, tuple(game.standing for game in stats.games))
    return "\n".join([*lines, *(["", *notes] if notes else [])])


# --- the picture ---------------------------------------------------------------------------
# Every word drawn on the scoreboard picture, as a msgid (the renderer's English defaults).
SCOREBOARD_WORDS = {
    "place": N_("#"),
    "player": N_("player"),
    "rating": N_("rating"),
    "played": N_("played"),
    "won": N_("won"),
    "win_rate": N_("win rate"),
    "streak": N_("streak"),
    "hands_won": N_("hands"),
    "points": N_("points"),
    "win_streak": N_("W{count}"),
    "loss_streak": N_("L{count}"),
    "percent": N_("{percent}%"),
    "unnamed": N_("Player {number}"),
    "empty": N_("No finished matches yet."),
}


#: The points column of a board whose points are penalties (the lowest total wins).
PENALTY_COLUMN = N_("penalty")


def scoreboard_labels(t: Translator, penalty: bool = False) -> ScoreboardLabels:
    """The picture's words; ``penalty``: its points are penalty points (player QA: the column
    said "points" beside a text that said they are penalties)."""
    labels = {key: t(msgid) for key, msgid in SCOREBOARD_WORDS.items()}
    if penalty:
        labels["points"] = t(PENALTY_COLUMN)
    return ScoreboardLabels(**labels)


def picture_rows(board: Scoreboard, limit: int = PICTURE_ROWS) -> list[ScoreboardRow]:
    """The rows of the board's picture: the best ``limit`` players, tied ones sharing a place."""
    return [
        ScoreboardRow(place, s.name, s.rating, s.played, s.won, s.win_rate, s.streak,
                      s.hands_won, s.points, s.provisional)
        for place, s in zip(places(board.standings), board.standings[:limit], strict=False)
    ]


def scoreboard_picture(t: Translator, board: Scoreboard, *, theme: str = "classic",
                       limit: int = PICTURE_ROWS, tz: tzinfo = UTC) -> bytes:
    """The board as a PNG: the best ``limit`` players."""
    heading, details = board_heading(t, board, tz, stopped=False)
    return render_scoreboard(picture_rows(board, limit), title=heading, subtitle=details,
                             labels=scoreboard_labels(t, board.penalty_points), theme=theme)
