"""A duplicate challenge in a real browser (Debian's Chromium): an organiser creates a one-deal challenge; Anne
starts it on her phone, closes the tab mid-deal and resumes where she was; Bruno plays it too; the ranking comes
out as worked by hand from the two scores (2 match points for beating the other, 1 for a tie: 100 % / 0 %, or
50 % each), and each sees it only once he has finished. Screenshots go to ``ATOUT_SCREENSHOTS`` when set.
"""

from __future__ import annotations

import re

import pytest
from harness.browser import DESKTOP, PHONE, new_page, sign_in
from playwright.sync_api import Browser, Page
from test_accessibility import AXE, challenge, violations
from test_browser import take_a_turn
from test_concours_browser import shoot

pytestmark = pytest.mark.timeout(300)

#: The link a challenge's table shows when its game is over.
BACK = "a.button:has-text('Voir le classement du défi')"


def play_to_the_end(page: Page) -> None:
    """Play the participant's turns until the challenge's game is over (its end links to the ranking)."""
    for _ in range(60):
        if page.locator(BACK).count():
            return
        take_a_turn(page, bid=False, wait=2_000)
    page.wait_for_selector(BACK)


def my_score(page: Page) -> int:
    """The participant's score on deal 1, as the challenge's page says it."""
    heading = page.inner_text("#deal-1").replace("\u00a0", " ")
    found = re.search(r"votre score ([+−-]?\d+)", heading)
    assert found is not None, heading
    return int(found[1].replace("−", "-"))


def test_two_participants_play_the_same_challenge_and_are_ranked_by_match_points(browser: Browser, server: str) -> None:
    organiser = new_page(browser, DESKTOP)
    challenge(organiser, server, "Défi du samedi", deals=1)
    challenge_url = organiser.url
    shoot(organiser, "challenge-created")

    anne = new_page(browser, PHONE)
    sign_in(anne, server, "Anne")
    anne.goto(challenge_url)
    assert anne.locator("#ranking").count() == 0
    anne.click("button:has-text('Jouer le défi')")
    anne.wait_for_selector(".hand .card")
    table_url = anne.url
    # A few turns, then the tab is closed mid-deal: Anne bids at her first call, so that the one deal is not
    # passed out (which would end the challenge at once).
    for turn in range(3):
        take_a_turn(anne, bid=turn == 0)
    cards_before = anne.locator(".hand .card").count()
    context = anne.context
    anne.close()

    anne = context.new_page()
    anne.set_default_timeout(20_000)
    errors: list[str] = []
    anne.on("pageerror", lambda error: errors.append(str(error)))
    anne.goto(challenge_url)
    anne.click("button:has-text('Reprendre')")
    anne.wait_for_selector("#table")
    assert anne.url == table_url  # her own table, where she was
    anne.wait_for_selector(".hand .card, " + BACK)
    assert anne.locator(".hand .card").count() <= cards_before
    play_to_the_end(anne)
    shoot(anne, "challenge-table-end")
    anne.click(BACK)
    anne.wait_for_selector("#ranking")
    anne_score = my_score(anne)

    bruno = new_page(browser, DESKTOP)
    sign_in(bruno, server, "Bruno")
    bruno.goto(challenge_url)
    assert bruno.locator("#ranking").count() == 0  # the field's results: only once he has finished
    bruno.click("button:has-text('Jouer le défi')")
    bruno.wait_for_selector(".hand .card")
    play_to_the_end(bruno)
    bruno.click(BACK)
    bruno.wait_for_selector("#ranking")
    bruno_score = my_score(bruno)
    shoot(bruno, "challenge-results")
    if AXE.exists():  # the results page (its ranking and the field's tables), as the other pages are checked
        assert violations(bruno) == []

    rows = bruno.locator("#ranking ~ .table-scroll tbody tr").all_inner_texts()
    percent = {
        name: row.split("\t")[4].replace("\u00a0", " ") for row in rows for name in ("Anne", "Bruno") if name in row
    }
    if anne_score == bruno_score:
        assert percent == {"Anne": "50,0 %", "Bruno": "50,0 %"}
    else:
        best, other = ("Anne", "Bruno") if anne_score > bruno_score else ("Bruno", "Anne")
        assert percent == {best: "100,0 %", other: "0,0 %"}
    assert errors == [] and bruno.errors == []  # type: ignore[attr-defined]
