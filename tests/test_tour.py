"""The new user's tour, scripted: the help, a whole match at the terminal in French and in English, a real
game's scores typed into the keeper, and every command fed good and bad files. Quick bots, small targets,
fixed seeds: the tour takes well under a minute."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path

import pytest

from atout import Ruleset
from atout.actions import Declare, Play
from atout.cli.summary import SummaryScreen
from atout.cli.table import TableApp
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


async def play_the_match(app: TableApp) -> list[str]:
    """Play every deal as a beginner would (pass, declare nothing, the first card allowed) until the match is won;
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
            if app.showing is not None:
                await pilot.press("space")
            elif app.busy or not session.human_to_play or session.deal_over:
                continue
            elif session.deal.phase.value == "auction":
                app.query_one("#entry").value = "P"
                await pilot.press("enter")
            elif app.pending_belote is not None:
                await pilot.press("o" if app.lang == "fr" else "y")
            else:
                legal = session.legal_actions()
                if isinstance(legal[0], Declare):
                    await pilot.press("1")
                else:
                    card = next(a.card for a in legal if isinstance(a, Play))
                    await pilot.press(str(app._display_cards().index(card) + 1))
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
    new = atout("score", "new", "--db", db, "--name", "Jeudi", stdin=typed)
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
