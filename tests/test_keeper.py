"""The score keeper, end to end as a club would use it, on the rulebooks' worked examples."""

from __future__ import annotations

import errno
import io
import json
import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from atout import AtoutError, Contract, DealFacts, Ruleset
from atout.cli.keeper import Keeper
from atout.cli.main import main
from atout.scorebook import ScoreBook
from conformance import plain


def run(book: ScoreBook, sheet_id: int, answers: list[str], lang: str = "fr") -> list[str]:
    """What the keeper says (questions included) when it is given ``answers``, typography made plain."""
    said: list[str] = []
    feed: Iterator[str] = iter(answers)

    def ask(question: str) -> str:
        said.append(question)
        return next(feed)

    Keeper(book, sheet_id, lang, ask, said.append).run()
    return [plain(line) for line in said]


OVER = "Partie finie — « annuler » ou « corriger » la dernière donne, « scores », « aide », ou Entrée pour quitter : "
OVER_HINT = "« annuler » ou « corriger » la dernière donne, ou Entrée pour quitter"


def sheet(preset: str = "coinche", **options: object) -> tuple[ScoreBook, int]:
    book = ScoreBook(":memory:")
    return book, book.create(Ruleset.preset(preset, **options), "test", ["Nous", "Eux"]).id


def test_ffb_rounding_example() -> None:
    """80 ♥ made with 95: 95 + 80 = 175 → 180, the defence 67 → 70 (FFB coinche §10.1.1, §10.2)."""
    book, sid = sheet()
    said = run(book, sid, ["80C", "Nous", "", "95", "", "", "quitter"])
    assert any("Marques : Nous 180, Eux 70" in line for line in said)
    assert book.load(sid).match.scores == {0: 180, 1: 70}


def test_coinched_fall_in_one_line() -> None:
    """100 ♥ coinched, takers 60: the defence marks (160 + 100) × 2 = 520 (FFB coinche §10.1.2)."""
    book, sid = sheet()
    run(book, sid, ["100C Eux 60 x", "quitter"])
    assert book.load(sid).match.scores == {0: 520, 1: 0}


def test_litige_is_carried_to_the_next_contract() -> None:
    """81-81: the defence marks its 81 (→ 80), the takers' 81 (→ 80) go to the next contract made
    (FFB coinche §10.1.3)."""
    book, sid = sheet()
    said = run(book, sid, ["80C Nous 81", "90P Eux 100", "quitter"])
    assert any("80 points en litige" in line for line in said)
    assert book.load(sid).match.scores == {0: 60, 1: 80 + 190 + 80}


def test_capot_belote_and_announcements() -> None:
    """A bid capot made: 252 + 250 + belote 20 + a cinquante 50 (FFB coinche §9.2, §10.1.1)."""
    book, sid = sheet()
    run(book, sid, ["capot pique", "Nous", "", "capot", "Nous", "Nous 50", "quitter"])
    assert book.load(sid).match.scores == {0: 252 + 250 + 20 + 50 - 2, 1: 0}


def test_contree_110_on_80_scores_190() -> None:
    """Points faits + annoncés: 110 made on 80 → 190 (FunBelote, *Belote contrée*)."""
    book, sid = sheet("contree")
    run(book, sid, ["80C Nous 110", "quitter"])
    assert book.load(sid).match.scores == {0: 190, 1: 50}


def test_contree_asks_contre_not_coinche() -> None:
    """Belote contrée's players « contrent » and « surcontrent » (FunBelote, *Belote contrée*): the keeper asks so."""
    book, sid = sheet("contree")
    said = run(book, sid, ["80C", "Nous", "contre", "110", "", "quitter"])
    assert "Contre ? (non, contre, surcontre) [non] : " in said
    assert not any("Coinche" in line for line in said)
    assert book.load(sid).match.entries[0].facts.contract.level == 1  # type: ignore[union-attr]


