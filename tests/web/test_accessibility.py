"""Every page passes an accessibility check: axe-core (from the npm registry, ``npm ci``) run in Debian's Chromium
finds no serious or critical violation (labelled controls, contrast AA, names, permitted ARIA) on the home page,
a table waiting for players, a table dealt and its bidding box, the history, a replay and the rules pages, at
desktop, phone and sideways phone sizes.

Where ``npm ci`` has not been run the tests are skipped, unless ``ATOUT_REQUIRE_BROWSER`` is set (CI sets it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness.browser import DESKTOP, PHONE, SIDEWAYS, new_page, quick_start
from harness.servers import missing
from playwright.sync_api import Browser, Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
#: What fails a page: axe's two worst levels of impact.
SEVERE = ("serious", "critical")
SIZES = {"desktop": DESKTOP, "phone": PHONE, "sideways": SIDEWAYS}


def violations(page: Page) -> list[str]:
    """The serious and critical violations axe finds on the page as it is now, one line each."""
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate("async () => (await axe.run(document)).violations")
    return [
        f"{v['id']} ({v['impact']}): {v['help']}: {[n['target'] for n in v['nodes']][:5]}"
        for v in found
        if v["impact"] in SEVERE
    ]


def lobby(page: Page, server: str) -> None:
    page.goto(server + "/")
    page.fill("#create-form input[name=name]", "Alice")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".lobby-seats")


def bidding(page: Page, server: str) -> None:
    quick_start(page, server)
    page.wait_for_selector(".bidding .actions button")


PAGES: dict[str, Callable[[Page, str], None]] = {
    "home": lambda page, server: page.goto(server + "/"),
    "table, waiting for players": lobby,
    "table, dealt": quick_start,
    "table, the bidding box": bidding,
    "history": lambda page, server: page.goto(server + "/games"),
    "replay": lambda page, server: (page.goto(server + "/games/1"), page.wait_for_selector(".card")),
    "rules": lambda page, server: page.goto(server + "/rules"),
    "rules, reference": lambda page, server: page.goto(server + "/rules/reference"),
}


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", PAGES)
def test_no_serious_accessibility_violation(browser: Browser, server: str, name: str, size: str) -> None:
    if not AXE.exists():
        missing("axe-core (npm ci)", "ATOUT_REQUIRE_BROWSER")
    page = new_page(browser, SIZES[size])
    PAGES[name](page, server)
    assert violations(page) == []
    assert page.errors == []  # type: ignore[attr-defined]
    page.context.close()
