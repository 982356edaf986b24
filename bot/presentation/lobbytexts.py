"""The lobby's texts and the commands' replies: help, rules, the options a table is played with."""

from __future__ import annotations

from collections.abc import Mapping

from engine import OptionSpec, variant

from ..gamebook import GAMES, name_key, presentation
from ..i18n import N_, Translator
from ..models import Game, Status
from ..wording import esc, named, names_of, or_list, partners, shorten, title, who
from .houserules import house_rules
from .resulttexts import penalty_rule

#: The lobby's mark by a seat the bot cannot reach in private.
UNREACHABLE = "📵"
#: The lobby's button that opens the private chat (its deep link seats the player too).
PRIVATE_CHAT_BUTTON = N_("💬 Open my private chat")
#: A rematch's button while seats are unconfirmed: its creator goes on without their players.
FREE_SEATS_BUTTON = N_("🪑 Free unconfirmed seats")
#: The Join button, on the lobby and on a /notify notice (there a deep link that seats).
JOIN_BUTTON = N_("✋ Join")
#: /notify's replies in the group: on, off, and the private chat to open first.
NOTIFY_ON = N_("🔔 I will message you in private when a table opens here. Send /notify again "
                "to stop.")
NOTIFY_OFF = N_("🔕 Done: I will not message you about new tables here any more.")
NOTIFY_NEEDS_CHAT = N_("To hear about new tables, open our private chat first (the button "
                       "below) and press Start, then send /notify here again.")
#: /start from that button: /notify sent in a group (or its General topic), or in a topic.
NOTIFY_CHAT_OPEN = N_("Our chat is open. Now send /notify in the group again, and I will "
                      "tell you here when a table opens there.")
NOTIFY_CHAT_OPEN_TOPIC = N_("Our chat is open. Now send /notify in the topic again, and I will "
                            "tell you here when a table opens there.")


def allowed(t: Translator, game: str, spec: OptionSpec) -> str:
    """What an option allows, as a player reads it: "6 or 7", "on or off", "1 to 10000";
    where the game's entry words the choices a group picks, those."""
    if not spec.choices:
        return t("a whole number from {low} to {high}", low=spec.low, high=spec.high)
    worded = presentation(game).options.get(spec.name)
    offered = [c for c in spec.choices if worded is None or c in worded.choices]
    return or_list(t, [typed(c) for c in offered])


def typed(value: object) -> str:
    """An option's value as /newgame reads it: on/off (and true/false, yes/no) in English
    only, whatever the chat's language."""
    return "on" if value is True else "off" if value is False else str(value)


def option_example(game: str) -> str:
    """An option of ``game`` written as /newgame reads it, for one who wrote one wrongly: a
    choice of its own other than the default (deal=7), else the highest target it offers."""
    spec, entry = variant(game), presentation(game)
    for name, worded in entry.options.items():
        default = spec.defaults.get(name)
        other = next((c for c in worded.choices if c != default), None)
        if other is not None:
            return f"{name}={typed(other)}"
    return f"target={max(entry.targets)}"


def games_list(t: Translator) -> str:
    """The games by their names in the chat's language, each with the id to type where that
    name is not it: "Gaple, Gaple with dead tiles (gaple-dead), …"."""
    return ", ".join(esc(title(t, game)) if name_key(title(t, game)) == name_key(game)
                     else f"{esc(title(t, game))} ({game})" for game in GAMES)


#: /rules of a game that plays on after the target while the lead is shared.
PLAYS_ON_TIE = N_("If the lead is shared when the target is reached, the match goes on until "
                  "one player is ahead alone.")


