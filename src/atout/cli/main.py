"""``atout``: play, keep score, referee records, analyse, run the arena.

Exit codes: 0 success; 1 the input was read but is wrong (an illegal action in a
record); 2 bad usage or unreadable input.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import sys
from collections.abc import Callable, Sequence
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
    return _each_deal(Path(args.file), "referee", lambda deal: deal_summary(deal, args.lang))


def _each_deal(path: Path, command: str, show: Callable[[Deal], str]) -> int:
    """Replay every record of a file and print what ``show`` says of each deal."""
    records = _read_records(path, command)
    if isinstance(records, int):
        return records
    for i, record in enumerate(records, start=1):
        deal = record.replay()
        if len(records) > 1:
            print(f"# {i}")
        print(show(deal))
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

    def show(deal: Deal) -> str:
        return "\n".join(analysis_lines(deal, analyse(deal, Solver(deal.rules)), args.lang))

    return _each_deal(Path(args.file), "analyse", show)


def _arena(args: argparse.Namespace) -> int:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from atout.arena import format_report, read_results, report, run_pair, run_tournament
    from atout.bots import load_spec

    if args.report:
        print(format_report(report(read_results(Path(args.report)))), end="")
        return 0
    rules = Ruleset.preset(args.preset)
    if args.target:
        rules = rules.replace(target=args.target)
    specs = [load_spec(source) for source in args.bots]
    bidder = load_spec(args.bidder) if args.bidder else None
    player = load_spec(args.player) if args.player else None
    if len(specs) < 2:
        print("atout arena: give at least two bots", file=sys.stderr)
        return 2
    pairs = len(specs) * (len(specs) - 1) // 2
    if args.resume and not args.out:
        print("atout arena: --resume needs --out FILE (the results to resume)", file=sys.stderr)
        return 2
    previous = read_results(Path(args.out)) if args.resume and Path(args.out).exists() else []
    out = open(args.out, "a", encoding="utf-8") if args.out else None  # noqa: SIM115
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    try:
        with Progress(*columns, transient=True, disable=args.quiet) as bar:
            task = bar.add_task("arena", total=args.deals * pairs)
            step = lambda n: bar.advance(task, n)  # noqa: E731
            ratings: dict[str, float] = {}
            if len(specs) == 2:
                results = [
                    run_pair(
                        rules,
                        specs[0],
                        specs[1],
                        args.deals,
                        args.seed,
                        args.workers,
                        args.backend,
                        out,
                        step,
                        previous,
                        bidder=bidder,
                        player=player,
                    )
                ]
            else:
                results, ratings = run_tournament(
                    rules, specs, args.deals, args.seed, args.workers, args.backend, out, step, previous, bidder, player
                )
    finally:
        if out is not None:
            out.close()
    for result in results:
        rate = result.win_rate
        verdict = "significant" if result.diff.significant else "not significant"
        common = f", every seat bidding with {bidder.name}" if bidder else ""
        common += f", every seat playing with {player.name}" if player else ""
        print(
            f"{result.a} vs {result.b} ({rules.name}, {len(result.boards)} duplicate deals{common}): "
            f"{result.diff} points per deal ({verdict}); matches won by {result.a}: "
            f"{result.wins:g}/{result.matches} = {rate.mean:.0%} [{rate.low:.0%}, {rate.high:.0%}]"
        )
    if ratings:
        print("Elo:")
        for name, rating in sorted(ratings.items(), key=lambda item: -item[1]):
            print(f"  {name:<12} {rating:7.1f}")
    return 0


def default_save_path() -> Path:
    """Where ``atout play`` saves a match by default: the user's data directory."""
    return data_dir() / "partie.txt"


def data_dir() -> Path:
    """atout's directory in the user's data directory ($XDG_DATA_HOME, else ~/.local/share)."""
    import os

    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "atout"


def _rules_from(args: argparse.Namespace) -> Ruleset:
    """The ruleset that --preset, --target and --sa-ta name."""
    options: dict[str, object] = {}
    if args.target:
        options["target"] = args.target
    if args.sa_ta:
        options.update(sans_atout=True, tout_atout=True)
    return Ruleset.preset(args.preset, **options)


def _play(args: argparse.Namespace) -> int:
    from atout.cli.table import TableApp
    from atout.session import GameSession
    from atout.solver import warm_up

    save = Path(args.save) if args.save else default_save_path()
    if args.resume:
        session = GameSession.load(args.resume)
        save = Path(args.save) if args.save else Path(args.resume)
    else:
        session = GameSession(_rules_from(args), bots=args.level, seed=args.seed)
    save.parent.mkdir(parents=True, exist_ok=True)
    import gc
    import threading

    def settle() -> None:
        warm_up()  # compile the kernels and the solver while the player bids,
        gc.freeze()  # then spare later collections the ~100,000 objects of start-up (an 80 ms pause)

    threading.Thread(target=settle, daemon=True).start()
    TableApp(session, args.lang, save, args.speed).run()
    return 0


