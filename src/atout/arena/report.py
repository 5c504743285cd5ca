"""Where the points go: a results file's deals summed up by bot, taking and defending.

Every board of a results file (:mod:`atout.arena.run`) records each play's contract (its taker,
value, strain, coinche level and capot), outcome and marks. :func:`report` reads them back, run
by run, and for each bot of a pair counts the contracts its side took and how they ended, the
coinches and surcoinches it made and what they gave, the capots, and its net marks (its side's
minus the other's) on the deals it took and on those it defended, with 95 % intervals
(:func:`atout.arena.stats.mean_ci`).

Two views of the net marks: *per deal taken* (or defended), the mean over those deals; and the
*share of the difference*, each board's net marks on the deals the bot took (or defended) divided
by the board's plays, whose mean over the boards adds up, taking plus defending, to the run's
points per deal (its interval is over the boards, which are independent; the deals of one board
are not, so the per-deal intervals are a little narrow). And the boards a bot's side took in every
seating, whichever hands it held, with its points per deal on them: who wins the auctions both
sides want. Last, the boards each bot won and its points per deal on them: does it win often by
little, or seldom by much?
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from atout.arena.duplicate import Board, Orientation
from atout.arena.stats import Estimate, elo, mean_ci
from atout.errors import AtoutError, excerpt
from atout.i18n import Message, number, plural, tr
from atout.rules import Ruleset
from atout.scoring import MADE, score_deal

#: A board in which a bot had less than this share of its median cores was shared with other work.
SHORT_OF_CORES = 0.75


@dataclass
class BotReport:
    """One bot's deals in a run (``role`` ``"a"`` or ``"b"``)."""

    name: str
    role: str
    #: Contracts its side took, and how they ended.
    taken: int = 0
    made: int = 0
    fell: int = 0
    litige: int = 0
    #: Sum of the values of the numbered contracts it took, and their count (for the mean).
    bid_total: int = 0
    bids: int = 0
    capot_bids: int = 0
    capot_bids_made: int = 0
    #: Its contracts the opponents coinched: made (won) or not (lost).
    coinched_won: int = 0
    coinched_lost: int = 0
    #: Its coinches of the opponents' contracts: the contract fell (won) or was made (lost).
    coinches_won: int = 0
    coinches_lost: int = 0
    #: Its surcoinches: made (won) or not (lost).
    surcoinches_won: int = 0
    surcoinches_lost: int = 0
    #: Deals its side took every trick of.
    capots: int = 0
    #: Net marks (its side's minus the other's) of every deal it took, and of every deal it defended.
    taking: list[float] = field(default_factory=list)
    defending: list[float] = field(default_factory=list)
    #: Each board's share of the difference from the deals it took, and from those it defended.
    taking_share: list[float] = field(default_factory=list)
    defending_share: list[float] = field(default_factory=list)
    #: A board's points per deal for the bot, on the boards its side took in every seating (the
    #: same hands taking whoever held them: who wins the competitive auctions).
    both: list[float] = field(default_factory=list)
    #: A board's points per deal for the bot, on the boards it won: with the boards won, their
    #: count shows whether a bot wins often by little or seldom by much.
    wins: list[float] = field(default_factory=list)
    #: The cores it had while deciding, board by board (processor seconds, every thread, over the
    #: seconds its decisions took), where recorded.
    board_cores: list[float] = field(default_factory=list)

    @property
    def mean_bid(self) -> float:
        return self.bid_total / self.bids if self.bids else 0.0

    @property
    def cores(self) -> float | None:
        """The cores it had while deciding: the median of its boards' (None if not recorded).

        A bot whose search is bounded by a clock (colver's) needs its cores to itself: below what it
        uses on an idle machine, other work took part of them and it played weaker than it can. The
        median is that of most boards; a few boards shared with other work (or paused) show in
        :attr:`short_boards`.

        >>> bot = BotReport("colver", "b", board_cores=[1.43, 1.41, 0.06, 1.45])
        >>> bot.cores, bot.short_boards
        (1.42, 1)
        >>> BotReport("expert", "a").cores is None
        True
        """
        return statistics.median(self.board_cores) if self.board_cores else None

    @property
    def short_boards(self) -> int | None:
        """The boards in which it had less than three quarters of its median cores (None if not recorded)."""
        cores = self.cores
        return None if cores is None else sum(board < SHORT_OF_CORES * cores for board in self.board_cores)

    def estimates(self) -> dict[str, Estimate]:
        """Net marks per deal taken and defended, and their shares of the points per deal."""
        return {
            "taking": mean_ci(self.taking),
            "defending": mean_ci(self.defending),
            "taking_share": mean_ci(self.taking_share),
            "defending_share": mean_ci(self.defending_share),
            "both": mean_ci(self.both),
            "wins": mean_ci(self.wins),
        }


