"""The new user's tour, scripted: the help, a whole match at the terminal in French and in English, a real
game's scores typed into the keeper, and every command fed good and bad files. Quick bots, small targets,
fixed seeds: the tour takes well under a minute."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from atout import Ruleset
from atout.actions import PASS, Action, Declare, Play
from atout.cli.args import build_parser
from atout.cli.main import play_session
from atout.cli.summary import SummaryScreen
from atout.cli.table import TableApp
from atout.observation import Observation
from atout.rules import PRESETS
from atout.session import GameSession


def atout(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run([sys.executable, "-m", "atout", *args], input=data, capture_output=True, timeout=300)
    out, err = (s.decode("utf-8").replace("\u00a0", " ").replace("\u202f", " ") for s in (done.stdout, done.stderr))
    assert "Traceback" not in err, err
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


def test_the_help_of_every_command() -> None:
    for lang in ("fr", "en"):
        for command in ("", "play", "demo", "score", "serve", "referee", "analyse", "arena"):
            done = atout(*command.split(), "--help", "--lang", lang)
            assert done.returncode == 0 and "atout" in done.stdout


async def beginner_move(app: TableApp, pilot) -> None:  # type: ignore[no-untyped-def]
    """What a beginner does when the table waits for him: take the trick off the table, pass, say belote,
    declare his first option, or play the first card allowed (nothing while a bot thinks)."""
    session = app.session
    if app.showing is not None:
        await pilot.press("space")
    elif app.busy or not session.human_to_play or session.deal_over:
        return
    elif session.deal.phase.value == "auction":
        app.query_one("#entry").value = "P"
        await pilot.press("enter")
    elif app.pending_belote is not None:
        await pilot.press("o" if app.lang == "fr" else "y")
    else:
        legal = session.legal_actions()
        card = next((a.card for a in legal if isinstance(a, Play)), None)
        await pilot.press("1" if card is None else str(app._display_cards().index(card) + 1))


async def play_the_match(app: TableApp) -> list[str]:
    """Play every deal as a beginner would (:func:`beginner_move`) until the match is won;
    returns what each end-of-deal screen said."""
    summaries: list[str] = []
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3000):
            await pilot.pause()
            session = app.session
            if isinstance(app.screen, SummaryScreen):
                summaries.append(str(app.screen.query_one("#summary").render()))
                await pilot.press("q" if session.match_over else "enter")
                if session.match_over:
                    break
                continue
            await beginner_move(app, pilot)
    return summaries


@pytest.mark.parametrize(("lang", "preset", "won"), [("fr", "coinche", "gagne"), ("en", "classique", "win")])
def test_a_whole_match_at_the_terminal(tmp_path: Path, lang: str, preset: str, won: str) -> None:
    save = tmp_path / "partie.txt"
    session = GameSession(Ruleset.preset(preset, target=300), bots="debutant", seed=11, hint="club")
    app = TableApp(session, lang, save, bot_delay=0, analyse=False, trick_pause=0.01)
    summaries = asyncio.run(play_the_match(app))
    assert session.match_over and summaries and won in summaries[-1]
    assert app.saved_to == save
    referee = atout("referee", str(save), "--lang", lang)
    assert referee.returncode == 0 and referee.stdout.count("\n# ") + 1 == len(session.match.entries)


def test_a_real_games_scores_typed_into_the_keeper(tmp_path: Path) -> None:
    db = str(tmp_path / "scores.sqlite3")
    typed = "80C NS 95\n100P EW 60 x\ncapot K\nNS\n\ncapot\nNS\n\n"
    new = atout("score", "new", "--db", db, "--name", "Jeudi", "--sides", "NS,EW", stdin=typed)
    assert "Contrat : capot ♦ (carreau)" in new.stdout and "Partie gagnée par NS !" in new.stdout
    assert "Jeudi" in atout("score", "list", "--db", db).stdout
    shown = atout("score", "show", "1", "--db", db).stdout
    assert "100 ♠ (pique) pris par EW, coinché" in shown and "chuté" in shown
    export = tmp_path / "jeudi.json"
    assert atout("score", "export", "1", "--db", db, "--output", str(export)).returncode == 0
    assert export.read_text(encoding="utf-8").endswith("\n")
    assert "Supprimé : la feuille n° 1" in atout("score", "delete", "1", "--db", db, "--yes").stdout


def test_every_command_with_good_and_bad_files(tmp_path: Path) -> None:
    demo = atout("demo", "--seed", "4")
    record = tmp_path / "donne.txt"
    record.write_text(demo.stdout, encoding="utf-8")
    binary = tmp_path / "binaire.dat"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\x00\xff")
    garbage = tmp_path / "texte.txt"
    garbage.write_text("Ceci n'est pas une donne.\n", encoding="utf-8")
    for command, code in (
        (("referee", str(record)), 0),
        (("referee", "-"), 0),
        (("analyse", str(record)), 0),
        (("referee", str(garbage)), 1),
        (("analyse", str(garbage)), 1),
        (("play", "--resume", str(garbage)), 1),
        (("referee", str(binary)), 2),
        (("analyse", str(binary)), 2),
        (("play", "--resume", str(binary)), 2),
        (("arena", str(binary), "random"), 2),
        (("score", "list", "--db", str(garbage)), 2),
        (("arena", "random", "debutant", "--deals", "2", "--workers", "1", "--quiet"), 0),
    ):
        done = atout(*command, stdin=demo.stdout)
        assert done.returncode == code, (command, done.stderr)
        assert (done.stderr == "") == (code == 0), (command, done.stderr)


# ---------------------------------------------------------------- the terminal's paths (issue 33)
def text_of(app: TableApp, selector: str) -> str:
    """What a widget shows, with French typography's no-break spaces made plain."""
    return str(app.screen.query_one(selector).render()).replace("\u00a0", " ").replace("\u202f", " ")


