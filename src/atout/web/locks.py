"""One lock per key (a sheet, a concours), so that two requests never read, check and write the same thing at once.

On PostgreSQL the rows are also locked (``SELECT … FOR UPDATE``), which holds across servers; SQLite, embedded
in one server, has no row locks and starts its write transaction only at the first write, so two requests of
the same process could both read the state before either writes. These locks serialize them.

>>> import asyncio
>>> locks = KeyedLocks()
>>> async def twice() -> list[str]:
...     said: list[str] = []
...     async def one(name: str) -> None:
...         async with locks("sheet"):
...             said.append(name + " in")
...             await asyncio.sleep(0)
...             said.append(name + " out")
...     await asyncio.gather(one("a"), one("b"))
...     return said
>>> asyncio.run(twice()), len(locks)
(['a in', 'a out', 'b in', 'b out'], 0)
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class KeyedLocks:
    """An :class:`asyncio.Lock` per key, kept only while someone holds it or waits for it."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}

    def __len__(self) -> int:
        return len(self._locks)

    @asynccontextmanager
    async def __call__(self, key: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(key, (asyncio.Lock(), 0))
        self._locks[key] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[key]
            if users == 1:
                del self._locks[key]
            else:
                self._locks[key] = (lock, users - 1)
