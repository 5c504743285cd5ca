"""``atout``: play, keep score, referee records, analyse, run the arena.

Exit codes: 0 done; 1 the input was read but is wrong (an illegal or malformed record, a
bot spec with bad fields); 2 bad usage (an unknown option, a number out of range, an
unknown bot or score sheet) or unreadable input (missing, not UTF-8 text, too large);
3 an unexpected error (a bug: ``atout play`` has saved the match first); 130 interrupted
(Ctrl+C). Every message is in the language of ``--lang`` (French by default).

A plain ``pip install atout`` has no dependency: ``referee``, ``demo`` and ``score`` need nothing more,
and this module imports nothing outside the standard library. The other commands import what they
need when they start, and first check that it is there: a command whose extra is not installed says
which one (``pip install 'atout[play]'``) and exits with code 2 (:data:`NEEDS`).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import os
import random
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from atout import __version__
from atout.cli.args import build_parser, language_of
from atout.cli.inputs import WrongInput, located, read_text, source_name
from atout.cli.text import deal_summary
from atout.deal import Deal
from atout.errors import AtoutError, RecordError, os_reason
from atout.i18n import Message, get_language, language, plural, tr
from atout.record import Record, read_records
from atout.rules import Ruleset
from atout.userdata import data_dir

if TYPE_CHECKING:
    from atout.session import GameSession

EXIT_WRONG_INPUT = 1
EXIT_USAGE = 2
EXIT_CRASHED = 3
EXIT_INTERRUPTED = 130

#: The extra each command needs (pyproject.toml's optional dependencies) and the modules of it that the command
#: imports; tests/test_packaging.py checks that the extra declares each module's distribution.
NEEDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "play": ("play", ("numba", "numpy", "rich", "textual")),
    "analyse": ("play", ("numba", "numpy")),
    "arena": ("arena", ("numba", "numpy", "rich", "scipy")),
    "serve": (
        "web",
        (
            "aiosqlite",
            "alembic",
            "fastapi",
            "itsdangerous",
            "jinja2",
            "markdown_it",
            "numba",
            "numpy",
            "platformdirs",
            "pydantic",
            "sqlalchemy",
            "starlette",
            "uvicorn",
        ),
    ),
    # Only with a PostgreSQL URL (atout serve --database-url postgresql+asyncpg://...).
    "postgres": ("postgres", ("asyncpg",)),
}


class MissingExtra(AtoutError):
    """A command whose extra is not installed (exit code 2): the message names it and how to install it."""


def missing_extra(command: str, need: str, missing: Sequence[str]) -> MissingExtra:
    """The refusal of ``atout COMMAND`` when the modules ``missing`` of the extra that ``need`` names are not there."""
    extra = NEEDS[need][0]
    return MissingExtra(Message("cli.extra", command=command, extra=extra, missing=", ".join(missing)))


def require(command: str, need: str) -> None:
    """Refuse to run ``atout COMMAND`` (:class:`MissingExtra`) unless the modules ``NEEDS[need]`` lists are
    installed (found, not imported: the command imports them when it needs them)."""
    missing = [name for name in NEEDS[need][1] if importlib.util.find_spec(name) is None]
    if missing:
        raise missing_extra(command, need, missing)


@contextmanager
def importing(command: str, need: str) -> Iterator[None]:
    """A command's imports: a module missing among them (one :data:`NEEDS` does not list, such as a dependency of
    one it does) is the same refusal as :func:`require`'s; one of atout's own is a bug, and not hidden."""
    try:
        yield
    except ModuleNotFoundError as err:
        if not err.name or err.name.partition(".")[0] == "atout":
            raise
        raise missing_extra(command, need, [err.name]) from None


def _demo(args: argparse.Namespace) -> int:
    rules = Ruleset.preset(args.preset)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    deal = Deal.new(rules, dealer=rng.randrange(rules.players), seed=seed)
    while deal.turn is not None:
        deal.apply(rng.choice(deal.legal_actions()))
    lang = get_language()
    header = [tr("cli.demo.title", rules=rules.name, seed=seed), "", *deal_summary(deal, lang).splitlines()]
    for line in header:  # comments, so that the output is a record `atout referee -` reads
        print(f"% {line}".rstrip())
    print(Record.from_deal(deal, Event="atout demo").to_text(), end="")
    return 0


def _referee(args: argparse.Namespace) -> int:
    return _each_deal(args.file, lambda deal: deal_summary(deal, get_language()))


def _each_deal(source: str, show: Callable[[Deal], str]) -> int:
    """Replay every record of a file (``-``: standard input) and print what ``show`` says of each deal."""
    text = read_text(source)
    try:
        records = [Record.from_json(text)] if text.lstrip().startswith("{") else read_records(text)
    except RecordError as err:
        raise located(source, err) from None
    if not records:
        raise RecordError(Message("cli.no_record", name=source_name(source)))
    for i, record in enumerate(records, start=1):
        if len(records) > 1:
            print(tr("cli.deal_number", n=i))
        print(show(record.replay()))
    return 0


def _analyse(args: argparse.Namespace) -> int:
    require(args.command, "analyse")
    with importing(args.command, "analyse"):
        from atout.cli.text import analysis_lines
        from atout.solver import Solver
        from atout.solver.analysis import analyse

    lang = get_language()
    legend = [tr("text.analysis.legend")]  # said once, before the first deal with cards to analyse

    def show(deal: Deal) -> str:
        played = sum(len(t.cards) for t in deal.tricks) + len(deal.current_trick)
        if not played:
            return tr("cli.analyse.no_card")
        lines = [*legend]
        legend.clear()
        if deal.result is None:
            lines.append(tr("cli.analyse.unfinished", played=plural("text.cards_played", played)))
        _prepare_solver()
        return "\n".join([*lines, *analysis_lines(deal, analyse(deal, Solver(deal.rules)), lang)])

    return _each_deal(args.file, show)


def _prepare_solver() -> None:
    """Compile the solver if numba's cache lacks it (once after an install: seconds), saying so on stderr
    with its progress (on one line rewritten in a terminal, else at the start and the end)."""
    from atout.solver.prepare import FUNCTIONS, needs_compiling, prepare

    if not needs_compiling():
        return
    live = sys.stderr.isatty()

    def progress(done: int, total: int, label: str) -> None:
        if live:
            end = "\n" if done == total else ""
            print(f"\r{tr('text.preparing', done=done, total=total)}", end=end, file=sys.stderr, flush=True)
        elif done in (0, total):
            print(tr("text.preparing", done=done, total=total), file=sys.stderr, flush=True)

    progress(0, len(FUNCTIONS), "")
    prepare(progress)


def _arena(args: argparse.Namespace) -> int:
    require(args.command, "arena")
    with importing(args.command, "arena"):
        importlib.import_module("atout.arena")  # what the command runs: a module missing is named before it starts
        from atout.cli.arena import run

    return run(args, _rules_from(args))


def default_save_path() -> Path:
    """Where ``atout play`` saves a match by default: the user's data directory."""
    return data_dir() / "partie.txt"


