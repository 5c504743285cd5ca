"""Run the web app on uvicorn (what ``atout serve`` does)."""

from __future__ import annotations

import uvicorn

from atout.web.app import create_app
from atout.web.settings import Settings

#: Largest WebSocket frame uvicorn accepts (the protocol's messages are far smaller).
WS_MAX_SIZE = 16 * 1024


def serve(settings: Settings, host: str = "127.0.0.1", port: int = 8000, *, proxied: bool = False) -> None:
    """Serve until interrupted; ``proxied``: trust the X-Forwarded-* headers of a reverse proxy on this host."""
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        proxy_headers=proxied,
        forwarded_allow_ips="127.0.0.1" if proxied else None,
        log_level="info",
        timeout_graceful_shutdown=5,
    )
    uvicorn.Server(config).run()
