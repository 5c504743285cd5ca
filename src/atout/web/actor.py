"""One sequential actor per live table: it alone changes the table, one command at a time.

Everything that can change a table (a player connecting or leaving, sitting down,
an action, a bot's move, a timer) is a command on the actor's queue, handled in
order. An action is checked by the rules core, appended to the store, then applied
and broadcast: a restart replays the log and loses nothing that anyone saw. Each
broadcast is an *update* with a version number, carrying to each recipient the
events as his seat perceives them and what they changed of his view
(:mod:`atout.web.views`). A client that reconnects gives its last version and
receives the events it missed and its view, or a snapshot of its view.

Bots fill the seats left open when the game starts and play, paced so people can
follow, for a player who has been away past the timeout, until he is back. A table
where nobody is connected waits.
"""

from __future__ import annotations

import asyncio
import logging
import random
import re
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol

from atout.actions import Action
from atout.bots import load_spec
from atout.errors import IllegalAction
from atout.events import Event, TrickWon
from atout.i18n import tr
from atout.rules import Ruleset
from atout.web import serialize
from atout.web.events import DealStarted, GameSaved, ScoreRead, SeatChanged
from atout.web.game import TableGame
from atout.web.protocol import Ack, ErrorMessage, MissedUpdate, Outgoing, Replaced, Resume, Snapshot, Update
from atout.web.protocol import Event as WireEvent
from atout.web.settings import Settings
from atout.web.states import SeatKind, TableStatus
from atout.web.store import ActionRow, DuplicateAction, SeatRow, Store, StoreUnavailable, TableRow
from atout.web.views import SeatState, TableState, Viewer, changes, table_view
from atout.web.wire import SeatInfo, TableInfo, TableView
from atout.web.workers import BotPool, BotRequest

log = logging.getLogger("atout.web")
#: Updates kept for clients that reconnect (older ones get a snapshot).
UPDATES_KEPT = 64
#: Action ids remembered to recognise a resent action (each with its player: ids are per player).
IDS_KEPT = 512
NAME_LENGTH = 24
#: Seconds before a finished game that could not be saved is tried again.
FINISH_RETRY = 1.0


class Connection(Protocol):
    """A client of the table (a browser's WebSocket): who it is, its language, and a way to send."""

    player: str | None
    lang: str

    def send(self, message: Outgoing) -> None:
        """Queue a message for the client (never blocks the actor)."""

    def close(self, code: int) -> None:
        """Close the connection after the messages already queued."""


# ----------------------------------------------------------------- commands
@dataclass(frozen=True)
class Connect:
    conn: Connection
    epoch: str | None = None
    version: int | None = None


@dataclass(frozen=True)
class Disconnect:
    conn: Connection


@dataclass(frozen=True)
class Sit:
    player: str
    seat: int
    name: str
    reply: asyncio.Future[None] = field(compare=False)


@dataclass(frozen=True)
class Command:
    """A player's message other than an action: start, leave, continue, rematch, language."""

    conn: Connection
    kind: str
    value: str = ""


@dataclass(frozen=True)
class Act:
    conn: Connection
    action: str
    action_id: str | None


@dataclass(frozen=True)
class BotMove:
    seq: int
    seat: int
    action: Action


@dataclass(frozen=True)
class Wake:
    """A timer fired: look again at what the table waits for."""


@dataclass(frozen=True)
class Stop:
    reply: asyncio.Future[None] = field(compare=False)


@dataclass(frozen=True)
class Sync:
    """Answered once every command queued before it is handled (tests and tools wait on it)."""

    reply: asyncio.Future[None] = field(compare=False)


@dataclass
class Seat:
    seat: int
    kind: SeatKind
    name: str
    player: str | None
    away_since: float | None = None
    replaced: bool = False


@dataclass(frozen=True)
class Broadcast:
    """An update as kept for the clients that resume: its version, its events, and the trump they were
    said under (what a declarer's announcements are worth)."""

    version: int
    events: Sequence[Event]
    strain: int | None