def rules_text(t: Translator, game: str, house: Mapping[str, object] | None = None,
               target: int | None = None) -> str:
    """The game's rules, with its target for the fewest players, and the target of the
    other table sizes where it differs (Bergen: 15 for two, 10 for three or four), or a
    table's own ``target``; then, in a group, what its ``house`` rules (the options its
    admins chose) change."""
    spec = variant(game)
    targets = {seats: spec.default_target(seats) for seats in spec.seat_counts}
    first = targets[spec.seat_counts[0]] if target is None else target
    text = t(presentation(game).rules, target=first)
    others = [seats for seats in spec.seat_counts
              if target is None and targets[seats] != first]
    for other in dict.fromkeys(targets[seats] for seats in others):
        counts = or_list(t, [str(seats) for seats in others if targets[seats] == other])
        text += " " + t.plural("With {seats} players, the target is {count} point.",
                               "With {seats} players, the target is {count} points.", other,
                               seats=counts)
    text += "".join(" " + t(note) for note in presentation(game).notes)
    if spec.plays_on_tie:  # (docs/RULES.md, D3; player QA: the match went on with no word why)
        text += " " + t(PLAYS_ON_TIE)
    chosen = house_rules(t, game, house or {})
    return f"{text}\n\n{chosen}" if chosen else text


#: /rules where a table is open, after the game's own rules: the options it is played with
#: (player QA: the rules said 200 at a table playing Muggins to 2,000).
AT_THIS_TABLE = N_("<b>At this table:</b> {options}")


def table_rules_text(t: Translator, game: Game) -> str:
    """The rules of the game open at a table, to its target, with the options that table is
    played with (the group's house rules are in them, or were before the table opened). A
    table still filling whose target follows its size (Bergen's, when none was chosen) keeps
    the rules' target for each size: one seated player's table may yet be of three (QA)."""
    spec = variant(game.game_name)
    target: int | None = spec.lobby_options(game.options, len(game.players)).target
    if game.status is Status.LOBBY and "target" not in game.options and len(
            {spec.default_target(seats) for seats in spec.seat_counts}) > 1:
        target = None
    return f"{rules_text(t, game.game_name, target=target)}\n\n" + t(
        AT_THIS_TABLE, options=options_line(t, game))



def game_rules_text(t: Translator, game: str, table: Game | None,
                    house: Mapping[str, object] | None) -> str:
    """``game``'s rules where they are asked: the ``table`` open there when it plays that
    game (its target and options), else with the group's ``house`` rules."""
    if table is not None and table.game_name == game:
        return table_rules_text(t, table)
    return rules_text(t, game, house)

#: /help's line on replays, after the rest (a msgid of its own: the list's translations stand).
REPLAY_HELP = N_("🎞 /replay — the last hand again, move by move (in our private chat: your "
                 "own hands of your last matches)")

#: /help's lines on the two /language commands and on what the bot needs of the group's
#: admins (admin QA: neither was said anywhere), each a msgid of its own.
LANGUAGE_HELP = N_("🌐 /language — the group's language (admins); in our private chat, the "
                   "language I write to you in")
ADMIN_HELP = N_("🛠 Admins: let me send messages and photos here (the table is a picture). As "
                "an admin who may manage topics, I also play on in a topic you close.")


def help_text(t: Translator) -> str:
    return t(
        "<b>Dominoes for your group</b>\n"
        "/newgame [game] [option=value …] — open a table: friends press Join, the creator "
        "presses Start; the 🤖 buttons seat computer players\n"
        "/notify — a private message from me when a table opens here (send it again to stop)\n"
        "/hand — your tiles again, in our private chat\n"
        "/table — the table picture again, at the bottom of the chat\n"
        "/leave — leave the game (a computer player takes your seat)\n"
        "/stop — end the running game (its creator or an admin)\n"
        "/scoreboard [game] [week|month|all] — who wins in this group\n"
        "/stats — your own figures across groups\n"
        "/settings — house rules, turn timer, language (admins)\n"
        "/rules [game] — how each game is played\n\n"
        "Games: {games}. For example: /newgame gaple-dead deal=7 target=150\n"
        "Your tiles come to you privately, so open a private chat with me before you join.",
        games=games_list(t),  # (player QA: the ids alone, in Latin letters, in every language)
    ) + "\n\n" + t(LANGUAGE_HELP) + "\n" + t(ADMIN_HELP) + "\n\n" + t(
        "🔒 Every deal can be checked: its fingerprint is shown before the hand, its seed "
        "after it; /verify in our private chat shows the check.") + "\n" + t(REPLAY_HELP)


