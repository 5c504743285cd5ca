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
import os
import sqlite3
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from atout.actions import Bid
from atout.errors import AtoutError, os_reason
from atout.i18n import Message, tr
from atout.match import Match, MatchEntry
from atout.notation import seat_letter
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

#: The columns of a score book's tables: a file without them is not a score book.
_COLUMNS = {
    "sheets": {"id", "name", "rules", "fingerprint", "sides", "created", "updated"},
    "deals": {"sheet", "number", "facts", "created"},
}
#: SQLite's result codes (their primary part) that a player can act on, and how the catalogue says them.
_SQLITE_REASONS = {
    sqlite3.SQLITE_BUSY: "busy",
    sqlite3.SQLITE_LOCKED: "busy",
    sqlite3.SQLITE_FULL: "full",
    sqlite3.SQLITE_CORRUPT: "corrupt",
    sqlite3.SQLITE_NOTADB: "corrupt",
    sqlite3.SQLITE_READONLY: "read_only",
    sqlite3.SQLITE_PERM: "read_only",
    sqlite3.SQLITE_CANTOPEN: "cannot_open",
    sqlite3.SQLITE_IOERR: "io",
}


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


class NoScoreBook(AtoutError):
    """The score book's file does not exist (and the command only reads, so none is made)."""


