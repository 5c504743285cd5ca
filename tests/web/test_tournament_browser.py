"""An online round in a real browser (Debian's Chromium): an organiser creates an online concours of four teams —
two people, each with a partner who never comes (one an account the organiser replaces by a bot at the desk, one
a bot from the start), and two teams of bots — and draws round 1; each person's page of the concours, opened
before the draw, calls him to his table (the tab's title changes); he plays it to its end, and the projector's
standings show the result. Screenshots go to ``ATOUT_SCREENSHOTS`` when it is set.
"""

from __future__ import annotations

import re

import pytest
from harness.browser import DESKTOP, PHONE, new_page, sign_in
from playwright.sync_api import Browser, Page
from test_browser import take_a_turn
from test_concours_browser import shoot

pytestmark = pytest.mark.timeout(300)

#: What a table shows once its match is over, to either side.
OVER = "text=/Vous avez (gagné|perdu) la partie/"


def play_to_the_end(pages: list[Page]) -> None:
    """Each person does what his table asks, in turn, until every table's match is over."""
    bids = {id(page): False for page in pages}
    for _ in range(400):
        playing = [page for page in pages if not page.locator(OVER).count()]
        if not playing:
            return
        for page in playing:
            done = take_a_turn(page, bid=not bids[id(page)], wait=1000)
            bids[id(page)] = bids[id(page)] or done == "bid"
    raise AssertionError("the tables did not finish")


def test_an_online_round_from_the_call_to_the_standings(browser: Browser, server: str) -> None:
    desk = new_page(browser, DESKTOP)
    sign_in(desk, server)  # the module's first account: the administrator, an organiser
    people = {name: new_page(browser, PHONE) for name in ("Anne", "Bruno")}
    for name, page in people.items():
        sign_in(page, server, name)
    absent = new_page(browser, PHONE)
    sign_in(absent, server, "Absent")
    absent.context.close()

    desk.goto(server + "/concours")
    desk.fill("input[name=name]", "Tournoi en ligne")
    desk.fill("input[name=rounds]", "1")
    desk.select_option("select[name=end]", "deals")
    desk.fill("input[name=count]", "1")
    desk.check("input[name=mode][value=online]")
    desk.fill("input[name=absent_delay]", "0,5")
    desk.click("main form button[type=submit]")
    desk.wait_for_selector("#register-form")
    for team, first, second in (("Les As", "Anne", "Absent"), ("Belote & Co", "Bruno", ""), ("Robots", "", "")):
        desk.fill("#register-form input[name=name]", team)
        desk.fill("#register-form input[name=player1]", first)
        desk.fill("#register-form input[name=player2]", second)
        desk.click("#register-form button[type=submit]")
        desk.wait_for_selector(f"ol.entrants li:has-text({team!r})")
    desk.fill("#register-form input[name=name]", "Personne")
    desk.fill("#register-form input[name=player1]", "Inconnu")
    desk.click("#register-form button[type=submit]")
    assert "Il n'y a pas de compte" in desk.inner_text(".error-text")
    desk.fill("#register-form input[name=player1]", "")
    desk.click("#register-form button[type=submit]")
    desk.wait_for_selector("ol.entrants li:has-text('Personne')")
    code = desk.url.rsplit("/", 1)[-1]

    for page in people.values():  # each person waits for his call
        page.goto(f"{server}/c/{code}/play")
        page.wait_for_selector("#call p")
        assert not page.title().startswith("À votre table")
    shoot(people["Anne"], "online-call-waiting")

    desk.click("text=Tirer la manche 1")
    desk.wait_for_selector(".online-table")
    desk.locator(".online-table details summary").first.click()
    shoot(desk, "online-desk")
    for summary in desk.locator(".online-table details:not([open]) summary").all():
        summary.click()  # every table's seats
    # The organiser gives the absent account's seat to a bot (an empty name).
    desk.locator(".online-seats li", has_text=re.compile("Absent")).locator("button").click()
    desk.wait_for_selector(".online-table")
    assert desk.locator(".online-seats li", has_text=re.compile("Absent")).count() == 0

    for page in people.values():
        page.wait_for_selector("#call .go-table", timeout=20_000)  # the page asks every 5 seconds
        assert page.title().startswith("À votre table\u00a0!")
    shoot(people["Anne"], "online-call")
    for page in people.values():
        page.click("#call .go-table")
        page.wait_for_selector(".hand .card")
    play_to_the_end(list(people.values()))
    shoot(people["Bruno"], "online-table-over")

    projector = new_page(browser, {"width": 1366, "height": 800})
    projector.goto(f"{server}/c/{code}/standings")
    projector.wait_for_function(
        "document.querySelector('#projector-round').textContent.includes('Concours terminé')", timeout=60_000
    )
    assert projector.locator("#standings-rows tr").count() == 4
    assert projector.locator("#podium li").count() >= 3
    shoot(projector, "online-projector")
    desk.reload()
    assert desk.locator(".online-table.status-finished").count() == 2
    shoot(desk, "online-desk-finished")
    for page in (desk, projector, *people.values()):
        assert page.errors == []  # type: ignore[attr-defined]
