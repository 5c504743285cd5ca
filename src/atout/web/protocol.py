"""The WebSocket protocol, typed both ways: what a client may send, what the server sends, and the limits.

A client first sends ``hello`` (its seat token if it has one, the epoch and version of the
last message it saw, its language), then any of the other client messages. The server
answers with a ``snapshot`` of the recipient's view (on connection, or on resuming too
late) or a ``resume`` (the events it missed, and its view), then an ``update`` at every
change: its events, as the recipient perceives them, and what changed of its view. Besides:
``ack`` and ``error`` for its messages, ``replaced`` and ``pong``; ``talk`` (a line said at the table) and
``talk_rules`` (the host's talk settings), the talk so far coming with a snapshot or a resume; at a practice
table, ``hint`` (the club bot's choice and its reason, to the player who asked) and ``costs`` (each of his cards'
cost after a deal). The lobby's socket
(``/ws/lobby``) sends the tables listed (``lobby``), then what changes (``lobby_change``). ``docs/web.md`` tells
the story; :func:`json_schema` gives every message, and ``static/protocol.schema.json``
holds it (``python -m atout.web.protocol`` writes it anew).

>>> parse_message('{"type": "act", "action": "90H", "id": "a1"}')
Act(type='act', action='90H', id='a1')
>>> parse_message('{"type": "act", "action": "' + "9" * 100 + '"}')
Traceback (most recent call last):
...
atout.web.protocol.BadMessage: malformed message
>>> Ack(id="a1").wire(), Ack(id="a1", duplicate=True).wire()
({'type': 'ack', 'id': 'a1'}, {'type': 'ack', 'id': 'a1', 'duplicate': True})
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Annotated, Any, Literal, get_args

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from atout.web.wire import (
    AnnouncementView,
    CallView,
    CardView,
    ContractView,
    LobbyTable,
    TableView,
    TalkLine,
    TrickView,
    ViewChanges,
    Wire,
)

#: Longest message a client may send, in characters.
MAX_MESSAGE = 2048
#: Messages a client may send per second on average, and in a burst.
RATE = 8.0
BURST = 24


class BadMessage(ValueError):
    """A message that is not JSON, too long, or not one the protocol knows."""


# ------------------------------------------------------------------ client -> server
class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Message):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=512)
    epoch: str | None = Field(default=None, max_length=32)
    version: int | None = Field(default=None, ge=0)
    lang: Literal["fr", "en"] = "fr"


class Act(_Message):
    type: Literal["act"]
    action: str = Field(max_length=40)
    id: str | None = Field(default=None, max_length=64)


class Simple(_Message):
    """``start``, ``leave``, ``continue``, ``rematch``, ``ping``, ``hint`` (at a practice table, on one's turn): a
    command without arguments."""

    type: Literal["start", "leave", "continue", "rematch", "ping", "hint"]


class Lang(_Message):
    type: Literal["lang"]
    lang: Literal["fr", "en"]


#: The quick messages, by their keys in the catalogue (``web.talk.quick.KEY``).
QuickKey = Literal["well_played", "thanks", "sorry", "hurry", "bravo_partner"]
QUICK_KEYS: tuple[str, ...] = get_args(QuickKey)
#: Longest free text said at a table (characters, once stripped).
TALK_LENGTH = 200


class Say(_Message):
    """Talk at the table: a quick message by its key, or free text (the table checks its length and rate)."""

    type: Literal["say"]
    quick: QuickKey | None = None
    text: str | None = Field(default=None, max_length=4 * TALK_LENGTH)


class SetTalk(_Message):
    """The host's talk settings: free text allowed (quick messages always are), spectators may talk."""

    type: Literal["talk_rules"]
    free_text: bool
    spectators: bool


ClientMessage = Annotated[Hello | Act | Simple | Lang | Say | SetTalk, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Hello | Act | Simple | Lang | Say | SetTalk] = TypeAdapter(ClientMessage)


def parse_message(text: str) -> Hello | Act | Simple | Lang | Say | SetTalk:
    """A client's message, checked; :class:`BadMessage` if it is not one."""
    if len(text) > MAX_MESSAGE:
        raise BadMessage("message too long")
    try:
        return _ADAPTER.validate_json(text)
    except ValidationError:
        raise BadMessage("malformed message") from None


class RateLimit:
    """A token bucket: ``allow()`` is False when a client sends faster than :data:`RATE` on average."""

    def __init__(self, now: float, rate: float = RATE, burst: int = BURST) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = float(burst)
        self.last = now

    def allow(self, now: float) -> bool:
        self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


# ------------------------------------------------------------------ events
class _Event(Wire):
    """An event of an update, told apart by its ``kind`` (always sent)."""

    def model_post_init(self, context: Any, /) -> None:
        self.__pydantic_fields_set__.add("kind")


class CallEvent(_Event, CallView):
    """A call of the auction (rules core: ``Called``)."""

    kind: Literal["call"] = "call"


class ContractEvent(_Event):
    """The auction is over (``Settled``): the contract the deal is played in."""

    kind: Literal["contract"] = "contract"
    contract: ContractView


class PassedOutEvent(_Event):
    """Nobody bid (``PassedOut``): the deal is void."""

    kind: Literal["passed_out"] = "passed_out"


class DeclareEvent(_Event):
    """A player's announcements with his first card (``Declared``): in full to him, their nature to the others
    (``Heard``)."""

    kind: Literal["declare"] = "declare"
    seat: int
    announcements: list[AnnouncementView]


class PlayEvent(_Event):
    """A card played (``CardPlayed``), and the word said with it: « belote », « rebelote »."""

    kind: Literal["play"] = "play"
    seat: int
    card: CardView
    word: str | None
    said: str | None


class ShownEvent(_Event):
    """The announcements resolved at the first card of trick 2 (``Resolved``): the side whose count (None:
    nobody's), what each side scores for them, and the announcements shown, by seat."""

    kind: Literal["shown"] = "shown"
    winner: int | None
    points: dict[str, int]
    shown: dict[str, list[AnnouncementView]]


class TrickEvent(_Event, TrickView):
    """A trick complete (``TrickWon``): its number, its cards with their seats, its winner and points, and the
    dix de der of the last one."""

    kind: Literal["trick"] = "trick"
    number: int
    dix_de_der: int


class DealEndEvent(_Event):
    """The deal is over (``DealOver``); its result is in the view's changes."""

    kind: Literal["deal_end"] = "deal_end"


class MatchEndEvent(_Event):
    kind: Literal["match_end"] = "match_end"
    winner: int | None


class DealStartEvent(_Event):
    kind: Literal["deal_start"] = "deal_start"
    number: int
    dealer: int


class SeatEvent(_Event):
    """Someone sat down, left, came or went, or a bot took his turn for him."""

    kind: Literal["seat"] = "seat"
    seat: int


class WaitingEvent(_Event):
    """Someone said he has read the deal's score."""

    kind: Literal["waiting"] = "waiting"


class SavedEvent(_Event):
    """The finished game is kept (in the history)."""

    kind: Literal["saved"] = "saved"


Event = Annotated[
    CallEvent
    | ContractEvent
    | PassedOutEvent
    | DeclareEvent
    | PlayEvent
    | ShownEvent
    | TrickEvent
    | DealEndEvent
    | MatchEndEvent
    | DealStartEvent
    | SeatEvent
    | WaitingEvent
    | SavedEvent,
    Field(discriminator="kind"),
]


# ------------------------------------------------------------------ server -> client
class _Outgoing(Wire):
    """A message of the server, told apart by its ``type`` (always sent)."""

    def model_post_init(self, context: Any, /) -> None:
        self.__pydantic_fields_set__.add("type")


class Clock(Wire):
    """The time left to the seat to play before a bot plays for its absent player (sent only while it runs)."""

    #: The seat to play, whose player is away.
    seat: int
    #: Seconds left, counted from the message's receipt: the page counts down from then (no clock to share).
    seconds: float


class TalkState(Wire):
    """The table's talk as a connection finds it: the last lines said, and the host's settings."""

    lines: list[TalkLine]
    #: Free text allowed (quick messages always are).
    free_text: bool
    #: Spectators may talk.
    spectators: bool
    #: The recipient's own handle (the lines he said carry it).
    who: str


class Snapshot(_Outgoing):
    """The recipient's whole view: on connection, or on resuming too late."""

    type: Literal["snapshot"] = "snapshot"
    epoch: str
    version: int
    view: TableView
    #: The talk so far, in the recipient's language.
    talk: TalkState | None = None
    #: The seat to play and its time left, while a bot is about to play for its absent player; unset otherwise.
    clock: Clock | None = None
    #: A practice table (hints on demand, each card's cost after a deal); unset otherwise.
    practice: bool | None = None


class MissedUpdate(Wire):
    version: int
    events: list[Event]


class Resume(_Outgoing):
    """On connection with a known epoch and version: the events missed since, and the view."""

    type: Literal["resume"] = "resume"
    epoch: str
    version: int
    updates: list[MissedUpdate]
    view: TableView
    talk: TalkState | None = None
    #: The seat to play and its time left, while a bot is about to play for its absent player; unset otherwise.
    clock: Clock | None = None
    #: A practice table (hints on demand, each card's cost after a deal); unset otherwise.
    practice: bool | None = None


class Update(_Outgoing):
    """A change: its events, as the recipient perceives them, and what changed of his view."""

    type: Literal["update"] = "update"
    epoch: str
    version: int
    events: list[Event]
    changes: ViewChanges
    #: The seat to play and its time left, while a bot is about to play for its absent player; unset otherwise.
    clock: Clock | None = None


class Ack(_Outgoing):
    """An action was applied, or had been (``duplicate``: a message sent again)."""

    type: Literal["ack"] = "ack"
    id: str | None
    duplicate: bool = False


class ErrorMessage(_Outgoing):
    """A message or an action refused: why, in the recipient's language."""

    type: Literal["error"] = "error"
    code: str
    message: str
    id: str | None = None


class Replaced(_Outgoing):
    """The seat was opened elsewhere (another tab, another device)."""

    type: Literal["replaced"] = "replaced"


class Pong(_Outgoing):
    type: Literal["pong"] = "pong"


class Talk(_Outgoing):
    """A line said at the table, in the recipient's language."""

    type: Literal["talk"] = "talk"
    line: TalkLine


class TalkRules(_Outgoing):
    """The host changed the talk settings (sent to everyone)."""

    type: Literal["talk_rules"] = "talk_rules"
    free_text: bool
    spectators: bool


class Hint(_Outgoing):
    """At a practice table, to the player who asked on his turn: what the club bot would do in his place, and
    why (from his seat's observation only); never sent once the turn has passed."""

    type: Literal["hint"] = "hint"
    #: The action's notation, one of the player's choices (``JH``, ``90H``, ``PASS``).
    action: str
    #: The action in the recipient's words (« valet de cœur », « 90 ♥ »).
    label: str
    #: The card, when the hint is to play one.
    card: CardView | None = None
    #: The reason's key (``web.practice.reason.KEY``) and its words in the recipient's language.
    reason: str
    text: str


class CardCost(Wire):
    """A card a player played in a deal: what it cost double dummy against the best card (0: a best card)."""

    trick: int
    card: CardView
    cost: int
    #: The best cards at that moment.
    best: list[CardView]


class Costs(_Outgoing):
    """At a practice table, after a deal, to each player: what each of his cards cost double dummy (computed in the
    background, sent when ready; ``cards`` empty when the analysis took too long)."""

    type: Literal["costs"] = "costs"
    #: The deal (0 for the match's first).
    deal: int
    cards: list[CardCost]
    #: False when the analysis could not be made in time.
    done: bool = True


ServerMessage = Annotated[
    Snapshot | Resume | Update | Ack | ErrorMessage | Replaced | Pong | Talk | TalkRules | Hint | Costs,
    Field(discriminator="type"),
]
Outgoing = Snapshot | Resume | Update | Ack | ErrorMessage | Replaced | Pong | Talk | TalkRules | Hint | Costs


# ------------------------------------------------------------------ the lobby's socket
class LobbySnapshot(_Outgoing):
    """The tables listed (public, open to join or in play, someone seated there connected): on connection."""

    type: Literal["lobby"] = "lobby"
    tables: list[LobbyTable]


class LobbyChange(_Outgoing):
    """What changed in the list: tables listed anew or changed (whole), and the codes of those that left it."""

    type: Literal["lobby_change"] = "lobby_change"
    tables: list[LobbyTable]
    gone: list[str]


LobbyMessage = Annotated[LobbySnapshot | LobbyChange | Pong, Field(discriminator="type")]

#: Where the protocol's JSON Schema is kept (and served, at /static/protocol.schema.json).
SCHEMA_FILE = "static/protocol.schema.json"


def json_schema() -> dict[str, Any]:
    """The JSON Schema of every message, both ways, generated from the models."""
    adapters: list[tuple[str, TypeAdapter[Any]]] = [
        ("client", TypeAdapter(ClientMessage)),
        ("server", TypeAdapter(ServerMessage)),
        ("lobby", TypeAdapter(LobbyMessage)),
    ]
    schemas, definitions = TypeAdapter.json_schemas(
        [(name, "validation", adapter) for name, adapter in adapters],
        title="atout web table: the WebSocket protocol",
    )
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        **definitions,
        "properties": {name: schemas[(name, "validation")] for name, _ in adapters},
    }


def schema_text() -> str:
    return json.dumps(json_schema(), ensure_ascii=False, indent=1, sort_keys=True) + "\n"


if __name__ == "__main__":  # python -m atout.web.protocol: write the schema the models give
    target = resources.files("atout.web").joinpath(SCHEMA_FILE)
    with resources.as_file(target) as path:
        path.write_text(schema_text(), encoding="utf-8")
        print(f"wrote {path}")