@dataclass
class RunReport:
    """One run of a results file: a pair of bots on a ruleset, and its boards."""

    rules: Ruleset
    seed: int
    boards: int
    deals: int
    passed: int
    #: A's marks minus B's per deal, over the boards.
    diff: Estimate
    a: BotReport
    b: BotReport
    #: The common bidder of a play-only run, or the common player of a bidding-only one.
    bidder: str | None = None
    player: str | None = None
    #: Boards A won (a tie counts half), as the arena's Elo ratings count them.
    won: float = 0.0


def report(records: Sequence[dict[str, Any]]) -> list[RunReport]:
    """The report of every run in a results file's records (see :func:`atout.arena.read_results`)."""
    runs: list[tuple[dict[str, Any], list[Board]]] = []
    for record in records:
        kind = record.get("type") if isinstance(record, dict) else None
        if kind == "header":
            runs.append((record, []))
        elif kind == "board":
            if not runs:
                raise AtoutError(Message("arena.board_first"))
            try:
                runs[-1][1].append(Board.from_dict(record))
            except (KeyError, TypeError, ValueError, AttributeError):
                raise AtoutError(Message("arena.board", line=excerpt(str(record)))) from None
    boards_by_run: dict[tuple[str, ...], tuple[dict[str, Any], dict[int, Board]]] = {}
    for header, boards in runs:  # a resumed run's header repeats: its boards add up, once each
        key = tuple(repr(header.get(name)) for name in ("fingerprint", "seed", "a", "b", "bidder", "player"))
        kept = boards_by_run.setdefault(key, (header, {}))[1]
        kept.update({board.index: board for board in boards})
    return [_run_report(header, list(boards.values())) for header, boards in boards_by_run.values() if boards]


def _run_report(header: dict[str, Any], boards: list[Board]) -> RunReport:
    try:
        rules = Ruleset.from_dict(header["rules"])
        bots = {"a": BotReport(header["a"]["name"], "a"), "b": BotReport(header["b"]["name"], "b")}
    except (KeyError, TypeError) as err:
        raise AtoutError(Message("arena.header", reason=excerpt(repr(err)))) from None
    deals = passed = 0
    for board in sorted(boards, key=lambda b: b.index):
        shares = {(role, part): 0.0 for role in bots for part in ("taking", "defending")}
        timed = {role: [0.0, 0.0] for role in bots}  # seconds, processor seconds
        for play in board.plays:
            deals += 1
            for role in bots:
                if role in play.processor:
                    timed[role][0] += sum(play.seconds.get(role, []))
                    timed[role][1] += play.processor[role]
            if play.facts is None:
                passed += 1
                continue
            outcome = play.outcome or score_deal(rules, play.facts, check=False).outcome
            takers = play.takers
            assert takers is not None
            for role, bot in bots.items():
                net = (play.a_marks - play.b_marks) * (1 if role == "a" else -1)
                part = "taking" if role == takers else "defending"
                getattr(bot, part).append(net)
                shares[(role, part)] += net / len(board.plays)
                _count(rules, bot, play, outcome, taking=role == takers)
        for (role, part), value in shares.items():
            getattr(bots[role], part + "_share").append(value)
        for role, (seconds, processor) in timed.items():
            if seconds > 0:
                bots[role].board_cores.append(processor / seconds)
        sides = {play.takers for play in board.plays}
        if len(sides) == 1 and (side := sides.pop()) is not None:
            bots[side].both.append(board.diff if side == "a" else -board.diff)
        if board.diff:
            bots["a" if board.diff > 0 else "b"].wins.append(abs(board.diff))
    diff = mean_ci([board.diff for board in boards])
    bidder, player = (header[role]["name"] if header.get(role) else None for role in ("bidder", "player"))
    seed = int(header.get("seed", 0))
    ties = len(boards) - len(bots["a"].wins) - len(bots["b"].wins)
    won = len(bots["a"].wins) + ties / 2
    return RunReport(rules, seed, len(boards), deals, passed, diff, bots["a"], bots["b"], bidder, player, won)