def _rules_from(args: argparse.Namespace) -> Ruleset:
    """The ruleset that --preset, --target and --sa-ta name."""
    options: dict[str, object] = {}
    if args.target is not None:
        options["target"] = args.target
    if getattr(args, "sa_ta", False):
        options.update(sans_atout=True, tout_atout=True)
    return Ruleset.preset(args.preset, **options)


def play_session(args: argparse.Namespace) -> tuple[GameSession, Path]:
    """The match ``atout play`` plays (new, or resumed from ``--resume``) and the file it is saved to."""
    from atout.session import GameSession

    if args.resume:
        try:
            session = GameSession.from_text(read_text(args.resume))
        except RecordError as err:
            raise located(args.resume, err) from None
        return session, Path(args.save or args.resume)
    session = GameSession(_rules_from(args), bots=args.level, seed=args.seed)
    return session, Path(args.save) if args.save else default_save_path()


def _play(args: argparse.Namespace) -> int:
    require(args.command, "play")
    with importing(args.command, "play"):
        from atout.cli.table import TableApp
        from atout.solver import warm_up
        from atout.solver.prepare import compiling

    session, save = play_session(args)
    app = TableApp(session, get_language(), save, args.speed, warm_up=warm_up, preparation=compiling)
    app.run()  # the table saves after every action, and asks for another file when it cannot
    crashed = bool(app.return_code)  # an unexpected error, whose traceback Textual has printed
    if crashed:
        print(tr("cli.play.crashed"), file=sys.stderr)
    if app.saved_to is not None:
        print(tr("table.saved_exit", path=app.saved_to), file=sys.stderr if crashed else sys.stdout)
    return EXIT_CRASHED if crashed else 0


