"""Updates carry the events and what changed, and what changed is enough: a client that applies each update's
changes to its view has, after every update, exactly the view the server would send it whole.

Whole matches of the variants whose deals differ most in what changes (announcements and belote, a
retourne and its second stage, two players and their stock) are played through the real actor by
players and a spectator, in both languages; every update is checked the moment it is sent.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from harness import Harness, Recorder, connect, fast_settings, play_random, settle

pytestmark = pytest.mark.anyio


def whole(conn: Recorder, message: dict[str, Any]) -> str | None:
    """Whether the view ``conn`` has built, this message applied, is the one the server would send now."""
    actor = conn.actor
    assert actor is not None
    if message["type"] != "update":
        return None
    expected = json.loads(actor._view(conn).model_dump_json(exclude_unset=True))
    built = conn.view
    wrong = sorted(
        f"{key}.{field}" if key == "deal" else key
        for key in expected
        for field in (expected["deal"] or {} if key == "deal" else {None: None})
        if (built.get(key) if field is None else (built.get("deal") or {}).get(field))
        != (expected[key] if field is None else expected["deal"][field])
    )
    return f"version {message['version']} ({[e['kind'] for e in message['events']]}): {wrong}" if wrong else None


@pytest.mark.parametrize("preset", ["coinche", "classique", "deux"])
async def test_applying_each_updates_changes_gives_the_whole_view(tmp_path: Path, preset: str) -> None:
    checked = 0
    async with Harness(fast_settings(tmp_path)) as harness:
        for game, humans in enumerate((1, 2)):
            actor, conns = await harness.table(preset, humans, check=whole)
            watchers = [Recorder(None, lang, check=whole) for lang in ("fr", "en")]
            for watcher in watchers:
                connect(actor, watcher)
            await settle(actor)
            await play_random(actor, conns, random.Random(f"{preset}:{game}"))
            problems = [p for r in (*conns, *watchers) for p in r.problems]
            assert problems == []
            checked += sum(m["type"] == "update" for m in watchers[0].messages)
    assert checked > 50  # whole matches were checked