def ratings(reports: Sequence[RunReport]) -> dict[str, dict[str, float]]:
    """Elo ratings by ruleset fingerprint, from the boards won in every run of that ruleset (runs of
    the same pair add up), as :func:`atout.arena.run_tournament` rates a tournament. Play-only and
    bidding-only runs are left out (another game), and so is a ruleset whose pairs do not link all its
    bots (their ratings could not be compared).

    >>> from atout.arena.stats import Estimate
    >>> def run(a, b, won):
    ...     rules = Ruleset.preset("deux")
    ...     bots = BotReport(a, "a"), BotReport(b, "b")
    ...     return RunReport(rules, 0, 100, 100, 0, Estimate(0.0, 0.0, 0.0, 100), *bots, won=won)
    >>> ratings([run("club", "random", 74.5), run("expert", "club", 74.5)])
    {'dae5188b': {'club': 1500.0, 'expert': 1684.0, 'random': 1316.0}}
    """
    pairs: dict[str, dict[tuple[str, str], tuple[float, int]]] = {}
    for run in reports:
        if run.bidder or run.player:
            continue
        found = pairs.setdefault(run.rules.fingerprint, {})
        won, boards = found.get((run.a.name, run.b.name), (0.0, 0))
        found[(run.a.name, run.b.name)] = (won + run.won, boards + run.boards)
    return {fingerprint: elo(results) for fingerprint, results in pairs.items() if _linked(results)}


def _linked(results: dict[tuple[str, str], tuple[float, int]]) -> bool:
    """Do the pairs link every bot to every other (through other bots)?"""
    groups: list[set[str]] = []
    for pair in results:
        joined = [group for group in groups if group & set(pair)]
        groups = [group for group in groups if group not in joined]
        groups.append(set(pair).union(*joined))
    return len(groups) == 1


def _count(rules: Ruleset, bot: BotReport, play: Orientation, outcome: str, *, taking: bool) -> None:
    assert play.facts is not None
    contract = play.facts.contract
    made = outcome == MADE
    a_sides = {rules.side_of(seat) for seat in play.a_seats}
    if play.facts.capot is not None and (play.facts.capot in a_sides) == (bot.role == "a"):
        bot.capots += 1
    if not taking:
        if contract.level >= 1:
            bot.coinches_won += not made
            bot.coinches_lost += made
        return
    bot.taken += 1
    bot.made += made
    bot.fell += outcome not in (MADE, "litige")
    bot.litige += outcome == "litige"
    if contract.capot:
        bot.capot_bids += 1
        bot.capot_bids_made += made
    if contract.value:
        bot.bid_total += contract.value
        bot.bids += 1
    if contract.level >= 1:
        bot.coinched_won += made
        bot.coinched_lost += not made
    if contract.level == 2:
        bot.surcoinches_won += made
        bot.surcoinches_lost += not made