class ScoreBook:
    """The score sheets in one SQLite file (``":memory:"`` for a throw-away book).

    ``create``: make the file (and its folder) if it does not exist; otherwise a missing file raises
    :class:`NoScoreBook`. An existing file that is not a score book is refused and left as it is. The
    file is opened read-only, and for writing only at the first change (a book made by an earlier
    atout is converted then), so a command that only reads never changes it.
    """

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.name = str(path)
        self._writing = False
        if self.name == ":memory:":
            self.db = sqlite3.connect(":memory:")
            self._prepare()
            return
        self.path = Path(path)
        if self.path.is_dir():
            raise AtoutError(Message("scorebook.directory", path=self.name))
        if self.path.exists():
            self.db = self._connect("ro")
            self._check_book()
        elif not create:
            raise NoScoreBook(Message("scorebook.missing", path=self.name))
        else:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as err:
                raise AtoutError(Message("scorebook.cannot_create", path=self.name, reason=os_reason(err))) from None
            if not os.access(self.path.parent, os.W_OK):
                reason = Message("scorebook.folder_read_only", folder=str(self.path.parent))
                raise AtoutError(Message("scorebook.cannot_create", path=self.name, reason=reason))
            self.db = self._connect("rwc", "scorebook.cannot_create")
            with self._sqlite("scorebook.cannot_create"):
                self._prepare()

    def _connect(self, mode: str, failure: str = "scorebook.unreadable") -> sqlite3.Connection:
        try:
            return sqlite3.connect(f"{self.path.absolute().as_uri()}?mode={mode}", uri=True)
        except sqlite3.Error as err:
            raise AtoutError(Message(failure, path=self.name, reason=_sqlite_reason(err))) from None

    def _check_book(self) -> None:
        """Refuse, by its name, a file that is not a score book (a text file, an empty one, another program's
        database); nothing in it is changed."""
        try:
            columns = {table: {row[1] for row in self.db.execute(f"PRAGMA table_info({table})")} for table in _COLUMNS}
        except sqlite3.DatabaseError as err:
            self.db.close()
            if _sqlite_code(err) == sqlite3.SQLITE_NOTADB:
                raise AtoutError(Message("scorebook.not_a_book", path=self.name)) from None
            raise AtoutError(Message("scorebook.unreadable", path=self.name, reason=_sqlite_reason(err))) from None
        if any(not needed <= columns[table] for table, needed in _COLUMNS.items()):
            self.db.close()
            raise AtoutError(Message("scorebook.not_a_book", path=self.name))

    def _prepare(self) -> None:
        """Make the book ready to write: convert one made by an earlier atout, create the tables of a new one."""
        _migrate(self.db)
        self.db.execute("PRAGMA foreign_keys = ON")
        self.db.executescript(_SCHEMA)
        self._writing = True

    def writable(self) -> None:
        """Open the book for writing now (the keeper asks before its first question); raises, saying why
        in the player's language, if it cannot be written (a read-only file or folder, another program...)."""
        if self._writing:
            return
        folder = self.path.absolute().parent
        if not os.access(folder, os.W_OK):  # SQLite writes its journal beside the book
            reason = Message("scorebook.folder_read_only", folder=str(folder))
            raise AtoutError(Message("scorebook.cannot_write", path=self.name, reason=reason))
        if not os.access(self.path, os.W_OK):
            reason = Message("scorebook.file_read_only")
            raise AtoutError(Message("scorebook.cannot_write", path=self.name, reason=reason))
        db = self._connect("rw", "scorebook.cannot_write")
        self.db.close()
        self.db = db
        with self._sqlite("scorebook.cannot_write"):
            self._prepare()

    @contextmanager
    def _sqlite(self, failure: str) -> Iterator[None]:
        """SQLite's errors (in English) said in the player's language, naming the book."""
        try:
            yield
        except sqlite3.Error as err:
            raise AtoutError(Message(failure, path=self.name, reason=_sqlite_reason(err))) from None

    @contextmanager
    def _transaction(self) -> Iterator[sqlite3.Connection]:
        """One change, written whole or not at all."""
        self.writable()
        with self._sqlite("scorebook.cannot_write"), self.db:
            yield self.db

    def close(self) -> None:
        self.db.close()

    # ------------------------------------------------------------ sheets
    def create(self, rules: Ruleset, name: str, sides: list[str] | None = None) -> Sheet:
        sides = side_names(rules, sides)
        now = _now()
        with self._transaction() as db:
            cursor = db.execute(
                "INSERT INTO sheets (name, rules, fingerprint, sides, created, updated) VALUES (?, ?, ?, ?, ?, ?)",
                (name, rules.to_json(), rules.fingerprint, json.dumps(sides, ensure_ascii=False), now, now),
            )
        assert cursor.lastrowid is not None
        return self.load(cursor.lastrowid)

    def sheets(self) -> list[tuple[int, str, str, int, str]]:
        """(id, name, ruleset name, number of deals, last change) of every sheet, newest first."""
        with self._sqlite("scorebook.unreadable"):
            rows = self.db.execute(
                "SELECT s.id, s.name, s.rules, (SELECT COUNT(*) FROM deals d WHERE d.sheet = s.id), s.updated "
                "FROM sheets s ORDER BY s.updated DESC, s.id DESC"
            ).fetchall()
        return [(r[0], r[1], _preset_name(r[2]), r[3], r[4]) for r in rows]

    def load(self, sheet_id: int) -> Sheet:
        with self._sqlite("scorebook.unreadable"):
            row = self.db.execute(
                "SELECT id, name, rules, fingerprint, sides, created, updated FROM sheets WHERE id = ?", (sheet_id,)
            ).fetchone()
            if row is None:
                raise AtoutError(Message("scorebook.no_sheet", id=sheet_id))
            deals = [
                facts
                for (facts,) in self.db.execute("SELECT facts FROM deals WHERE sheet = ? ORDER BY number", (sheet_id,))
            ]
        try:
            rules = Ruleset.from_json(row[2])
            sides = json.loads(row[4])
            if not isinstance(sides, list) or len(sides) != len(rules.sides):
                raise ValueError(sides)
        except (AtoutError, ValueError, TypeError):  # json's errors are ValueErrors
            raise AtoutError(Message("scorebook.damaged", id=sheet_id)) from None
        if rules.fingerprint != row[3]:
            raise AtoutError(Message("scorebook.corrupt", id=sheet_id))
        match = Match(rules)
        for number, facts in enumerate(deals, start=1):
            try:
                match.add_facts(DealFacts.from_dict(json.loads(facts)) if facts else None, stored=True)
            except (AtoutError, ValueError, TypeError, AttributeError):
                raise AtoutError(Message("scorebook.damaged_deal", id=sheet_id, number=number)) from None
        return Sheet(row[0], row[1], rules, [str(s) for s in sides], row[5], row[6], match)

    def delete(self, sheet_id: int) -> Sheet:
        """Delete a sheet and its deals; returns what was deleted. Its number is never used again."""
        sheet = self.load(sheet_id)
        with self._transaction() as db:
            db.execute("DELETE FROM deals WHERE sheet = ?", (sheet_id,))
            db.execute("DELETE FROM sheets WHERE id = ?", (sheet_id,))
        return sheet

    # ------------------------------------------------------------- deals
    def add(self, sheet_id: int, facts: DealFacts | None) -> MatchEntry:
        """Add a deal (None: everyone passed); refused, with nothing written, if the facts are wrong."""
        sheet = self.load(sheet_id)
        entry = sheet.match.add_facts(facts)  # raises on facts that cannot happen
        with self._transaction() as db:
            db.execute(
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
        with self._transaction() as db:
            db.execute("DELETE FROM deals WHERE sheet = ? AND number = ?", (sheet_id, len(sheet.entries)))
            self._touch(sheet_id)

    def replace_last(self, sheet_id: int, facts: DealFacts | None) -> MatchEntry:
        """Correct the last deal's facts (refused, with nothing changed, if they are wrong)."""
        sheet = self.load(sheet_id)
        entry = sheet.match.replace_last(facts)
        with self._transaction() as db:
            db.execute(
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
        """The sheet as CSV: stable English column names and values that are codes, the same in every
        language (contracts as records write bids, ``-`` for a passed deal; outcomes ``made``, ``chute``,
        ``litige``, ``passed``); the sides' names are the sheet's own."""
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
                row = [i, "-", "", "", "passed", "", *([""] * (3 * len(sides)))]
            else:
                c = facts.contract
                bid = Bid(c.value, c.strain, c.capot).notation()
                row = [
                    i,
                    bid if c.value or c.capot else f"take{bid}",
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


def side_names(rules: Ruleset, names: Sequence[str] | None = None) -> list[str]:
    """The sides' names: ``names`` if given (one per side, none empty, no two alike), else the current
    language's: « Nous » and « Eux » ("Us", "Them") for two partnerships, each seat's name otherwise.

    >>> side_names(Ruleset.preset("coinche")), side_names(Ruleset.preset("deux"))
    (['Nous', 'Eux'], ['Nord', 'Sud'])
    """
    if not names:
        if rules.partnerships:
            return [tr("scorebook.us"), tr("scorebook.them")]
        return [tr(f"common.seat.{seat_letter(rules, s)}") for s in rules.sides]
    given = [n.strip() for n in names]
    if len(given) != len(rules.sides):
        raise AtoutError(Message("scorebook.sides", sides=len(rules.sides), names=len(given)))
    if not all(given):
        raise AtoutError(Message("scorebook.empty_side", names=",".join(names)))
    seen: set[str] = set()
    for name in given:
        if name.casefold() in seen:
            raise AtoutError(Message("scorebook.same_side", name=name))
        seen.add(name.casefold())
    return given


def _preset_name(rules: str) -> str:
    try:
        return str(json.loads(rules).get("name", "?"))
    except (ValueError, AttributeError):
        return "?"


def _sqlite_code(err: sqlite3.Error) -> int | None:
    code = getattr(err, "sqlite_errorcode", None)
    return None if code is None else int(code) & 0xFF


def _sqlite_reason(err: sqlite3.Error) -> Message:
    """Why SQLite refused, in the player's language (a rare case by SQLite's own name for it)."""
    code = _sqlite_code(err)
    key = _SQLITE_REASONS.get(code) if code is not None else None
    if key:
        return Message(f"scorebook.sqlite.{key}")
    return Message("scorebook.sqlite.other", code=getattr(err, "sqlite_errorname", None) or type(err).__name__)