def at_the_first_card(seed: int = 6) -> GameSession:
    """A coinche match brought to South's first card (he passes and declares nothing)."""
    session = GameSession(Ruleset.preset("coinche", target=3000), bots="debutant", seed=seed, hint="club")
    while True:
        session.run_bots()
        if session.deal_over:
            session.next_deal()
            continue
        legal = session.legal_actions()
        if isinstance(legal[0], Play):
            return session
        session.play(legal[0] if isinstance(legal[0], Declare) else PASS)


@pytest.mark.parametrize("late", ["computed", "shown"])
def test_a_hint_then_a_card_at_once(late: str) -> None:
    """``?`` then a card's key at once: the hint, computed or shown once the card is played, is dropped (it
    crashed the table: « un conseil se demande à son tour de jouer », ``Card(...) is not in list``)."""
    session = at_the_first_card()
    computed, go = threading.Event(), threading.Event()
    hinted: list[Action] = []
    hint = session.hint

    def slow_hint(*args: Observation) -> Action:
        if late == "computed":
            go.wait(30)
        hinted.append(hint(*args))
        computed.set()
        if late == "shown":
            go.wait(30)
        return hinted[-1]

    session.hint = slow_hint  # type: ignore[method-assign]
    app = TableApp(session, "fr", None, bot_delay=3600, analyse=False, trick_pause=0)  # the bots wait

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await pilot.press("?")
            if late == "shown":
                await asyncio.to_thread(computed.wait, 30)
                action = hinted[0]  # the hinted card itself is played
                assert isinstance(action, Play)
                card = action.card
            else:
                card = next(a.card for a in session.legal_actions() if isinstance(a, Play))
            held = len(session.deal.hand(session.human))
            await pilot.press(str(app._display_cards().index(card) + 1))
            if app.pending_belote is not None:
                await pilot.press("n")
            assert len(session.deal.hand(session.human)) == held - 1 and not session.human_to_play
            go.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert "Conseil" not in text_of(app, "#log") and app.is_running

    asyncio.run(scenario())


async def play_one_deal(app: TableApp, pilot) -> str:  # type: ignore[no-untyped-def]
    """Play a deal as a beginner would (see :func:`play_the_match`), checking at every step that the status line
    and the footer fit in 80 columns; returns what the end-of-deal box says."""
    for _ in range(3000):
        await pilot.pause()
        if isinstance(app.screen, SummaryScreen):
            return str(app.screen.query_one("#summary").render())
        for selector in ("#status", "#keys"):
            assert len(text_of(app, selector)) <= 80, text_of(app, selector)
        await beginner_move(app, pilot)
    raise AssertionError("the deal never ended")


