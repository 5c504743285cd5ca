"""The terminal table, driven as a player would with Textual's Pilot (80×24)."""

from __future__ import annotations

import asyncio
import errno
import threading
from pathlib import Path

import pytest

from atout import Ruleset
from atout.actions import PASS, Bid, Coinche, Play, Take
from atout.cli.table import SummaryScreen, TableApp
from atout.session import GameSession


def new_session(seed: int = 3, **options: object) -> GameSession:
    rules = Ruleset.preset("coinche", target=3000, **options)
    return GameSession(rules, bots="club", seed=seed, hint="club")


async def settle(pilot, app: TableApp) -> None:  # type: ignore[no-untyped-def]
    for _ in range(200):
        await pilot.pause()
        if app.showing is not None or (not app.busy and (app.session.human_to_play or app.session.deal_over)):
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
            await pass_until_play(pilot, app)
            await pilot.press("l")
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


def text_of(app: TableApp, selector: str) -> str:
    """What a widget shows, with French typography's no-break spaces made plain."""
    return str(app.screen.query_one(selector).render()).replace("\u00a0", " ").replace("\u202f", " ")


async def pass_until_play(pilot, app: TableApp) -> None:  # type: ignore[no-untyped-def]
    """South passes until the cards are played (a new deal if everyone passes)."""
    for _ in range(50):
        await settle(pilot, app)
        if isinstance(app.screen, SummaryScreen):
            await pilot.press("enter")
            continue
        if app.session.deal.phase.value != "auction":
            return
        app.query_one("#entry").value = "P"
        await pilot.press("enter")
    raise AssertionError("never reached the play")


def test_a_completed_trick_stays_with_its_winner_until_a_key() -> None:
    async def scenario() -> None:
        app = TableApp(new_session(seed=4), "fr", None, bot_delay=0, analyse=False, trick_pause=1000)
        async with app.run_test(size=(80, 24)) as pilot:
            await pass_until_play(pilot, app)
            for _ in range(60):
                await settle(pilot, app)
                if app.showing is not None:
                    break
                legal = app.session.legal_actions()
                if isinstance(legal[0], Play):
                    number = app._display_cards().index(next(a.card for a in legal if isinstance(a, Play))) + 1
                    await pilot.press(str(number))
                    if app.pending_belote is not None:
                        await pilot.press("n")
                else:
                    await pilot.press("1")
            trick = app.session.deal.tricks[0]
            before = app.session.deal.position()
            for _ in range(20):
                await pilot.pause()
            table = text_of(app, "#table")
            assert "remporte le pli" in table and all(card.label("fr") in table for card in trick.cards)
            assert app.session.deal.position() == before  # nobody plays while the trick is shown
            assert "une touche pour continuer" in text_of(app, "#prompt")
            await pilot.press("space")
            await settle(pilot, app)
            assert app.showing is None and "remporte le pli" not in text_of(app, "#table")

    asyncio.run(scenario())


