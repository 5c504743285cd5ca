"""The lobby: the tables anyone may join or watch, listed on the home page and kept up to date live.

A table is listed while it is public (its host did not keep it private), open to join or in play
(not finished) and someone seated there is connected: a table everyone has left is abandoned and
leaves the list (its actor is unloaded a while later). Only the tables this server holds in memory
are listed (with several servers, each lists its own shard's).

A table's actor tells the lobby when what the list shows of it changes (its seats, who is connected,
its status: :meth:`~atout.web.actor.TableActor.lobby_info`); the lobby gathers these and publishes
them at most every :data:`PUBLISH_DELAY` seconds, to every home page connected (``/ws/lobby``), as one
:class:`~atout.web.protocol.LobbyChange`. A new home page gets the whole list first
(:class:`~atout.web.protocol.LobbySnapshot`). The rows are in no language: the page words them.

A seated account's rating in the table's variant is added to its row, and a rated table marked, by
:attr:`Lobby.decorate` (:meth:`atout.web.ratings.Ratings.lobby_row`, which keeps the ratings in memory).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence
from functools import cache
from typing import Protocol

from atout.notation import seat_letters
from atout.rules import Ruleset
from atout.web.protocol import LobbyChange, LobbySnapshot
from atout.web.states import SeatKind, TableStatus
from atout.web.wire import LobbySeat, LobbyTable

#: Seconds the lobby gathers changes before publishing them (so at most a few messages a second).
PUBLISH_DELAY = 0.25


class Listed(Protocol):
    """A table the lobby may list: its actor."""

    @property
    def code(self) -> str: ...

    def lobby_info(self) -> LobbyTable | None:
        """The table's row in the list; None: it is not listed (private, finished, abandoned)."""


class Listener(Protocol):
    """A home page connected to the lobby."""

    def send(self, message: LobbySnapshot | LobbyChange) -> None:
        """Queue a message for the page (never blocks)."""


class Lobby:
    """The tables listed, as last published, and the pages that follow them."""

    def __init__(self, delay: float = PUBLISH_DELAY) -> None:
        self.delay = delay
        self.tables: dict[str, LobbyTable] = {}
        self.listeners: set[Listener] = set()
        #: Tables changed since the last publication (None: the table is gone from this server).
        self._dirty: dict[str, Listed | None] = {}
        self._timer: asyncio.TimerHandle | None = None
        #: What adds to a table's row what its actor alone knows (the seated accounts' ratings), if anything.
        self.decorate: Callable[[Listed, LobbyTable], LobbyTable] | None = None

    def join(self, listener: Listener) -> LobbySnapshot:
        """Follow the list: its changes go to ``listener`` from now on; returns the list as it stands."""
        self.listeners.add(listener)
        return LobbySnapshot(tables=list(self.tables.values()))

    def leave(self, listener: Listener) -> None:
        self.listeners.discard(listener)

    def changed(self, table: Listed) -> None:
        """What the list shows of ``table`` may have changed: looked at when the lobby next publishes."""
        self._dirty[table.code] = table
        self._soon()

    def gone(self, code: str) -> None:
        """The table is no longer held by this server (unloaded)."""
        self._dirty[code] = None
        self._soon()

    def _soon(self) -> None:
        if self._timer is None:
            self._timer = asyncio.get_running_loop().call_later(self.delay, self.publish)

    def publish(self) -> None:
        """Tell every page what changed since the last publication (nothing if nothing did)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        dirty, self._dirty = self._dirty, {}
        tables: list[LobbyTable] = []
        gone: list[str] = []
        for code, table in dirty.items():
            row = table.lobby_info() if table is not None else None
            if row is not None and table is not None and self.decorate is not None:
                row = self.decorate(table, row)
            old = self.tables.get(code)
            if row is None:
                if old is not None:
                    del self.tables[code]
                    gone.append(code)
            elif row != old:
                self.tables[code] = row
                tables.append(row)
        if tables or gone:
            message = LobbyChange(tables=tables, gone=gone)
            for listener in list(self.listeners):
                listener.send(message)

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self.listeners.clear()


def lobby_table(
    code: str,
    status: TableStatus,
    rules: Ruleset,
    bots: str,
    seats: Sequence[tuple[SeatKind, str]],
    practice: bool = False,
) -> LobbyTable:
    """A table's row in the list: its variant and the options that differ from it, its seats (a person's name)."""
    letters = seat_letters(rules)
    return LobbyTable(
        code=code,
        status=status,
        preset=rules.name,
        options=list(changed_options(rules)),
        target=rules.target,
        bots=bots,
        seats=[
            LobbySeat(seat=n, letter=letters[n], kind=kind, name=name if kind is SeatKind.HUMAN else "")
            for n, (kind, name) in enumerate(seats)
        ],
        practice=practice,
    )


@cache
def changed_options(rules: Ruleset) -> tuple[str, ...]:
    """The options of ``rules`` that differ from its preset's (the target apart), one key each: the option's
    name for one set (``sans_atout``), ``no_`` and its name for one unset, the name and the value otherwise
    (``litige_off``)."""
    preset = Ruleset.preset(rules.name).options()
    keys: list[str] = []
    for option, value in rules.options().items():
        if option == "target" or value == preset[option]:
            continue
        if isinstance(value, bool):
            keys.append(option if value else f"no_{option}")
        else:
            keys.append(f"{option}_{value}")
    return tuple(keys)
