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
import hashlib
import logging
import random
import re
import secrets
import unicodedata
from collections import deque
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Protocol, TypeVar

from atout.actions import Action, Play
from atout.bots import load_spec
from atout.bots.reasons import reason
from atout.cards import Card
from atout.errors import IllegalAction
from atout.events import Event, TrickWon
from atout.i18n import tr
from atout.rules import Ruleset
from atout.web import serialize
from atout.web.events import DealStarted, GameSaved, ScoreRead, SeatChanged
from atout.web.game import TableGame
from atout.web.lobby import lobby_table
from atout.web.practice import HINT_BOT, label
from atout.web.protocol import (
    TALK_LENGTH,
    Ack,
    CardCost,
    Clock,
    Costs,
    ErrorMessage,
    Hint,
    MissedUpdate,
    Outgoing,
    Replaced,
    Resume,
    Snapshot,
    Talk,
    TalkRules,
    TalkState,
    Update,
)
from atout.web.protocol import Event as WireEvent
from atout.web.settings import Settings
from atout.web.states import SeatKind, TableStatus
from atout.web.store import ActionRow, DuplicateAction, SeatRow, Store, StoreUnavailable, TableRow, TalkRow
from atout.web.tokens import player_account
from atout.web.views import SeatState, TableState, Viewer, changes, table_view
from atout.web.wire import LobbyTable, SeatInfo, TableInfo, TableView, TalkLine
from atout.web.workers import AnalysisRow, BotPool, BotRequest

