"""The ``atout`` command as a user runs it, in subprocesses: exit codes, languages, bad input, help."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from atout import Deal, Ruleset
from atout.record import Record
from conformance import plain, played

#: The exit codes README.md documents.
DONE, WRONG_INPUT, USAGE = 0, 1, 2


def atout(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    """Run ``atout ARGS`` and return what it did (its output with the no-break spaces made plain)."""
    data = stdin.encode() if isinstance(stdin, str) else stdin
    done = subprocess.run([sys.executable, "-m", "atout", *args], input=data, capture_output=True, timeout=600)
    out, err = (plain(stream.decode("utf-8")) for stream in (done.stdout, done.stderr))
    assert "Traceback" not in err, err
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


def test_demo_prints_a_record_that_referee_reads_from_standard_input() -> None:
    demo = atout("demo", "--seed", "7")
    assert demo.returncode == DONE and demo.stdout.startswith("% Donne de démonstration (coinche, graine 7)")
    referee = atout("referee", "-", stdin=demo.stdout)
    assert referee.returncode == DONE
    contract = next(line for line in demo.stdout.splitlines() if line.startswith("% Contrat"))
    assert contract[2:] in referee.stdout  # the comment says what the referee finds


def test_demo_into_a_reader_that_stops_ends_quietly() -> None:
    """``atout demo | head``: the reader goes away; no complaint, exit code 0."""
    process = subprocess.Popen([sys.executable, "-m", "atout", "demo"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert process.stdout is not None and process.stderr is not None
    process.stdout.close()  # before it writes anything
    err = process.stderr.read()
    assert process.wait(timeout=60) == DONE and err == b""


def test_a_wrong_record_exits_1_and_speaks_the_language_asked(tmp_path: Path) -> None:
    deal = played()
    lines = Record.from_deal(deal).to_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith('[Play "')) + 1
    seat, _, cards = lines[at].partition(": ")
    leader = deal.tricks[0].leader
    missing = next(c for c in ("7S", "8S", "9S", "7H", "8H", "9H") if c not in _codes(deal.initial_hands[leader]))
    lines[at] = f"{seat}: {missing} {cards.split(' ', 1)[1]}"
    path = tmp_path / "illegal.txt"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    french = atout("referee", str(path))
    assert french.returncode == WRONG_INPUT
    assert f"{path}:{at + 1} : action" in french.stderr and "Vous n'avez pas" in french.stderr
    english = atout("referee", str(path), "--lang", "en")
    assert "you do not hold" in english.stderr and "Vous" not in english.stderr
    garbage = tmp_path / "garbage.txt"
    garbage.write_text("garbage line\n", encoding="utf-8")
    for command in (("referee", str(garbage)), ("analyse", str(garbage)), ("play", "--resume", str(garbage))):
        done = atout(*command)
        assert done.returncode == WRONG_INPUT and f"{garbage}:1 : ligne inattendue « garbage line »" in done.stderr


def _codes(mask: int) -> set[str]:
    from atout.cards import Card

    return {Card(c).code for c in range(32) if mask >> c & 1}


def test_unreadable_input_exits_2_without_a_traceback(tmp_path: Path) -> None:
    binary = tmp_path / "bin.dat"
    binary.write_bytes(b"\xff\xfe\x00\x81binary")
    for command in (
        ("referee", str(binary)),
        ("analyse", str(binary)),
        ("play", "--resume", str(binary)),
        ("arena", str(binary), "random", "--quiet"),
        ("arena", "random", "random", "--deals", "1", "--quiet", "--out", str(binary), "--resume"),
    ):
        done = atout(*command)
        assert done.returncode == USAGE and f"{binary} n'est pas du texte UTF-8" in done.stderr, command
    missing = atout("referee", str(tmp_path / "nothing.txt"), "--lang", "en")
    assert missing.returncode == USAGE and "cannot read" in missing.stderr and "no such file" in missing.stderr


def test_a_huge_input_is_refused_before_it_is_read_and_not_echoed(tmp_path: Path) -> None:
    huge = tmp_path / "huge.txt"
    with huge.open("wb") as handle:
        handle.truncate(300 * 1024 * 1024)  # 300 MB, sparse: nothing is written to the disk
    done = atout("referee", str(huge))
    assert done.returncode == USAGE and f"{huge} : plus de 16 Mo, atout ne lit pas au-delà" in done.stderr
    piped = atout("referee", "-", stdin=b"x" * (17 * 1024 * 1024))
    assert piped.returncode == USAGE and "l'entrée standard : plus de 16 Mo" in piped.stderr
    line = atout("referee", "-", stdin="y" * 1000 + "\n")
    assert line.returncode == WRONG_INPUT and "entrée standard, ligne 1" in line.stderr
    assert "y" * 40 not in line.stderr and len(line.stderr) < 200


def test_bad_numbers_and_unknown_bots_are_refused_by_name() -> None:
    for command, named in (
        (("arena", "club", "random", "--workers", "0"), "argument --workers : 0 est hors limites : de 1 à 1024"),
        (("arena", "club", "random", "--deals", "0"), "argument --deals : 0 est hors limites"),
        (("play", "--speed", "-1"), "argument --speed : -1 est hors limites : de 0 à 10"),
        (("play", "--target", "deux"), "argument --target : « deux » n'est pas un nombre"),
        (("play", "--target", "0"), "argument --target : 0 est hors limites : de 1 à 100000"),
        (("score", "show", "0"), "0 est hors limites"),
    ):
        done = atout(*command)
        assert done.returncode == USAGE and named in done.stderr, done.stderr
    unknown = atout("arena", "foo", "club")
    assert unknown.returncode == USAGE
    assert "robot inconnu « foo » (niveaux : random, debutant, club, heuristic, expert" in unknown.stderr
    english = atout("arena", "foo", "club", "--lang", "en")
    assert "unknown bot 'foo' (levels: random, debutant, club, heuristic, expert" in english.stderr


def test_a_bot_spec_file_with_bad_fields_is_wrong_input(tmp_path: Path) -> None:
    spec = tmp_path / "bold.toml"
    spec.write_text('name = "bold"\ndepth = 3\n', encoding="utf-8")
    done = atout("arena", str(spec), "random", "--quiet", "--lang", "en")
    assert done.returncode == WRONG_INPUT and "unknown field(s) depth" in done.stderr


@pytest.mark.parametrize(
    ("field", "fr", "en"),
    [
        ("noise = 2", "noise doit être un nombre entre 0 et 1, pas 2", "noise must be a number between 0 and 1, not 2"),
        ('player = "psychic"', "player = 'psychic' n'est pas permis", "player 'psychic' is not one of"),
        ("samples = 2.5", "samples doit être un nombre entier entre 1 et 10_000", "samples must be a whole number"),
    ],
)
def test_a_bad_field_of_a_bot_spec_file_is_named_in_the_language_asked(
    tmp_path: Path, field: str, fr: str, en: str
) -> None:
    """The arena names the file, the bot and the field, in French by default and in English on request,
    without a traceback (:func:`atout` checks that)."""
    spec = tmp_path / "bold.toml"
    spec.write_text(f'name = "bold"\n{field}\n', encoding="utf-8")
    french = atout("arena", str(spec), "random", "--quiet", "--lang", "fr")
    assert french.returncode == WRONG_INPUT
    assert f"atout arena : {spec} : description du robot « bold » : {fr}" in french.stderr, french.stderr
    assert "must" not in french.stderr and "bot spec" not in french.stderr
    english = atout("arena", str(spec), "random", "--quiet", "--lang", "en")
    assert english.returncode == WRONG_INPUT
    assert f"bot spec 'bold': {en}" in english.stderr and "«" not in english.stderr


COMMANDS = ("play", "demo", "score", "serve", "referee", "analyse", "arena")


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_every_help_has_a_description_and_an_example(lang: str) -> None:
    top = atout("--help", "--lang", lang)
    assert top.returncode == DONE and ("Exemple" if lang == "fr" else "Example") in top.stdout
    for command in COMMANDS:
        done = atout(command, "--help", "--lang", lang)
        assert done.returncode == DONE
        lines = done.stdout.splitlines()
        description = lines[lines.index("") + 1]
        assert description and description in top.stdout.replace("\n" + " " * 21, " ")
        example = done.stdout[done.stdout.index("Exemple" if lang == "fr" else "Example") :]
        assert f"atout {command}" in example
        if lang == "fr":
            assert "usage :" in done.stdout and "show this help" not in done.stdout and "options:" not in done.stdout


def test_analyse_explains_its_columns_and_says_a_deal_is_unfinished(tmp_path: Path) -> None:
    deal = Deal.new(Ruleset.preset("coinche"), dealer=1, seed=3)
    rng = random.Random(3)
    while len(deal.tricks) < 2 or deal.current_trick:
        deal.apply(rng.choice(deal.legal_actions()))
    path = tmp_path / "unfinished.txt"
    path.write_text(Record.from_deal(deal).to_text(), encoding="utf-8")
    done = atout("analyse", str(path))
    out = done.stdout
    assert done.returncode == DONE
    assert out.startswith("Valeur : les points de plis") and "Coût : la différence" in out
    assert "Donne inachevée (8 cartes jouées) : seules ces cartes sont analysées." in out
    assert len([line for line in out.splitlines() if line[:5].strip().isdigit()]) == 8


def test_the_arena_report_says_what_it_knows_and_nothing_more() -> None:
    one = atout("arena", "random", "random", "--deals", "1", "--workers", "1", "--seed", "3")
    assert one.returncode == DONE and "1/1" in one.stderr  # the progress bar ends full
    report = one.stdout
    assert "random contre random — coinche, 1 donne en duplicate" in report
    assert "pas d'intervalle avec une seule donne" in report
    for wrong in ("-0", "0/0", "inf", "1 donnes"):
        assert wrong not in report
    none = atout("arena", "random", "random", "--deals", "2", "--target", "100000", "--workers", "1", "--quiet")
    assert "Aucune partie terminée : trop peu de donnes pour atteindre 100000 points." in none.stdout
    assert "0 sur 0" not in none.stdout and "0 %" not in none.stdout


def test_score_exports_infer_the_format_and_end_with_a_newline(tmp_path: Path) -> None:
    db = str(tmp_path / "scores.sqlite3")
    assert atout("score", "new", "--db", db, "--name", "Jeudi", stdin="80C NS 95\nquitter\n").returncode == DONE
    as_json = tmp_path / "jeudi.json"
    assert atout("score", "export", "1", "--db", db, "--output", str(as_json)).returncode == DONE
    text = as_json.read_text(encoding="utf-8")
    assert text.endswith("}\n") and json.loads(text)["deals"][0]["marks"] == {"Nous": 180, "Eux": 70}
    as_csv = tmp_path / "jeudi.csv"
    assert atout("score", "export", "1", "--db", db, "--output", str(as_csv)).returncode == DONE
    assert as_csv.read_text(encoding="utf-8").splitlines()[0].startswith("deal,contract")
    assert as_csv.read_bytes().endswith(b"\n") and b"\r" not in as_csv.read_bytes()
    mismatch = atout("score", "export", "1", "--db", db, "--format", "csv", "--output", str(tmp_path / "x.json"))
    assert mismatch.returncode == USAGE and "x.json n'est pas un fichier csv" in mismatch.stderr
    unknown = atout("score", "export", "1", "--db", db, "--output", str(tmp_path / "x.txt"))
    assert unknown.returncode == USAGE and "extension inconnue" in unknown.stderr
    assert not (tmp_path / "x.json").exists() and not (tmp_path / "x.txt").exists()
    assert atout("score", "export", "1", "--db", db).stdout.endswith("\n")


def test_score_delete_asks_says_what_it_deleted_and_numbers_are_never_reused(tmp_path: Path) -> None:
    db = str(tmp_path / "scores.sqlite3")
    for name in ("Lundi", "Mardi"):
        atout("score", "new", "--db", db, "--name", name, stdin="80C NS 95\nquitter\n")
    kept = atout("score", "delete", "2", "--db", db, stdin="n\n")
    assert "Rien n'est supprimé : la feuille n° 2 « Mardi » (1 donne, Nous 180 · Eux 70) reste." in kept.stdout
    gone = atout("score", "delete", "2", "--db", db, stdin="o\n")
    assert "Supprimé : la feuille n° 2 « Mardi » (1 donne, Nous 180 · Eux 70)." in gone.stdout
    atout("score", "new", "--db", db, "--name", "Mercredi", stdin="quitter\n")
    listing = atout("score", "list", "--db", db).stdout
    assert "  3  Mercredi" in listing and "  2  " not in listing
    assert "Lundi" in listing and "Nous 180 · Eux 70" in listing and "en cours" in listing
    assert atout("score", "delete", "3", "--db", db, "--yes").returncode == DONE


def test_score_list_and_show_give_totals_winner_taker_and_outcome(tmp_path: Path) -> None:
    db = str(tmp_path / "scores.sqlite3")
    typed = "160C NS capot\n100P EW 60 x\n160K NS capot\n"
    atout("score", "new", "--db", db, "--name", "Finale", "--target", "1000", stdin=typed)
    listing = atout("score", "list", "--db", db).stdout
    assert "Finale" in listing and "3 donnes" in listing and "gagnée par Nous" in listing
    shown = atout("score", "show", "1", "--db", db).stdout
    assert "160 ♥ (cœur) pris par Nous" in shown and "réussi" in shown
    assert "100 ♠ (pique) pris par Eux, coinché" in shown and "chuté" in shown
    assert "Partie gagnée par Nous !" in shown
    english = atout("score", "show", "1", "--db", db, "--lang", "en").stdout
    assert "100 ♠ (spades) taken by Eux, coinched" in english and "failed" in english  # the sheet's names


def test_the_keepers_input_may_end_in_the_middle_of_a_deal(tmp_path: Path) -> None:
    db = str(tmp_path / "scores.sqlite3")
    done = atout("score", "new", "--db", db, stdin="80C NS 95\n90C\nNS\n")
    assert done.returncode == DONE and done.stdout.rstrip().endswith("(Feuille n° 1 enregistrée.)")
    assert "1 donne " in atout("score", "list", "--db", db).stdout  # the deal typed in part is not recorded


def test_options_without_a_limit_of_their_own_do_not_show_one() -> None:
    """A seed or a sheet number out of range said « de 1 à 4611686018427387904 »."""
    for command, said in (
        (("play", "--seed", "-1"), "argument --seed : -1 est hors limites : un nombre entier à partir de 0"),
        (("score", "show", "0"), "0 est hors limites : un nombre entier à partir de 1"),
        (("demo", "--seed", "9" * 30), f"argument --seed : {'9' * 30} est un trop grand nombre"),
    ):
        done = atout(*command)
        assert done.returncode == USAGE and said in done.stderr and "4611686018427387904" not in done.stderr, done


def test_analyse_says_its_legend_only_when_there_is_something_to_analyse(tmp_path: Path) -> None:
    garbage = tmp_path / "texte.txt"
    garbage.write_text("Ceci n'est pas une donne.\n", encoding="utf-8")
    wrong = atout("analyse", str(garbage))
    assert wrong.returncode == WRONG_INPUT and wrong.stdout == ""
    dealt = tmp_path / "dealt.txt"
    dealt.write_text(Record.from_deal(Deal.new(Ruleset.preset("coinche"), seed=1)).to_text(), encoding="utf-8")
    nothing = atout("analyse", str(dealt))
    assert nothing.returncode == DONE and nothing.stdout == "Aucune carte jouée : rien à analyser.\n"


def test_ctrl_c_stops_the_arenas_workers_quietly(tmp_path: Path) -> None:
    out = tmp_path / "results.jsonl"
    command = [sys.executable, "-m", "atout", "arena", "random", "debutant", "--deals", "100000", "--workers", "2"]
    command += ["--out", str(out), "--quiet"]
    pipe = subprocess.PIPE
    process = subprocess.Popen(command, stdout=pipe, stderr=pipe, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and not (out.exists() and '"type": "board"' in out.read_text()):
            time.sleep(0.05)  # until the workers play
        assert out.exists() and '"type": "board"' in out.read_text()
        os.killpg(process.pid, signal.SIGINT)  # Ctrl+C: the whole process group
        _, err = process.communicate(timeout=120)
    finally:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGKILL)
    said = plain(err.decode("utf-8"))
    assert process.returncode == 130 and said == "atout arena : interrompu\n", said


def test_an_unexpected_error_at_the_table_exits_non_zero_with_the_match_saved(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from atout.cli.main import main
    from atout.cli.table import TableApp
    from atout.session import GameSession

    run = TableApp.run
    monkeypatch.setattr(TableApp, "run", lambda app: run(app, headless=True))
    monkeypatch.setattr("atout.solver.warm_up", lambda: None)

    def bug(session: GameSession) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(GameSession, "bot_choice", bug)  # the first bot to think, before South's turn
    save = tmp_path / "partie.txt"
    code = main(["play", "--save", str(save), "--seed", "3", "--level", "random", "--lang", "en"])
    err = plain(capsys.readouterr().err)
    assert code == 3 and "atout play: an unexpected error stopped the game" in err
    assert f"Game saved to {save} (to resume it: atout play --resume {save})" in err
    resumed = GameSession.load(save)
    assert resumed.deal.dealer == 0 and not resumed.deal.actions


@pytest.mark.parametrize(
    ("lang", "said"),
    [("fr", "un élément du chemin n'est pas un dossier"), ("en", "part of the path is not a directory")],
)
def test_score_on_an_unwritable_data_folder_says_so_in_the_players_language(
    tmp_path: Path, lang: str, said: str
) -> None:
    home = tmp_path / "home"
    home.write_text("", encoding="utf-8")  # HOME is a file: nothing can be written under it, even by root
    env = {**os.environ, "HOME": str(home), "XDG_DATA_HOME": ""}
    done = subprocess.run(
        [sys.executable, "-m", "atout", "score", "new", "--lang", lang],
        input=b"",
        capture_output=True,
        timeout=120,
        env=env,
    )
    err = plain(done.stderr.decode("utf-8"))
    assert done.returncode == USAGE and said in err and "Traceback" not in err, err


def atout_without(modules: tuple[str, ...], *args: str) -> subprocess.CompletedProcess[str]:
    """Run ``atout ARGS`` as if the packages ``modules`` were not installed (importing one fails, as when it is not)."""
    code = f"import sys\nsys.modules.update(dict.fromkeys({modules!r}))\n"  # None: « not installed »
    code += f"from atout.cli import main\nsys.exit(main({args!r}))"
    done = subprocess.run([sys.executable, "-c", code], stdin=subprocess.DEVNULL, capture_output=True, timeout=120)
    out, err = (plain(stream.decode("utf-8")) for stream in (done.stdout, done.stderr))
    assert "Traceback" not in err, err
    return subprocess.CompletedProcess(done.args, done.returncode, out, err)


@pytest.mark.parametrize(
    ("missing", "argv", "extra"),
    [
        (("textual",), ("play",), "play"),
        (("numba", "numpy"), ("analyse", "-"), "play"),
        (("scipy",), ("arena", "club", "random", "--deals", "1"), "arena"),
        (("fastapi",), ("serve",), "web"),
        # Not among those checked before the command starts: the import that needs it names it.
        (("anyio",), ("serve", "--port", "1"), "web"),
        (
            ("asyncpg",),
            ("serve", "--port", "1", "--database-url", "postgresql+asyncpg://atout@127.0.0.1/atout"),
            "postgres",
        ),
    ],
    ids=["play", "analyse", "arena", "serve", "serve-dependency", "serve-postgres"],
)
def test_a_command_whose_extra_is_missing_says_which_to_install_in_the_players_language(
    missing: tuple[str, ...], argv: tuple[str, ...], extra: str
) -> None:
    """``pip install atout`` has no dependency: ``atout play`` and the others that need more say which extra to
    install, exit code 2, no traceback, in French or in English, and start nothing."""
    command = argv[0]
    french = atout_without(missing, *argv)
    names = ", ".join(missing)
    said = f"atout {command} a besoin de l'extra atout[{extra}] : pip install 'atout[{extra}]' (il manque {names})"
    assert (french.returncode, french.stdout, french.stderr) == (USAGE, "", said + "\n")
    english = atout_without(missing, *argv, "--lang", "en")
    said = f"atout {command} needs the extra atout[{extra}]: pip install 'atout[{extra}]' ({names} missing)"
    assert (english.returncode, english.stdout, english.stderr) == (USAGE, "", said + "\n")
