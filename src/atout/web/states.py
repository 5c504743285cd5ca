"""What a seat holds and where a table stands: the values the store keeps and the views send."""

from __future__ import annotations

from enum import StrEnum


class SeatKind(StrEnum):
    """Who sits in a seat."""

    OPEN = "open"
    HUMAN = "human"
    BOT = "bot"


class TableStatus(StrEnum):
    """A table's life: players gather in the lobby, play a match, and it is kept when finished."""

    LOBBY = "lobby"
    PLAYING = "playing"
    FINISHED = "finished"
