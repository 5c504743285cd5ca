"""The web server's settings, with the defaults of ``atout serve``."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from atout.userdata import data_dir


def default_data_dir() -> Path:
    """atout's directory in the user's data directory (:func:`atout.userdata.data_dir`)."""
    return data_dir()


@dataclass(frozen=True)
class Settings:
    """Everything ``atout serve`` can set."""

    #: SQLAlchemy URL of the database; None: SQLite in :attr:`data_dir`.
    database_url: str | None = None
    data_dir: Path = field(default_factory=default_data_dir)
    #: Where bots think: worker processes, threads (tests) or a Ray cluster.
    bot_backend: str = "process"
    bot_workers: int | None = None
    #: Seconds between two bots' moves, so that people can follow them.
    bot_pace: float = 0.9
    #: Extra seconds a completed trick stays on the table before the next lead.
    trick_pause: float = 1.2
    #: Seconds before the next deal starts if not everyone has pressed « continuer ».
    deal_pause: float = 30.0
    #: Seconds a player may be away before a bot plays for him (until he is back).
    seat_timeout: float = 45.0
    #: With several servers on one database: this server's shard and their number.
    shard: int = 0
    shards: int = 1
    #: Tables one client address may create per hour.
    tables_per_hour: int = 60
    #: Deal analyses one client address may have computed per hour (an analysis kept is free).
    analyses_per_hour: int = 30
    #: Registrations one client address may make by concours links per hour (a team registers once).
    registrations_per_hour: int = 20
    #: Seconds a deal's analysis may take before it is given up.
    analysis_time: float = 60.0
    #: The name of the account that is an admin (``atout serve --admin``), besides the first account created.
    admin: str | None = None
    #: Days a sign-in lasts (the ``session`` cookie's life).
    session_days: int = 30
    #: Failed sign-ins allowed per client address, and per account name, in 15 minutes.
    signin_attempts: int = 10
    #: The daily challenge the server creates by itself: its variant (None: none) and deals (its bots are club's).
    daily_challenge: str | None = "coinche"
    daily_deals: int = 12

    def url(self) -> str:
        from atout.web.store import default_url

        return self.database_url or default_url(self.data_dir)

    def safe_url(self) -> str:
        """The database URL without its password, for logs."""
        from sqlalchemy import make_url

        return make_url(self.url()).render_as_string(hide_password=True)