def test_classique_takers_need_more_than_the_defence() -> None:
    """82 made; 81-81 a fall: « Si l'équipe attaquante fait moins de 82 points, elle marque 0 et l'équipe
    adverse marque 162 points » (*Règles de la belote classique*); the defence takes 162 on a fall."""
    book, sid = sheet("classique")
    said = run(
        book,
        sid,
        ["coeur", "Nous", "82", "", "", "pique", "Eux", "81", "", "", "carreau", "Nous", "60", "", "", "quitter"],
    )
    match = book.load(sid).match
    assert match.scores == {0: 82 + 162, 1: 80 + 162}
    assert not any("litige" in line for line in said)


def test_the_winner_is_announced_at_the_target() -> None:
    book, sid = sheet(target=500)
    said = run(book, sid, ["160C Nous capot", "160P Nous capot", ""])  # Enter, once the game is over, quits
    assert said[-3:] == ["Partie gagnée par Nous !", OVER, "(Feuille n° 1 enregistrée.)"]


def test_bad_entries_are_refused_and_nothing_is_lost() -> None:
    book, sid = sheet()
    run(book, sid, ["80C Nous 95", "quitter"])
    said = run(
        book,
        sid,
        [
            "85C",
            "830C Nous 100",
            "80C Personne 90",
            "80C Nous 170",
            "zut",
            "80C",
            "Ailleurs",
            "Eux",
            "peut-être",
            "coinche",
            "beaucoup",
            "100",
            "Lui",
            "",
            "Eux cinquante",
            "Eux 50",
            "quitter",
        ],
        "fr",
    )
    refused = [line for line in said if line.startswith("Saisie refusée")]
    assert len(refused) >= 8
    entries = book.load(sid).entries
    assert len(entries) == 2 and entries[0].marks == {0: 180, 1: 70}
    assert entries[1].facts is not None and entries[1].facts.contract.level == 1


def test_undo_and_edit() -> None:
    book, sid = sheet()
    run(book, sid, ["80C Nous 95", "90P Eux 100", "annuler", "corriger", "80C Nous 120", "quitter"])
    entries = book.load(sid).entries
    assert len(entries) == 1 and entries[0].marks == {0: 200, 1: 40}
    said = run(book, sid, ["annuler", "annuler", "corriger", "quitter"])
    assert "Aucune donne." in said


def test_passed_deal_and_english() -> None:
    book, sid = sheet()
    said = run(book, sid, ["pass", "help", "scores", "quit"], "en")
    assert any("Commands" in line for line in said) and book.load(sid).entries[0].facts is None


def test_score_book_refuses_bad_facts_before_writing(tmp_path: Path) -> None:
    book = ScoreBook(tmp_path / "book.sqlite3")
    sid = book.create(Ruleset.preset("coinche"), "x").id
    with pytest.raises(AtoutError):
        book.add(sid, DealFacts(Contract(80, 1, 0), {0: -5, 1: 167}))
    assert book.load(sid).entries == []
    with pytest.raises(AtoutError, match="pas de feuille de score"):
        book.load(99)
    with pytest.raises(AtoutError, match="3 noms"):
        book.create(Ruleset.preset("coinche"), "x", ["a", "b", "c"])
    book.close()
    corrupt = tmp_path / "corrupt.sqlite3"
    corrupt.write_text("not a database", encoding="utf-8")
    with pytest.raises(AtoutError, match=r"corrupt\.sqlite3 n'est pas un carnet de scores d'atout"):
        ScoreBook(corrupt)
    assert corrupt.read_text(encoding="utf-8") == "not a database"


def test_exports() -> None:
    book, sid = sheet()
    run(book, sid, ["80C Nous 95", "passe", "quitter"])
    data = json.loads(book.export_json(sid))
    assert data["format"] == "atout-scoresheet" and len(data["deals"]) == 2
    assert data["deals"][0]["totals"] == {"Nous": 180, "Eux": 70}
    lines = book.export_csv(sid).splitlines()
    assert lines[0].startswith("deal,contract") and lines[1].startswith("1,80H,Nous,0,made")
    assert lines[2].startswith("2,-,,,passed")