def _serve(args: argparse.Namespace) -> int:
    try:
        from atout.web.server import serve
        from atout.web.settings import Settings
    except ImportError as err:
        print(
            f"atout serve: the web table needs its extra: pip install 'atout[web]' ({err.name} is missing)",
            file=sys.stderr,
        )
        return 2
    shard, shards = 0, 1
    if args.shard:
        try:
            shard, shards = (int(x) for x in args.shard.split("/"))
        except ValueError:
            shard = shards = -1
        if not 0 <= shard < shards:
            print(f"atout serve: --shard must be K/N with 0 <= K < N, not {args.shard!r}", file=sys.stderr)
            return 2
    if args.bot_pace < 0 or args.seat_timeout <= 0 or args.tables_per_hour < 1:
        print("atout serve: --bot-pace must be >= 0, --seat-timeout > 0, --tables-per-hour >= 1", file=sys.stderr)
        return 2
    settings = Settings(
        database_url=args.database_url,
        bot_backend=args.bot_backend,
        bot_workers=args.workers,
        bot_pace=args.bot_pace,
        seat_timeout=args.seat_timeout,
        tables_per_hour=args.tables_per_hour,
        shard=shard,
        shards=shards,
    )
    if args.data_dir:
        settings = dataclasses.replace(settings, data_dir=Path(args.data_dir))
    print(f"atout serve: http://{args.host}:{args.port}/ ({settings.safe_url()})", file=sys.stderr)
    serve(settings, args.host, args.port, proxied=args.proxied)
    return 0


