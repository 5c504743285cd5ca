"""``atout``: play, keep score, referee records, analyse, run the arena.

Exit codes: 0 success; 1 the input was read but is wrong (an illegal action in a
record); 2 bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Sequence
from pathlib import Path

from atout import __version__
from atout.cli.text import deal_summary
from atout.deal import Deal
from atout.errors import AtoutError, RecordError
from atout.record import Record, read_records
from atout.rules import PRESETS, Ruleset


def _demo(args: argparse.Namespace) -> int:
    rules = Ruleset.preset(args.preset)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    deal = Deal.new(rules, dealer=rng.randrange(rules.players), seed=seed)
    while deal.turn is not None:
        deal.apply(rng.choice(deal.legal_actions()))
    title = "Donne de démonstration" if args.lang == "fr" else "Demo deal"
    print(f"{title} ({rules.name}, seed {seed})\n")
    print(deal_summary(deal, args.lang))
    print()
    print(Record.from_deal(deal, Event="atout demo").to_text(), end="")
    return 0


def _referee(args: argparse.Namespace) -> int:
    records = _read_records(Path(args.file), "referee")
    if isinstance(records, int):
        return records
    for i, record in enumerate(records, start=1):
        deal = record.replay()
        if len(records) > 1:
            print(f"# {i}")
        print(deal_summary(deal, args.lang))
    return 0


def _read_records(path: Path, command: str) -> list[Record] | int:
    """The records of a file, or an exit code after printing why they cannot be read."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        print(f"atout {command}: cannot read {path}: {err.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"atout {command}: {path} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        records = [Record.from_json(text)] if text.lstrip().startswith("{") else read_records(text)
    except RecordError as err:
        where = f"{path}:{err.line}" if err.line else str(path)
        print(f"{where}: {err.detail}", file=sys.stderr)
        return 1
    if not records:
        print(f"atout {command}: {path} holds no record", file=sys.stderr)
        return 2
    return records


def _analyse(args: argparse.Namespace) -> int:
    from atout.cli.text import analysis_lines
    from atout.solver import Solver
    from atout.solver.analysis import analyse

    records = _read_records(Path(args.file), "analyse")
    if isinstance(records, int):
        return records
    for i, record in enumerate(records, start=1):
        deal = record.replay()
        if len(records) > 1:
            print(f"# {i}")
        print("\n".join(analysis_lines(deal, analyse(deal, Solver(deal.rules)), args.lang)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="atout", description="Belote: rules, players and tools.")
    parser.add_argument("--version", action="version", version=f"atout {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    demo = sub.add_parser("demo", help="deal and play a random deal, and print it")
    demo.add_argument("--preset", default="coinche", choices=sorted(PRESETS))
    demo.add_argument("--seed", type=int, default=None)
    demo.add_argument("--lang", default="fr", choices=("fr", "en"))
    demo.set_defaults(run=_demo)

    referee = sub.add_parser("referee", help="replay a record under its rules and print the score")
    referee.add_argument("file", help="a record file (text or JSON)")
    referee.add_argument("--lang", default="fr", choices=("fr", "en"))
    referee.set_defaults(run=_referee)

    analyse = sub.add_parser("analyse", aliases=["analyze"],
                             help="the double-dummy value and cost of every card of a recorded deal")
    analyse.add_argument("file", help="a record file (text or JSON)")
    analyse.add_argument("--lang", default="fr", choices=("fr", "en"))
    analyse.set_defaults(run=_analyse)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except AtoutError as err:
        print(f"atout {args.command}: {err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