def test_the_header_shows_the_standing_bid_and_the_footer_only_the_keys_that_work() -> None:
    async def scenario() -> None:
        app = TableApp(new_session(seed=5), "fr", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            app.query_one("#entry").value = "250C"
            await pilot.press("enter")
            await settle(pilot, app)
            auction = app.session.deal.auction
            header = text_of(app, "#contract")
            if app.session.deal.phase.value == "auction":
                assert header.startswith(" Enchères · ") and auction.best is not None
                assert f"{auction.best.label('fr')} (" in header and "par " in header
                keys = text_of(app, "#keys")
                assert keys.startswith(" Tapez puis Entrée") and "jouer la carte" not in keys
            await pass_until_play(pilot, app)
            assert text_of(app, "#contract").startswith(" Contrat : ")
            if app.session.human_to_play and app.showing is None:
                keys = text_of(app, "#keys")
                assert "jouer la carte" in keys and "? conseil" in keys and "Tapez" not in keys

    asyncio.run(scenario())


def test_the_bidding_prompt_offers_only_bids_the_rules_allow() -> None:
    async def prompt(**options: object) -> str:
        app = TableApp(new_session(seed=5, **options), "fr", None, bot_delay=0, analyse=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            return text_of(app, "#prompt")

    plain, with_sa = asyncio.run(prompt()), asyncio.run(prompt(sans_atout=True))
    assert "SA" not in plain and "C, " in plain and "cœur" in plain
    assert "SA" in with_sa


def test_an_incomplete_bid_explains_the_rule_and_a_foreign_letter_is_asked_about() -> None:
    async def scenario() -> None:
        app = TableApp(new_session(seed=5), "fr", None, bot_delay=0, analyse=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            for typed in ("85", "90"):
                app.query_one("#entry").value = typed
                await pilot.press("enter")
                await pilot.pause()
                log = text_of(app, "#log")
                assert f"« {typed} » : il manque la couleur" in log and "de 10 en 10" in log
            calls = len(app.session.deal.auction.calls)
            app.query_one("#entry").value = "250H"
            await pilot.press("enter")
            await pilot.pause()
            assert "« 250H » : voulez-vous dire 250 ♥ (cœur) ? (o/n)" in text_of(app, "#prompt")
            assert len(app.session.deal.auction.calls) == calls  # nothing said yet
            app.query_one("#entry").value = "o"
            await pilot.press("enter")
            await settle(pilot, app)
            assert (2, Bid(250, 1)) in app.session.deal.auction.calls
            assert "Sud (vous) : 250 ♥ (cœur)" in text_of(app, "#log")

    asyncio.run(scenario())


def test_the_hint_names_the_cards_key_and_waits_for_the_warm_up_saying_so() -> None:
    gate = threading.Event()

    async def scenario() -> None:
        app = TableApp(new_session(seed=6), "fr", None, bot_delay=0, analyse=False, trick_pause=0, warm_up=gate.wait)
        async with app.run_test(size=(80, 24)) as pilot:
            await pass_until_play(pilot, app)
            while not (app.session.human_to_play and isinstance(app.session.legal_actions()[0], Play)):
                await pilot.press("1")
                await settle(pilot, app)
            await pilot.press("?")
            await pilot.pause()
            assert "L'expert se prépare" in text_of(app, "#log") and "Conseil" not in text_of(app, "#log")
            gate.set()
            for _ in range(200):
                await pilot.pause()
                if "Conseil de l'expert" in text_of(app, "#log"):
                    break
            line = next(s for s in text_of(app, "#log").splitlines() if "Conseil de l'expert" in s)
            key = int(line.split("touche ")[1].split(",")[0])
            card = app._display_cards()[key - 1]
            assert line.endswith(card.label("fr")) and Play(card) in app.session.legal_actions()

    asyncio.run(scenario())


def test_the_end_of_a_deal_shows_every_term_of_the_score() -> None:
    from atout.cli.text import score_line

    async def scenario() -> None:
        app = TableApp(new_session(seed=3), "fr", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await play_until_summary(pilot, app)
            summary = str(app.screen.query_one("#summary").render())
            result = app.session.deal.result
            assert result is not None and result.score is not None
            for line in result.score.lines:
                assert score_line(app.session.rules, line, "fr") in summary
            assert sum(line.points for line in result.score.lines) == sum(result.score.marks.values())
            assert any(line.rounding for line in result.score.lines)  # the rounding is shown too

    asyncio.run(scenario())


def test_hearts_and_diamonds_are_red() -> None:
    app = TableApp(new_session(), "fr")
    from atout.cards import Card

    assert "red" in app.card_markup(Card.parse("JH")) and "red" in app.card_markup(Card.parse("7D"))
    assert "red" not in app.card_markup(Card.parse("JS")) and "red" not in app.card_markup(Card.parse("AC"))


def test_ctrl_c_saves_and_quits_and_the_save_names_the_player_in_his_language(tmp_path: Path) -> None:
    path = tmp_path / "partie.txt"

    async def scenario() -> None:
        app = TableApp(new_session(seed=5), "en", path, bot_delay=0, analyse=False)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            await pilot.press("ctrl+c")
            await pilot.pause()
        assert app.saved_to == path

    asyncio.run(scenario())
    assert '[South "Player"]' in path.read_text(encoding="utf-8")
    assert GameSession.load(path).deal.dealer == new_session(seed=5).deal.dealer


def test_a_terminal_smaller_than_80_by_24_gets_a_message() -> None:
    async def scenario() -> None:
        app = TableApp(new_session(), "fr", None, bot_delay=0, analyse=False)
        async with app.run_test(size=(60, 18)) as pilot:
            await settle(pilot, app)
            note = app.screen.query_one(".small-note")
            assert app.has_class("-small") and note.display and not app.query_one("#main").display
            assert "atout a besoin de 80 × 24 caractères, il en a 60 × 18" in text_of(app, ".small-note")
            await pilot.resize_terminal(80, 24)
            await pilot.pause()
            assert not app.has_class("-small") and app.query_one("#main").display and not note.display

    asyncio.run(scenario())


def test_english_mode_has_no_french_word_or_typography() -> None:
    async def scenario() -> None:
        app = TableApp(new_session(seed=5), "en", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            app.query_one("#entry").value = "85"
            await pilot.press("enter")
            await pilot.pause()
            screens = [text_of(app, s) for s in ("#status", "#contract", "#table", "#log", "#prompt", "#keys")]
            assert "the suit is missing" in screens[3]
            await pass_until_play(pilot, app)
            screens += [text_of(app, s) for s in ("#status", "#contract", "#table", "#log", "#prompt", "#keys")]
            screen = "\n".join(screens)
            assert "Contract: " in screen and "South (you)" in screen
            for french in ("«", " :", "Contrat", "vous", "passe", "Nord"):
                assert french not in screen, french

    asyncio.run(scenario())


def screen_text(app: TableApp) -> str:
    return "\n".join(text_of(app, s) for s in ("#status", "#contract", "#table", "#log", "#prompt", "#keys"))


def test_contree_says_contrer_and_shows_its_name() -> None:
    """In belote contrée the terminal says contrer / contré (coinche keeps coinche / coinché), and the status line
    names the variant, not its id."""

    async def scenario() -> None:
        session = GameSession(Ruleset.preset("contree", target=3000), bots="club", seed=4, hint="club")
        app = TableApp(session, "fr", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert text_of(app, "#status").startswith(" Contrée · ")
            assert ", X (contrer)" in text_of(app, "#prompt")
            app.query_one("#entry").value = "X"
            await pilot.press("enter")
            await settle(pilot, app)
            assert "Sud (vous) : contre" in text_of(app, "#log")
            assert ", contré par Sud" in text_of(app, "#contract")
            assert "coinch" not in screen_text(app).lower()

    asyncio.run(scenario())
    assert new_session().rules.name == "coinche"  # and coinche keeps its words:
    assert TableApp(new_session(), "fr")._bid_prompt([Coinche()]).endswith(", X (coinche)")


def test_classique_second_round_letters_and_the_retourne_suit() -> None:
    """Second round, retourne ♠: « D » (a French player may mean the English diamonds) is asked about, not taken
    as the last-trick key; « pique » is refused with the rule (it said « n'est pas une couleur » and suggested P)."""

    async def scenario() -> None:
        session = GameSession(Ruleset.preset("classique", target=3000), bots="debutant", seed=1, hint="club")
        app = TableApp(session, "fr", None, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            app.query_one("#entry").value = "P"
            await pilot.press("enter")
            await settle(pilot, app)
            assert session.deal.retourne is not None and session.deal.retourne >> 3 == 0  # pique
            assert "pique" not in text_of(app, "#prompt") and "K carreau" in text_of(app, "#prompt")
            app.query_one("#entry").value = "pique"
            await pilot.press("enter")
            await pilot.pause()
            log = text_of(app, "#log")
            assert "Au second tour, il faut nommer une autre couleur que la retourne" in log
            assert "n'est pas une couleur" not in log and session.human_to_play
            app.query_one("#entry").value = "D"
            await pilot.press("enter")
            await pilot.pause()
            assert "« D » : voulez-vous dire prend à carreau ? (o/n)" in text_of(app, "#prompt")
            assert "Dernier pli" not in text_of(app, "#log") and "Pas encore de pli" not in text_of(app, "#log")
            app.query_one("#entry").value = "o"
            await pilot.press("enter")
            await settle(pilot, app)
            assert session.deal.contract is not None and session.deal.contract.strain == 2

    asyncio.run(scenario())


def test_the_english_take_prompt_spells_out_spades_since_s_saves() -> None:
    session = GameSession(Ruleset.preset("classique", target=3000), bots="debutant", seed=1, hint="club")
    session.run_bots()
    session.play(PASS)
    session.run_bots()
    app = TableApp(session, "en", None)
    takes = [a for a in session.legal_actions() if isinstance(a, Take)]
    assert app._take_prompt(takes) == "Your turn: P to pass, or name trump (H hearts, D diamonds, C clubs)."
    assert app._take_prompt([Take(0), Take(1)]).endswith("(spades, H hearts).")


def test_a_read_only_folder_is_said_in_the_players_language_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A read-only HOME (simulated: the system says "Read-only file system"): the table says it in French, asks for
    another file; Enter alone plays on unsaved. Quitting while the file is asked asks again; twice quits."""

    def read_only(*args: object, **kwargs: object) -> object:
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr("atout.session.tempfile.mkstemp", read_only)
    path = tmp_path / "partie.txt"

    async def scenario() -> None:
        app = TableApp(new_session(seed=5), "fr", path, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            assert f"Sauvegarde impossible dans {path} : le système de fichiers est en lecture seule." in text_of(
                app, "#log"
            )
            assert "Read-only" not in screen_text(app) and app.asking_path
            await pilot.press("enter")  # nothing typed: play on without saving
            await settle(pilot, app)
            assert "La partie continue sans être sauvegardée" in text_of(app, "#log") and app.save_path is None
            assert text_of(app, "#keys").startswith(" Tapez puis Entrée") and app.session.human_to_play
            app.query_one("#entry").value = "s"  # s asks for a file
            await pilot.press("enter")
            await pilot.pause()
            assert app.asking_path and "Où sauvegarder" in text_of(app, "#prompt")
            app.query_one("#entry").value = str(path)
            await pilot.press("enter")
            await pilot.pause()
            assert app.asking_path  # it failed again, and says so
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert app.is_running and "quitter sans sauver" in text_of(app, "#keys")
            assert len(text_of(app, "#keys")) <= 80
            await pilot.press("ctrl+c")
            await pilot.pause()
            assert not app.is_running and app.saved_to is None

    asyncio.run(scenario())
    assert not path.exists()


def test_a_saved_match_is_written_atomically_and_after_every_action(tmp_path: Path) -> None:
    path = tmp_path / "partie.txt"

    async def scenario() -> None:
        app = TableApp(new_session(seed=5), "fr", path, bot_delay=0, analyse=False, trick_pause=0)
        async with app.run_test(size=(80, 24)) as pilot:
            await settle(pilot, app)
            assert GameSession.load(path).deal.position() == app.session.deal.position()
            app.query_one("#entry").value = "P"
            await pilot.press("enter")
            await settle(pilot, app)
            assert GameSession.load(path).deal.position() == app.session.deal.position()
            assert [p.name for p in tmp_path.iterdir()] == ["partie.txt"]  # no temporary file left

    asyncio.run(scenario())
