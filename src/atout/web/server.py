"""Run the web app on uvicorn (what ``atout serve`` does)."""

from __future__ import annotations

import gc

import uvicorn
from fastapi import FastAPI

from atout.web.app import create_app
from atout.web.limits import MAX_HEAD, MAX_WS_MESSAGE
from atout.web.settings import Settings


def server_config(app: FastAPI, host: str = "127.0.0.1", port: int = 8000, *, proxied: bool = False) -> uvicorn.Config:
    """uvicorn's configuration for ``app``, with the limits of :mod:`atout.web.limits`.

    The HTTP parser is h11 (not httptools, which buffers a request's head without
    limit): it stops reading an unfinished head past :data:`~atout.web.limits.MAX_HEAD`
    bytes (400). A WebSocket message over :data:`~atout.web.limits.MAX_WS_MESSAGE`
    bytes closes its connection (1009). The app itself refuses a whole head or a body
    over the limits (:class:`~atout.web.limits.RequestLimits`).
    """
    return uvicorn.Config(
        app,
        host=host,
        port=port,
        http="h11",
        h11_max_incomplete_event_size=MAX_HEAD,
        ws_max_size=MAX_WS_MESSAGE,
        proxy_headers=proxied,
        forwarded_allow_ips="127.0.0.1" if proxied else None,
        log_level="info",
        timeout_graceful_shutdown=5,
    )


#: The collector's thresholds for the server: a young generation of 10,000 objects (Python's is 700).
GC_THRESHOLDS = (10_000, 10, 10)


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000, *, proxied: bool = False) -> None:
    """Serve until interrupted; ``proxied``: trust the X-Forwarded-* headers of a reverse proxy on this host.

    A server holds many live tables, and a full collection of Python's cyclic garbage collector
    scans them all while every table waits (400 ms with 1,000 tables). So the objects made at start
    are frozen (no collection scans them again), and the young generation is larger
    (:data:`GC_THRESHOLDS`): the many short-lived objects of each update die young, and full
    collections become rare (``benchmarks/bench_web.py``, docs/performance.md).
    """
    server = uvicorn.Server(server_config(create_app(settings), host, port, proxied=proxied))
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)
    server.run()
