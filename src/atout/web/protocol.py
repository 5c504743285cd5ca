"""The WebSocket protocol: what a client may send (typed, checked) and the limits on it.

A client first sends ``hello`` (its seat token if it has one, the epoch and
version of the last update it saw, its language), then any of the other messages.
The server answers with ``snapshot``, ``resume``, ``update``, ``ack``, ``error``,
``replaced`` and ``pong`` messages, described in ``docs/web.md``.

>>> parse_message('{"type": "act", "action": "90H", "id": "a1"}')
Act(type='act', action='90H', id='a1')
>>> parse_message('{"type": "act", "action": "' + "9" * 100 + '"}')
Traceback (most recent call last):
...
atout.web.protocol.BadMessage: malformed message
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

#: Longest message a client may send, in characters.
MAX_MESSAGE = 2048
#: Messages a client may send per second on average, and in a burst.
RATE = 8.0
BURST = 24


class BadMessage(ValueError):
    """A message that is not JSON, too long, or not one the protocol knows."""


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
    """``start``, ``leave``, ``continue``, ``rematch``, ``ping``: a command without arguments."""

    type: Literal["start", "leave", "continue", "rematch", "ping"]


class Lang(_Message):
    type: Literal["lang"]
    lang: Literal["fr", "en"]


ClientMessage = Annotated[Hello | Act | Simple | Lang, Field(discriminator="type")]
_ADAPTER: TypeAdapter[Hello | Act | Simple | Lang] = TypeAdapter(ClientMessage)


def parse_message(text: str) -> Hello | Act | Simple | Lang:
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
