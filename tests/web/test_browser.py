"""End to end, in a real browser: Debian's Chromium driven by Playwright against a real server.

A player creates a table and plays a whole deal against bots with the mouse (and
the keyboard); two browsers join one table and play it together; a page reloaded
in the middle of a deal carries on; the last trick shows for a moment; a phone held
upright plays a whole deal, and every page fits it.
"""

from __future__ import annotations

import json
import subprocess
import time
from pathlib import Path

from harness.browser import PHONE, new_page, quick_start
from playwright.sync_api import Browser, Page, Route
from playwright.sync_api import TimeoutError as PlaywrightTimeout

#: Something the player can do now: a call, a card, a choice in a box (belote, announcements, next deal).
ACTIONABLE = ", ".join(
    f"#table:not(.busy) {part}"
    for part in (".bidding .actions button", ".hand.my-turn .card.playable", ".box .actions button")
)
#: More turns than a deal can take (so that a test fails instead of hanging).
MOST_TURNS = 60


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
    found = None
    while time.monotonic() < deadline:  # until the guest is to play a card: the others' turns are played
        found = guest.evaluate(  # a card and where it is, read in one go: the page is redrawn at every update
            """() => {
                const card = document.querySelector('#table:not(.busy) .hand.my-turn .card.playable');
                const box = card && card.getBoundingClientRect();
                return card && {code: card.dataset.card, x: box.x + box.width / 2, y: box.y + box.height / 2};
            }"""
        )
        if found:
            break
        take_a_turn(host, bid=False, wait=100)
        if guest.locator(ACTIONABLE).count():  # a call or a choice in a box
            take_a_turn(guest, bid=False)
    else:
        raise AssertionError(f"the guest was never to play a card; his table shows: {guest.inner_text('#table')}")
    code = found["code"]
    version = int(guest.locator("#table").get_attribute("data-version") or 0)
    guest.mouse.move(found["x"], found["y"])
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
    page.click("a[hreflang=en]")
    assert "Play against bots" in page.inner_text("body")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_server_command_refuses_a_bad_shard() -> None:
    result = subprocess.run(["atout", "serve", "--shard", "3/2"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and "--shard" in result.stderr


def start_preset(page: Page, server: str, preset: str, name: str = "Alice") -> None:
    """A table of ``preset`` against club bots, created as the home page does and started at once."""
    page.goto(server + "/")
    url = page.evaluate(
        """async ([preset, name]) => {
        const response = await fetch("/api/tables", {method: "POST", headers: {"Content-Type": "application/json"},
            body: JSON.stringify({preset, options: {}, bots: "club", name})});
        const data = await response.json();
        localStorage.setItem(`atout.token.${data.code}`, data.token);
        sessionStorage.setItem(`atout.autostart.${data.code}`, "1");
        return data.url;
        }""",
        [preset, name],
    )
    page.goto(server + url)
    page.wait_for_selector(".hand .card")


def wait_for_my_bid(page: Page) -> None:
    """Pass through the deal (Continue at its end) until this player may bid a value."""
    for _ in range(MOST_TURNS):
        page.wait_for_selector(ACTIONABLE)
        if page.locator("#table:not(.busy) .bidding [role=radio]").count():
            return
        take_a_turn(page, bid=False)
    raise AssertionError("never asked to bid")


def focus_in(page: Page, selector: str) -> bool:
    return bool(page.evaluate(f"!!document.activeElement?.closest({selector!r})"))


def test_bazars_bidding_box_offers_one_capot_and_the_rest_on_demand(browser: Browser, server: str) -> None:
    """Bazar's box shows the lowest capot alone as a button (not thirty of them), its Passe on a phone's screen;
    the keyboard starts in the box, and P passes."""
    page = new_page(browser, PHONE)
    with page.expect_websocket(lambda ws: "/ws/lobby" not in ws.url) as opened:  # the table's, not the lobby's
        start_preset(page, server, "bazar")
    socket = opened.value
    wait_for_my_bid(page)
    radios = page.locator(".bidding [role=radio]").all_inner_texts()
    assert len([label for label in radios if "capot" in label]) == 1, radios
    assert len(radios) <= 6, radios
    pass_button = page.locator(".bidding .actions button", has_text="Passe")
    box = pass_button.bounding_box()
    assert box is not None and box["y"] + box["height"] <= PHONE["height"]
    assert "P" in pass_button.inner_text()  # the key, shown on the button
    page.wait_for_function("!!document.activeElement?.closest('.bidding')")  # the focus moved into the box
    page.keyboard.press("Tab")
    assert focus_in(page, ".bidding")
    options = page.locator(".bidding select.more-bids option").all_inner_texts()
    assert "500 capot" not in options and "Autres valeurs…" in options
    page.select_option(".bidding select.more-bids", "*")
    page.wait_for_function("[...document.querySelectorAll('.more-bids option')].some(o => o.value === '500 capot')")
    pass_action = pass_button.get_attribute("data-focus")
    # The table may move on at once (Alice's pass ends the auction), so the server's answer is what is checked.
    sent: list[dict[str, str]] = []
    socket.on("framesent", lambda payload: sent.append(json.loads(payload)))
    with socket.expect_event("framereceived", lambda payload: '"ack"' in payload and sent[-1]["id"] in payload):
        page.keyboard.press("p")
    assert f"call:{sent[-1]['action']}" == pass_action, sent
    assert page.errors == []  # type: ignore[attr-defined]


def test_coinches_list_holds_the_likely_values_first(browser: Browser, server: str) -> None:
    page = new_page(browser)
    quick_start(page, server)
    wait_for_my_bid(page)
    options = page.locator(".bidding select.more-bids option").all_inner_texts()
    assert len(options) <= 10 and "820" not in options and options[-1] == "Autres valeurs…", options


def test_the_next_auction_starts_on_the_lowest_value(browser: Browser, server: str) -> None:
    """A value chosen at one turn (and not bid) is not the one highlighted at the next deal's auction."""
    page = new_page(browser)
    quick_start(page, server)
    wait_for_my_bid(page)
    value = page.locator(".bidding select.more-bids option").nth(3).get_attribute("value")
    page.select_option(".bidding select.more-bids", value)
    page.wait_for_selector(".bidding select.more-bids.chosen")
    page.focus(".bidding select.more-bids")
    page.keyboard.press("p")  # P passes, even from the list
    page.locator(".calls span", has_text="Alice").last.wait_for()
    for _ in range(MOST_TURNS):  # to the end of the deal (or of the auction, if everyone passed)
        if take_a_turn(page, bid=False) == "continue":
            break
    page.locator(".status", has_text="Donne 2").wait_for()
    wait_for_my_bid(page)
    checked = page.locator(".bidding [role=radio]").evaluate_all(
        "radios => radios.map(r => r.getAttribute('aria-checked'))"
    )
    assert checked[0] == "true" and checked.count("true") == 1, checked
    assert not page.locator(".bidding select.more-bids.chosen").count()
    # Once the score sheet's button is there and cards are played, the status bar still holds on one row.
    for _ in range(MOST_TURNS):
        if page.locator(".status .last-trick-button").count() and page.locator(".status .sheet-button").count():
            break
        take_a_turn(page, bid=True)
    else:
        raise AssertionError("no trick was completed in the second deal")
    for width, height in ((1280, 800), (1366, 768)):
        page.set_viewport_size({"width": width, "height": height})
        assert one_row(page), f"the status bar wraps at {width} pixels: {page.inner_text('.status')!r}"


def one_row(page: Page) -> bool:
    """Whether the status bar's items stand on one row (a long contract and its announcements are cut short with
    « … » rather than wrapping; in one go: the page is redrawn at every update)."""
    return bool(
        page.evaluate(
            """() => {
            const middles = [...document.querySelectorAll('.status > *')]
                .filter(item => item.offsetWidth)
                .map(item => { const r = item.getBoundingClientRect(); return r.top + r.height / 2; });
            return Math.max(...middles) - Math.min(...middles) < 4;
            }"""
        )
    )


SIDEWAYS = {"width": 844, "height": 390}


def test_a_phone_held_sideways_shows_the_hand_and_the_bidding_box(browser: Browser, server: str) -> None:
    page = new_page(browser, SIDEWAYS)
    quick_start(page, server)
    wait_for_my_bid(page)
    rects = page.evaluate(  # in one go: the page is redrawn at every update
        """() => [...document.querySelectorAll('.hand .card'),
                  [...document.querySelectorAll('.bidding .actions button')]
                      .find(b => b.textContent.startsWith('Passe'))]
                 .map(e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
    )
    assert len(rects) == 9
    outside = [r for r in rects if r[0] < 0 or r[1] < 0 or r[2] > SIDEWAYS["width"] or r[3] > SIDEWAYS["height"]]
    assert outside == [], rects
    assert fits(page)


def test_a_public_table_is_listed_live_and_a_free_seat_is_taken_in_one_click(browser: Browser, server: str) -> None:
    """A home page open before a table is created lists it without being reloaded; a free seat's button seats
    its visitor at the table (his name typed on the page), and the host sees him there, as does the list."""
    visitor, host = new_page(browser), new_page(browser)
    visitor.goto(server + "/")
    visitor.wait_for_function(
        "document.querySelector('.lobby-table') || !document.getElementById('lobby-empty').hidden"
    )
    host.goto(server + "/")
    host.fill("#create-form input[name=name]", "Hélène")
    host.click("#create-form button[type=submit]")
    host.wait_for_selector(".lobby-seats")
    code = host.url.rsplit("/", 1)[-1]
    row = visitor.locator(f'.lobby-table[data-code="{code}"]')
    row.wait_for()
    assert "Hélène" in row.inner_text() and "Belote coinchée" in row.inner_text()
    watcher = new_page(browser)
    watcher.goto(server + "/")
    watcher.locator(f'.lobby-table[data-code="{code}"]').wait_for()
    visitor.fill("#quick-form input[name=name]", "Bob")
    row.locator("button[data-seat]").first.click()
    visitor.wait_for_url(f"**/t/{code}")
    visitor.locator(".lobby-seats", has_text="Bob").wait_for()
    host.locator(".lobby-seats", has_text="Bob").wait_for()
    watcher.locator(f'.lobby-table[data-code="{code}"]', has_text="Bob").wait_for()  # the row, changed in place
    assert watcher.locator(f'.lobby-table[data-code="{code}"]').count() == 1
    assert visitor.errors == [] and host.errors == [] and watcher.errors == []  # type: ignore[attr-defined]


def test_the_nine_cards_of_belote_a_deux_fit_a_phone(browser: Browser, server: str) -> None:
    page = new_page(browser, PHONE)
    start_preset(page, server, "deux")
    for _ in range(MOST_TURNS):
        page.wait_for_selector(ACTIONABLE)  # the player's turn: the hand stays as it is until he acts
        if page.locator(".hand .card").count() == 9:
            break
        take_a_turn(page, bid=True)
    else:
        raise AssertionError("the hand never held nine cards")
    band, *rects = page.evaluate(  # in one go: the page is redrawn at every update
        """() => [document.querySelector('.hand'), ...document.querySelectorAll('.hand .card')]
                 .map(e => { const r = e.getBoundingClientRect(); return [r.left, r.right]; })"""
    )
    assert len(rects) == 9, rects
    assert all(band[0] <= left and right <= band[1] <= PHONE["width"] for left, right in rects), (band, rects)
    assert fits(page)


def test_classiques_retourne_stands_apart_from_the_question(browser: Browser, server: str) -> None:
    page = new_page(browser, PHONE)
    start_preset(page, server, "classique")
    deadline = time.monotonic() + 120  # a bot may take before the player speaks: then the next deals
    measured = None
    while measured is None and time.monotonic() < deadline:
        measured = page.evaluate(  # in one go, once both are drawn: the page is redrawn at every update
            """() => {
                const row = document.querySelector('.bidding > .row');
                const heading = document.querySelector('.bidding > .row ~ h2');
                return row && heading ? heading.getBoundingClientRect().top - row.getBoundingClientRect().bottom : null;
            }"""
        )
        if measured is None:
            take_a_turn(page, bid=False, wait=200)
    assert measured is not None and measured >= 4


def test_two_browsers_talk_and_markup_shows_as_text(browser: Browser, server: str) -> None:
    """A line typed at one browser shows at the other, in a bubble at its seat and in the log, as text (markup
    too); a quick message arrives in the reader's words; a muted speaker stays muted after a reload."""
    host, guest = two_players(browser, server)
    markup = '<img src=x onerror="window.pwned = 1">'
    host.click(".talk-toggle")
    host.fill(".talk-form input", markup)
    host.press(".talk-form input", "Enter")
    bubble = guest.locator(".seat .talk-bubble")
    bubble.wait_for()
    assert bubble.inner_text() == markup
    guest.click(".talk-toggle")
    said = guest.locator(".talk-log .said")
    said.first.wait_for()
    assert said.first.inner_text() == markup
    for page in (host, guest):
        assert page.locator(".talk-panel img, .seat img").count() == 0
        assert page.evaluate("window.pwned") is None
    guest.click(".talk-quick >> text=Bravo partenaire")
    host.locator(".talk-log .said", has_text="Bravo partenaire").wait_for()
    host.click(".talk-log .talk-mute")  # the host mutes Bob
    guest.fill(".talk-form input", "chut")
    guest.press(".talk-form input", "Enter")
    guest.locator(".talk-log .said", has_text="chut").wait_for()
    host.reload()
    host.wait_for_selector(".talk-toggle")
    host.locator(".talk-log .said", has_text=markup).wait_for()  # the log comes back, the panel open
    assert host.locator(".talk-log .said", has_text="chut").count() == 0
    assert host.locator(".talk-unmute").count() == 1
    assert host.errors == [] and guest.errors == []  # type: ignore[attr-defined]


def test_the_tab_says_when_it_is_the_players_turn(browser: Browser, server: str) -> None:
    """The tab's title and icon change on the player's turn (« À vous ! » first) and come back once he has
    played; the alerts' menu opens from the status bar without asking for notifications."""
    page = new_page(browser)
    quick_start(page, server)
    page.evaluate(  # every title the page takes, as it takes it (the bots answer faster than a poll)
        """() => {
        window.titles = [];
        const title = document.querySelector('title');
        new MutationObserver(() => window.titles.push(document.title))
            .observe(title, {childList: true, characterData: true, subtree: true});
        }"""
    )
    page.wait_for_selector(ACTIONABLE)
    page.wait_for_function("document.title.startsWith('À vous\u202f! · Table ')")
    assert "circle" in page.evaluate("document.querySelector('link[rel=icon]').getAttribute('href')")
    page.evaluate("window.titles = []")
    assert take_a_turn(page, bid=False)
    page.wait_for_function("window.titles.some(title => !title.startsWith('À vous'))")
    later = page.evaluate("window.titles.find(title => !title.startsWith('À vous'))")
    assert later.startswith("Table ") and later.endswith(" · atout")
    page.click(".status .turn-toggle")
    menu = page.locator("#turn-menu")
    menu.wait_for()
    assert menu.locator("input[type=checkbox]").first.is_checked()  # the sound is on by default
    assert page.evaluate("Notification.permission") == "default"  # never asked without the player's request
    page.keyboard.press("Escape")
    menu.wait_for(state="hidden")
    assert page.errors == []  # type: ignore[attr-defined]


#: Counts, at every frame, the movements running (motion.js names its animations "motion") and the copies of a
#: trick flying to its winner: the most seen at once, since a movement lasts a few frames only.
WATCH_MOTION = """() => {
    window.moving = 0;
    window.ghosts = 0;
    window.onTrick = new Set();
    const look = () => {
        for (const card of document.querySelectorAll('.trick .card[data-card]')) window.onTrick.add(card.dataset.card);
        const running = document.getAnimations().filter((a) => a.id === 'motion').length;
        window.moving = Math.max(window.moving, running);
        window.ghosts = Math.max(window.ghosts, document.querySelectorAll('.motion-ghost').length);
        requestAnimationFrame(look);
    };
    look();
}"""


def play_a_card_watching_motion(page: Page) -> str:
    """Take turns until this player has played a card, motion watched from just before it; the card."""
    for _ in range(MOST_TURNS):
        page.wait_for_selector(ACTIONABLE)
        if page.locator(".hand.my-turn .card.playable").count():
            page.evaluate(WATCH_MOTION)
            code = page.locator(".hand.my-turn .card.playable").first.get_attribute("data-card")
            if take_a_turn(page, bid=True) == "card":
                assert code is not None
                return code
        else:
            take_a_turn(page, bid=True)
    raise AssertionError("never asked to play a card")


def test_cards_move_to_the_trick_and_the_trick_to_its_winner(browser: Browser, server: str) -> None:
    """A card played travels to the trick (an animation runs at once) and a trick won flies to its winner as
    copies that leave nothing behind; the table answers the click as before."""
    page = new_page(browser)
    quick_start(page, server)
    code = play_a_card_watching_motion(page)
    page.wait_for_function("window.moving > 0")
    page.wait_for_function(f"window.onTrick.has('{code}')")  # seen on the trick, however soon it was gathered
    for _ in range(MOST_TURNS):  # until a trick has been gathered
        if page.evaluate("window.ghosts") > 0:
            break
        take_a_turn(page, bid=True, wait=2000)
    else:
        raise AssertionError("no trick flew to its winner")
    page.wait_for_function("!document.querySelector('.motion-ghost')")  # the copies are gone once landed
    assert int(page.get_attribute("#table", "data-moves") or 0) > 0
    assert page.errors == []  # type: ignore[attr-defined]


def test_nothing_moves_for_a_player_who_prefers_reduced_motion(browser: Browser, server: str) -> None:
    page = new_page(browser, reduced_motion="reduce")
    quick_start(page, server)
    code = play_a_card_watching_motion(page)
    page.wait_for_function(f"window.onTrick.has('{code}')")
    for _ in range(MOST_TURNS):  # past a trick won and gathered
        if page.locator(".trick.done").count():
            break
        take_a_turn(page, bid=True, wait=2000)
    else:
        raise AssertionError("no trick was won")
    # Gathered: the next trick begins, or (the deal's last trick) the deal's result shows.
    page.wait_for_selector(".trick:not(.done), .box.result", timeout=20_000)
    assert page.evaluate("[window.moving, window.ghosts]") == [0, 0]
    assert page.get_attribute("#table", "data-moves") is None
    assert page.errors == []  # type: ignore[attr-defined]


def test_at_a_practice_table_the_hint_button_shows_the_club_bots_choice(browser: Browser, server: str) -> None:
    """A table created with « Table d'entraînement » and fast bots: on the player's turn « Conseil » asks, and the
    hint (the club bot's choice and its reason) shows at the table."""
    page = new_page(browser)
    page.goto(server + "/")
    page.fill("#create-form input[name=name]", "Alice")
    page.select_option("#create-form select[name=pace]", "fast")
    page.check("#create-form input[name=practice]")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector(".lobby-seats")
    page.click("text=Commencer la partie")
    page.wait_for_selector(".hand .card")
    page.locator(".status .practice-button").click(timeout=60_000)  # shown on his turn: the auction's first
    hint = page.locator(".practice-hint")
    hint.locator("b").wait_for()
    assert "Conseil du robot club" in hint.inner_text() and hint.locator("p").inner_text()
    assert page.locator(".status .practice-button").is_disabled()
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_table_says_which_variant_it_plays(browser: Browser, server: str) -> None:
    """The header names the variant, with the target and the bots' level, and leads to its section of the rules."""
    page = new_page(browser)
    quick_start(page, server)
    variant = page.locator(".topbar .variant")
    assert variant.locator(".name").inner_text() == "Belote coinchée (FFB)"
    assert variant.locator(".details").inner_text() == "en 1\u202f000 points · robots club"
    assert variant.get_attribute("href") == "/rules#coinche"
    assert page.locator(".topbar nav a", has_text="Règles").get_attribute("href") == "/rules#coinche"
    assert page.errors == []  # type: ignore[attr-defined]


def test_everyone_sees_the_countdown_before_a_bot_plays_for_an_absent_player(browser: Browser, server: str) -> None:
    """Bob leaves mid-deal: when it is his turn, Alice sees at his seat the seconds left before a bot plays for
    him (the last 30 of the server's 45), and once they have run out the bot plays and the countdown goes."""
    host, guest = two_players(browser, server)
    guest.close()
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not host.locator(".turn-clock").count():
        take_a_turn(host, bid=False, wait=200)
    clock = host.locator(".turn-clock")
    clock.wait_for(timeout=1_000)
    said = (clock.get_attribute("aria-label") or "").replace("\u00a0", " ")
    seconds = int(said.removeprefix("Un robot joue dans ").removesuffix(" s"))
    assert said.startswith("Un robot joue dans ") and 0 < seconds <= 30, said
    assert clock.get_attribute("role") == "timer"
    clock.wait_for(state="detached", timeout=(seconds + 15) * 1000)  # the bot played for Bob
    assert host.errors == []  # type: ignore[attr-defined]


def test_the_sound_turned_off_stays_off(browser: Browser, server: str) -> None:
    """The alerts' menu keeps the player's choice: the sound turned off is still off after a reload."""
    page = new_page(browser)
    quick_start(page, server)
    page.click(".status .turn-toggle")
    sound = page.locator("#turn-menu input[type=checkbox]").first
    assert sound.is_checked()
    sound.uncheck()
    page.reload()
    page.wait_for_selector(".hand .card")
    assert "muted" in (page.locator(".status .turn-toggle").get_attribute("class") or "")
    page.click(".status .turn-toggle")
    assert not page.locator("#turn-menu input[type=checkbox]").first.is_checked()
    assert page.errors == []  # type: ignore[attr-defined]
