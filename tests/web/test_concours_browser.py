"""A concours in a real browser (Debian's Chromium): the organiser creates it on a laptop, registers eight teams at
the desk and draws round 1; two phones enter and confirm a table's deals; the projector's standings update by
themselves; round 2 is drawn without a repeated pair. Screenshots of the organiser's, a phone's and the
projector's pages are written to ``ATOUT_SCREENSHOTS`` when it is set (to look at them).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from harness.browser import DESKTOP, PHONE, new_page, sign_in
from playwright.sync_api import Browser, Page

pytestmark = pytest.mark.timeout(300)

TEAMS = ["Les As", "Belote & Co", "Carreau d'As", "Dix de der", "Les Capots", "Rebelote", "Tierce", "Le Valet"]


def shoot(page: Page, name: str) -> None:
    folder = os.environ.get("ATOUT_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def enter_deal(page: Page, taker: int, points: str) -> None:
    """Fill the score keeper's questions for a 90 ♥ contract and send them."""
    page.check(f".deal-form input[name=taker][value='{taker}']")
    page.select_option(".deal-form select[name=bid]", "90")
    page.select_option(".deal-form select[name=strain]", "1")
    page.fill(".deal-form input[name=points]", points)
    page.click(".deal-form button[type=submit]")


def round_pairs(page: Page) -> set[frozenset[str]]:
    """The pairs of teams at the desk's tables of the current round."""
    names = page.locator(".round-table:not(.status-bye) > div:nth-child(2)").all_inner_texts()
    return {frozenset(n.split(" – ")) for n in names}


def test_an_organiser_runs_a_round_with_two_phones_and_a_projector(browser: Browser, server: str) -> None:
    desk = new_page(browser, DESKTOP)
    sign_in(desk, server)
    desk.goto(server + "/concours")
    desk.fill("input[name=name]", "Concours de la Saint-Martin")
    desk.fill("input[name=rounds]", "3")
    desk.select_option("select[name=end]", "deals")
    desk.fill("input[name=count]", "2")
    desk.click("main form button[type=submit]")
    desk.wait_for_selector("#register-form")
    for team in TEAMS:
        desk.fill("#register-form input[name=name]", team)
        desk.click("#register-form button[type=submit]")
        desk.wait_for_selector(f"ol.entrants li:has-text({team!r})")
    desk.click("text=Tirer la manche 1")
    desk.wait_for_selector(".round-table")
    first_round = round_pairs(desk)
    assert len(first_round) == 4
    shoot(desk, "concours-desk")
    desk.goto(desk.url + "/print")
    desk.wait_for_selector(".table-card img")
    shoot(desk, "concours-print")
    desk.go_back()
    link = desk.locator(".round-table a[href^='/s/']").first.get_attribute("href")
    assert link is not None
    desk_url = desk.url

    projector = new_page(browser, {"width": 1920, "height": 1080})
    projector.goto(desk_url + "/standings")
    assert "0/4" in projector.inner_text("#projector-round")

    phone_a, phone_b = new_page(browser, PHONE), new_page(browser, PHONE)
    phone_a.goto(server + link)
    phone_a.locator(".sides button").first.click()
    enter_deal(phone_a, 0, "110")
    phone_a.wait_for_selector("text=Donne 2")
    enter_deal(phone_a, 1, "90")
    phone_a.wait_for_selector("text=doit confirmer")
    shoot(phone_a, "concours-phone")
    phone_b.goto(server + link)
    shoot(phone_b, "concours-phone-side")
    phone_b.locator(".sides button").nth(1).click()
    phone_b.click("text=Confirmer le résultat")
    phone_b.wait_for_selector("text=Résultat confirmé")

    projector.wait_for_function(
        "document.querySelector('#projector-round').textContent.includes('1/4')", timeout=20_000
    )
    assert projector.locator("#standings-rows tr").count() == len(TEAMS)
    shoot(projector, "concours-projector")

    desk.reload()
    for href in desk.locator(".round-table.status-open a[href^='/s/']").evaluate_all(
        "as => as.map(a => a.getAttribute('href'))"
    ):
        desk.goto(server + href)  # the organiser enters and confirms the other tables
        enter_deal(desk, 0, "100")
        desk.wait_for_selector("text=Donne 2")
        enter_deal(desk, 0, "100")
        desk.click("text=Confirmer le résultat")
        desk.wait_for_selector("text=Résultat confirmé")
    desk.goto(desk_url)
    desk.click("text=Tirer la manche 2")
    desk.wait_for_selector("text=Manche 2")
    second_round = round_pairs(desk)
    assert len(second_round) == 4 and not first_round & second_round
    for page in (desk, projector, phone_a, phone_b):
        assert page.errors == []  # type: ignore[attr-defined]


def test_the_phone_refuses_impossible_facts_in_words(browser: Browser, server: str) -> None:
    """A home sheet on a phone: 170 card points are refused with the reason, and nothing is noted."""
    phone = new_page(browser, PHONE)
    phone.goto(server + "/keeper")
    phone.click("main form button[type=submit]")
    phone.wait_for_selector(".deal-form")
    enter_deal(phone, 0, "170")
    assert "162" in phone.inner_text(".error-text")
    assert phone.locator("table.deals").count() == 0
    enter_deal(phone, 0, "100")
    phone.wait_for_selector("table.deals")
    shoot(phone, "keeper-phone")
    assert phone.errors == []  # type: ignore[attr-defined]
