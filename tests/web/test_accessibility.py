"""Every page passes an accessibility check: axe-core (from the npm registry, ``npm ci``) run in Debian's Chromium
finds no serious or critical violation (labelled controls, contrast AA, names, permitted ARIA) on the home page,
a table waiting for players, a table dealt and its bidding box, the history, a replay, the rules pages, the
sign-in page, a score sheet, a concours's desk and its projector, at desktop, phone and sideways phone sizes.

Where ``npm ci`` has not been run the tests are skipped, unless ``ATOUT_REQUIRE_BROWSER`` is set (CI sets it).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from harness.browser import DESKTOP, PHONE, SIDEWAYS, new_page, quick_start, sign_in
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


def score_sheet(page: Page, server: str) -> None:
    page.goto(server + "/keeper")
    page.click("main form button[type=submit]")
    page.wait_for_selector(".deal-form")


def desk(page: Page, server: str) -> None:
    """An organiser's desk with round 1 drawn (the module's first account is the organiser)."""
    sign_in(page, server)
    page.goto(server + "/concours")
    page.fill("input[name=name]", "Concours")
    page.click("main form button[type=submit]")
    for team in ("Les As", "Rebelote", "Tierce", "Le Valet", "Dix de der"):
        page.fill("#register-form input[name=name]", team)
        page.click("#register-form button[type=submit]")
    page.click("text=Tirer la manche 1")
    page.wait_for_selector(".round-table")


def projector(page: Page, server: str) -> None:
    desk(page, server)
    page.goto(page.url + "/standings")
    page.wait_for_selector("#projector-updated:not(:empty)")


def online_desk(page: Page, server: str) -> None:
    """An online concours's desk with round 1 drawn: two teams of bots at a web table, its seats open."""
    sign_in(page, server)
    page.goto(server + "/concours")
    page.fill("input[name=name]", "En ligne")
    page.check("input[name=mode][value=online]")
    page.click("main form button[type=submit]")
    for team in ("Les As", "Rebelote"):
        page.fill("#register-form input[name=name]", team)
        page.click("#register-form button[type=submit]")
    page.click("text=Tirer la manche 1")
    page.wait_for_selector(".online-table")
    page.locator(".online-table details summary").first.click()


def online_call(page: Page, server: str) -> None:
    """A player's page of an online concours (the organiser's: he is not registered)."""
    online_desk(page, server)
    page.goto(page.url + "/play")
    page.wait_for_selector("#call p")


def challenge(page: Page, server: str, name: str = "Défi", deals: int = 2) -> None:
    """A challenge's page, as an organiser creates it (its ranking shows once played: the browser test's)."""
    sign_in(page, server)
    page.goto(server + "/challenges")
    page.fill("input[name=name]", name)
    page.fill("input[name=deals]", str(deals))
    page.click("#new-challenge ~ form button[type=submit]")
    page.wait_for_selector(f"h1:has-text('{name}')")


PAGES: dict[str, Callable[[Page, str], None]] = {
    "home": lambda page, server: page.goto(server + "/"),
    "table, waiting for players": lobby,
    "table, dealt": quick_start,
    "table, the bidding box": bidding,
    "history": lambda page, server: page.goto(server + "/games"),
    "replay": lambda page, server: (page.goto(server + "/games/1"), page.wait_for_selector(".card")),
    "rules": lambda page, server: page.goto(server + "/rules"),
    "rules, reference": lambda page, server: page.goto(server + "/rules/reference"),
    "sign in": lambda page, server: page.goto(server + "/signin"),
    "ladder": lambda page, server: page.goto(server + "/ladder"),
    "ladder, a player's profile": lambda page, server: (
        sign_in(page, server),
        page.goto(server + "/players/Organisatrice"),
    ),
    "score sheet": score_sheet,
    "concours desk": desk,
    "concours projector": projector,
    "online concours desk": online_desk,
    "online concours call": online_call,
    "challenges, an organiser's": lambda page, server: (sign_in(page, server), page.goto(server + "/challenges")),
    "a challenge": challenge,
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
