"""The terminal table, driven as a player would with Textual's Pilot (80×24)."""

from __future__ import annotations

import asyncio
from pathlib import Path

from atout import Ruleset
from atout.actions import Bid, Play
from atout.cli.table import SummaryScreen, TableApp
from atout.session import GameSession


def new_session(seed: int = 3, **options: object) -> GameSession:
    rules = Ruleset.preset("coinche", target=3000, **options)
    return GameSession(rules, bots="club", seed=seed, hint="club")


async def settle(pilot, app: TableApp) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        await pilot.pause()
        if not app.busy and (app.session.human_to_play or app.session.deal_over):
            return


async def play_until_summary(pilot, app: TableApp) -> None:  # type: ignore[no-untyped-def]
    """South passes in the auction, declares nothing, plays the first playable card each time."""
    for _ in range(400):
        await settle(pilot, app)
        if isinstance(app.screen, SummaryScreen):
            return
        session = app.session
        if session.deal_over:
            continue
        legal = session.legal_actions()
        if session.deal.phase.value == "auction":
            app.query_one("#entry").value = "P"
            await pilot.press("enter")
        elif hasattr(legal[0], "announcements"):
            await pilot.press("1")
        else:
            playable = [a.card for a in legal if isinstance(a, Play)]
            number = app._display_cards().index(playable[0]) + 1
            await pilot.press(str(number))
            if app.pending_belote is not None:
                await pilot.press("o")
    raise AssertionError("the deal never ended")


def test_a_full_deal_to_its_summary() -> None:
    async def scenario() -> None:
        app = TableApp(new_session(), "fr", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_until_summary(pilot, app)
            summary = str(app.screen.query_one("#summary").render())
            assert "Fin de la donne" in summary and ("Marques" in summary or "passe" in summary)
            assert app.session.match.entries  # the deal was scored
            await pilot.press("enter")
            await settle(pilot, app)
            assert not isinstance(app.screen, SummaryScreen) and len(app.session.match.entries) == 1

    asyncio.run(scenario())


def test_an_illegal_card_is_explained_in_words() -> None:
    async def scenario() -> None:
        app = TableApp(new_session(seed=8), "fr", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(200):
                await settle(pilot, app)
                session = app.session
                if session.deal.phase.value == "auction":
                    app.query_one("#entry").value = "P" if session.deal.auction.calls else "80H"
                    await pilot.press("enter")
                    continue
                legal = session.legal_actions()
                if hasattr(legal[0], "announcements"):
                    await pilot.press("1")
                    continue
                playable = {a.card for a in legal if isinstance(a, Play)}
                cards = app._display_cards()
                illegal = [i for i, c in enumerate(cards, start=1) if c not in playable]
                if illegal:
                    await pilot.press(str(illegal[0]))
                    await pilot.pause()
                    log = str(app.query_one("#log").render())
                    assert "Impossible" in log and (
                        "fournir" in log or "couper" in log or "monter" in log or "partenaire" in log
                    )
                    assert len(session.deal.hand(session.human)) == len(cards)  # nothing changed
                    return
                number = cards.index(next(iter(playable))) + 1
                await pilot.press(str(number))
                if app.pending_belote is not None:
                    await pilot.press("n")
            raise AssertionError("never had an illegal card to try")

    asyncio.run(scenario())


def test_save_and_resume(tmp_path: Path) -> None:
    path = tmp_path / "partie.txt"

    async def first() -> str:
        app = TableApp(new_session(seed=5), "en", path, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            app.query_one("#entry").value = "P"
            await pilot.press("enter")
            await settle(pilot, app)
            app.query_one("#entry").value = "s"  # during the auction, commands are typed
            await pilot.press("enter")
            await pilot.pause()
            assert "saved" in str(app.query_one("#log").render())
            return app.session.deal.position()

    position = asyncio.run(first())
    resumed = GameSession.load(path)
    assert resumed.deal.position() == position


def test_hint_and_last_trick_keys() -> None:
    async def scenario() -> None:
        app = TableApp(new_session(seed=9), "en", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            app.query_one("#entry").value = "?"
            await pilot.press("enter")
            for _ in range(100):
                await pilot.pause()
                if "hint:" in str(app.query_one("#log").render()):
                    break
            assert "hint:" in str(app.query_one("#log").render())
            app.query_one("#entry").value = "l"
            await pilot.press("enter")
            await pilot.pause()
            assert "No trick yet" in str(app.query_one("#log").render())

    asyncio.run(scenario())


def test_the_bidding_prompt_gives_the_range_and_takes_a_bid_above_160() -> None:
    """Coinche bids go up to 820 (FFB §4.1 sets no ceiling): the prompt says so and a 250 bid is taken."""

    async def scenario() -> None:
        app = TableApp(new_session(seed=5), "fr", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert app.session.deal.phase.value == "auction" and app.session.human_to_play
            prompt = str(app.query_one("#prompt").render())
            assert "de 90 à 820, de 10 en 10, ou capot" in prompt.replace("\u00a0", " ")
            app.query_one("#entry").value = "250 coeur"
            await pilot.press("enter")
            await settle(pilot, app)
            assert (2, Bid(250, 1)) in app.session.deal.auction.calls

    asyncio.run(scenario())
