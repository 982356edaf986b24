"""``python -m fakeapi.demo``: watch a whole match without Telegram.

Starts the bundled fake Bot API server on 127.0.0.1, runs the real bot against it (its own
HTTP stack, storage and pictures), and lets simulated players take their seats and play.
Prints the group's chat as it happened and saves it (``group.txt``), every picture the group
saw (``group_000.png`` on) and the first player's private chat (``private.txt``) in one folder.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

from bot.app import build_application, running
from bot.config import BotConfig
from bot.gamebook import GAMES
from bot.i18n import LANGUAGES
from engine import VARIANTS
from fakeapi import FakeChat, FakeTelegramServer, StoredMessage
from fakeapi.players import Table, random_choice
from renderers import THEMES

NAMES = ("Ayu", "Budi", "Sergei", "Þóra", "Dewi")
DEALS_PER_SEED = 10_000  # deal seeds a run may use, 1000 apart from the next seed's
SEED_LIMIT = 10**74  # --seed is below it, so every deal seed fits in 32 bytes (see deal_seeds)
# The names of the files a run writes: only these are removed from an earlier run's folder.
OUTPUT = re.compile(r"group_\d{3,}\.png|group\.txt|private\.txt")


def deal_seeds(seed: int) -> Iterator[bytes]:
    """32-byte deal seeds, the same on every run of one ``seed`` (0 <= seed < SEED_LIMIT)."""
    return (n.to_bytes(32, "big") for n in range(seed * 1000, seed * 1000 + DEALS_PER_SEED))


def earlier_output(out: Path) -> list[Path]:
    """The files of an earlier run in ``out``, which would otherwise sit beside this run's
    (a shorter match leaves the longer one's last pictures); nothing else a user put there."""
    if not out.is_dir():
        return []
    return sorted(p for p in out.iterdir()
                  if OUTPUT.fullmatch(p.name) and (p.is_symlink() or p.is_file()))


def _data(message: StoredMessage, prefix: str) -> str:
    """The callback data of ``message``'s button whose data starts with ``prefix`` (lobby
    buttons are found by their data, so that the demo runs in every language)."""
    return next(b.callback_data for row in message.buttons for b in row
                if b.callback_data and b.callback_data.startswith(prefix))


def _match_over(server: FakeTelegramServer, group: FakeChat) -> bool:
    """The match's result has come: its message offers to play again."""
    return any(b.callback_data and b.callback_data.startswith("g:")
               for m in server.bot_messages(group) for row in m.buttons for b in row)


async def demo(game: str, players: int, out: Path, seed: int, theme: str,
               language: str = "en") -> str:
    out.mkdir(parents=True, exist_ok=True)
    async with FakeTelegramServer() as server:
        users = [server.add_user(name, language_code=language, started=True)
                 for name in NAMES[:players]]
        group = server.add_group("Domino evening", members=users, admins=users[:1])
        with tempfile.TemporaryDirectory() as folder:
            settings = BotConfig(
                token=server.token,
                api_base_url=server.api_root,
                database_path=Path(folder) / "demo.sqlite3",
                group_messages_per_minute=10_000,
                messages_per_second=10_000,
                private_messages_per_period=10_000,
                table_theme=theme,
            )
            seeds = deal_seeds(seed)
            application = build_application(settings, seed_source=lambda: next(seeds))
            async with running(application):
                for user in users:
                    user.send_private("/start")
                users[0].send(group, f"/newgame {game}")
                lobby = await server.wait_for(
                    lambda: next((m for m in server.bot_messages(group) if m.buttons), None)
                )
                for user in users[1:]:
                    record = user.press(lobby, _data(lobby, "j:"))
                    await server.wait_for(lambda r=record: r.answered)  # type: ignore[misc]
                await server.wait_for(
                    lambda: all(u.id in lobby.mentioned_user_ids for u in users)
                )
                users[0].press(lobby, _data(lobby, "s:"))
                table = Table(server, users, random_choice(seed))
                await table.play_until(lambda: _match_over(server, group))
                await server.wait_idle(quiet=0.5)
            for number, photo in enumerate(server.photos(group)):
                (out / f"group_{number:03d}.png").write_bytes(photo.data)
            transcript = server.transcript(group)
            (out / "group.txt").write_text(transcript + "\n", encoding="utf-8")
            # What the first player read in the private chat, beside the group's chat.
            (out / "private.txt").write_text(server.transcript(users[0].private_chat) + "\n",
                                             encoding="utf-8")
            server.assert_no_violations()
            return transcript


def _seed(text: str) -> int:
    """A usage error for a seed the deal seeds cannot be made of (a negative one used to end
    in an OverflowError inside the bot and a timeout traceback)."""
    try:
        seed = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if not 0 <= seed < SEED_LIMIT:
        raise argparse.ArgumentTypeError(f"a seed is from 0 to 10**74 - 1, not {seed}")
    return seed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m fakeapi.demo",
                                     description=(__doc__ or "").replace("``", ""),  # (no rst)
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("--game", choices=GAMES, default="pair", help="the game to play")
    parser.add_argument("--players", type=int, default=4, help="as many as the game takes")
    parser.add_argument("--out", type=Path, default=Path("demo-output"),
                        help="the folder for the pictures and the two transcripts (group.txt, "
                             "private.txt); an earlier run's files there are replaced")
    parser.add_argument("--seed", type=_seed, default=1,
                        help="the deals' and the players' seed, 0 to 10**74 - 1")
    parser.add_argument("--theme", choices=THEMES, default="classic", help="the table's colours")
    parser.add_argument("--language", choices=LANGUAGES, default="en",
                        help="the players' language, which the group then speaks")
    args = parser.parse_args(argv)
    seats = VARIANTS[args.game].seat_counts
    if args.players not in seats:
        low, high = min(seats), max(seats)
        count = f"{low}" if low == high else f"{low} to {high}"
        parser.error(f"{args.game} is played by {count} players, not {args.players}")
    if args.out.exists() and not args.out.is_dir():
        parser.error(f"--out {args.out} is a file, not a folder")
    earlier = earlier_output(args.out)
    for path in earlier:
        path.unlink()
    if earlier:
        print(f"Removed {len(earlier)} files of an earlier demo run from {args.out}/")
    logging.basicConfig(level=logging.WARNING)
    print(asyncio.run(demo(args.game, args.players, args.out, args.seed, args.theme,
                           args.language)))
    print(f"\nSaved in {args.out}/: this chat (group.txt), the first player's (private.txt)"
          " and the pictures the group saw (group_000.png on)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
