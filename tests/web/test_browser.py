"""End to end, in a real browser: Debian's Chromium driven by Playwright against a real server.

A player creates a table and plays a whole deal against bots with the mouse (and
the keyboard); two browsers join one table and play it together; a page reloaded
in the middle of a deal carries on; the last trick shows for a moment; a phone held
upright plays a whole deal, and every page fits it.
"""

from __future__ import annotations

import asyncio
import subprocess
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from harness import fast_settings, finished_game
from harness.servers import free_port, start_server
from playwright.sync_api import Browser, Page, Route, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeout

ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: Something the player can do now: a call, a card, a choice in a box (belote, announcements, next deal).
ACTIONABLE = ", ".join(
    f"#table:not(.busy) {part}"
    for part in (".bidding .actions button", ".hand.my-turn .card.playable", ".box .actions button")
)
PHONE = {"width": 390, "height": 844}
#: More turns than a deal can take (so that a test fails instead of hanging).
MOST_TURNS = 60
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose history holds one finished game (game 1)."""
    port = free_port()
    data = tmp_path_factory.mktemp("web")
    with ThreadPoolExecutor(1) as thread:  # Playwright's own loop may be running in this thread
        thread.submit(asyncio.run, finished_game(fast_settings(data))).result()
    process = start_server(data, port, bot_pace=0.05)
    yield f"http://127.0.0.1:{port}"
    process.kill()
    process.wait()


@pytest.fixture(scope="module")
def browser(chromium: str) -> Iterator[Browser]:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=ARGS)
        yield browser
        browser.close()


def new_page(browser: Browser, viewport: dict[str, int] = DESKTOP) -> Page:
    page = browser.new_context(viewport=viewport).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_default_timeout(20_000)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def quick_start(page: Page, server: str, name: str = "Alice") -> None:
    page.goto(server + "/")
    page.fill("#quick-form input[name=name]", name)
    page.click("#quick-form button")
    page.wait_for_selector(".hand .card")


def answered(page: Page, card: str) -> bool:
    """Whether a click on ``card`` was answered: it is on its way (the table busy), it asks the belote
    question, or it has left the hand (the last card leaves no hand at all)."""
    return bool(page.locator(f"#table.busy, .box.belote, #table:not(:has(.hand [data-card='{card}']))").count())


def take_a_turn(page: Page, bid: bool, wait: float = 20_000) -> str:
    """Do what the table asks of this player (bid once, then pass; play a legal card); what was done
    ("" if the table moved on meanwhile: the page is drawn anew at every update)."""
    try:
        page.wait_for_selector(ACTIONABLE, timeout=wait)
    except PlaywrightTimeout:
        if wait >= 20_000:
            raise
        return ""
    if page.locator(".bidding .actions button").count():
        strains = page.locator(".bidding button.suit-red, .bidding button.suit-black")
        if bid and strains.count():
            strains.first.click()
            return "bid"
        page.locator(".bidding .actions button", has_text="Passe").first.click()
        return "call"
    if page.locator(".hand.my-turn .card.playable").count():
        code = page.locator(".hand.my-turn .card.playable").first.get_attribute("data-card")
        page.locator(f".hand .card[data-card='{code}']").click()  # this card, even if the hand is drawn anew
        # At once, even while the last trick is still shown: the card is on its way, or it asks a question.
        assert answered(page, code), f"clicking {code} did nothing"
        belote = page.locator(".box.belote button.primary")  # the card asks: say belote?
        if belote.count():
            belote.first.click()
        return "card"
    box = page.locator(".box .actions button")
    if not box.count():
        return ""
    label = box.first.inner_text(timeout=2000)
    box.first.click(timeout=2000)
    return "continue" if label == "Continuer" else "choice"


def play_deal(page: Page) -> list[str]:
    """Play until the deal's score is shown and Continue is pressed."""
    done: list[str] = []
    for _ in range(MOST_TURNS):
        done.append(take_a_turn(page, bid="bid" not in done))
        if done[-1] == "continue":
            return done
    raise AssertionError(f"the deal did not end: {done}")


