"""A real browser for the end-to-end tests: Debian's Chromium driven by Playwright, and the pages it opens (each
records the script errors it meets, and waits at most 20 s for anything)."""

from __future__ import annotations

from typing import Literal

from playwright.sync_api import Browser, Page

#: Chromium's flags: no sandbox (CI runs as root), nothing fetched from the network.
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
#: A phone held sideways.
SIDEWAYS = {"width": 844, "height": 390}


def new_page(
    browser: Browser, viewport: dict[str, int] = DESKTOP, reduced_motion: Literal["reduce"] | None = None
) -> Page:
    """A page in a context of its own (its own storage), its script errors kept in ``page.errors``;
    ``reduced_motion="reduce"``: the player prefers reduced motion."""
    page = browser.new_context(viewport=viewport, reduced_motion=reduced_motion).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(20_000)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def quick_start(page: Page, server: str, name: str = "Alice") -> None:
    """Start a game against bots from the home page's quick form, until the hand is dealt."""
    page.goto(server + "/")
    page.fill("#quick-form input[name=name]", name)
    page.click("#quick-form button")
    page.wait_for_selector(".hand .card")


def sign_in(page: Page, server: str, name: str = "Organisatrice", password: str = "mot-de-passe-long") -> None:
    """Sign in as ``name``, creating the account first where there is none (a module's first account is the
    server's administrator, an organiser)."""
    page.goto(server + "/signin")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("main button[type=submit]")
    if page.locator(".error-text:visible").count():
        page.goto(server + "/signup")
        page.fill("input[name=name]", name)
        page.fill("input[name=password]", password)
        page.click("main button[type=submit]")
    page.wait_for_selector(f".topbar .account a:has-text({name!r})")
