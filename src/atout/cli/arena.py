"""``atout arena``: duplicate matches between bots, with a progress bar and a report in the player's language."""

from __future__ import annotations

import argparse
import math
from contextlib import ExitStack
from pathlib import Path
from typing import TYPE_CHECKING

from atout.cli.inputs import Unreadable, WrongInput, read_text
from atout.errors import AtoutError
from atout.i18n import Message, number, plural, tr
from atout.rules import Ruleset

if TYPE_CHECKING:
    from atout.arena.run import PairResult
    from atout.arena.stats import Estimate
    from atout.bots.specs import BotSpec

#: Boards' statistics are shown with this many decimals.
DECIMALS = 1


def load_bots(sources: list[str]) -> list[BotSpec]:
    """The bots' specs: shipped levels by name, others from TOML files (read with the input checks)."""
    from atout.bots import LEVELS, load_spec
    from atout.bots.specs import parse_spec

    specs: list[BotSpec] = []
    for source in sources:
        if source in LEVELS or not Path(source).exists():
            specs.append(load_spec(source))
            continue
        text = read_text(source)
        try:
            specs.append(parse_spec(text))
        except AtoutError as err:
            raise WrongInput(Message("cli.arena.bad_spec", path=source, reason=err)) from None
    return specs


def run(args: argparse.Namespace, rules: Ruleset) -> int:
    """Play the pairs, show the progress on standard error, print the report."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    from atout.arena import format_report, read_results, run_pair, run_tournament
    from atout.arena import report as points_report
    from atout.arena.run import compressed

    if args.report:
        reports = []
        for name in args.report:
            try:
                reports.extend(points_report(read_results(Path(name))))
            except OSError as err:
                raise Unreadable(Message("cli.input.cannot_read", name=name, reason=err.strerror)) from None
            except UnicodeDecodeError:
                raise Unreadable(Message("cli.input.not_text", name=name)) from None
        print(format_report(reports), end="")
        return 0
    specs = load_bots(args.bots)
    bidder, player = (load_bots([source])[0] if source else None for source in (args.bidder, args.player))
    if len(specs) < 2:
        raise AtoutError(Message("cli.arena.two_bots"))
    if args.resume and not args.out:
        raise AtoutError(Message("cli.arena.resume_needs_out"))
    if args.out and (args.out.endswith(".gz") or (Path(args.out).is_file() and compressed(Path(args.out)))):
        raise AtoutError(Message("cli.arena.out_compressed", path=args.out))
    try:
        previous = read_results(Path(args.out)) if args.resume and Path(args.out).exists() else []
    except UnicodeDecodeError:
        raise Unreadable(Message("cli.input.not_text", name=args.out)) from None
    pairs = len(specs) * (len(specs) - 1) // 2
    total = args.deals * pairs
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn())
    ratings: dict[str, float] = {}
    with ExitStack() as stack:
        out = stack.enter_context(open(args.out, "a", encoding="utf-8")) if args.out else None
        bar = stack.enter_context(Progress(*columns, console=Console(stderr=True), disable=args.quiet))
        task = bar.add_task(tr("cli.arena.progress"), total=total)

        def step(n: int) -> None:
            bar.advance(task, n)

        if len(specs) == 2:
            a, b = specs
            results = [
                run_pair(
                    rules,
                    a,
                    b,
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
        bar.update(task, completed=total)
    if bidder is not None:
        print(tr("cli.arena.common_bidder", name=bidder.name))
    if player is not None:
        print(tr("cli.arena.common_player", name=player.name))
    for result in results:
        print(report(result, rules))
    if ratings:
        print(tr("cli.arena.elo"))
        for name, rating in sorted(ratings.items(), key=lambda item: -item[1]):
            print(f"  {name:<12} {number(rating, DECIMALS, trim=True)}")
    return 0


def report(result: PairResult, rules: Ruleset) -> str:
    """A pair's result in words: the difference per deal with its interval, the matches won with theirs."""
    boards = len(result.boards)
    lines = [tr("cli.arena.title", a=result.a, b=result.b, rules=rules.name, deals=plural("cli.arena.deals", boards))]
    diff = result.diff
    verdict = tr("cli.arena.significant" if diff.significant else "cli.arena.not_significant")
    mean = number(diff.mean, DECIMALS, sign=True, trim=True)
    lines.append(tr("cli.arena.diff", a=result.a, mean=mean, interval=interval(diff, False), verdict=verdict))
    if result.matches:
        rate = result.win_rate
        lines.append(
            tr(
                "cli.arena.wins",
                a=result.a,
                won=number(result.wins, 1, trim=True),
                matches=result.matches,
                rate=percent(rate.mean),
                interval=interval(rate, True),
            )
        )
    else:
        lines.append(tr("cli.arena.no_match", target=rules.target))
    return "\n".join(lines)


def interval(estimate: Estimate, share: bool) -> str:
    """``[−4,1 ; +12,3]`` (a mean's) or ``[20 % ; 100 %]`` (a share's), or why there is none."""
    if not (math.isfinite(estimate.low) and math.isfinite(estimate.high)):
        return tr("cli.arena.no_interval_one")
    if share and (estimate.low, estimate.high) == (0.0, 1.0):
        return tr("cli.arena.no_interval_few")
    if share:
        return tr("cli.arena.interval", low=percent(estimate.low), high=percent(estimate.high))
    low, high = (number(x, DECIMALS, sign=True, trim=True) for x in (estimate.low, estimate.high))
    return tr("cli.arena.interval", low=low, high=high)


def percent(share: float) -> str:
    """``60 %`` (French, a narrow no-break space) / ``60%``."""
    return tr("cli.arena.percent", value=round(100 * share))
