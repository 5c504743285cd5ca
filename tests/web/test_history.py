"""Finished games, the pages that show them and the limits on the HTTP side.

A match is played to its end through the real actor; then the app, started on the
same database, lists it, replays it deal by deal (the marks and their terms add
up), analyses a deal once and keeps the analysis, and lets the records be
downloaded, which ``atout referee`` reads. Also: the rules pages in each language,
the per-address limit on creating tables, and a client too slow to read its
messages, which is cut off.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from harness import fast_settings, finished_game

from atout.i18n import languages, tr
from atout.record import read_records
from atout.rules import PRESETS, Ruleset
from atout.web.app import create_app
from atout.web.guide import rules_html, rules_section
from atout.web.protocol import Pong
from atout.web.replay import GameSide, GameSummary, summary
from atout.web.routes.socket import OUTBOX, WsConnection
from atout.web.settings import Settings
from atout.web.store import GameRow
from atout.web.wire import VariantView


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Settings, str]:
    settings = fast_settings(tmp_path_factory.mktemp("history"))
    return settings, asyncio.run(finished_game(settings))


def test_the_games_page_lists_the_game_and_tells_the_bot_by_its_seat(history: tuple[Settings, str]) -> None:
    settings, _ = history
    with TestClient(create_app(settings)) as client:
        french = client.get("/games").text
        english = client.get("/games?lang=en").text
        game = client.get("/games/1?lang=fr").text
    assert "<strong>Joueur 0</strong>" in french and "<strong>Sud · robot club</strong>" in french
    assert "<strong>South · club bot</strong>" in english
    assert '<a href="/rules#deux">' in french and tr("web.games.won", "fr") in french
    assert "Sud · robot club" in game and 'href="/games/1/records.txt"' in game
    assert '<a href="/rules#deux">' in game


def test_the_history_says_what_was_played_and_who_played_on_each_side() -> None:
    """The variant, what differed from it (the host's options, the target, the bots' level), where its rules are,
    and each side: its players, its score, whether it won."""
    rules = Ruleset.preset("coinche").replace(announcements=False, target=2000)
    people = [{"name": "Alice", "bot": False}, {"name": "expert", "bot": True}]
    game = GameRow(
        id=1,
        code="X",
        game_no=1,
        finished_at=datetime.now(UTC),
        preset="coinche",
        players=people * 2,
        scores={"0": 2010, "1": 1500},
        winner=0,
        deals=12,
        records="",
        rules=rules.to_json(),
        bots="expert",
    )
    assert summary(game, "fr") == GameSummary(
        variant=VariantView(
            name="Belote coinchée (FFB)",
            details="sans annonces · en 2\u202f000 points · robots expert",
            link="/rules#coinche",
        ),
        sides=[
            GameSide(name="Nord–Sud", players=["Alice", "Alice"], score=2010, won=True),
            GameSide(name="Est–Ouest", players=["Ouest · robot expert", "Est · robot expert"], score=1500, won=False),
        ],
    )
    english = summary(game, "en")
    assert english is not None and english.variant.details == "no announcements · to 2,000 points · expert bots"
    # A table's ruleset that cannot be read: its preset's; a variant this version does not know: listed as kept.
    unreadable = summary(replace(game, rules="{"), "fr")
    assert unreadable is not None and unreadable.variant.details == "en 1\u202f000 points · robots expert"
    assert summary(replace(game, rules="{", preset="nope"), "fr") is None


def test_the_replay_gives_each_deal_with_terms_that_add_up_to_its_marks(history: tuple[Settings, str]) -> None:
    settings, _ = history
    with TestClient(create_app(settings)) as client:
        games = {lang: client.get(f"/api/games/1?lang={lang}").json() for lang in ("fr", "en")}
        assert client.get("/api/games/99").status_code == 404
    players = {lang: [seat["title"] for seat in game["seats"]] for lang, game in games.items()}
    assert players == {"fr": ["Joueur 0", "Sud · robot club"], "en": ["Joueur 0", "South · club bot"]}
    for data in games.values():
        played = [d for d in data["deals"] if d["contract"]]
        assert played
        for deal in played:
            result = deal["result"]
            for side, marks in result["marks"].items():
                assert sum(line["points"] for line in result["lines"] if str(line["side"]) == side) == marks
            assert len(deal["tricks"]) == 9 and all(len(hand) == 9 for hand in deal["hands"])
        totals = {side: sum(d["result"]["marks"].get(side, 0) for d in data["deals"]) for side in ("0", "1")}
        assert totals == {k: v for k, v in data["scores"].items()}
        # What the live table's end-of-deal panel showed: what each side made, where the marks are not just that.
        fallen = [d["result"] for d in played if d["result"]["made"]]
        assert fallen and all({line["side"] for line in r["made"]} == {0, 1} for r in fallen)


def test_a_deal_is_analysed_once_and_the_analysis_kept(history: tuple[Settings, str]) -> None:
    settings, _ = history
    with TestClient(create_app(settings)) as client:
        deal = next(i for i, d in enumerate(client.get("/api/games/1").json()["deals"]) if d["contract"])
        first = client.get(f"/api/games/1/deals/{deal}/analysis")
        assert first.status_code == 200
        rows: list[dict[str, Any]] = first.json()
        assert len(rows) == 18 and all(row["cost"] == row["best"] - row["value"] >= 0 for row in rows)
        assert all((row["cost"] == 0) == (row["card"] in row["best_cards"]) for row in rows)
        assert client.get("/api/games/1/deals/99/analysis").status_code == 404

        async def not_again(*_: object) -> None:
            raise AssertionError("analysed twice")

        client.app.state.service.pool.analyse = not_again  # type: ignore[attr-defined]
        assert client.get(f"/api/games/1/deals/{deal}/analysis").json() == rows  # the store answers


def test_analyses_are_limited_per_address_and_in_time(history: tuple[Settings, str]) -> None:
    """Computing an analysis costs a worker: an address may have a few computed an hour (one kept is free),
    and one that takes longer than the pool's time is given up, said in the visitor's language."""
    settings, _ = history
    with TestClient(create_app(settings)) as client:
        played = [i for i, d in enumerate(client.get("/api/games/1").json()["deals"]) if d["contract"]]
        assert len(played) >= 2 and client.get(f"/api/games/1/deals/{played[0]}/analysis").status_code == 200
    with TestClient(create_app(replace(settings, analyses_per_hour=1, analysis_time=0.0))) as client:
        too_long = client.get(f"/api/games/1/deals/{played[1]}/analysis?lang=en")
        assert too_long.status_code == 503 and too_long.json()["detail"] == tr("web.error.analysis_too_long", "en")
        refused = client.get(f"/api/games/1/deals/{played[1]}/analysis")  # nothing was kept: computed again
        assert refused.status_code == 429 and refused.json()["detail"] == tr("web.error.too_many_analyses", "fr")
        assert client.get(f"/api/games/1/deals/{played[0]}/analysis").status_code == 200  # kept: no limit


def test_the_records_download_is_read_by_the_referee(history: tuple[Settings, str], tmp_path: Path) -> None:
    settings, code = history
    with TestClient(create_app(settings)) as client:
        response = client.get("/games/1/records.txt")
    assert response.status_code == 200
    assert response.headers["content-disposition"] == f'attachment; filename="atout-{code}-1.txt"'
    path = tmp_path / "game.txt"
    path.write_text(response.text, encoding="utf-8")
    result = subprocess.run(
        [sys.executable, "-m", "atout", "referee", str(path)], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("\n") >= len(read_records(response.text))  # a summary of every deal


def test_the_rules_page_speaks_the_players_language_and_links_to_the_reference(tmp_path: Path) -> None:
    with TestClient(create_app(fast_settings(tmp_path))) as client:
        french = client.get("/rules").text
        english = client.get("/rules?lang=en").text
        reference = client.get("/rules/reference?lang=fr").text
    assert "Les règles, pour les joueurs" in french and "Belote coinchée (FFB)" in french
    assert "The rules, for players" in english and "Sans atout and tout atout" in english
    assert 'href="/rules/reference"' in french and "The rules atout implements" in reference
    assert tr("web.rules.english_only", "fr") in reference


@pytest.mark.parametrize("lang", languages())
def test_every_variant_links_to_its_section_of_the_rules_page(lang: str) -> None:
    """The history and the table link to ``/rules#<section>``: each preset's section is there, in each language."""
    page = rules_html(lang)
    for preset in PRESETS:
        anchor = rules_section(preset).removeprefix("/rules#")
        assert f'<h2 id="{anchor}">' in page, (preset, lang)


def test_an_address_creates_a_limited_number_of_tables_an_hour(tmp_path: Path) -> None:
    with TestClient(create_app(fast_settings(tmp_path, tables_per_hour=2))) as client:
        body = {"preset": "coinche", "name": "Alice"}
        assert [client.post("/api/tables", json=body).status_code for _ in range(2)] == [200, 200]
        refused = client.post("/api/tables", json=body)
        assert refused.status_code == 429 and refused.json()["detail"] == tr("web.error.too_many_tables", "fr")


class StalledSocket:
    """A WebSocket whose client reads nothing: what is written is kept, and the close code."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.closed: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(text)

    async def close(self, code: int) -> None:
        self.closed = code


def test_a_client_too_slow_to_read_is_closed_with_4008_after_what_it_was_sent() -> None:
    socket = StalledSocket()
    conn = WsConnection(socket, None, "fr")  # type: ignore[arg-type]
    for _ in range(OUTBOX + 1):  # the writer is stalled: the outbox fills, then overflows
        conn.send(Pong())
    asyncio.run(conn.write())
    assert socket.closed == 4008 and len(socket.sent) == OUTBOX - 1
