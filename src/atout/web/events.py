"""What happens at a web table besides what an action does (the rules core's :mod:`atout.events`): a deal
dealt, the match over, a seat changed, a player who has read the score, the finished game kept.

They are events like the rules core's (the same for every recipient), so that an update is one list
of events, translated for each recipient by :func:`atout.web.serialize.event`.
"""

from __future__ import annotations

from dataclasses import dataclass

from atout.events import Event


@dataclass(frozen=True, slots=True)
class DealStarted(Event):
    """A new deal is dealt (``number`` from 0), the first of a game too."""

    number: int
    dealer: int


@dataclass(frozen=True, slots=True)
class MatchOver(Event):
    """The match is won (``winner``: a side) or over without a winner."""

    winner: int | None


@dataclass(frozen=True, slots=True)
class SeatChanged(Event):
    """Someone sat down or left, came or went, or a bot plays for him now."""

    seat: int


@dataclass(frozen=True, slots=True)
class ScoreRead(Event):
    """A player said he has read the deal's score."""


@dataclass(frozen=True, slots=True)
class GameSaved(Event):
    """The finished game is kept in the history."""
