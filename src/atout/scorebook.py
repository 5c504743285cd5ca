"""Score sheets of games played with real cards, kept in SQLite.

A sheet is a ruleset, a name, the sides' names and the facts of each deal; the
marks, totals and winner are always recomputed from the facts by the one scoring
function (:mod:`atout.scoring`). Facts are checked before they are written and
every change is one transaction, so a bad entry is refused and nothing saved is lost.

>>> from atout import Contract
>>> book = ScoreBook(":memory:")
>>> sheet = book.create(Ruleset.preset("coinche"), "Jeudi", ["Nous", "Eux"])
>>> facts = DealFacts.from_takers_points(sheet.rules, Contract(90, 1, taker=0), 102)
>>> book.add(sheet.id, facts).marks
{0: 190, 1: 60}
>>> book.load(sheet.id).match.scores
{0: 190, 1: 60}
"""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from atout.errors import AtoutError
from atout.i18n import Message
from atout.match import Match, MatchEntry
from atout.rules import Ruleset
from atout.scoring import DealFacts

# AUTOINCREMENT: a deleted sheet's number is never given to another one.
_SHEETS = """
CREATE TABLE IF NOT EXISTS {name} (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    rules TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    sides TEXT NOT NULL,
    created TEXT NOT NULL,
    updated TEXT NOT NULL
);
"""
_SCHEMA = (
    _SHEETS.format(name="sheets")
    + """
CREATE TABLE IF NOT EXISTS deals (
    sheet INTEGER NOT NULL REFERENCES sheets(id) ON DELETE CASCADE,
    number INTEGER NOT NULL,
    facts TEXT,
    created TEXT NOT NULL,
    PRIMARY KEY (sheet, number)
);
"""
)