def test_score_command_end_to_end(tmp_path: Path) -> None:
    """The real command, fed on its standard input like a user typing."""
    db = tmp_path / "scores.sqlite3"
    command = [sys.executable, "-m", "atout.cli.main", "score", "--db", str(db)]
    typed = "80C\nNS\n\n95\n\n\n100C EW 60 x\nquitter\n"
    done = subprocess.run(
        [*command, "new", "--name", "Jeudi"], input=typed, capture_output=True, text=True, check=True, timeout=120
    )
    assert "Marques : Nous 520, Eux 0 · Totaux : Nous 700, Eux 70" in plain(done.stdout)  # French sides
    listing = subprocess.run([*command, "list"], capture_output=True, text=True, check=True, timeout=120).stdout
    assert "Jeudi" in listing and "2 donnes" in listing
    csv_text = subprocess.run([*command, "export", "1"], capture_output=True, text=True, check=True, timeout=120).stdout
    assert csv_text.count("\n") == 3
    missing = subprocess.run([*command, "resume", "7"], capture_output=True, text=True, timeout=120)
    assert missing.returncode == 2 and "pas de feuille de score n° 7" in plain(missing.stderr)


@pytest.mark.parametrize(
    ("line", "fr", "en"),
    [
        ("80C Nous 100 belote=Nous,Eux", "Une seule belote", "one belote at most"),
        ("80C Nous 100 annonces=Eux:30", "ne peuvent pas montrer 30 points d'annonces", "cannot show 30 points"),
        ("80C Nous 100 annonces=Nous:50,Eux:20", "Les annonces d'un seul camp comptent", "only one side scores"),
    ],
)
def test_impossible_facts_are_refused_in_the_players_language(line: str, fr: str, en: str) -> None:
    """One king and one queen of trump (FFB §7); announcements of 20, 50, 100 and carrés that sixteen cards can
    hold (§8); one side's announcements only (§8.3): refused, in French or in English, and nothing recorded."""
    for lang, expected in (("fr", fr), ("en", en)):
        book, sid = sheet()
        said = run(book, sid, [line, "quitter" if lang == "fr" else "quit"], lang)
        refusals = [s for s in said if s.startswith(("Saisie refusée", "Entry refused"))]
        assert len(refusals) == 1 and expected in refusals[0]
        assert book.load(sid).entries == []


def test_a_bid_above_the_ceiling_is_refused_at_once_and_one_below_taken() -> None:
    """Coinche bids have no ceiling but what a side can score, 820 (FFB §4.1); the refusal comes with the
    contract, before any other question."""
    book, sid = sheet()
    said = run(book, sid, ["830C", "250C Nous 152 annonces=Nous:200", "quitter"])
    assert "Saisie refusée : Enchère invalide : de 80 à 820, par 10" in said
    entry = book.load(sid).entries[0]
    assert entry.score is not None and entry.score.outcome == "made"
    assert entry.marks == {0: 600, 1: 10}  # 152 + 200 + 250 = 602, rounded (FFB §10.2)


def test_two_players_enter_each_sides_points_and_a_capot() -> None:
    """Face à face: 18 of the 32 cards are played, so each side's points are asked; 250 is a capot
    (*Belote face à face*; *Règles de la belote classique*: « elle marque 250 points »)."""
    book = ScoreBook(":memory:")
    sid = book.create(Ruleset.preset("deux"), "test", ["Moi", "Toi"]).id
    said = run(book, sid, ["coeur", "Moi", "70", "20", "", "", "pique", "Toi", "0", "250", "", "", "quitter"])
    assert book.load(sid).match.scores == {0: 70, 1: 20 + 250}
    assert not any(s.startswith("Saisie refusée") for s in said)


def test_a_sheet_kept_before_the_checks_still_opens(tmp_path: Path) -> None:
    """A deal an earlier atout accepted (announcements for both sides) is kept and replayed, never lost."""
    book = ScoreBook(tmp_path / "book.sqlite3")
    sid = book.create(Ruleset.preset("coinche"), "x", ["Nous", "Eux"]).id
    old = DealFacts(Contract(80, 1, 0), {0: 100, 1: 62}, announcements={0: 50, 1: 20})
    with book.db:
        book.db.execute(
            "INSERT INTO deals (sheet, number, facts, created) VALUES (?, 1, ?, 'then')",
            (sid, json.dumps(old.to_dict())),
        )
    assert book.load(sid).match.scores == {0: 100 + 50 + 80, 1: 60 + 20}
    said = run(book, sid, ["90P Eux 100", "quitter"])
    assert book.load(sid).match.scores == {0: 230 + 60, 1: 80 + 190} and not any("refusée" in s for s in said)