def options_line(t: Translator, game: Game) -> str:
    # The target and the rest as they will be for the players seated (Bergen: 15 for two,
    # 10 for three or four), or for the fewest seats the options fit while few are seated.
    opts = variant(game.game_name).lobby_options(game.options, len(game.players))
    parts = [t("double-{n} set", n=opts.set),
             t.plural("to {count} point", "to {count} points", opts.target)]
    if game.turn_seconds:
        parts.append(t("{seconds} s a turn", seconds=game.turn_seconds))
    else:
        parts.append(t("no turn timer"))
    chosen = opts.to_dict()
    for name, words in presentation(game.game_name).options.items():
        if chosen[name] in words.in_force:
            parts.append(t(words.in_force[chosen[name]]))
    line = " · ".join(parts)
    if variant(game.game_name).lowest_total_wins:  # the rule captions no longer repeat
        line += "\n" + penalty_rule(t, opts.target)
    return line


def lobby_status(t: Translator, game: Game) -> str:
    """Whether the table can start, and if not, how many players it still needs."""
    low, high, seated = min(game.seat_counts), max(game.seat_counts), len(game.players)
    creator = next((p for p in game.players if p.user_id == game.creator_id), None)
    if game.pending:  # one player or several are asked (the plural tells them apart)
        return t.plural("Playing again: ⏳ {names}, press Join to keep your seat (or Leave).",
                        "Playing again: ⏳ {names}, press Join to keep your seats (or Leave).",
                        len(game.pending),
                        names=", ".join(who(p) for p in game.players
                                        if p.user_id in game.pending))
    if seated < low:
        need = t.plural("{count} more player needed.", "{count} more players needed.",
                        low - seated)
        if low != high:
            need += " " + t("The game takes {low} to {high} players.", low=low, high=high)
        else:  # (QA: Gaple's lobby alone did not say how many play it)
            need += " " + t.plural("The game takes {count} player.",
                                   "The game takes {count} players.", low)
        return need
    if game.unreachable_players:  # Start would be refused: say whom it waits for
        return t.plural("{count} player: waiting for {names} to open a private chat with me.",
                        "{count} players: waiting for {names} to open a private chat with me.",
                        seated, names=names_of(game.unreachable_players))
    ready = t.plural("{count} player: {name} can start.", "{count} players: {name} can start.",
                     seated, name=named(creator.name) if creator else "?")
    if seated < high:
        ready += " " + t.plural("{count} more can still join.", "{count} more can still join.",
                                high - seated)
    return ready


def lobby_heading(t: Translator, game: Game) -> str:
    """The lobby's first paragraph, the game and its options, which its message keeps once
    the game has started."""
    return "\n".join([t("<b>{title}</b>: a new table", title=esc(title(t, game.game_name))),
                      options_line(t, game)])


#: A computer's level beside its name in the lobby (player QA: two computers added as easy
#: and hard could not be told apart).
LEVEL_WORDS = {"easy": N_("(easy)"), "normal": N_("(normal)"), "hard": N_("(hard)"),
               "expert": N_("(expert)")}


def lobby_text(t: Translator, game: Game) -> str:
    lines = [
        lobby_heading(t, game),
        "",
        t("Players ({count}):", count=len(game.players)),
    ]
    lines += [f"{i + 1}. {who(p)}"
              + (f" {t(LEVEL_WORDS[p.level])}" if p.level in LEVEL_WORDS else "")
              + (" ⏳" if p.user_id in game.pending else "")
              + (f" {UNREACHABLE}" if p.user_id in game.unreachable_ids else "")
              for i, p in enumerate(game.players)]
    if game.partnerships:
        lines += ["", t("Pairs: {pairs}.", pairs=" · ".join(
            partners(t, [who(game.players[s]) for s in side]) for side in game.partnerships))]
    lines += ["", lobby_status(t, game)]
    if game.unreachable_players:
        lines.append(private_chat_hint(t, game))
    lines.append(t("Press Join to take a seat; the creator presses Start."))
    return "\n".join(lines)


