"""Several servers on one PostgreSQL database: each serves the tables of its shard.

What docs/web.md says of growing past one process: the database and the signing
secret are shared; a table lives in one server, chosen by the first character of
its code, so that a reverse proxy can route each table's requests to it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from fastapi.testclient import TestClient
from harness import fast_settings
from harness.postgres import PostgresServer
from harness.sockets import Session

from atout.web.app import create_app
from atout.web.tokens import code_shard


def test_two_servers_share_a_database_and_split_the_tables(tmp_path: Path, postgres: PostgresServer) -> None:
    base = fast_settings(tmp_path, database_url=postgres.new_database(), shards=2)
    servers = [TestClient(create_app(replace(base, shard=k))) for k in (0, 1)]
    with servers[0] as first, servers[1] as second:
        codes = []
        for k, server in enumerate((first, second)):
            created = server.post("/api/tables", json={"preset": "coinche", "name": "Alice"}).json()
            assert code_shard(created["code"]) % 2 == k
            codes.append(created)
        assert first.get(f"/api/tables/{codes[0]['code']}").status_code == 200
        assert first.get(f"/api/tables/{codes[1]['code']}").status_code == 404
        assert second.get(f"/api/tables/{codes[0]['code']}").status_code == 404
        # One secret for all: a token made by one server is good on the other.
        with second.websocket_connect(f"/ws/{codes[1]['code']}") as ws:
            assert Session(ws).hello(codes[1]["token"])["view"]["you"] == 2
    with TestClient(create_app(replace(base, shard=1))) as again:  # a restarted server finds its tables
        assert again.get(f"/api/tables/{codes[1]['code']}").json()["seats"][2]["name"] == "Alice"
