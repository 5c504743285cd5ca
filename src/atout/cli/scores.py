"""``atout score``'s commands: new, list, resume, show, export, delete."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path

from atout.cli.keeper import Keeper
from atout.errors import AtoutError
from atout.i18n import Message, get_language, plural, tr
from atout.rules import Ruleset
from atout.scorebook import ScoreBook, Sheet

FORMATS = ("csv", "json")


def score_command(args: argparse.Namespace, rules_from: Callable[[argparse.Namespace], Ruleset], default: Path) -> int:
    """Run ``atout score ACTION [ID]``; returns the exit code."""
    action = args.action
    if action in ("resume", "show", "export", "delete") and args.id is None:
        raise AtoutError(Message("cli.score.needs_id", action=action))
    fmt = export_format(args.format, args.output) if action == "export" else None
    book = ScoreBook(args.db or default)
    lang = get_language()
    try:
        if action == "new":
            rules = rules_from(args)
            sides = [n.strip() for n in args.sides.split(",")] if args.sides else None
            sheet = book.create(rules, args.name or rules.name, sides)
            Keeper(book, sheet.id, lang).run()
        elif action == "list":
            print(listing(book))
        elif action == "resume":
            Keeper(book, args.id, lang).run()
        elif action == "show":
            keeper = Keeper(book, args.id, lang)
            print(keeper.table(keeper.sheet))
        elif action == "delete":
            return delete(book, args.id, args.yes)
        else:
            text = book.export_csv(args.id) if fmt == "csv" else book.export_json(args.id)
            if args.output:
                Path(args.output).write_text(text, encoding="utf-8")
                print(tr("cli.score.exported", id=args.id, path=args.output))
            else:
                print(text, end="")
    finally:
        book.close()
    return 0


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