def test_create_a_table_and_play_a_whole_deal_against_bots(browser: Browser, server: str) -> None:
    page = new_page(browser)
    quick_start(page, server)
    labels = page.locator(".hand .card").evaluate_all("cards => cards.map(c => [c.className, c.ariaLabel])")
    assert len(labels) == 8 and all("red" in kind or "black" in kind for kind, _ in labels)
    assert all(" de " in name for _, name in labels)  # cards are named for screen readers, in French
    page.wait_for_selector(ACTIONABLE)
    done = play_deal(page)
    assert done.count("card") == 8 or "bid" not in done  # a passed deal plays no card
    assert page.locator(".felt").count() == 1
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_value_chosen_in_the_list_is_the_one_bid(browser: Browser, server: str) -> None:
    """The bidding box bids the value chosen, even when the list closes with the pointer still counted as down
    (the table's redraw then waited, and the suit buttons still bid the lowest value)."""
    page = new_page(browser)
    quick_start(page, server)
    for _ in range(MOST_TURNS):
        page.wait_for_selector(ACTIONABLE)
        if page.locator(".bidding select.more-bids").count():
            break
        take_a_turn(page, bid=False)
    else:
        raise AssertionError("never asked to bid with more values than the buttons")
    value = page.locator(".bidding select.more-bids option").nth(2).get_attribute("value")
    page.dispatch_event("#table", "pointerdown")  # as a press opening the list: the browser sends no release
    page.select_option(".bidding select.more-bids", value)
    page.locator(".bidding button.suit-red").first.click()
    mine = page.locator(".calls span", has_text="Alice").last
    mine.wait_for()
    assert value is not None and mine.inner_text().split()[-2] == value, mine.inner_text()


def test_the_keyboard_plays_a_card(browser: Browser, server: str) -> None:
    page = new_page(browser)
    quick_start(page, server)
    for _ in range(MOST_TURNS):
        page.wait_for_selector(ACTIONABLE)
        if page.locator(".hand.my-turn .card.playable").count():
            break
        take_a_turn(page, bid=True)
    before = page.locator(".hand .card").count()
    playable = page.locator(".hand .card").evaluate_all(
        "cards => cards.findIndex(c => c.classList.contains('playable'))"
    )
    page.keyboard.press(str(playable + 1))
    if page.locator(".box.belote").count():  # a king or queen of trump asks first; Enter says belote
        page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('.hand .card').length === {before - 1}")


def test_a_name_typed_before_the_page_has_its_messages_starts_the_game(browser: Browser, server: str) -> None:
    """The home page's forms answer at once: its messages are held back until the form is sent."""
    page = new_page(browser)
    held: list[Route] = []
    page.route("**/i18n/*", lambda route: route.continue_() if held else held.append(route))
    page.goto(server + "/")
    page.fill("#quick-form input[name=name]", "Alice")
    page.click("#quick-form button")
    held[0].continue_()
    page.wait_for_selector(".hand .card")
    assert page.locator("#table", has_text="Alice").count()


def two_players(browser: Browser, server: str) -> tuple[Page, Page]:
    """A table of the host, a guest (Bob) and two bots, its game started."""
    host, guest = new_page(browser), new_page(browser)
    host.goto(server + "/")
    host.fill("#create-form input[name=name]", "Alice")
    host.click("#create-form button[type=submit]")
    host.wait_for_selector(".lobby-seats")
    guest.goto(host.url)
    guest.on("dialog", lambda dialog: dialog.accept("Bob <script>"))
    guest.locator(".lobby-seats button").first.click()
    host.wait_for_selector("text=Bob <script>")  # the name arrives, as text
    host.click("text=Commencer la partie")
    for page in (host, guest):
        page.wait_for_selector(".hand .card")
    return host, guest


