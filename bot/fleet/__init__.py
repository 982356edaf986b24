"""Fleet mode (issue 23): one bot served by any number of receivers and workers sharing one
PostgreSQL server, which is both the store and the coordination point (its row locks, session
advisory locks and LISTEN/NOTIFY; no protocol of our own).

The pieces: ``routing`` (an update's route key: the chat whose order it keeps; its shard),
``receiver`` (the webhook: each update stored once, 200 only after the commit), ``shards``
(which worker owns which shards: an advisory lock each, on a dedicated connection),
``feeder`` and ``listener`` (pulling the owned shards' updates in order), ``worker`` (the
bot's Application fed from the queue), ``moves`` (a game whose chat changed shard),
``settings``; ``python -m bot.fleet receiver|worker``.
The fleet's SQL is :mod:`bot.storage.fleet`; the fence is :mod:`bot.storage.fencing`.

What lived in one process, and how each works in the fleet:

- Updates, exactly once. The receiver inserts ``ON CONFLICT (update_id) DO NOTHING`` and
  answers 200 only after the commit (a dying receiver loses nothing: Telegram retries; a
  second delivery is stored once). The worker handles an update inside the fence: the first
  effect transaction marks it done in the same transaction as its effect, so a second
  handling (the shard's next owner, after a lock connection was lost) changes nothing; the
  worker marks it after the handler otherwise. A tap's answer goes at most once: before it,
  the update is marked done in its own transaction unless an effect marked it (each handling
  marks with its own stamp, so its effect and its answer both find the mark theirs), and when
  another worker had marked it no answer goes (a worker killed between the mark and the
  answer leaves the tap unanswered: the player taps again). A reply that changes nothing
  (/rules) may be sent again if a worker dies between sending it and the mark (milliseconds).
- Order. Every update of one group (its games, lobby, commands, and taps in private on its
  games' buttons or /start links to its tables) has the group's route key, so one shard, one
  owner, and per key one update at a time in update_id order (of the updates committed: an
  update Telegram delivers late is handled when it arrives).
- Game cache and per-game locks. A worker holds in memory the open games of the shards it
  owns (and finished ones still being published), loaded when it takes a shard and evicted
  when it gives it back; the per-game locks stay in-process, which suffices because only the
  owner handles a group's updates and runs its timers. Commits still check the move number,
  so even two owners (a lost lock connection) never apply a stale move.
- Publisher syncs and messages in flight. They run in the owner (the sends in flight, the
  coalescing and the keys beside each message are per game). A worker giving a shard back
  refuses every further call to its groups (``FloodLimiter.refuse``: a sync waiting for a
  slot ends, a call in flight finishes and is recorded) and waits for its syncs to end, so
  two workers never send one group's outbox; then (or after a grace) it refuses every call
  made for their games too, their hands in private chats (a game's syncs run
  inside ``for_game``), and waits for a call in flight, so that the old owner sends no hand
  after the next one counted that chat's window full; the next owner's first sync of each
  game sends and repairs whatever is left, as a restart does (syncs are idempotent). A
  private hand being sent at that moment may be sent by both (the older one is then a
  stray, refused when tapped).
- A group become a supergroup. Its new id's updates go to the new id's shard, maybe another
  worker's: the worker moving the game (the migrate message, or a call refused with the new
  id) forgets the old group's message ids before the move commits; its commit told, the game
  is let go as a shard given back is (its timers cancelled, the supergroup refused to its
  syncs, evicted under its lock) and the new shard's owner is told on ``fleet_games``
  (NOTIFY: the chat), which loads the chat's games and runs them as a shard taken (after a
  lost LISTEN connection, it loads any open game of its shards missing from memory). Any
  commit a worker makes for a game of a shard it does not hold, and any such game it finds in
  memory (it looks every 5 s: an old group's tap handled after its game left), is let go so.
- Outbox. Committed with the move, as before; on taking a shard the worker syncs every game
  of the shard with announcements left, as start-up does. An announcement whose send was
  cut by a SIGKILL after Telegram took it may be sent twice (the single process has the same
  window at a crash).
- Turn timers. Deadlines are in the database; on taking a shard the worker resolves its
  overdue turns in deadline order, a grace of seconds after the take, and longer while the
  updates pulled for the game's group are still queued (up to 30 s more): a move tapped
  while no worker ran the game waits in the queue, is handled first and counts
  (``Timers.resume``); it arms the others; giving it back cancels the jobs.
- Computer players' pool. Each worker has its own process pool; a computer's move is a timer
  job of the owner, so it follows the shard.
- Telegram's limits. A group's (20 a minute) and a private chat's (3 in 3 s) windows are
  kept by the one worker owning that chat's shard. Exception: a person seated at tables of
  groups in shards of different workers hears from each owner (their hands), and a reply to
  a private command that names no game comes from the owner of their newest table's group
  (or of their own shard). So before a counted call to a private chat (and again each time
  a waiting call wakes) a worker asks how many workers may be sending there (itself and the
  owner of each other shard among that person's open tables' groups, a shard it is taking
  counted its own, read from ``games`` once per window period and person, and kept a period
  while the database cannot say) and keeps 3 // that many of the chat's window: together
  at most 3 in 3 s. When that part shrinks for a hand (a call of a game's sync), the worker
  makes no counted call there for two periods (6 s), a reply included: another worker's count
  may be a period old, and what it sent with its larger part holds a period more (so a
  person's first hand from a second worker comes up to 6 s late). A reply to a private
  command or a /notify notice that shrinks it does not wait: the others count only the
  workers seating the person, which a wait would not change. A game's first hand here
  waits the same while another worker sends there, though the part did not shrink (a
  worker counts itself whether it seats the person or not: one whose table of theirs
  ended, while another's went on, counts two senders before and after they sit at its next
  table, while the other, alone meanwhile, may keep the whole window for up to a period);
  a game taken over from another worker has had its first hand, and a game whose hands
  went there in the last 15 minutes is no new one. A part that grows (a table elsewhere
  ended) counts the slots gained as used. Beyond three senders (a person at four tables in
  four workers' shards at once) each keeps one call in 3 s x senders / 3: together 3 per
  3 s over time, but one window may get a call from each (they cannot see each other's
  sends; only a schedule the workers share would keep every window). A worker giving a
  shard back asks again at once for the people of its games it keeps a table of (their part
  shrinks before the lock goes, not up to a period later; not being a hand's, without the
  wait: no other worker's count changes with the owner, and the next owner counts the
  window full).
  A worker's window for a private chat of another's shard also starts with one send
  counted (the greeting to a /start just before a game, the usual case); one of a shard it
  took less than a period ago starts with the whole window counted as of the take, as do
  those it kept: the last owner answered that person until it let the shard go (a /start's
  handler in flight finishes first, so its greeting may reach them a moment before their
  first hand from the new owner, which also seats them). A handler still running past the
  handover's grace (left behind) makes no call any more: the next owner handles its update
  again, and a late reply of the last owner would come after the take.
  A worker taking a shard counts each of its games' chats' short window as full (the last
  owner's recent sends are not in its own windows), those of finished games with
  announcements left too. The overall 30 a second is
  shared: each worker takes MESSAGES_PER_SECOND / live workers, counted every tick apart
  from the shard ticks (which may be long). A smaller part applies at once (a worker joined);
  a larger one 1.1 periods after a worker left (what it sent in its last second still
  counts); a worker starting sends nothing counted until the others have seen it and a
  period has passed (about 2 s), then its part. A
  429's retry_after is written to ``fleet_flood`` and NOTIFYed, and every worker pauses that
  chat only, until then (a worker that starts reads the waits still running).
- Private updates that name no game (/start, /hand, /stats, a private chat blocked) follow
  the user's private chat and act on the games that worker holds: a lobby in another shard
  learns that a player opened their private chat when it next reads it (starting a game reads
  it again), and /hand in private resends the hands of the games that worker holds.
- PostgreSQL restarting. Receivers answer 503 meanwhile (Telegram retries); workers lose
  their lock connection and with it their shards (stop pulling, evict), reconnect (a line when
  the outage starts and one when it ends: the attempts between are DEBUG) and take their share
  again; nothing crashes.
"""