@pytest.mark.parametrize(
    ("line", "refusal"),
    [
        ("90C Nous 100 belote=Nous belote=Eux", "Une seule belote"),
        ("90C Nous 100 ann=Nous:50 ann=Eux:20", "Les annonces d'un seul camp comptent"),
        ("90C Nous 100 x xx", "« xx » : la coinche est déjà donnée"),
    ],
)
def test_a_field_given_twice_on_one_line_adds_up_and_is_refused(line: str, refusal: str) -> None:
    """Nothing typed is silently dropped: two belotes, or announcements for both sides, are refused (FFB §7, §8.3)."""
    book, sid = sheet()
    said = run(book, sid, [line, "quitter"])
    assert any(s.startswith("Saisie refusée") and refusal in s for s in said)
    assert book.load(sid).entries == []


def test_points_are_checked_as_soon_as_they_are_typed() -> None:
    """161 points leave 1 to the defence, which no trick holds: refused at once, not after belote and announcements."""
    book, sid = sheet()
    said = run(book, sid, ["90C", "Nous", "", "161", "100", "", "", "quitter"])
    points = [i for i, s in enumerate(said) if s.startswith("Points des preneurs")]
    assert len(points) == 2 and said[points[0] + 1].startswith("Saisie refusée")
    assert not any(s.startswith("Belote") for s in said[: points[1]])
    assert book.load(sid).match.scores == {0: 190, 1: 60}


def test_the_contract_is_said_back_and_a_foreign_letter_asked_about() -> None:
    book, sid = sheet(sans_atout=True)
    said = run(book, sid, ["90H", "n", "90S", "2", "Nous", "", "100", "", "quitter"])  # no belote at SA
    assert "« 90H » : voulez-vous dire 90 ♥ (cœur) ? (o/n) " in said  # no, so nothing is recorded
    assert "« 90S » : 1 = 90 ♠ (pique), 2 = 90 SA (sans atout) ? Tapez le numéro. " in said
    assert "Contrat : 90 SA (sans atout)" in said
    (entry,) = book.load(sid).entries
    assert entry.facts is not None and entry.facts.contract.strain == 4
    said = run(book, sid, ["100C Eux 60 x", "quitter"])
    assert "Contrat : 100 ♥ (cœur) pris par Eux, coinché" in said


def test_english_suits_in_english() -> None:
    book, sid = sheet()
    said = run(book, sid, ["90H Us 100", "90H Nous 100", "quit"], "en")
    assert "Entry refused: 'Us' is not a side (Nous, Eux)" in said
    assert "Contract: 90 ♥ (hearts) taken by Nous" in said
    assert not any("«" in s or " :" in s for s in said)


OLD_SCHEMA = """
CREATE TABLE sheets (
    id INTEGER PRIMARY KEY, name TEXT NOT NULL, rules TEXT NOT NULL, fingerprint TEXT NOT NULL,
    sides TEXT NOT NULL, created TEXT NOT NULL, updated TEXT NOT NULL
);
CREATE TABLE deals (
    sheet INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE, number INTEGER NOT NULL,
    facts TEXT, created TEXT NOT NULL, PRIMARY KEY (sheet, number)
);
"""