def format_report(reports: Sequence[RunReport], lang: str | None = None) -> str:
    """The reports as text, one block per run, in ``lang`` (default: the current language)."""
    blocks = []
    for run in reports:
        title = tr("arena.report.title", lang, a=run.a.name, b=run.b.name, rules=run.rules.name)
        title += tr("arena.report.run", lang, fingerprint=run.rules.fingerprint, seed=run.seed)
        if run.bidder:
            title += tr("arena.report.play_only", lang, bidder=run.bidder)
        if run.player:
            title += tr("arena.report.bidding_only", lang, player=run.player)
        passed = plural("arena.report.passed", run.passed, lang)
        summary = tr("arena.report.summary", lang, boards=run.boards, deals=run.deals, passed=passed)
        lines = [title, summary + _estimate(run.diff, lang), tr("arena.report.legend", lang)]
        rows = [("", run.a.name, run.b.name)]
        est = {bot.role: bot.estimates() for bot in (run.a, run.b)}
        for key in ("taking", "defending", "taking_share", "defending_share", "both", "wins"):
            cells = _estimate(est["a"][key], lang), _estimate(est["b"][key], lang)
            rows.append((tr(f"arena.report.{key}", lang), *cells))
        counts: list[tuple[str, Callable[[BotReport], str]]] = [
            ("taken", lambda b: str(b.taken)),
            ("outcomes", lambda b: f"{b.made} / {b.fell} / {b.litige}"),
            ("mean_bid", lambda b: f"{b.mean_bid:.0f} ({b.bids})"),
            ("capot_bids", lambda b: f"{b.capot_bids_made} / {b.capot_bids - b.capot_bids_made}"),
            ("coinched", lambda b: f"{b.coinched_won} / {b.coinched_lost}"),
            ("surcoinched", lambda b: f"{b.surcoinches_won} / {b.surcoinches_lost}"),
            ("coinches", lambda b: f"{b.coinches_won} / {b.coinches_lost}"),
            ("capots", lambda b: str(b.capots)),
            ("cores", lambda b: "—" if b.cores is None else number(b.cores, 2, lang)),
            ("short_boards", lambda b: "—" if b.short_boards is None else str(b.short_boards)),
        ]
        rows.extend((tr(f"arena.report.{key}", lang), text(run.a), text(run.b)) for key, text in counts)
        width = [max(len(row[i]) for row in rows) for i in range(3)]
        lines.extend("  " + "  ".join(cell.ljust(width[i]) for i, cell in enumerate(row)).rstrip() for row in rows)
        blocks.append("\n".join(lines))
    names = {run.rules.fingerprint: run.rules.name for run in reports}
    for fingerprint, rated in ratings(reports).items():
        lines = [tr("arena.report.elo", lang, rules=names[fingerprint], fingerprint=fingerprint)]
        longest = max(len(name) for name in rated)
        ranked = sorted(rated.items(), key=lambda item: -item[1])
        lines.extend(f"  {name:<{longest}}  {number(rating, 1, lang)}" for name, rating in ranked)
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks) + "\n" if blocks else tr("arena.report.empty", lang) + "\n"


def _estimate(estimate: Estimate, lang: str | None) -> str:
    """``+1,5 [−13,1 ; +16,1] (n = 386)`` in French, ``+1.5 [−13.1, +16.1] (n=386)`` in English; a
    lone figure has no interval (``+200.0 (n=1)``), and no figure at all is a dash."""
    if not estimate.n:
        return "—"
    mean, low, high = (number(x, 1, lang, sign=True) for x in (estimate.mean, estimate.low, estimate.high))
    if not (math.isfinite(estimate.low) and math.isfinite(estimate.high)):
        return tr("arena.report.estimate_alone", lang, mean=mean, n=estimate.n)
    return tr("arena.report.estimate", lang, mean=mean, low=low, high=high, n=estimate.n)


__all__ = ["BotReport", "RunReport", "format_report", "ratings", "report"]