@pytest.mark.parametrize("lang", ["fr", "en"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_every_preset_starts_and_plays_a_deal(tmp_path: Path, preset: str, lang: str) -> None:
    """Every preset the help lists (``atout play --preset deux`` did not start), the match built as the command
    builds it; the footer fits at 80×24 in both languages at every phase."""
    save = tmp_path / "partie.txt"
    arguments = ["play", "--preset", preset, "--level", "debutant", "--seed", "5", "--save", str(save)]
    session, path = play_session(build_parser("test").parse_args(arguments))
    app = TableApp(session, lang, path, bot_delay=0, analyse=False, trick_pause=0.01)

    async def scenario() -> str:
        async with app.run_test(size=(80, 24)) as pilot:
            return await play_one_deal(app, pilot)

    summary = asyncio.run(scenario())
    assert ("Fin de la donne" if lang == "fr" else "End of the deal") in summary
    assert session.match.entries and GameSession.load(save).deal.position() == session.deal.position()


@pytest.mark.parametrize("key", ["space", "enter"])
def test_the_end_of_deal_box_shows_after_the_last_trick(key: str) -> None:
    """The key that takes the last trick off the table shows the end-of-deal box and does nothing else (Space or
    Enter went on to the next deal); going on before the analysis is done loses nothing either."""
    session = at_the_first_card(seed=4)
    gate = threading.Event()

    def analysis(*args: object) -> list[object]:
        gate.wait(30)
        return []

    session.analysis = analysis  # type: ignore[method-assign]
    app = TableApp(session, "fr", None, bot_delay=0, analyse=True, trick_pause=1000)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            for _ in range(3000):
                await pilot.pause()
                if app.showing is not None and session.deal_over:
                    break
                if app.showing is not None:
                    await pilot.press("space")
                elif app.busy or not session.human_to_play:
                    continue
                elif app.pending_belote is not None:
                    await pilot.press("n")
                else:
                    legal = session.legal_actions()
                    card = next((a.card for a in legal if isinstance(a, Play)), None)
                    await pilot.press("1" if card is None else str(app._display_cards().index(card) + 1))
            last = session.deal.tricks[-1]
            assert "dix de der compris" in text_of(app, "#table") and f"({last.points + 10} points" in text_of(
                app, "#table"
            )
            for _ in range(20):
                await pilot.pause()
            assert app.showing is not None  # the last trick waits for a key
            deal = session.deal
            await pilot.press(key)
            for _ in range(5):
                await pilot.pause()
            assert isinstance(app.screen, SummaryScreen) and session.deal is deal
            assert "Fin de la donne" in text_of(app, "#summary") and "Analyse de vos cartes" in text_of(app, "#summary")
            await pilot.press("enter")  # before the analysis comes
            await pilot.pause()
            assert not isinstance(app.screen, SummaryScreen) and session.deal is not deal
            gate.set()
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert app.is_running and len(session.match.entries) == 1

    asyncio.run(scenario())


def test_a_save_to_a_path_that_cannot_be_written(tmp_path: Path) -> None:
    """The save fails (a file stands where a folder should: no one may write there, root included): the table says
    why in the player's language, asks for another file, and the match goes on and is saved there."""
    blocker = tmp_path / "fichier"
    blocker.write_text("", encoding="utf-8")
    unwritable, elsewhere = blocker / "partie.txt", tmp_path / "ailleurs" / "partie.txt"
    session = GameSession(Ruleset.preset("coinche", target=3000), bots="debutant", seed=5, hint="club")
    app = TableApp(session, "fr", unwritable, bot_delay=0, analyse=False, trick_pause=0)

    async def scenario() -> None:
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            reason = "un élément du chemin n'est pas un dossier"
            assert f"Sauvegarde impossible dans {unwritable} : {reason}." in text_of(app, "#log")
            assert "Où sauvegarder la partie ?" in text_of(app, "#prompt")
            assert len(text_of(app, "#keys")) <= 80 and app.query_one("#entry").has_focus
            app.query_one("#entry").value = str(elsewhere)
            await pilot.press("enter")
            await pilot.pause()
            assert f"Partie sauvegardée dans {elsewhere}" in text_of(app, "#log") and not app.asking_path
            for _ in range(3):  # the match goes on, saved after every action
                while app.busy or not session.human_to_play:
                    await pilot.pause()
                if session.deal.phase.value != "auction":
                    break
                app.query_one("#entry").value = "P"
                await pilot.press("enter")
            await pilot.pause()
            assert GameSession.load(elsewhere).deal.position() == session.deal.position()
            await pilot.press("ctrl+c")
        assert app.saved_to == elsewhere

    asyncio.run(scenario())