def _serve(args: argparse.Namespace) -> int:
    import dataclasses

    require(args.command, "serve")
    with importing(args.command, "serve"):
        from atout.web.server import serve
        from atout.web.settings import Settings
    shard, shards = 0, 1
    if args.shard:
        try:
            shard, shards = (int(x) for x in args.shard.split("/"))
        except ValueError:
            shard = shards = -1
        if not 0 <= shard < shards:
            raise AtoutError(Message("cli.serve.shard", shard=args.shard))
    settings = Settings(
        database_url=args.database_url,
        bot_backend=args.bot_backend,
        bot_workers=args.workers,
        bot_pace=args.bot_pace,
        seat_timeout=args.seat_timeout,
        tables_per_hour=args.tables_per_hour,
        shard=shard,
        shards=shards,
        admin=args.admin,
        daily_challenge=None if args.daily_challenge == "none" else args.daily_challenge,
    )
    if args.data_dir:
        settings = dataclasses.replace(settings, data_dir=Path(args.data_dir))
    _database_driver(args.command, settings.url())
    print(
        tr("cli.serve.listening", url=f"http://{args.host}:{args.port}/", database=settings.safe_url()), file=sys.stderr
    )
    serve(settings, args.host, args.port, proxied=args.proxied)
    return 0


def _database_driver(command: str, url: str) -> None:
    """PostgreSQL's driver (asyncpg) is the extra ``atout[postgres]``: refuse a PostgreSQL URL without it."""
    from sqlalchemy import make_url

    if make_url(url).get_driver_name() == "asyncpg":
        require(command, "postgres")


def _score(args: argparse.Namespace) -> int:
    from atout.cli.scores import score_command

    return score_command(args, _rules_from, lambda: data_dir() / "scores.sqlite3")


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "play": _play,
    "demo": _demo,
    "score": _score,
    "serve": _serve,
    "referee": _referee,
    "analyse": _analyse,
    "analyze": _analyse,
    "arena": _arena,
}


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``atout`` with these arguments (default: the command line's); returns the exit code."""
    arguments = list(sys.argv[1:] if argv is None else argv)
    with language(language_of(arguments)):
        parser = build_parser(__version__)
        args = argparse.Namespace(command="")
        try:
            args = parser.parse_args(arguments)
            code = COMMANDS[args.command](args)
            sys.stdout.flush()
            return code
        except (RecordError, WrongInput) as err:
            return _fail(args.command, err, EXIT_WRONG_INPUT)
        except MissingExtra as err:
            print(err.message(), file=sys.stderr)  # it names the command itself
            return EXIT_USAGE
        except AtoutError as err:
            return _fail(args.command, err, EXIT_USAGE)
        except BrokenPipeError:
            # The reader went away (``atout demo | head``): nothing more to say, and nothing to complain of.
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            return 0
        except OSError as err:
            reason = Message("cli.os_error", name=err.filename or "", reason=os_reason(err))
            return _fail(args.command, AtoutError(reason), EXIT_USAGE)
        except KeyboardInterrupt:
            print(tr("cli.interrupted", command=args.command), file=sys.stderr)
            return EXIT_INTERRUPTED


def _fail(command: str, err: AtoutError, code: int) -> int:
    print(tr("cli.error", command=command, reason=err.message()), file=sys.stderr)
    return code


if __name__ == "__main__":
    sys.exit(main())