def _score(args: argparse.Namespace) -> int:
    from atout.cli.keeper import Keeper
    from atout.scorebook import ScoreBook

    book = ScoreBook(args.db or data_dir() / "scores.sqlite3")
    try:
        action = args.action or "list"
        if action == "new":
            rules = _rules_from(args)
            sides = [n.strip() for n in args.sides.split(",")] if args.sides else None
            sheet = book.create(rules, args.name or rules.name, sides)
            Keeper(book, sheet.id, args.lang).run()
        elif action == "list":
            sheets = book.sheets()
            if not sheets:
                print("Aucune feuille de score." if args.lang == "fr" else "No score sheet yet.")
            for sheet_id, name, preset, deals, updated in sheets:
                print(f"{sheet_id:>4}  {name:<24} {preset:<10} {deals:>3} donnes  {updated}")
        elif action in ("resume", "show", "export", "delete"):
            if args.id is None:
                print(f"atout score {action}: give the sheet's number (atout score list)", file=sys.stderr)
                return 2
            if action == "resume":
                Keeper(book, args.id, args.lang).run()
            elif action == "show":
                keeper = Keeper(book, args.id, args.lang)
                print(keeper.table(keeper.sheet))
            elif action == "delete":
                book.delete(args.id)
            else:
                text = book.export_csv(args.id) if args.format == "csv" else book.export_json(args.id)
                if args.output:
                    Path(args.output).write_text(text, encoding="utf-8")
                else:
                    print(text, end="")
    finally:
        book.close()
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="atout", description="Belote: rules, players and tools.")
    parser.add_argument("--version", action="version", version=f"atout {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    play = sub.add_parser("play", help="play a match in the terminal, as South against three bots")
    play.add_argument("--preset", default="coinche", choices=sorted(PRESETS))
    play.add_argument("--target", type=int, default=0, help="points to win (default: the preset's)")
    play.add_argument(
        "--level", default="club", choices=("random", "debutant", "club", "expert"), help="the bots' level"
    )
    play.add_argument("--sa-ta", action="store_true", help="allow sans atout and tout atout")
    play.add_argument("--lang", default="fr", choices=("fr", "en"))
    play.add_argument("--save", help="save file (default: partie.txt in atout's data directory)")
    play.add_argument("--resume", help="resume the match saved in this file")
    play.add_argument("--seed", type=int, default=None)
    play.add_argument("--speed", type=float, default=0.6, help="seconds between the bots' moves")
    play.set_defaults(run=_play)

    demo = sub.add_parser("demo", help="deal and play a random deal, and print it")
    demo.add_argument("--preset", default="coinche", choices=sorted(PRESETS))
    demo.add_argument("--seed", type=int, default=None)
    demo.add_argument("--lang", default="fr", choices=("fr", "en"))
    demo.set_defaults(run=_demo)

    score = sub.add_parser("score", help="keep the score of a game played with real cards")
    score.add_argument(
        "action",
        nargs="?",
        choices=("new", "list", "resume", "show", "export", "delete"),
        help="new sheet, list sheets, resume/show/export/delete sheet ID (default: list)",
    )
    score.add_argument("id", nargs="?", type=int, help="the sheet's number (see atout score list)")
    score.add_argument("--preset", default="coinche", choices=sorted(PRESETS))
    score.add_argument("--target", type=int, default=0, help="points to win (default: the preset's)")
    score.add_argument("--sa-ta", action="store_true", help="allow sans atout and tout atout")
    score.add_argument("--name", help="the sheet's name")
    score.add_argument("--sides", help="the sides' names, comma separated (default: NS,EW)")
    score.add_argument("--format", default="csv", choices=("csv", "json"))
    score.add_argument("--output", help="export to this file (default: the terminal)")
    score.add_argument("--db", help="the score book (default: scores.sqlite3 in atout's data directory)")
    score.add_argument("--lang", default="fr", choices=("fr", "en"))
    score.set_defaults(run=_score)

    serve = sub.add_parser("serve", help="serve the web table (needs the web extra)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default: this machine only)")
    serve.add_argument("--port", type=int, default=8000)
    serve.add_argument(
        "--database-url",
        help="SQLAlchemy URL, e.g. postgresql+asyncpg://user:pw@host/db (default: SQLite in atout's data directory)",
    )
    serve.add_argument("--data-dir", help="where the default SQLite database lives")
    serve.add_argument(
        "--bot-backend",
        default="process",
        choices=("process", "thread", "ray"),
        help="where bots think: worker processes (default), threads, or a Ray cluster",
    )
    serve.add_argument("--workers", type=int, default=None, help="bot worker processes (default: one per core)")
    serve.add_argument("--bot-pace", type=float, default=0.9, help="seconds between two bots' moves (default 0.9)")
    serve.add_argument(
        "--seat-timeout",
        type=float,
        default=45.0,
        help="seconds a player may be away before a bot plays for him (default 45)",
    )
    serve.add_argument(
        "--tables-per-hour", type=int, default=60, help="tables one client address may create in an hour (default 60)"
    )
    serve.add_argument("--shard", help="K/N: serve the tables of shard K of N servers sharing one database")
    serve.add_argument("--proxied", action="store_true", help="behind a reverse proxy on this machine")
    serve.set_defaults(run=_serve)

    referee = sub.add_parser("referee", help="replay a record under its rules and print the score")
    referee.add_argument("file", help="a record file (text or JSON)")
    referee.add_argument("--lang", default="fr", choices=("fr", "en"))
    referee.set_defaults(run=_referee)

    analyse = sub.add_parser(
        "analyse", aliases=["analyze"], help="the double-dummy value and cost of every card of a recorded deal"
    )
    analyse.add_argument("file", help="a record file (text or JSON)")
    analyse.add_argument("--lang", default="fr", choices=("fr", "en"))
    analyse.set_defaults(run=_analyse)

    arena = sub.add_parser("arena", help="duplicate matches between bots (two or more)")
    arena.add_argument(
        "bots",
        nargs="*",
        help="bot specs: a level (random, debutant, club, expert), a TOML file, or colver:NAME / colver:FILE",
    )
    arena.add_argument("--preset", default="coinche", choices=sorted(PRESETS))
    arena.add_argument("--deals", type=int, default=100, help="duplicate deals per pair of bots")
    arena.add_argument("--target", type=int, default=0, help="match target for the win rate (default: preset's)")
    arena.add_argument("--seed", type=int, default=0)
    arena.add_argument("--workers", type=int, default=None, help="processes (default: one per core)")
    arena.add_argument("--backend", default="process", choices=("process", "ray"))
    arena.add_argument("--out", help="append the results to this JSON-lines file")
    arena.add_argument(
        "--resume",
        action="store_true",
        help="keep the boards of the same run already in --out and play only the missing ones",
    )
    arena.add_argument("--bidder", help="play only: every seat bids with this bot, so only the card play differs")
    arena.add_argument("--player", help="bidding only: every seat plays its cards with this bot")
    arena.add_argument("--report", metavar="FILE", help="summarise a results file (contracts, falls, coinches)")
    arena.add_argument("--quiet", action="store_true", help="no progress bar")
    arena.set_defaults(run=_arena)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except AtoutError as err:
        print(f"atout {args.command}: {err}", file=sys.stderr)
        return 2
    except OSError as err:
        print(f"atout {args.command}: {err.filename or ''}: {err.strerror or err}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