class Refused(Exception):
    """A player's request the table refuses; ``key`` names the message in the catalogue."""

    def __init__(self, key: str, **values: object) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class TableActor:
    """The live state of one table and the task that changes it."""

    def __init__(
        self,
        row: TableRow,
        seats: list[SeatRow],
        game: TableGame | None,
        store: Store,
        pool: BotPool,
        settings: Settings,
        on_idle: Callable[[TableActor], None] | None = None,
        rng: random.Random | None = None,
        action_ids: Iterable[tuple[str | None, str]] = (),
    ) -> None:
        self.row = row
        self.rules = Ruleset.from_json(row.rules)
        self.bot_spec = load_spec(row.bots)
        self.seats = [Seat(s.seat, s.kind, s.name, s.player) for s in seats]
        self.game = game
        self.store = store
        self.pool = pool
        self.settings = settings
        self.on_idle = on_idle
        self.rng = rng or random.SystemRandom()
        self.epoch = secrets.token_hex(4)
        self.version = 0
        self.updates: deque[Broadcast] = deque(maxlen=UPDATES_KEPT)
        self.conns: list[Connection] = []
        self.queue: asyncio.Queue[object] = asyncio.Queue()
        self.waiting: set[int] = set()
        #: The players and ids of the last actions in the log (a restarted table reads them from it).
        self._ids: deque[tuple[str | None, str]] = deque(action_ids, maxlen=IDS_KEPT)
        self._bot: tuple[int, asyncio.Task[None]] | None = None
        self._timer: asyncio.TimerHandle | None = None
        self._last_action = 0.0
        self._trick_closed = False
        self._deal_ended = 0.0
        self._task: asyncio.Task[None] | None = None
        if game is not None and game.deal_over and not game.finished:
            self._deal_ended = self._now()
        now = self._now()
        for seat in self.seats:
            if seat.kind is SeatKind.HUMAN:
                seat.away_since = now

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def status(self) -> TableStatus:
        return self.row.status

    # --------------------------------------------------------------- running
    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table {self.code}")
        if self.unsaved:  # the server stopped between the match's last action and its saving
            self.submit(Wake())

    @property
    def unsaved(self) -> bool:
        """The match is over but not yet saved as a finished game (the database was unavailable)."""
        return self.status is TableStatus.PLAYING and self.game is not None and self.game.finished

    def submit(self, command: object) -> None:
        self.queue.put_nowait(command)

    async def sync(self) -> None:
        """Wait until the commands queued so far are handled."""
        reply: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.submit(Sync(reply))
        await reply

    @property
    def thinking(self) -> asyncio.Task[None] | None:
        """The bot decision under way, if any."""
        return self._bot[1] if self._bot is not None and not self._bot[1].done() else None

    async def stop(self) -> None:
        if self._task is None or self._task.done():
            return
        reply: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.submit(Stop(reply))
        await reply

    async def _run(self) -> None:
        while True:
            command = await self.queue.get()
            if isinstance(command, Stop):
                self._cancel_timers()
                command.reply.set_result(None)
                return
            try:
                await self._handle(command)
            except Exception:  # one bad command must not end the table
                log.exception("table %s: command %r failed", self.code, command)

    async def _handle(self, command: object) -> None:
        match command:
            case Connect(conn, epoch, version):
                self._connect(conn, epoch, version)
            case Disconnect(conn):
                self._disconnect(conn)
            case Sit():
                await self._sit(command)
            case Command(conn, kind, value):
                try:
                    await self._command(conn, kind, value)
                except Refused as refusal:
                    conn.send(_error(refusal.key, conn.lang, values=refusal.values))
                except StoreUnavailable:  # nothing was changed: the player may try again
                    conn.send(_error("web.error.unavailable", conn.lang))
            case Act(conn, action, action_id):
                await self._act(conn, action, action_id)
            case BotMove(seq, seat, action):
                await self._bot_move(seq, seat, action)
            case Sync(reply):
                reply.set_result(None)
            case Wake():
                pass
        await self._schedule()

    # ----------------------------------------------------------- connections
    def _connect(self, conn: Connection, epoch: str | None, version: int | None) -> None:
        if conn.player is not None:
            for old in [c for c in self.conns if c.player == conn.player]:
                old.send(Replaced())
                old.close(4000)
                self.conns.remove(old)
        self.conns.append(conn)
        seat = self._seat_of(conn.player)
        changed = False
        if seat is not None:
            changed = seat.away_since is not None or seat.replaced
            seat.away_since = None
            seat.replaced = False
        missed = self._missed(epoch, version)
        if missed is None:
            conn.send(self._snapshot(conn))
        else:
            viewer = self._viewer(conn)
            updates = [
                MissedUpdate(version=b.version, events=[self._event(e, viewer, b.strain) for e in b.events])
                for b in missed
            ]
            view = table_view(self._state(), viewer)
            conn.send(Resume(epoch=self.epoch, version=self.version, updates=updates, view=view))
        if changed and seat is not None:
            self._broadcast([SeatChanged(seat.seat)])

    def _missed(self, epoch: str | None, version: int | None) -> list[Broadcast] | None:
        """The updates after ``version``, if this actor still holds them all; None: send a snapshot."""
        if epoch != self.epoch or version is None or version > self.version:
            return None
        if version == self.version:
            return []
        if not self.updates or self.updates[0].version > version + 1:
            return None
        return [b for b in self.updates if b.version > version]

    def _disconnect(self, conn: Connection) -> None:
        if conn not in self.conns:
            return
        self.conns.remove(conn)
        seat = self._seat_of(conn.player)
        if seat is not None and not any(c.player == conn.player for c in self.conns):
            seat.away_since = self._now()
            self.waiting.discard(seat.seat)
            self._broadcast([SeatChanged(seat.seat)])
        if not self.conns and self.on_idle is not None:
            self.on_idle(self)

    def _seat_of(self, player: str | None) -> Seat | None:
        if player is None:
            return None
        return next((s for s in self.seats if s.kind is SeatKind.HUMAN and s.player == player), None)

    def _connected(self, seat: Seat) -> bool:
        return seat.kind is SeatKind.HUMAN and any(c.player == seat.player for c in self.conns)

    def public_info(self) -> TableInfo:
        """What anyone may know of the table before joining it (for the home page and links)."""
        return TableInfo(
            code=self.code,
            status=self.status,
            preset=self.rules.name,
            players=self.rules.players,
            seats=[SeatInfo(seat=s.seat, kind=s.kind, name=s.name) for s in self.seats],
        )

    # ------------------------------------------------------------------ seats
    async def _sit(self, command: Sit) -> None:
        try:
            await self._take_seat(command.player, command.seat, command.name)
        except Refused as refusal:
            command.reply.set_exception(refusal)
            return
        except StoreUnavailable:
            command.reply.set_exception(Refused("web.error.unavailable"))
            return
        command.reply.set_result(None)

    async def _take_seat(self, player: str, number: int, raw_name: str) -> None:
        name = clean_name(raw_name)
        if not name:
            raise Refused("web.error.name")
        if not 0 <= number < self.rules.players:
            raise Refused("web.error.no_such_seat")
        if self.status is TableStatus.FINISHED:
            raise Refused("web.error.finished")
        seat = self.seats[number]
        if seat.kind is SeatKind.HUMAN and seat.player != player:
            raise Refused("web.error.seat_taken")
        old = self._seat_of(player)
        changes = [Seat(number, SeatKind.HUMAN, name, player)]
        if old is not None and old.seat != number:
            changes.append(self._empty(old.seat))
        for change in changes:
            await self.store.set_seat(self.row.id, SeatRow(change.seat, change.kind, change.name, change.player))
        for change in changes:
            self.seats[change.seat] = change
            change.away_since = None if self._connected(change) else self._now()
        self._broadcast([SeatChanged(c.seat) for c in changes])

    def _empty(self, number: int) -> Seat:
        """A seat its player left: open in the lobby, a bot's during the game."""
        if self.status is TableStatus.LOBBY:
            return Seat(number, SeatKind.OPEN, "", None)
        return Seat(number, SeatKind.BOT, self.row.bots, None)

    async def _leave(self, seat: Seat) -> None:
        empty = self._empty(seat.seat)
        await self.store.set_seat(self.row.id, SeatRow(empty.seat, empty.kind, empty.name, None))
        self.seats[seat.seat] = empty
        self.waiting.discard(seat.seat)
        self._broadcast([SeatChanged(seat.seat)])

    # --------------------------------------------------------------- commands
    async def _command(self, conn: Connection, kind: str, value: str) -> None:
        seat = self._seat_of(conn.player)
        if kind == "lang":
            conn.lang = value
            conn.send(self._snapshot(conn))
            return
        if kind == "start":
            if self.status is not TableStatus.LOBBY:
                raise Refused("web.error.started")
            if not self._may_start(conn.player):
                raise Refused("web.error.host_only")
            await self._start_game()
            return
        if seat is None:
            raise Refused("web.error.not_seated")
        if kind == "leave":
            await self._leave(seat)
        elif kind == "continue":
            if self.game is None or not self.game.deal_over or seat.seat not in self.waiting:
                return
            self.waiting.discard(seat.seat)
            self._broadcast([ScoreRead()])
        elif kind == "rematch":
            if self.unsaved:
                await self._finish()
            if self.status is not TableStatus.FINISHED:
                raise Refused("web.error.not_finished")
            await self._new_game()

    def _may_start(self, player: str | None) -> bool:
        """The host starts the game; if he has given up his seat, any seated player may."""
        if player is None:
            return False
        return player == self.row.host or (self._seat_of(self.row.host) is None and self._seat_of(player) is not None)

    async def _start_game(self) -> None:
        bots = [SeatRow(s.seat, SeatKind.BOT, self.row.bots, None) for s in self.seats if s.kind is SeatKind.OPEN]
        await self.store.start_table(self.row.id, bots)  # the seats and the status, in one transaction
        for row in bots:
            self.seats[row.seat] = replace(self.seats[row.seat], kind=row.kind, name=row.name)
        self.row = replace(self.row, status=TableStatus.PLAYING)
        self.game = TableGame(self.rules, self.row.match_seed, self.row.first_dealer)
        self._last_action = self._now()
        self._broadcast([DealStarted(0, self.game.deal.dealer)])

    async def _new_game(self) -> None:
        assert self.game is not None
        seed = self.rng.randrange(1 << 62)
        first = self.game.match.dealer
        game_no = self.row.game_no + 1
        row = replace(self.row, status=TableStatus.PLAYING, game_no=game_no, match_seed=seed, first_dealer=first)
        await self.store.update_table(row)
        self.row = row
        self.game = TableGame(self.rules, seed, first)
        self.waiting.clear()
        self._last_action = self._now()
        self._broadcast([DealStarted(0, self.game.deal.dealer)])

    # ---------------------------------------------------------------- actions
    async def _act(self, conn: Connection, text: str, action_id: str | None) -> None:
        if action_id is not None and (conn.player, action_id) in self._ids:
            conn.send(Ack(id=action_id, duplicate=True))
            return
        seat = self._seat_of(conn.player)
        if seat is None:
            conn.send(_error("web.error.not_seated", conn.lang, action_id=action_id))
            return
        if self.status is not TableStatus.PLAYING or self.game is None:
            conn.send(_error("web.error.not_started", conn.lang, action_id=action_id))
            return
        try:
            action = self.game.check(seat.seat, text)
        except IllegalAction as err:
            conn.send(ErrorMessage(code=err.code, message=err.message(conn.lang), id=action_id))
            return
        try:
            await self._apply(seat.seat, action, action_id, by_bot=False, player=conn.player)
        except DuplicateAction:
            conn.send(Ack(id=action_id, duplicate=True))
            return
        except StoreUnavailable:
            conn.send(_error("web.error.unavailable", conn.lang, action_id=action_id))
            return
        conn.send(Ack(id=action_id))

    async def _bot_move(self, seq: int, seat: int, action: Action) -> None:
        self._bot = None
        game = self.game
        if game is None or game.seq != seq or game.turn != seat or not self._bot_plays(self.seats[seat]):
            return  # the table moved on (or the player came back) while the bot thought
        try:
            checked = game.check(seat, action)
        except IllegalAction:
            log.error("table %s: bot %s chose an illegal %s", self.code, self.row.bots, action)
            checked = game.deal.legal_actions()[0]
        try:
            await self._apply(seat, checked, None, by_bot=True)
        except StoreUnavailable:
            self._wake_in(1.0)  # try again when the database is back

    async def _apply(
        self, seat: int, action: Action, action_id: str | None, by_bot: bool, player: str | None = None
    ) -> None:
        game = self.game
        assert game is not None
        row = ActionRow(game.seq, game.deal_no, seat, action.notation(), action_id, by_bot, player)
        await self.store.append_action(self.row.id, self.row.game_no, row)
        if action_id is not None:
            self._ids.append((player, action_id))
        events = game.apply(seat, action)
        now = self._now()
        self._last_action = now
        self._trick_closed = any(isinstance(e, TrickWon) for e in events)
        if game.deal_over:
            self._deal_ended = now
            self.waiting = set() if game.finished else {s.seat for s in self.seats if self._connected(s)}
        self._broadcast(events)  # a finished match is saved next, by _schedule

    async def _finish_or_retry(self) -> None:
        """Save the finished match; if the database is unavailable, try again a little later."""
        try:
            await self._finish()
        except StoreUnavailable:
            log.warning("table %s: the finished game could not be saved yet", self.code)
            self._wake_in(FINISH_RETRY)

    async def _finish(self) -> None:
        """Keep the finished match as a game and close the table's match (both may be done again)."""
        game = self.game
        assert game is not None
        names = [s.name for s in self.seats]
        players = [{"name": s.name, "bot": s.kind is not SeatKind.HUMAN} for s in self.seats]
        scores = {str(k): v for k, v in game.match.scores.items()}
        records = game.records(names, f"atout {self.code}")
        await self.store.save_game(
            self.row.id,
            self.row.game_no,
            self.rules.name,
            players,
            scores,
            game.match.winner,
            len(game.match.entries),
            records,
        )
        row = replace(self.row, status=TableStatus.FINISHED)
        await self.store.update_table(row)
        self.row = row
        self.waiting.clear()
        self._broadcast([GameSaved()])

    # -------------------------------------------------------------- schedule
    async def _schedule(self) -> None:
        """Start what the table waits for: the next deal, a bot's move, or a timer."""
        self._cancel_timer()
        game = self.game
        if self.unsaved:
            await self._finish_or_retry()
        if self.status is not TableStatus.PLAYING or game is None or not self.conns:
            return
        now = self._now()
        if game.deal_over:
            if game.finished:
                return
            due = self._deal_ended + self.settings.deal_pause
            if self.waiting and now < due:
                self._wake_in(due - now)
                return
            self.waiting.clear()
            self._last_action = now
            self._trick_closed = False
            self._broadcast(game.next_deal())
        turn = game.turn
        if turn is None:
            return
        seat = self.seats[turn]
        if seat.kind is SeatKind.HUMAN and not self._connected(seat) and not seat.replaced:
            away = now - (seat.away_since or now)
            if away < self.settings.seat_timeout:
                self._wake_in(self.settings.seat_timeout - away)
                return
            seat.replaced = True
            self._broadcast([SeatChanged(seat.seat)])
        if self._bot_plays(seat) and (self._bot is None or self._bot[0] != game.seq):
            self._bot = (game.seq, asyncio.create_task(self._think(game.seq, turn)))

    def _bot_plays(self, seat: Seat) -> bool:
        return seat.kind is SeatKind.BOT or (seat.kind is SeatKind.HUMAN and seat.replaced)

    async def _think(self, seq: int, seat: int) -> None:
        game = self.game
        assert game is not None
        request = BotRequest(
            self.bot_spec,
            _bot_seed(self.row.match_seed, game.deal_no, seq),
            (self.code, self.row.game_no, game.deal_no, seat),
            game.deal.observation(seat),
        )
        action = await self.pool.decide(request)
        pace = self.settings.bot_pace + (self.settings.trick_pause if self._trick_closed else 0.0)
        wait = self._last_action + pace - self._now()
        if wait > 0:
            await asyncio.sleep(wait)
        self.submit(BotMove(seq, seat, action))

    def _wake_in(self, delay: float) -> None:
        self._cancel_timer()
        self._timer = asyncio.get_running_loop().call_later(max(0.0, delay), self.submit, Wake())

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _cancel_timers(self) -> None:
        self._cancel_timer()
        if self._bot is not None:
            self._bot[1].cancel()
            self._bot = None

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    # ------------------------------------------------------------- broadcast
    def _broadcast(self, events: list[Event]) -> None:
        """Tell every client what happened: the events as his seat perceives them, and what changed of his view."""
        self.version += 1
        game = self.game
        broadcast = Broadcast(self.version, events, game.deal.strain if game is not None else None)
        self.updates.append(broadcast)
        state = self._state()
        updates: dict[Viewer, Update] = {}
        for conn in self.conns:
            viewer = self._viewer(conn)
            update = updates.get(viewer)
            if update is None:
                update = updates[viewer] = Update(
                    epoch=self.epoch,
                    version=self.version,
                    events=[self._event(e, viewer, broadcast.strain) for e in events],
                    changes=changes(state, viewer, events),
                )
            conn.send(update)

    def _event(self, event: Event, viewer: Viewer, strain: int | None) -> WireEvent:
        return serialize.event(event, viewer.seat, self.rules, strain, viewer.lang)

    def _viewer(self, conn: Connection) -> Viewer:
        seat = self._seat_of(conn.player)
        return Viewer(
            seat.seat if seat else None,
            conn.lang,
            host=conn.player == self.row.host,
            may_start=self.status is TableStatus.LOBBY and self._may_start(conn.player),
        )

    def _state(self) -> TableState:
        seats = [SeatState(s.seat, s.kind, s.name, self._connected(s), s.replaced) for s in self.seats]
        return TableState(self.code, self.status, self.version, self.rules, seats, sorted(self.waiting), self.game)

    def _view(self, conn: Connection) -> TableView:
        return table_view(self._state(), self._viewer(conn))

    def _snapshot(self, conn: Connection) -> Snapshot:
        return Snapshot(epoch=self.epoch, version=self.version, view=self._view(conn))


def clean_name(text: str) -> str:
    """A player's name as shown: printable characters, single spaces, at most 24 characters."""
    printable = "".join(
        ch for ch in unicodedata.normalize("NFC", text) if unicodedata.category(ch)[0] not in "CZ" or ch == " "
    )
    return re.sub(r"\s+", " ", printable).strip()[:NAME_LENGTH]


def _bot_seed(match_seed: int, deal_no: int, seq: int) -> int:
    return random.Random(f"{match_seed}:{deal_no}:{seq}").getrandbits(62)


def _error(
    key: str, lang: str, action_id: str | None = None, values: Mapping[str, object] | None = None
) -> ErrorMessage:
    """An error message for a client: a short code and the catalogue's message in its language."""
    return ErrorMessage(code=key.rsplit(".", 1)[-1], message=tr(key, lang, **(values or {})), id=action_id)