def test_a_book_from_before_unique_numbers_opens_keeps_its_deals_and_never_reuses_a_number(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite3"
    rules = Ruleset.preset("coinche")
    facts = DealFacts.from_takers_points(rules, Contract(80, 1, 0), 95)
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    for number in (1, 2):
        db.execute(
            "INSERT INTO sheets VALUES (?, ?, ?, ?, '[\"Nous\", \"Eux\"]', '2020-01-01', '2020-01-01')",
            (number, f"old {number}", rules.to_json(), rules.fingerprint),
        )
        db.execute("INSERT INTO deals VALUES (?, 1, ?, 'then')", (number, json.dumps(facts.to_dict())))
    db.commit()
    db.close()
    book = ScoreBook(path)
    assert [book.load(n).match.scores for n in (1, 2)] == [{0: 180, 1: 70}] * 2
    assert book.delete(2).name == "old 2"
    assert book.create(rules, "new").id == 3  # not 2 again
    book.close()
    again = ScoreBook(path)  # migrated once, opened as it is from then on
    assert [s[0] for s in again.sheets()] == [3, 1] and again.load(1).entries[0].marks == {0: 180, 1: 70}


# ------------------------------------------------------------------ issue 33


def score(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str, typed: str = ""
) -> tuple[int, str, str]:
    """``atout score ARGS`` run in this process, ``typed`` on its standard input: (exit code, out, err)."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(typed))
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, plain(out), plain(err)


def won_sheet(path: Path) -> int:
    """A sheet at 500 that Nous won in two deals."""
    book = ScoreBook(path)
    sid = book.create(Ruleset.preset("coinche", target=500), "Finale", ["Nous", "Eux"]).id
    run(book, sid, ["160C Nous capot", "160P Nous capot", ""])
    assert book.load(sid).match.winner == 0
    book.close()
    return sid


def test_the_deal_that_ends_the_game_can_be_undone_when_the_sheet_is_resumed(tmp_path: Path) -> None:
    book_path = tmp_path / "book.sqlite3"
    sid = won_sheet(book_path)
    book = ScoreBook(book_path)
    said = run(book, sid, ["90C Nous 100", "annuler", "quitter"])
    assert said[1:3] == ["Partie gagnée par Nous !", OVER]
    assert said[3] == "Saisie refusée : la partie est finie : " + OVER_HINT
    assert "Dernière donne annulée." in said
    assert said[-2].startswith("Donne 2 — contrat")  # no longer over: play goes on
    assert len(book.load(sid).entries) == 1 and not book.load(sid).match.finished


def test_the_deal_that_ends_the_game_can_be_corrected_and_play_goes_on(tmp_path: Path) -> None:
    book_path = tmp_path / "book.sqlite3"
    sid = won_sheet(book_path)
    book = ScoreBook(book_path)
    said = run(book, sid, ["corriger", "80C Eux 100", "90P Eux 140", "quitter"])
    match = book.load(sid).match
    assert [e.facts.contract.value for e in match.entries if e.facts] == [160, 80, 90]
    assert not match.finished and said.count("Partie gagnée par Nous !") == 1  # once, before the correction
    assert said[-1] == "(Feuille n° 1 enregistrée.)"


def test_score_resume_of_a_finished_sheet_reads_the_correction(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "scores.sqlite3"
    won_sheet(db)
    code, out, _ = score(capsys, monkeypatch, "resume", "1", "--db", str(db), typed="annuler\nquitter\n")
    assert code == 0 and "Dernière donne annulée." in out
    code, out, _ = score(capsys, monkeypatch, "list", "--db", str(db))
    assert "1 donne " in out and "en cours" in out


@pytest.mark.parametrize(
    "action", [["list"], ["show", "1"], ["export", "1"], ["resume", "1"], ["delete", "1", "--yes"]]
)
def test_a_command_on_a_missing_book_creates_nothing(
    action: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "nonexistent" / "x.db"
    code, out, err = score(capsys, monkeypatch, *action, "--db", str(db))
    if action == ["list"]:
        assert (code, out.strip()) == (0, "Aucune feuille de score.")
    else:
        assert code == 2 and f"{db} n'existe pas : aucune feuille de score n'y est encore tenue" in err
    assert not (tmp_path / "nonexistent").exists()


@pytest.mark.parametrize("content", [b"", b"hello\n"])
@pytest.mark.parametrize(
    "action", [["new"], ["list"], ["show", "1"], ["export", "1"], ["resume", "1"], ["delete", "1", "--yes"]]
)
def test_an_existing_file_that_is_not_a_score_book_is_refused_and_left_alone(
    content: bytes,
    action: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    code, _, err = score(capsys, monkeypatch, *action, "--db", str(path), typed="quitter\n")
    assert code == 2 and f"{path} n'est pas un carnet de scores d'atout (rien n'y est changé)" in err
    assert path.read_bytes() == content and sorted(os.listdir(tmp_path)) == ["empty.txt"]


def test_another_programs_database_and_a_folder_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    other = tmp_path / "other.db"
    db = sqlite3.connect(other)
    db.execute("CREATE TABLE sheets (x)")
    db.commit()
    db.close()
    before = other.read_bytes()
    for action in (["new"], ["list"]):
        code, _, err = score(capsys, monkeypatch, *action, "--db", str(other), typed="quitter\n")
        assert code == 2 and f"{other} n'est pas un carnet de scores d'atout" in err
    assert other.read_bytes() == before
    code, _, err = score(capsys, monkeypatch, "list", "--db", str(tmp_path))
    assert code == 2 and f"{tmp_path} est un dossier, pas un carnet de scores" in err


def test_reading_commands_leave_an_old_book_as_it_is(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """list, show, export, resume of a missing sheet and a delete answered no change no byte, not even to
    convert a book from an earlier atout (that waits for the first change)."""
    path = tmp_path / "old.sqlite3"
    rules = Ruleset.preset("coinche")
    db = sqlite3.connect(path)
    db.executescript(OLD_SCHEMA)
    db.execute(
        "INSERT INTO sheets VALUES (1, 'old', ?, ?, '[\"Nous\", \"Eux\"]', '2020-01-01', '2020-01-01')",
        (rules.to_json(), rules.fingerprint),
    )
    db.commit()
    db.close()
    before = path.read_bytes()
    for action, typed in (
        (["list"], ""),
        (["show", "1"], ""),
        (["export", "1"], ""),
        (["export", "1", "--format", "json"], ""),
        (["resume", "2"], ""),
        (["delete", "1"], "n\n"),
    ):
        score(capsys, monkeypatch, *action, "--db", str(path), typed=typed)
        assert path.read_bytes() == before, action
    assert sorted(os.listdir(tmp_path)) == ["old.sqlite3"]
    code, out, _ = score(capsys, monkeypatch, "resume", "1", "--db", str(path), typed="80C Nous 95\nquitter\n")
    assert code == 0 and "Totaux : Nous 180, Eux 70" in out  # converted when written to


def test_two_players_are_named_not_seated_and_french_elides_de() -> None:
    book = ScoreBook(":memory:")
    sid = book.create(Ruleset.preset("deux"), "test", ["Alice", "Bob"]).id
    said = run(book, sid, ["coeur", "Alice", "1", "30", "70", "30", "", "", "quitter"])
    assert "Points d'Alice : " in said and "Points de Bob : " in said
    assert "Saisie refusée : Alice (preneur) : aucun jeu de plis ne vaut 1 points" in said
    assert not any("Nord" in s or "Sud" in s or "Points de Alice" in s for s in said)
    said = run(book, sid, ["pique", "Bob", "70", "1", "30", "70", "", "", "quit"], "en")
    assert "Entry refused: Bob (taker): no set of tricks is worth 1 card points" in said


def test_capot_defense_is_the_same_word_in_the_help_the_question_and_one_line() -> None:
    book, sid = sheet()
    said = run(book, sid, ["aide", "100P Nous capot défense", "90C Nous capot Eux", "90K Eux capot-défense", "quitter"])
    help_text = next(s for s in said if s.startswith("Une donne"))
    assert "« capot défense »" in help_text and "capot-défense" not in help_text
    assert not any(s.startswith("Saisie refusée") for s in said)
    assert [e.facts.capot for e in book.load(sid).entries if e.facts] == [1, 1, 0]
    said = run(book, sid, ["90C Nous capot Lui", "quitter"])
    assert "Saisie refusée : « Lui » n'est pas un camp (Nous, Eux)" in said and len(book.load(sid).entries) == 3


@pytest.mark.parametrize(
    ("preset", "options", "present", "absent"),
    [
        ("coinche", {}, ["90C Nous 102 x belote=Nous annonces=Nous:50"], ["SA", "TA"]),
        ("coinche", {"sans_atout": True, "tout_atout": True}, ["SA : sans atout.", "TA : tout atout."], []),
        ("contree", {}, ["SA : sans atout. TA : tout atout."], ["annonces="]),
        ("contree-colver", {}, ["90C Nous 102 x belote=Nous (capot"], ["annonces=", "SA", "TA"]),
        ("classique", {}, ["C Nous 102 belote=Nous annonces=Nous:50"], [" x ", "SA", "TA", "90C"]),
        ("deux", {}, ["Une donne : répondez aux questions."], [" x ", "SA", "TA", "sur une ligne"]),
    ],
)
def test_help_offers_only_what_the_sheets_rules_have(
    preset: str, options: dict[str, object], present: list[str], absent: list[str]
) -> None:
    book = ScoreBook(":memory:")
    rules = Ruleset.preset(preset, **options)
    sid = book.create(rules, "test", ["Nous", "Eux"] if rules.partnerships else None).id
    said = run(book, sid, ["aide", "quitter"])
    text = "\n".join(s for s in said if not s.startswith(("Donne", "Marques", "(Feuille")))
    assert all(p in text for p in present), text
    assert not any(a in text for a in absent), text


def test_default_sides_speak_the_players_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "scores.sqlite3")
    score(capsys, monkeypatch, "new", "--db", db, "--name", "fr", typed="80C NS 95\nquitter\n")
    monkeypatch.setattr(sys, "stdin", io.StringIO("80H N 95\nquit\n"))
    assert main(["score", "new", "--db", db, "--name", "en", "--lang", "en"]) == 0
    score(capsys, monkeypatch, "new", "--db", db, "--preset", "deux", typed="quitter\n")
    book = ScoreBook(db, create=False)
    assert [book.load(n).sides for n in (1, 2, 3)] == [["Nous", "Eux"], ["Us", "Them"], ["Nord", "Sud"]]
    assert book.load(1).match.scores == book.load(2).match.scores == {0: 180, 1: 70}


@pytest.mark.parametrize(
    ("sides", "refusal"),
    [
        ("Alice,alice", "deux camps portent le même nom « alice »"),
        ("Alice,", "un nom de camp est vide (Alice,)"),
        ("A,B,C", "cette partie a 2 camps, pas 3 noms"),
    ],
)
def test_bad_side_names_are_refused_before_anything_is_created(
    sides: str, refusal: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "new" / "scores.sqlite3"
    code, _, err = score(capsys, monkeypatch, "new", "--db", str(db), "--preset", "deux", "--sides", sides)
    assert code == 2 and refusal in err and not (tmp_path / "new").exists()


def test_csv_has_stable_english_columns_and_language_free_codes(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "scores.sqlite3")
    typed = "100P Nous 60 x\npasse\ncapot T Eux capot\nquitter\n"
    score(capsys, monkeypatch, "new", "--db", db, "--preset", "coinche", "--sa-ta", typed=typed)
    exports = {}
    for lang in ("fr", "en"):
        out = tmp_path / f"{lang}.csv"
        score(capsys, monkeypatch, "export", "1", "--db", db, "--output", str(out), "--lang", lang)
        exports[lang] = out.read_text(encoding="utf-8")
    assert exports["fr"] == exports["en"]
    rows = exports["fr"].splitlines()
    assert rows[0].startswith("deal,contract,taker,level,outcome,capot,points Nous,points Eux,")
    assert rows[1].startswith("1,100S,Nous,1,chute,,60,102,")
    assert rows[2].startswith("2,-,,,passed,")
    assert rows[3].startswith("3,capotC,Eux,0,made,Eux,0,252,")


def test_an_export_to_a_missing_folder_names_the_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "scores.sqlite3")
    score(capsys, monkeypatch, "new", "--db", db, typed="80C Nous 95\nquitter\n")
    target = tmp_path / "nowhere" / "jeudi.csv"
    code, _, err = score(capsys, monkeypatch, "export", "1", "--db", db, "--output", str(target))
    assert code == 2 and f"le dossier {target.parent} n'existe pas : {target} n'est pas écrit" in err
    code, _, err = score(capsys, monkeypatch, "export", "1", "--db", db, "--output", str(target), "--lang", "en")
    assert code == 2 and f"the folder {target.parent} does not exist: {target} is not written" in err
    assert not target.parent.exists()


def test_a_damaged_sheet_is_said_in_the_players_language(tmp_path: Path) -> None:
    path = tmp_path / "book.sqlite3"
    book = ScoreBook(path)
    sid = book.create(Ruleset.preset("coinche"), "x", ["Nous", "Eux"]).id
    with book.db:
        book.db.execute("INSERT INTO deals (sheet, number, facts, created) VALUES (?, 1, '{oops', 'then')", (sid,))
    for lang, expected in (
        ("fr", "feuille n° 1, donne 1 : ses faits enregistrés sont illisibles (feuille abîmée)"),
        ("en", "sheet #1, deal 1: its stored facts cannot be read (damaged sheet)"),
    ):
        with pytest.raises(AtoutError) as refused:
            book.load(sid)
        assert plain(refused.value.message(lang)) == expected


def test_a_read_only_data_directory_stops_score_in_the_players_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = tmp_path / "home" / ".local" / "share"
    monkeypatch.setenv("XDG_DATA_HOME", str(data))

    def read_only(self: Path, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(Path, "mkdir", read_only)
    code, _, err = score(capsys, monkeypatch, "new", typed="quitter\n")
    book = data / "atout" / "scores.sqlite3"
    assert code == 2
    assert f"impossible de créer le carnet de scores {book} : le système de fichiers est en lecture seule" in err
    code, _, err = score(capsys, monkeypatch, "new", "--lang", "en", typed="quit\n")
    assert f"cannot create the score book {book}: read-only file system" in err
    assert "Read-only" not in err
    assert score(capsys, monkeypatch, "list")[:2] == (0, "Aucune feuille de score.\n")


def test_a_data_directory_under_a_file_is_refused_in_the_players_language(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "home").write_text("a file, not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "home" / "share"))
    code, _, err = score(capsys, monkeypatch, "new", typed="quitter\n")
    assert code == 2 and "impossible de créer le carnet de scores" in err
    assert "un élément du chemin n'est pas un dossier" in err and "Not a directory" not in err


def test_a_book_that_cannot_be_written_is_said_before_any_question(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "scores.sqlite3"
    score(capsys, monkeypatch, "new", "--db", str(db), typed="quitter\n")
    before = db.read_bytes()
    monkeypatch.setattr(os, "access", lambda path, mode: mode != os.W_OK)
    code, out, err = score(capsys, monkeypatch, "resume", "1", "--db", str(db), typed="80C Nous 95\n")
    assert code == 2 and out == ""
    assert (
        f"impossible d'écrire dans le carnet de scores {db} : on ne peut pas écrire dans le dossier {tmp_path}" in err
    )
    assert db.read_bytes() == before


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="permissions do not stop root")
def test_a_really_read_only_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        code, _, err = score(capsys, monkeypatch, "new", "--db", str(folder / "x.db"), typed="quitter\n")
    finally:
        folder.chmod(0o700)
    assert code == 2 and "impossible de créer le carnet de scores" in err and "Permission" not in err


def test_a_side_may_be_its_partnerships_letters_and_no_answer_is_asked_again() -> None:
    """Sides named « Nous » and « Eux » are still North–South (NS) and East–West (EO, EW); Enter alone is no side."""
    book, sid = sheet()
    said = run(book, sid, ["80C", "", "EO", "", "100", "", "", "80C NS 95", "90P ew 100", "quitter"])
    assert "Saisie refusée : donnez un camp (Nous, Eux)" in said
    assert [e.facts.contract.taker for e in book.load(sid).entries if e.facts] == [1, 0, 1]
