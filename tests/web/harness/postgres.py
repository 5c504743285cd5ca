"""A PostgreSQL server of the tests' own: Debian's (``apt-get install postgresql``), a throwaway cluster in a
temporary directory on a free port of 127.0.0.1, removed after. Where it is missing the tests that need
it are skipped, unless ``ATOUT_REQUIRE_POSTGRES`` is set (CI sets it, so there they fail instead)."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from glob import glob
from pathlib import Path

from harness.servers import free_port, missing


@dataclass
class PostgresServer:
    """A PostgreSQL cluster of the tests' own, on 127.0.0.1."""

    bindir: Path
    base: Path
    port: int

    @property
    def data(self) -> Path:
        return self.base / "data"

    def _run(self, *command: str) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, capture_output=True, timeout=120)

    def start(self) -> None:
        options = f"-p {self.port} -k {self.base} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            str(self.bindir / "pg_ctl"),
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.base / "log"),
            "-w",
            "start",
        )

    def stop(self) -> None:
        self._run(str(self.bindir / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w", "stop")

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+asyncpg://atout@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        name = "t_" + uuid.uuid4().hex[:12]
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run(
            [*prefix, str(self.bindir / "createdb"), "-h", "127.0.0.1", "-p", str(self.port), "-U", "atout", name],
            check=True,
            capture_output=True,
            timeout=60,
        )
        return self.url(name)


def _postgres(base: Path) -> PostgresServer:
    found = sorted(glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    if not found:
        missing("PostgreSQL", "ATOUT_REQUIRE_POSTGRES")
    server = PostgresServer(Path(found[-1]).parent, base, free_port())
    if os.geteuid() == 0:
        shutil.chown(base, "postgres", "postgres")
    server._run(
        str(server.bindir / "initdb"), "-D", str(server.data), "-A", "trust", "-U", "atout", "--no-sync", "-E", "UTF8"
    )
    server.start()
    return server


@contextmanager
def cluster() -> Iterator[PostgresServer]:
    # Not under pytest's temporary directory: the postgres user must be able to reach it.
    base = Path(tempfile.mkdtemp(prefix="atout-pg-"))
    try:
        server = _postgres(base)
        yield server
        with suppress(subprocess.CalledProcessError):  # a test may have left it stopped
            server.stop()
    finally:
        shutil.rmtree(base, ignore_errors=True)