@dataclass
class Sheet:
    """One score sheet: its match rebuilt from the stored facts."""

    id: int
    name: str
    rules: Ruleset
    sides: list[str]
    created: str
    updated: str
    match: Match

    @property
    def entries(self) -> list[MatchEntry]:
        return self.match.entries


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class ScoreBook:
    """The score sheets in one SQLite file (``":memory:"`` for a throw-away book)."""

    def __init__(self, path: str | Path) -> None:
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        try:
            self.db = sqlite3.connect(str(path))
            _migrate(self.db)
            self.db.execute("PRAGMA foreign_keys = ON")
            self.db.executescript(_SCHEMA)
        except sqlite3.DatabaseError as err:
            raise AtoutError(Message("scorebook.unreadable", path=str(path), reason=str(err))) from None

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ sheets
    def create(self, rules: Ruleset, name: str, sides: list[str] | None = None) -> Sheet:
        sides = sides or _default_sides(rules)
        if len(sides) != len(rules.sides):
            raise AtoutError(Message("scorebook.sides", sides=len(rules.sides), names=len(sides)))
        now = _now()
        with self.db:
            cursor = self.db.execute(
                "INSERT INTO sheets (name, rules, fingerprint, sides, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (name, rules.to_json(), rules.fingerprint, json.dumps(sides, ensure_ascii=False), now, now),
            )
        assert cursor.lastrowid is not None
        return self.load(cursor.lastrowid)

    def sheets(self) -> list[tuple[int, str, str, int, str]]:
        """(id, name, ruleset name, number of deals, last change) of every sheet, newest first."""
        rows = self.db.execute(
            "SELECT s.id, s.name, s.rules, (SELECT COUNT(*) FROM deals d WHERE d.sheet = s.id), s.updated "
            "FROM sheets s ORDER BY s.updated DESC, s.id DESC"
        ).fetchall()
        return [(r[0], r[1], json.loads(r[2]).get("name", "?"), r[3], r[4]) for r in rows]

    def load(self, sheet_id: int) -> Sheet:
        row = self.db.execute(
            "SELECT id, name, rules, fingerprint, sides, created, updated FROM sheets WHERE id = ?", (sheet_id,)
        ).fetchone()
        if row is None:
            raise AtoutError(Message("scorebook.no_sheet", id=sheet_id))
        rules = Ruleset.from_json(row[2])
        if rules.fingerprint != row[3]:
            raise AtoutError(Message("scorebook.corrupt", id=sheet_id))
        match = Match(rules)
        for (facts,) in self.db.execute("SELECT facts FROM deals WHERE sheet = ? ORDER BY number", (sheet_id,)):
            match.add_facts(DealFacts.from_dict(json.loads(facts)) if facts else None, stored=True)
        return Sheet(row[0], row[1], rules, json.loads(row[4]), row[5], row[6], match)

    def delete(self, sheet_id: int) -> Sheet:
        """Delete a sheet and its deals; returns what was deleted. Its number is never used again."""
        sheet = self.load(sheet_id)
        with self.db:
            self.db.execute("DELETE FROM deals WHERE sheet = ?", (sheet_id,))
            self.db.execute("DELETE FROM sheets WHERE id = ?", (sheet_id,))
        return sheet

    # ------------------------------------------------------------- deals
    def add(self, sheet_id: int, facts: DealFacts | None) -> MatchEntry:
        """Add a deal (None: everyone passed); refused, with nothing written, if the facts are wrong."""
        sheet = self.load(sheet_id)
        entry = sheet.match.add_facts(facts)  # raises on facts that cannot happen
        with self.db:
            self.db.execute(
                "INSERT INTO deals (sheet, number, facts, created) VALUES (?, ?, ?, ?)",
                (sheet_id, len(sheet.entries), _json(facts), _now()),
            )
            self._touch(sheet_id)
        return entry

    def undo(self, sheet_id: int) -> None:
        """Remove the last deal."""
        sheet = self.load(sheet_id)
        if not sheet.entries:
            raise AtoutError(Message("match.nothing_to_undo"))
        with self.db:
            self.db.execute("DELETE FROM deals WHERE sheet = ? AND number = ?", (sheet_id, len(sheet.entries)))
            self._touch(sheet_id)

    def replace_last(self, sheet_id: int, facts: DealFacts | None) -> MatchEntry:
        """Correct the last deal's facts (refused, with nothing changed, if they are wrong)."""
        sheet = self.load(sheet_id)
        entry = sheet.match.replace_last(facts)
        with self.db:
            self.db.execute(
                "UPDATE deals SET facts = ? WHERE sheet = ? AND number = ?",
                (_json(facts), sheet_id, len(sheet.entries)),
            )
            self._touch(sheet_id)
        return entry

    def _touch(self, sheet_id: int) -> None:
        self.db.execute("UPDATE sheets SET updated = ? WHERE id = ?", (_now(), sheet_id))

    # ------------------------------------------------------------ export
    def export_json(self, sheet_id: int) -> str:
        sheet = self.load(sheet_id)
        return (
            json.dumps(
                {
                    "format": "atout-scoresheet",
                    "version": 1,
                    "name": sheet.name,
                    "created": sheet.created,
                    "rules": sheet.rules.to_dict(),
                    "fingerprint": sheet.rules.fingerprint,
                    "sides": sheet.sides,
                    "deals": [
                        {
                            "number": i + 1,
                            "facts": e.facts.to_dict() if e.facts else None,
                            "marks": {sheet.sides[s]: v for s, v in e.marks.items()},
                            "totals": {sheet.sides[s]: v for s, v in e.totals.items()},
                        }
                        for i, e in enumerate(sheet.entries)
                    ],
                    "winner": sheet.sides[sheet.match.winner] if sheet.match.winner is not None else None,
                },
                ensure_ascii=False,
                indent=1,
            )
            + "\n"
        )

    def export_csv(self, sheet_id: int) -> str:
        sheet = self.load(sheet_id)
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(
            [
                "deal",
                "contract",
                "taker",
                "level",
                "outcome",
                "capot",
                *(f"points {n}" for n in sheet.sides),
                *(f"belote {n}" for n in sheet.sides),
                *(f"announcements {n}" for n in sheet.sides),
                *(f"marks {n}" for n in sheet.sides),
                *(f"total {n}" for n in sheet.sides),
            ]
        )
        for i, entry in enumerate(sheet.entries, start=1):
            facts, score = entry.facts, entry.score
            sides = sheet.rules.sides
            if facts is None or score is None:
                row = [i, "passe", "", "", "passed", "", *([""] * (3 * len(sides)))]
            else:
                c = facts.contract
                row = [
                    i,
                    c.label("fr"),
                    sheet.sides[sheet.rules.side_of(c.taker)],
                    c.level,
                    score.outcome,
                    sheet.sides[facts.capot] if facts.capot is not None else "",
                    *(facts.card_points.get(s, 0) for s in sides),
                    *(facts.belote.get(s, 0) for s in sides),
                    *(facts.announcements.get(s, 0) for s in sides),
                ]
            row += [*(entry.marks[s] for s in sheet.rules.sides), *(entry.totals[s] for s in sheet.rules.sides)]
            writer.writerow(row)
        return out.getvalue()


def _migrate(db: sqlite3.Connection) -> None:
    """Give a book made before sheet numbers were kept unique (no AUTOINCREMENT) the new table, in place."""
    row = db.execute("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'sheets'").fetchone()
    if row is None or "AUTOINCREMENT" in row[0].upper():
        return
    db.execute("PRAGMA foreign_keys = OFF")  # the deals keep pointing at « sheets » while it is rebuilt
    db.execute("BEGIN")
    try:
        db.execute(_SHEETS.format(name="sheets_new"))
        db.execute("INSERT INTO sheets_new SELECT * FROM sheets")
        db.execute("DROP TABLE sheets")
        db.execute("ALTER TABLE sheets_new RENAME TO sheets")
    except sqlite3.DatabaseError:
        db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _json(facts: DealFacts | None) -> str | None:
    return None if facts is None else json.dumps(facts.to_dict())


def _default_sides(rules: Ruleset) -> list[str]:
    from atout.record import side_label

    return [side_label(rules, s) for s in rules.sides]