def test_a_card_pressed_while_the_table_is_drawn_anew_is_played(browser: Browser, server: str) -> None:
    """An update arriving between the press on a card and its release does not swallow the click."""
    host, guest = two_players(browser, server)
    deadline = time.monotonic() + 120  # a loaded machine makes rounds slow: bounded in time, not in rounds
    while time.monotonic() < deadline:  # until the guest is to play a card: the others' turns are played
        if guest.locator("#table:not(.busy) .hand.my-turn .card.playable").count():
            break
        take_a_turn(host, bid=False, wait=100)
        if guest.locator(ACTIONABLE).count():  # a call or a choice in a box
            take_a_turn(guest, bid=False)
    else:
        raise AssertionError(f"the guest was never to play a card; his table shows: {guest.inner_text('#table')}")
    card = guest.locator(".hand.my-turn .card.playable").first
    code = card.get_attribute("data-card")
    box = card.bounding_box()
    assert box is not None
    version = int(guest.locator("#table").get_attribute("data-version") or 0)
    guest.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    guest.mouse.down()
    host.close()  # the host leaves: the guest's table hears of it while the card is pressed
    guest.wait_for_function(f"Number(document.getElementById('table').dataset.version) > {version}")
    guest.mouse.up()
    assert answered(guest, code), f"the click on {code} was lost"


def test_two_browsers_join_one_table_and_play_it(browser: Browser, server: str) -> None:
    host, guest = two_players(browser, server)
    turns = {"host": 0, "guest": 0}
    deal_ends = 0
    for _ in range(MOST_TURNS * 10):  # rounds of a fifth of a second each at most
        if deal_ends == 2:  # each of them pressed Continue at the end of the deal
            break
        for key, page in (("host", host), ("guest", guest)):
            done = take_a_turn(page, bid=False, wait=200)
            deal_ends += done == "continue"
            turns[key] += done in ("call", "card", "choice")
    assert deal_ends == 2 and turns["host"] > 0 and turns["guest"] > 0


def test_a_page_reloaded_mid_deal_carries_on(browser: Browser, server: str) -> None:
    page = new_page(browser)
    quick_start(page, server)
    done: list[str] = []
    while done.count("card") < 2 and len(done) < MOST_TURNS:
        done.append(take_a_turn(page, bid=True))
    page.wait_for_function("document.querySelectorAll('.hand .card').length === 6")
    hand = page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)")
    page.reload()
    page.wait_for_selector(".hand .card")
    assert page.locator(".hand .card").evaluate_all("cards => cards.map(c => c.dataset.card)") == hand
    for _ in range(MOST_TURNS):
        if take_a_turn(page, bid=False) == "card":
            break
    page.wait_for_function("document.querySelectorAll('.hand .card').length === 5")


def fits(page: Page) -> bool:
    """Nothing sticks out sideways: the page needs no horizontal scrolling."""
    return bool(page.evaluate("document.documentElement.scrollWidth <= window.innerWidth"))


def test_a_side_seats_long_announcement_stays_on_a_phones_screen(browser: Browser, server: str) -> None:
    page = new_page(browser, PHONE)
    quick_start(page, server)
    # In one go (the page is redrawn at every update): East and West show the longest word an announcement has.
    widths = page.evaluate(
        """() => {
        for (const seat of document.querySelectorAll('.seat.left, .seat.right')) {
            const bubble = document.createElement('div');
            bubble.className = 'bubble shown';
            bubble.textContent = 'cinquante V♦-A♦';
            seat.append(bubble);
        }
        return [document.documentElement.scrollWidth, window.innerWidth];
        }"""
    )
    assert widths[0] <= widths[1]


