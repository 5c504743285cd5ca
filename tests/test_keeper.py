"""The score keeper, end to end as a club would use it, on the rulebooks' worked examples."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from atout import AtoutError, Contract, DealFacts, Ruleset
from atout.cli.keeper import Keeper
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
    said = run(book, sid, ["160C Nous capot", "160P Nous capot"])
    assert said[-1] == "Partie gagnée par Nous !"


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
    with pytest.raises(AtoutError, match="pas une feuille de score lisible"):
        ScoreBook(corrupt)


def test_exports() -> None:
    book, sid = sheet()
    run(book, sid, ["80C Nous 95", "passe", "quitter"])
    data = json.loads(book.export_json(sid))
    assert data["format"] == "atout-scoresheet" and len(data["deals"]) == 2
    assert data["deals"][0]["totals"] == {"Nous": 180, "Eux": 70}
    lines = book.export_csv(sid).splitlines()
    assert lines[0].startswith("deal,contract") and lines[1].startswith("1,80 ♥,Nous,0,made")
    assert lines[2].startswith("2,passe")


def test_score_command_end_to_end(tmp_path: Path) -> None:
    """The real command, fed on its standard input like a user typing."""
    db = tmp_path / "scores.sqlite3"
    command = [sys.executable, "-m", "atout.cli.main", "score", "--db", str(db)]
    typed = "80C\nNS\n\n95\n\n\n100C EW 60 x\nquitter\n"
    done = subprocess.run([*command, "new", "--name", "Jeudi"], input=typed, capture_output=True, text=True, check=True)
    assert "Marques : NS 520, EW 0 · Totaux : NS 700, EW 70" in plain(done.stdout)
    listing = subprocess.run([*command, "list"], capture_output=True, text=True, check=True).stdout
    assert "Jeudi" in listing and "2 donnes" in listing
    csv_text = subprocess.run([*command, "export", "1"], capture_output=True, text=True, check=True).stdout
    assert csv_text.count("\n") == 3
    missing = subprocess.run([*command, "resume", "7"], capture_output=True, text=True)
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
