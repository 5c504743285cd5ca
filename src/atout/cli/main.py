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
    path = Path(args.file)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as err:
        print(f"atout referee: cannot read {path}: {err.strerror}", file=sys.stderr)
        return 2
    except UnicodeDecodeError:
        print(f"atout referee: {path} is not UTF-8 text", file=sys.stderr)
        return 2
    try:
        records = [Record.from_json(text)] if text.lstrip().startswith("{") else read_records(text)
    except RecordError as err:
        where = f"{path}:{err.line}" if err.line else str(path)
        print(f"{where}: {err.detail}", file=sys.stderr)
        return 1
    if not records:
        print(f"atout referee: {path} holds no record", file=sys.stderr)
        return 2
    for i, record in enumerate(records, start=1):
        deal = record.replay()
        if len(records) > 1:
            print(f"# {i}")
        print(deal_summary(deal, args.lang))
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