def test_a_phone_held_upright_plays_a_whole_deal(browser: Browser, server: str, tmp_path: Path) -> None:
    page = new_page(browser, PHONE)
    quick_start(page, server)
    assert fits(page)
    edges = page.locator(".hand .card").evaluate_all(  # in one go: the page is redrawn at every update
        "cards => cards.map(c => { const r = c.getBoundingClientRect(); return [r.left, r.right]; })"
    )
    assert len(edges) == 8
    assert all(left >= 0 and left + 20 <= PHONE["width"] for left, _ in edges)  # every card can be tapped
    assert page.locator(".seat.top .count").inner_text() == "8 cartes"  # the opponents' cards, counted
    seen_trick = False
    for _ in range(MOST_TURNS):
        page.wait_for_selector(ACTIONABLE)
        seen_trick = seen_trick or page.locator(".trick .card").count() > 0
        assert fits(page)
        if page.locator(".box.result").count():
            break
        take_a_turn(page, bid=True)
    page.wait_for_selector(".box.result .score-table")
    assert fits(page)
    page.screenshot(path=str(tmp_path / "phone-end.png"))
    box = page.locator(".box.result").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    go_on = page.locator(".box.result button", has_text="Continuer")
    go_on.scroll_into_view_if_needed()
    assert go_on.is_visible()
    go_on.click()
    assert seen_trick or page.locator(".box.result", has_text="Tout le monde a passé").count()
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_last_trick_shows_until_the_next_card_or_tap(browser: Browser, server: str) -> None:
    page = new_page(browser)
    quick_start(page, server)
    for _ in range(MOST_TURNS):
        page.wait_for_selector(ACTIONABLE)
        if page.locator(".hand.my-turn .card.playable").count() and page.locator(".last-trick-button").count():
            break
        take_a_turn(page, bid=True)
    else:
        raise AssertionError("no trick was completed")
    page.click(".last-trick-button")
    page.wait_for_selector(".trick.last .card")
    assert page.locator(".trick.last .card").count() >= 2
    page.click(".felt .seat.top .name")  # a tap anywhere puts it away
    page.wait_for_selector(".trick.last", state="detached")
    page.keyboard.press("l")
    page.wait_for_selector(".trick.last")
    page.locator(".hand.my-turn .card.playable").first.click()  # so does the next card, which is played
    page.wait_for_selector(".trick.last", state="detached")
    for _ in range(MOST_TURNS):  # to the end of the deal, looking at the last trick before each card
        page.wait_for_selector(ACTIONABLE)
        if page.locator(".box.result").count():
            break
        if page.locator(".hand.my-turn .card.playable").count() and page.locator(".last-trick-button").count():
            page.keyboard.press("l")
        take_a_turn(page, bid=False)
    page.wait_for_selector(".box.result .actions button")  # the score and Continue are there


def test_every_page_fits_a_phone_in_both_languages(browser: Browser, server: str) -> None:
    page = new_page(browser, PHONE)
    quick_start(page, server)  # a table, and a game in the history from the other tests
    table = page.url
    for lang in ("fr", "en"):
        for path in ("/", "/games", "/rules", "/rules/reference", table):
            page.goto(f"{server}{path.replace(server, '')}?lang={lang}")
            page.wait_for_load_state("networkidle")
            assert fits(page), f"{path} ({lang}) is wider than the phone"
        page.goto(f"{server}/games/1?lang={lang}")
        page.wait_for_selector(".replay-grid")
        page.keyboard.press("ArrowRight")
        assert fits(page), f"the replay ({lang}) is wider than the phone"
        page.locator("#replay button.primary").last.click()
        page.wait_for_selector("table.analysis", timeout=120_000)
        assert fits(page), f"the analysis ({lang}) is wider than the phone"


def test_the_pages_render_in_both_languages(browser: Browser, server: str) -> None:
    page = new_page(browser)
    for path, text in (("/", "Jouer contre les robots"), ("/games", "Parties terminées"), ("/rules", "FFB")):
        page.goto(server + path)
        assert text in page.inner_text("body")
    page.goto(server + "/")
    page.click("text=EN")
    assert "Play against bots" in page.inner_text("body")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_server_command_refuses_a_bad_shard() -> None:
    result = subprocess.run(["atout", "serve", "--shard", "3/2"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--shard" in result.stderr