log = logging.getLogger("atout.web")
#: Updates kept for clients that reconnect (older ones get a snapshot).
UPDATES_KEPT = 64
#: Action ids remembered to recognise a resent action (each with its player: ids are per player).
IDS_KEPT = 512
NAME_LENGTH = 24
#: Seconds before a finished game that could not be saved is tried again.
FINISH_RETRY = 1.0
#: Lines of talk a connection finds at the table (the last ones said).
TALK_KEPT = 100
#: Lines one connection may say in :data:`TALK_WINDOW` seconds.
TALK_RATE = 5
TALK_WINDOW = 10.0
#: The bots' pace at a table: a multiple of the server's ``--bot-pace`` (the host chooses it).
PACES: dict[str, float] = {"slow": 1.6, "normal": 1.0, "fast": 0.4}
#: A message that may carry the table's clock with the view.
_Timed = TypeVar("_Timed", Snapshot, Resume)
#: Characters refused in free text besides the control characters: the bidirectional overrides and isolates.
_BIDI = set("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


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
class Speak:
    """Talk at the table: a quick message by its key, or free text."""

    conn: Connection
    quick: str | None
    text: str | None


@dataclass(frozen=True)
class SetTalk:
    """The host's talk settings."""

    conn: Connection
    free_text: bool
    spectators: bool


@dataclass(frozen=True)
class BotMove:
    seq: int
    seat: int
    action: Action


@dataclass(frozen=True)
class HintReady:
    """The club bot's choice for a player who asked for a hint at ``seq`` (dropped if the turn has passed)."""

    conn: Connection
    seq: int
    seat: int
    action: Action
    reason: str


@dataclass(frozen=True)
class CostsReady:
    """The double-dummy analysis of a practice table's deal, for each of its players."""

    game_no: int
    deal_no: int
    rows: list[AnalysisRow] | None


@dataclass(frozen=True)
class Pause:
    """The organiser pauses the table (nobody plays, no clock runs) or lets it go on."""

    paused: bool
    reply: asyncio.Future[None] = field(compare=False)


@dataclass(frozen=True)
class Reseat:
    """The organiser puts a player (``player``: his id) or a bot (``player`` None) in a seat during the game."""

    seat: int
    name: str
    player: str | None
    reply: asyncio.Future[None] = field(compare=False)


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


class TableListener(Protocol):
    """Told what a table's games did: a competition records its results from here. Both calls may come again
    for the same deal or game (a retry after the database was unavailable): a listener's writes are idempotent."""

    async def deal_over(self, actor: TableActor) -> None:
        """The deal in play is over (``actor.game.match.entries[-1]`` is its result)."""

    async def game_saved(self, actor: TableActor, game_id: int) -> None:
        """The finished match is kept as game ``game_id``; the table is marked finished after every listener
        returned (one that raises :class:`StoreUnavailable` makes the table try it all again a little later)."""


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
        on_change: Callable[[TableActor], None] | None = None,
        talk: Iterable[TalkRow] = (),
        listeners: Sequence[TableListener] = (),
    ) -> None:
        self.row = row
        self.listeners = listeners
        self.rules = Ruleset.from_json(row.rules)
        self.bot_spec = load_spec(row.bots)
        self.seats = [Seat(s.seat, s.kind, s.name, s.player) for s in seats]
        self.game = game
        self.store = store
        self.pool = pool
        self.settings = settings
        self.on_idle = on_idle
        #: Told when what the lobby shows of the table changes (its seats, who is connected, its status).
        self.on_change = on_change
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
        self._listed = self._lobby_state()
        #: The last lines said at the table (a restarted table reads them from the store).
        self.talk: deque[TalkRow] = deque(talk, maxlen=TALK_KEPT)
        #: When each connection said its last lines (the rate limit), and a spectator's handle without a player.
        self._said: dict[Connection, deque[float]] = {}
        self._handles: dict[Connection, str] = {}
        #: Practice tables: the hints and analyses under way, and the last deal's costs (for a reconnection).
        self._practice: set[asyncio.Task[None]] = set()
        self._costs: CostsReady | None = None

    @property
    def code(self) -> str:
        return self.row.code

    @property
    def status(self) -> TableStatus:
        return self.row.status

    # --------------------------------------------------------------- running
    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table {self.code}")
        if self.unsaved or self.row.concours_id is not None:  # unsaved; a tournament's plays on without anyone
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
            case Speak(conn) | SetTalk(conn):
                try:
                    await (self._speak(command) if isinstance(command, Speak) else self._set_talk(command))
                except Refused as refusal:
                    conn.send(_error(refusal.key, conn.lang, values=refusal.values))
                except StoreUnavailable:
                    conn.send(_error("web.error.unavailable", conn.lang))
            case BotMove(seq, seat, action):
                await self._bot_move(seq, seat, action)
            case HintReady():
                self._hint_ready(command)
            case CostsReady():
                self._costs_ready(command)
            case Pause():
                await self._pause(command)
            case Reseat():
                await self._reseat(command)
            case Sync(reply):
                reply.set_result(None)
            case Wake():
                pass
        await self._schedule()

    # ----------------------------------------------------------- connections
    def _connect(self, conn: Connection, epoch: str | None, version: int | None) -> None:
        if self.row.challenge_id is not None and self._seat_of(conn.player) is None:
            conn.send(_error("web.error.no_spectators", conn.lang))  # a challenge's deals are nobody else's
            conn.close(4003)
            return
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
            talk = self._talk_state(conn)
            resume = Resume(epoch=self.epoch, version=self.version, updates=updates, view=view, talk=talk)
            if self.row.practice:
                resume = resume.model_copy(update={"practice": True})
            conn.send(self._timed(resume))
        costs = self._costs
        if costs is not None and self.game is not None and self.game.deal_over and costs.deal_no == self.game.deal_no:
            self._send_costs(conn, costs)  # the deal's costs are still on show
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
        self._said.pop(conn, None)
        self._handles.pop(conn, None)
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

    def lobby_info(self) -> LobbyTable | None:
        """The table's row in the lobby; None where it is not listed: private, finished, or nobody seated
        there connected (abandoned)."""
        if self.row.private or self.status is TableStatus.FINISHED or self.unsaved:
            return None
        if not any(self._connected(s) for s in self.seats):
            return None
        seats = [(s.kind, s.name) for s in self.seats]
        return lobby_table(self.code, self.status, self.rules, self.row.bots, seats, self.row.practice)

    def _lobby_state(self) -> tuple[object, ...]:
        """What the lobby shows of the table, to tell when it changes."""
        return (self.status, self.unsaved, *((s.kind, s.name, self._connected(s)) for s in self.seats))

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
        if self.row.competition:  # its seats are the draw's (or the organiser's): its players are already there
            if seat.kind is SeatKind.HUMAN and seat.player == player:
                return
            raise Refused("web.error.competition_seat")
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

    async def _pause(self, command: Pause) -> None:
        try:
            row = replace(self.row, paused=command.paused)
            await self.store.set_paused([row.id], command.paused)
        except StoreUnavailable as err:
            command.reply.set_exception(err)
            return
        self.row = row
        if not command.paused:  # the absent players' delay starts again
            now = self._now()
            for seat in self.seats:
                if seat.away_since is not None:
                    seat.away_since = now
            self._last_action = now
        self._broadcast([SeatChanged(s.seat) for s in self.seats])
        command.reply.set_result(None)

    async def _reseat(self, command: Reseat) -> None:
        if not 0 <= command.seat < self.rules.players:
            command.reply.set_exception(Refused("web.error.no_such_seat"))
            return
        kind = SeatKind.HUMAN if command.player is not None else SeatKind.BOT
        name = clean_name(command.name) if command.player is not None else self.row.bots
        seat = Seat(command.seat, kind, name, command.player)
        try:
            await self.store.set_seat(self.row.id, SeatRow(seat.seat, seat.kind, seat.name, seat.player))
        except StoreUnavailable as err:
            command.reply.set_exception(err)
            return
        seat.away_since = None if self._connected(seat) else self._now()
        self.seats[command.seat] = seat
        self.waiting.discard(command.seat)
        self._broadcast([SeatChanged(command.seat)])
        command.reply.set_result(None)

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
            if self.row.rated and not self.accounts_seated:
                raise Refused("web.ratings.rated_seats")  # a rated game is between people: no bot fills a seat
            await self._start_game()
            return
        if seat is None:
            raise Refused("web.error.not_seated")
        if kind == "leave":
            if self.row.competition:
                raise Refused("web.error.competition_seat")
            await self._leave(seat)
        elif kind == "continue":
            if self.game is None or not self.game.deal_over or seat.seat not in self.waiting:
                return
            self.waiting.discard(seat.seat)
            self._broadcast([ScoreRead()])
        elif kind == "hint":
            self._ask_hint(conn, seat)
        elif kind == "rematch":
            if self.row.competition:
                raise Refused("web.error.no_rematch")  # a competition's game is played once
            if self.unsaved:
                await self._finish()
            if self.status is not TableStatus.FINISHED:
                raise Refused("web.error.not_finished")
            await self._new_game()

    @property
    def accounts_seated(self) -> bool:
        """Every seat is held by a signed-in account (a rated table starts only so)."""
        return all(s.kind is SeatKind.HUMAN and player_account(s.player) is not None for s in self.seats)

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
        self.game = TableGame(self.rules, self.row.match_seed, self.row.first_dealer, self.row.fixed_deals)
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
        self.game = TableGame(self.rules, seed, first, self.row.fixed_deals)
        self.waiting.clear()
        self._last_action = self._now()
        self._broadcast([DealStarted(0, self.game.deal.dealer)])

    # --------------------------------------------------------------- practice
    def _ask_hint(self, conn: Connection, seat: Seat) -> None:
        """Ask the club bot, through the pool, what it would do in the seat's place, from the seat's observation."""
        if not self.row.practice:
            raise Refused("web.practice.error.not_practice")
        game = self.game
        if self.status is not TableStatus.PLAYING or game is None or game.deal_over or game.turn != seat.seat:
            raise Refused("web.practice.error.not_your_turn")
        observation = game.deal.observation(seat.seat)
        request = BotRequest(
            load_spec(HINT_BOT),
            _bot_seed(self.row.match_seed, game.deal_no, game.seq),
            (f"{self.code}:hint", self.row.game_no, game.deal_no, seat.seat),
            observation,
        )
        seq = game.seq

        async def think() -> None:
            action = await self.pool.decide(request)
            self.submit(HintReady(conn, seq, seat.seat, action, reason(observation, action)))

        self._background(think())

    def _background(self, work: Coroutine[object, object, None]) -> None:
        task = asyncio.create_task(work)
        self._practice.add(task)
        task.add_done_callback(self._practice.discard)

    def _hint_ready(self, ready: HintReady) -> None:
        game = self.game
        if game is None or game.seq != ready.seq or game.turn != ready.seat or ready.conn not in self.conns:
            return  # the turn has passed (or the player has gone): the hint was for a position that is gone
        lang = ready.conn.lang
        action = ready.action
        ready.conn.send(
            Hint(
                action=action.notation(),
                label=label(action, lang),
                card=serialize.card(action.card, lang) if isinstance(action, Play) else None,
                reason=ready.reason,
                text=tr(f"web.practice.reason.{ready.reason}", lang),
            )
        )

    def _analyse_deal(self) -> None:
        """At a practice table, once a deal with a contract is over: its analysis, in the background, within the
        pool's time for analyses; each player then receives his own cards' costs."""
        game = self.game
        if not self.row.practice or game is None or game.deal.contract is None:
            return
        names = [s.name for s in self.seats]
        records = game.records(names, f"atout {self.code}")
        index = sum(1 for e in game.match.entries if e.deal is not None) - 1
        game_no, deal_no = self.row.game_no, game.deal_no
        self._costs = None

        async def analyse() -> None:
            try:
                rows: list[AnalysisRow] | None = await self.pool.analyse(records, index)
            except Exception as err:  # too long, or a failure: the players are told it is not there
                log.warning("table %s: the analysis of deal %d failed: %r", self.code, deal_no, err)
                rows = None
            self.submit(CostsReady(game_no, deal_no, rows))

        self._background(analyse())

    def _costs_ready(self, ready: CostsReady) -> None:
        if ready.game_no != self.row.game_no:
            return
        self._costs = ready
        for conn in self.conns:
            self._send_costs(conn, ready)

    def _send_costs(self, conn: Connection, ready: CostsReady) -> None:
        seat = self._seat_of(conn.player)
        if seat is None:
            return
        lang = conn.lang
        cards = [
            CardCost(
                trick=row["trick"],
                card=serialize.card(Card.parse(row["card"]), lang),
                cost=row["cost"],
                best=[serialize.card(Card.parse(code), lang) for code in row["best_cards"]],
            )
            for row in ready.rows or []
            if row["seat"] == seat.seat
        ]
        conn.send(Costs(deal=ready.deal_no, cards=cards, done=ready.rows is not None))

    # ------------------------------------------------------------------- talk
    async def _speak(self, command: Speak) -> None:
        """Say a line at the table: kept first, then sent to everyone in his language."""
        conn = command.conn
        seat = self._seat_of(conn.player)
        if seat is None and not self.row.talk_spectators:
            raise Refused("web.talk.error.spectators_off")
        text: str | None = None
        if command.quick is None:
            if command.text is None:
                raise Refused("web.talk.error.empty")
            if not self.row.talk_free_text:
                raise Refused("web.talk.error.free_text_off")
            text = clean_talk(command.text)
        now = self._now()
        said = self._said.setdefault(conn, deque())
        while said and now - said[0] >= TALK_WINDOW:
            said.popleft()
        if len(said) >= TALK_RATE:
            raise Refused("web.talk.error.too_fast", seconds=int(TALK_WINDOW))
        name = seat.name if seat is not None else ""
        line = TalkRow(seat.seat if seat else None, name, self._speaker(conn), command.quick, text, self.row.game_no)
        line = await self.store.add_talk(self.row.id, line)
        said.append(now)
        self.talk.append(line)
        sent: dict[str, Talk] = {}
        for other in self.conns:
            message = sent.get(other.lang)
            if message is None:
                message = sent[other.lang] = Talk(line=talk_line(line, other.lang))
            other.send(message)

    async def _set_talk(self, command: SetTalk) -> None:
        if command.conn.player is None or command.conn.player != self.row.host:
            raise Refused("web.talk.error.host_only")
        await self.store.set_talk_rules(self.row.id, command.free_text, command.spectators)
        self.row = replace(self.row, talk_free_text=command.free_text, talk_spectators=command.spectators)
        message = TalkRules(free_text=command.free_text, spectators=command.spectators)
        for conn in self.conns:
            conn.send(message)

    def _speaker(self, conn: Connection) -> str:
        """A speaker's handle at the table: from his player id (the same on every device and after a reload),
        or, for a spectator without one, the connection's own."""
        if conn.player is not None:
            return hashlib.sha256(f"{self.code}:{conn.player}".encode()).hexdigest()[:12]
        return self._handles.setdefault(conn, "s" + secrets.token_hex(5))

    def _talk_state(self, conn: Connection) -> TalkState:
        return TalkState(
            lines=[talk_line(line, conn.lang) for line in self.talk],
            free_text=self.row.talk_free_text,
            spectators=self.row.talk_spectators,
            who=self._speaker(conn),
        )

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
        if self.row.paused:
            conn.send(_error("web.error.paused", conn.lang, action_id=action_id))
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
        if self.row.paused:
            return  # decided before the pause: it thinks again when the table goes on
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
            # A deal nobody took has no score to read: it is dealt again at once (the page says why).
            passed = game.deal.result is not None and game.deal.result.passed_out
            self.waiting = set() if game.finished or passed else {s.seat for s in self.seats if self._connected(s)}
        self._broadcast(events)  # a finished match is saved next, by _schedule
        if game.deal_over:
            self._analyse_deal()
            for listener in self.listeners:
                try:
                    await listener.deal_over(self)
                except Exception:  # a listener records again at the game's end
                    log.exception("table %s: a listener failed at the deal's end", self.code)

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
        game_id = await self.store.save_game(
            self.row.id,
            self.row.game_no,
            self.rules.name,
            players,
            scores,
            game.match.winner,
            len(game.match.entries),
            records,
        )
        for listener in self.listeners:
            try:
                await listener.game_saved(self, game_id)
            except StoreUnavailable:
                raise
            except Exception:
                log.exception("table %s: a listener failed at the game's end", self.code)
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
        if self.status is not TableStatus.PLAYING or game is None or self.row.paused:
            return
        if not self.conns and self.row.concours_id is None:  # a tournament's table plays on: bots stand in
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
            if away < self.seat_timeout:
                self._wake_in(self.seat_timeout - away)
                return
            seat.replaced = True
            self._broadcast([SeatChanged(seat.seat)])
        if self._bot_plays(seat) and (self._bot is None or self._bot[0] != game.seq):
            self._bot = (game.seq, asyncio.create_task(self._think(game.seq, turn)))

    @property
    def seat_timeout(self) -> float:
        """Seconds before a bot plays for an absent player: the table's (a tournament's organiser sets it), or
        the server's."""
        return self.row.seat_timeout if self.row.seat_timeout is not None else self.settings.seat_timeout

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
        wait = self._last_action + self.bot_delay() - self._now()
        if wait > 0:
            await asyncio.sleep(wait)
        self.submit(BotMove(seq, seat, action))

    def bot_delay(self) -> float:
        """Seconds between the last action and a bot's move: the server's pace times the table's (slow, normal,
        fast), and the pause that shows a trick just won."""
        pace = self.settings.bot_pace * PACES.get(self.row.pace, 1.0)
        return pace + (self.settings.trick_pause if self._trick_closed else 0.0)

    def _wake_in(self, delay: float) -> None:
        self._cancel_timer()
        self._timer = asyncio.get_running_loop().call_later(max(0.0, delay), self.submit, Wake())

    def _cancel_timer(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None

    def _cancel_timers(self) -> None:
        self._cancel_timer()
        for task in self._practice:
            task.cancel()
        if self._bot is not None:
            self._bot[1].cancel()
            self._bot = None

    @staticmethod
    def _now() -> float:
        return asyncio.get_running_loop().time()

    # ------------------------------------------------------------- broadcast
    def _broadcast(self, events: list[Event]) -> None:
        """Tell every client what happened: the events as his seat perceives them, and what changed of his view;
        and the lobby, if what it shows of the table changed (every change of a table passes here)."""
        if self.on_change is not None and not self.row.private:
            listed = self._lobby_state()
            if listed != self._listed:
                self._listed = listed
                self.on_change(self)
        self.version += 1
        game = self.game
        broadcast = Broadcast(self.version, events, game.deal.strain if game is not None else None)
        self.updates.append(broadcast)
        state = self._state()
        updates: dict[Viewer, Update] = {}
        clock = self._clock()
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
                if clock is not None:
                    update = updates[viewer] = update.model_copy(update={"clock": clock})
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
        return TableState(
            self.code, self.status, self.version, self.rules, seats, sorted(self.waiting), self.game, self.row.bots
        )

    def _view(self, conn: Connection) -> TableView:
        return table_view(self._state(), self._viewer(conn))

    def _snapshot(self, conn: Connection) -> Snapshot:
        snapshot = Snapshot(epoch=self.epoch, version=self.version, view=self._view(conn), talk=self._talk_state(conn))
        if self.row.practice:
            snapshot = snapshot.model_copy(update={"practice": True})
        return self._timed(snapshot)

    def _clock(self) -> Clock | None:
        """The seat to play and the seconds left before a bot plays for its absent player (as :meth:`_schedule`
        counts them), while they run; None when the seat to play is a bot's, a present player's, or one a bot
        already plays for."""
        game = self.game
        if self.status is not TableStatus.PLAYING or game is None or game.deal_over or game.turn is None:
            return None
        if self.row.paused:
            return None
        seat = self.seats[game.turn]
        if seat.kind is not SeatKind.HUMAN or seat.replaced or seat.away_since is None or self._connected(seat):
            return None
        left = self.seat_timeout - (self._now() - seat.away_since)
        return Clock(seat=seat.seat, seconds=round(left, 1)) if left > 0 else None

    def _timed(self, message: _Timed) -> _Timed:
        """``message`` with the table's clock, if one runs (the field is left unset otherwise)."""
        clock = self._clock()
        return message if clock is None else message.model_copy(update={"clock": clock})


def clean_name(text: str) -> str:
    """A player's name as shown: printable characters, single spaces, at most 24 characters."""
    printable = "".join(
        ch for ch in unicodedata.normalize("NFC", text) if unicodedata.category(ch)[0] not in "CZ" or ch == " "
    )
    return re.sub(r"\s+", " ", printable).strip()[:NAME_LENGTH]


def clean_talk(text: str) -> str:
    """Free text as said at the table: stripped, without control characters, at most :data:`TALK_LENGTH`
    characters; :class:`Refused` otherwise (the page checks the same before sending)."""
    text = unicodedata.normalize("NFC", text).strip()
    if not text:
        raise Refused("web.talk.error.empty")
    if any(unicodedata.category(ch) in ("Cc", "Cs", "Co", "Cn") or ch in _BIDI for ch in text):
        raise Refused("web.talk.error.control")
    if len(text) > TALK_LENGTH:
        raise Refused("web.talk.error.too_long", limit=TALK_LENGTH)
    return text


def talk_line(line: TalkRow, lang: str) -> TalkLine:
    """A line of talk for a recipient: a quick message in his language, a spectator named in it."""
    text = tr(f"web.talk.quick.{line.quick}", lang) if line.quick is not None else (line.text or "")
    at = line.at.isoformat() if line.at is not None else ""
    name = line.name or tr("web.talk.spectator", lang)
    return TalkLine(id=line.id, seat=line.seat, name=name, who=line.who, quick=line.quick, text=text, at=at)


def _bot_seed(match_seed: int, deal_no: int, seq: int) -> int:
    return random.Random(f"{match_seed}:{deal_no}:{seq}").getrandbits(62)


def _error(
    key: str, lang: str, action_id: str | None = None, values: Mapping[str, object] | None = None
) -> ErrorMessage:
    """An error message for a client: a short code and the catalogue's message in its language."""
    return ErrorMessage(code=key.rsplit(".", 1)[-1], message=tr(key, lang, **(values or {})), id=action_id)
