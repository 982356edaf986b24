"""The check of a hand's deal, as a player reads it in private (🔍 Check the deal, /verify)."""

from __future__ import annotations

from collections.abc import Sequence

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from engine import DealCheck, Tile

from ..i18n import N_, Translator
from ..models import Game
from ..wording import code, esc, named, title
from .gamebuttons import CheckDeal

#: Where the recipe is written down, for a player's own checker (in the bot's source).
SPEC = "docs/FAIRNESS.md"
PASSED, FAILED = "✓", "✗"
CHECK_SENT = N_("I sent the check of the deal to our private chat.")
OPEN_CHAT_FIRST = N_("I cannot write to you yet: open a private chat with me (tap my name, "
                     "then Start), then tap again.")
PRIVATE_ONLY = N_("Send /verify to me in our private chat: there I show you the check of "
                  "the hands you played.")
NOTHING_YET = N_("You have not finished a hand yet: once you have, /verify shows its check.")


def heading(t: Translator, game: Game, hand: int) -> str:
    return t("<b>🔍 Deal check</b> · {title}, game {game}, hand {number}",
             title=esc(title(t, game.game_name)), game=game.game_id, number=hand + 1)


def _tiles(tiles: Sequence[Tile]) -> str:
    return " ".join(map(str, tiles))


def check_text(t: Translator, game: Game, check: DealCheck, reader: int | None) -> str:
    """Every step of the check, each with ✓ or ✗, the deal made from the seed in full, and
    the command line that checks it with the bot's code (with the reader's own tiles)."""
    def mark(ok: bool) -> str:
        return PASSED if ok else FAILED

    def name(seat: int) -> str:
        return named(game.player_at(seat, check.hand, 0).name)

    lines = [heading(t, game, check.hand),
             t("Fingerprint shown before the hand: {fingerprint}",
               fingerprint=code(check.fingerprint)),
             t("Seed, shown when the hand ended: {seed}", seed=code(check.seed)),
             mark(check.fingerprint_ok) + " " + (
                 t("SHA-256 of the seed starts with the fingerprint.") if check.fingerprint_ok
                 else t("SHA-256 of the seed does not start with the fingerprint."))]
    dealt = check.deal_ok and check.opener_ok
    lines.append(mark(dealt) + " " + (
        t("The deal made from the seed is the deal played:") if dealt
        else t("The deal made from the seed is not the deal played. The seed's deal:")))
    lines += [f"• {name(seat)}: {_tiles(tiles)}" for seat, tiles in enumerate(check.hands)]
    if check.middle:
        lines.append("• " + t("Middle, face down, {tile} turned up: {tiles}",
                              tile=str(check.middle[0]), tiles=_tiles(check.middle)))
    if check.stock:
        lines.append("• " + t("Stock, in draw order: {tiles}", tiles=_tiles(check.stock)))
    lines.append("• " + t("{name} led.", name=name(check.opener)))
    if check.plays_ok:
        lines.append(PASSED + " " + t("Every tile played came from the hand of the player who "
                                      "played it."))
    else:
        lines.append(FAILED + " " + t(
            "These tiles were played by someone who did not hold them: {tiles}.",
            tiles=", ".join(f"{name(seat)} {tile}" for seat, tile in check.strays)))
    lines += [t("Check it yourself with the bot's code:"),
              code(check.command(reader)),
              t("How a deal is made from its seed, to write a check of your own: {page} in "
                "the bot's source code.", page=code(SPEC))]
    return "\n".join(lines)


def refused_text(t: Translator, game: Game, hand: int, refusal: str) -> str:
    """A hand that cannot be checked (still played, or dealt before seeds): why."""
    return heading(t, game, hand) + "\n" + refusal


def earlier_hands(t: Translator, hands: Sequence[tuple[Game, int]]
                  ) -> InlineKeyboardMarkup | None:
    """/verify's buttons: a player's earlier hands, one a row, each checked when tapped."""
    if not hands:
        return None
    return InlineKeyboardMarkup([[InlineKeyboardButton(
        t("{title}, game {game}, hand {number}", title=title(t, game.game_name),
          game=game.game_id, number=hand + 1),
        callback_data=CheckDeal(game.game_id, hand).encode())] for game, hand in hands])
