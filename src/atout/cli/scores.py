"""``atout score``'s commands: new, list, resume, show, export, delete."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from atout.cli.keeper import Keeper
from atout.errors import AtoutError
from atout.i18n import Message, get_language, plural, tr
from atout.rules import Ruleset
from atout.scorebook import NoScoreBook, ScoreBook, Sheet, side_names

FORMATS = ("csv", "json")


def score_command(
    args: argparse.Namespace, rules_from: Callable[[argparse.Namespace], Ruleset], default: Callable[[], Path]
) -> int:
    """Run ``atout score ACTION [ID]``; returns the exit code. ``default`` gives the score book's path when
    ``--db`` names none.

    Only ``new`` makes the score book (and its folder) if it is missing; every other command opens it
    read-only and changes it only when it writes (``resume`` once the sheet is found, ``delete`` once
    confirmed). Everything the command line says is checked before the book is opened.
    """
    action = args.action
    if action in ("resume", "show", "export", "delete") and args.id is None:
        raise AtoutError(Message("cli.score.needs_id", action=action))
    fmt = export_format(args.format, args.output) if action == "export" else None
    lang = get_language()
    path = Path(args.db) if args.db else default()
    if action == "new":
        rules = rules_from(args)
        sides = side_names(rules, args.sides.split(",") if args.sides else None)
        book = ScoreBook(path)
    else:
        try:
            book = ScoreBook(path, create=False)
        except NoScoreBook:
            if action != "list":
                raise
            print(tr("cli.score.none"))
            return 0
    try:
        if action == "new":
            sheet = book.create(rules, args.name or rules.name, sides)
            Keeper(book, sheet.id, lang).run()
        elif action == "list":
            print(listing(book))
        elif action == "resume":
            book.load(args.id)  # a missing sheet is said before anything is opened for writing
            book.writable()
            Keeper(book, args.id, lang).run()
        elif action == "show":
            keeper = Keeper(book, args.id, lang)
            print(keeper.table(keeper.sheet))
        elif action == "delete":
            return delete(book, args.id, args.yes)
        else:
            text = book.export_csv(args.id) if fmt == "csv" else book.export_json(args.id)
            if args.output:
                write_export(Path(args.output), text)
                print(tr("cli.score.exported", id=args.id, path=args.output))
            else:
                print(text, end="")
    finally:
        book.close()
    return 0


def write_export(path: Path, text: str) -> None:
    """Write an export; a missing folder is named (the system would say the file does not exist)."""
    folder = path.parent
    if not folder.is_dir():
        raise AtoutError(Message("cli.score.no_folder", folder=str(folder), path=str(path)))
    path.write_text(text, encoding="utf-8")


def export_format(asked: str | None, output: str | None) -> str:
    """The export's format: ``--format``, else the output's extension, else CSV; a mismatch is refused."""
    suffix = Path(output).suffix.lower().lstrip(".") if output else ""
    if asked and suffix in FORMATS and suffix != asked:
        raise AtoutError(Message("cli.score.format_mismatch", path=output, format=asked))
    if not asked and output and suffix not in FORMATS:
        raise AtoutError(Message("cli.score.unknown_extension", path=output))
    return asked or suffix or "csv"


def _totals(sheet: Sheet) -> str:
    return " · ".join(f"{sheet.sides[s]} {v}" for s, v in sheet.match.scores.items())


def _state(sheet: Sheet) -> str:
    winner = sheet.match.winner
    return tr("cli.score.in_progress") if winner is None else tr("cli.score.won_by", name=sheet.sides[winner])


def listing(book: ScoreBook) -> str:
    """Every sheet, the last changed first: number, name, variant, deals, totals, winner (or in progress)."""
    rows = []
    for sheet_id, name, preset, deals, _updated in book.sheets():
        sheet = book.load(sheet_id)
        cells = (str(sheet_id), name, preset, plural("cli.score.deals", deals), _totals(sheet), _state(sheet))
        rows.append(_row(*cells))
    if not rows:
        return tr("cli.score.none")
    head = _row(*(tr(f"cli.score.head.{key}") for key in ("id", "name", "preset", "deals", "totals", "state")))
    return "\n".join([head, *rows])


def _row(*cells: str) -> str:
    widths = (3, 14, 9, 9, 19, 16)  # 80 columns
    padded = (
        f"{cell[:width]:>{width}}" if i == 0 else f"{cell[:width]:<{width}}"
        for i, (cell, width) in enumerate(zip(cells, widths, strict=True))
    )
    return "  ".join(padded).rstrip()


def delete(book: ScoreBook, sheet_id: int, confirmed: bool) -> int:
    """Delete a sheet once the player says yes (or ``--yes``), and say what was deleted."""
    from atout.cli.typed import read_yes

    sheet = book.load(sheet_id)
    what = tr(
        "cli.score.what",
        id=sheet.id,
        name=sheet.name,
        deals=plural("cli.score.deals", len(sheet.entries)),
        totals=_totals(sheet),
    )
    if not confirmed:
        try:
            answer = input(tr("cli.score.confirm", what=what) + " ")
        except EOFError:
            answer = ""
        if not read_yes(answer, get_language()):
            print(tr("cli.score.kept", what=what))
            return 0
    book.delete(sheet_id)
    print(tr("cli.score.deleted", what=what))
    return 0
