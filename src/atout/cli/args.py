"""The command line's arguments: every command, its one-line description, an example, its options.

The help and the refusals speak the language ``--lang`` names (French by default), argparse's
own words included; a number out of its range is refused by name.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Sequence

from atout.errors import excerpt
from atout.i18n import DEFAULT_LANGUAGE, LANGUAGES, get_language, messages, tr
from atout.rules import PRESETS

LEVELS = ("random", "debutant", "club", "expert")
#: argparse's own messages, by the catalogue key of their translation.
_ARGPARSE = {
    "usage: ": "usage",
    "options": "options",
    "positional arguments": "positional",
    "show this help message and exit": "help",
    "show program's version number and exit": "version",
    "%(prog)s: error: %(message)s\n": "error",
    "argument %(argument_name)s: %(message)s": "argument",
    "invalid %(type)s value: %(value)r": "invalid_value",
    "invalid choice: %(value)r (choose from %(choices)s)": "invalid_choice",
    "the following arguments are required: %s": "required",
    "unrecognized arguments: %s": "unrecognized",
    "expected one argument": "expected_one",
    "ambiguous option: %(option)s could match %(matches)s": "ambiguous",
}


def _argparse_words(text: str) -> str:
    key = _ARGPARSE.get(text)
    return text if key is None else messages(get_language())[f"cli.argparse.{key}"]


# argparse looks its words up through its module's ``_`` (gettext): give it the catalogue's.
setattr(argparse, "_", _argparse_words)  # noqa: B010


def language_of(argv: Sequence[str]) -> str:
    """The language ``--lang`` names anywhere in ``argv`` (French when absent or unknown)."""
    for i, arg in enumerate(argv):
        value = (
            arg.partition("=")[2]
            if arg.startswith("--lang=")
            else argv[i + 1]
            if arg == "--lang" and i + 1 < len(argv)
            else None
        )
        if value in LANGUAGES:
            return value
    return DEFAULT_LANGUAGE


#: The largest whole number taken where an option has no limit of its own (seeds, sheet numbers): never shown.
UNBOUNDED = 2**62


def bounded(kind: Callable[[str], float], low: float, high: float) -> Callable[[str], float]:
    """An argparse type: a number of ``kind`` between ``low`` and ``high``, else a refusal naming them
    (only ``low`` when ``high`` is :data:`UNBOUNDED`)."""

    def parse(text: str) -> float:
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(tr("cli.not_a_number", text=excerpt(text))) from None
        if high >= UNBOUNDED and not low <= value <= high:
            key = "cli.at_least" if value < low else "cli.too_big"
            raise argparse.ArgumentTypeError(tr(key, text=excerpt(text), low=low))
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(tr("cli.out_of_range", text=excerpt(text), low=low, high=high))
        return value

    return parse


def whole(low: int, high: int) -> Callable[[str], int]:
    """A whole number between ``low`` and ``high``."""
    parse = bounded(int, low, high)
    return lambda text: int(parse(text))


def _command(
    sub: argparse._SubParsersAction[argparse.ArgumentParser], name: str, **extra: object
) -> argparse.ArgumentParser:
    parser = sub.add_parser(
        name,
        help=tr(f"cli.{name}.help"),
        description=tr(f"cli.{name}.help"),
        epilog=tr(f"cli.{name}.example"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
        **extra,  # type: ignore[arg-type]
    )
    parser.add_argument("--lang", choices=LANGUAGES, help=tr("cli.arg.lang"))
    return parser


def _rules_options(parser: argparse.ArgumentParser, sa_ta: bool = True) -> None:
    parser.add_argument("--preset", default="coinche", choices=sorted(PRESETS), help=tr("cli.arg.preset"))
    parser.add_argument("--target", type=whole(1, 100_000), help=tr("cli.arg.target"))
    if sa_ta:
        parser.add_argument("--sa-ta", action="store_true", help=tr("cli.arg.sa_ta"))


def build_parser(version: str) -> argparse.ArgumentParser:
    """The ``atout`` parser, its texts in the current language."""
    parser = argparse.ArgumentParser(
        prog="atout",
        description=tr("cli.description"),
        epilog=tr("cli.example"),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"atout {version}", help=tr("cli.argparse.version"))
    parser.add_argument("--lang", choices=LANGUAGES, help=tr("cli.arg.lang"))
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    seed = whole(0, UNBOUNDED)

    play = _command(sub, "play")
    _rules_options(play)
    play.add_argument("--level", default="club", choices=LEVELS, help=tr("cli.arg.level"))
    play.add_argument("--save", help=tr("cli.arg.save"))
    play.add_argument("--resume", help=tr("cli.arg.resume"))
    play.add_argument("--seed", type=seed, default=None, help=tr("cli.arg.seed"))
    play.add_argument("--speed", type=bounded(float, 0, 10), default=0.6, help=tr("cli.arg.speed"))

    demo = _command(sub, "demo")
    demo.add_argument("--preset", default="coinche", choices=sorted(PRESETS), help=tr("cli.arg.preset"))
    demo.add_argument("--seed", type=seed, default=None, help=tr("cli.arg.seed"))

    score = _command(sub, "score")
    actions = ("new", "list", "resume", "show", "export", "delete")
    score.add_argument("action", nargs="?", default="list", choices=actions, help=tr("cli.arg.score_action"))
    score.add_argument("id", nargs="?", type=whole(1, UNBOUNDED), help=tr("cli.arg.sheet"))
    _rules_options(score)
    score.add_argument("--name", help=tr("cli.arg.name"))
    score.add_argument("--sides", help=tr("cli.arg.sides"))
    score.add_argument("--format", choices=("csv", "json"), help=tr("cli.arg.format"))
    score.add_argument("--output", help=tr("cli.arg.output"))
    score.add_argument("--yes", action="store_true", help=tr("cli.arg.yes"))
    score.add_argument("--db", help=tr("cli.arg.db"))

    serve = _command(sub, "serve")
    serve.add_argument("--host", default="127.0.0.1", help=tr("cli.arg.host"))
    serve.add_argument("--port", type=whole(1, 65535), default=8000, help=tr("cli.arg.port"))
    serve.add_argument("--database-url", help=tr("cli.arg.database_url"))
    serve.add_argument("--data-dir", help=tr("cli.arg.data_dir"))
    serve.add_argument(
        "--bot-backend", default="process", choices=("process", "thread", "ray"), help=tr("cli.arg.bot_backend")
    )
    serve.add_argument("--workers", type=whole(1, 1024), default=None, help=tr("cli.arg.serve_workers"))
    serve.add_argument("--bot-pace", type=bounded(float, 0, 60), default=0.9, help=tr("cli.arg.bot_pace"))
    serve.add_argument("--seat-timeout", type=bounded(float, 1, 3600), default=45.0, help=tr("cli.arg.seat_timeout"))
    serve.add_argument("--tables-per-hour", type=whole(1, 100_000), default=60, help=tr("cli.arg.tables_per_hour"))
    serve.add_argument("--shard", help=tr("cli.arg.shard"))
    serve.add_argument("--proxied", action="store_true", help=tr("cli.arg.proxied"))
    serve.add_argument("--admin", metavar="NAME", help=tr("cli.arg.admin"))
    serve.add_argument(
        "--daily-challenge",
        metavar="VARIANT",
        default="coinche",
        choices=(*PRESETS, "none"),
        help=tr("cli.arg.daily_challenge"),
    )

    referee = _command(sub, "referee")
    referee.add_argument("file", help=tr("cli.arg.record_file"))

    analyse = _command(sub, "analyse", aliases=["analyze"])
    analyse.add_argument("file", help=tr("cli.arg.record_file"))

    arena = _command(sub, "arena")
    arena.add_argument("bots", nargs="*", help=tr("cli.arg.bots"))
    _rules_options(arena, sa_ta=False)
    arena.add_argument("--deals", type=whole(1, 1_000_000), default=100, help=tr("cli.arg.deals"))
    arena.add_argument("--seed", type=seed, default=0, help=tr("cli.arg.seed"))
    arena.add_argument("--workers", type=whole(1, 1024), default=None, help=tr("cli.arg.workers"))
    arena.add_argument("--backend", default="process", choices=("process", "ray"), help=tr("cli.arg.backend"))
    arena.add_argument("--out", help=tr("cli.arg.out"))
    arena.add_argument("--resume", action="store_true", help=tr("cli.arg.arena_resume"))
    arena.add_argument("--bidder", help=tr("cli.arg.bidder"))
    arena.add_argument("--player", help=tr("cli.arg.player"))
    arena.add_argument("--report", metavar="FILE", nargs="+", help=tr("cli.arg.report"))
    arena.add_argument("--quiet", action="store_true", help=tr("cli.arg.quiet"))
    return parser