def private_chat_hint(t: Translator, game: Game) -> str:
    """Who must open a private chat with the bot before the game can start, and how."""
    return t.plural(
        "{mark} I cannot send {names} their tiles yet: tap “{button}” below, then Start "
        "in our chat.",
        "{mark} I cannot send {names} their tiles yet: each of them needs to tap “{button}” "
        "below, then Start in our chat.", len(game.unreachable_players), mark=UNREACHABLE,
        names=names_of(game.unreachable_players), button=t(PRIVATE_CHAT_BUTTON))


def table_opened(t: Translator, game: Game, opener: str, group: str | None,
                 topic: str | None = None) -> str:
    """A /notify subscriber's private notice: who opened which game where, its options, and
    how to stop these (the Join button under it seats them). A subscription is a topic's:
    /notify is sent again there, named when the bot knows its name (QA: a subscriber to
    several topics could not tell which)."""
    names = {"player": named(opener), "game": esc(title(t, game.game_name)),
             "group": named(group or "?")}
    if game.thread_id is None:  # a group without topics, or its General topic
        return "\n".join([
            t("🔔 {player} opened a table of <b>{game}</b> in {group}.", **names),
            options_line(t, game),
            t("Send /notify in the group again to stop these messages."),
        ])
    if topic:
        return "\n".join([
            t("🔔 {player} opened a table of <b>{game}</b> in the topic {topic} of {group}.",
              topic=named(shorten(topic, 40)), **names),
            options_line(t, game),
            t("Send /notify in the topic {topic} again to stop these messages.",
              topic=named(shorten(topic, 40))),
        ])
    return "\n".join([
        t("🔔 {player} opened a table of <b>{game}</b> in a topic of {group}.", **names),
        options_line(t, game),
        t("Send /notify in the topic again to stop these messages."),
    ])


def rematch_opened(t: Translator, game: Game, opener: str, group: str | None,
                   topic: str | None = None) -> str:
    """A rematch's player's private notice: who asked to play again where, and that their
    seat waits for their Join (the button under it): a player who plays from the private
    chat alone would not see the group's new table (player QA)."""
    names = {"player": named(opener), "game": esc(title(t, game.game_name)),
             "group": named(group or "?")}
    if topic:
        return t("🔁 {player} wants to play <b>{game}</b> again in the topic {topic} of {group}, "
                 "with the same players: your seat is kept for you. Tap Join to take it.",
                 topic=named(shorten(topic, 40)), **names)
    if game.thread_id is not None:  # a topic whose name the bot has not seen
        return t("🔁 {player} wants to play <b>{game}</b> again in a topic of {group}, with the "
                 "same players: your seat is kept for you. Tap Join to take it.", **names)
    return t("🔁 {player} wants to play <b>{game}</b> again in {group}, with the same players: "
             "your seat is kept for you. Tap Join to take it.", **names)


#: A rematch's private invitation once it no longer waits for its player (its Join gone):
#: they took the seat (from it, the group's lobby or the old hand's Play again) ...
INVITATION_SEATED = N_("🔁 <b>{game}</b> again: ✅ you are at the table.")
#: ... their seat is kept no longer (they left the lobby, or its creator freed the seat) ...
INVITATION_FREED = N_("🔁 <b>{game}</b> again: your seat is no longer kept for you.")
#: ... the table started without them ...
INVITATION_STARTED = N_("🔁 <b>{game}</b> again: the table started without you.")
#: ... or it was closed before it started.
INVITATION_CLOSED = N_("🔁 <b>{game}</b> again: the table was closed before it started.")


def invitation_closed(t: Translator, game: Game, user_id: int, place: str) -> str:
    """A rematch's invitation to ``user_id`` once it waits for them no longer (HTML): why,
    and which table (``place``, HTML: the way back the hands end with), with no button
    (player QA: a Join under an invitation already taken up or gone stayed live)."""
    if game.status is not Status.LOBBY and game.match is None:
        words = INVITATION_CLOSED
    elif game.seat_of(user_id) is not None:
        words = INVITATION_SEATED
    else:
        words = INVITATION_FREED if game.status is Status.LOBBY else INVITATION_STARTED
    return "\n".join(filter(None, [t(words, game=esc(title(t, game.game_name))), place]))
