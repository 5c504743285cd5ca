"""The web table's test harness, an importable package: tables driven in-process (:mod:`.tables`), what a
message may show (:mod:`.leaks`), real servers and PostgreSQL clusters (:mod:`.servers`, :mod:`.postgres`),
and bounded reads of a test client's WebSocket (:mod:`.sockets`).

Every wait in it is bounded (:data:`WAIT`): a test that waits for something that never comes fails
instead of hanging.
"""

from harness.servers import LOCAL
from harness.tables import (
    WAIT,
    Harness,
    Recorder,
    connect,
    disconnect,
    fast_settings,
    finished_game,
    legal,
    play_random,
    settle,
)

__all__ = [
    "LOCAL",
    "WAIT",
    "Harness",
    "Recorder",
    "connect",
    "disconnect",
    "fast_settings",
    "finished_game",
    "legal",
    "play_random",
    "settle",
]
