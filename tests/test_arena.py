"""The arena: duplicate boards, reproducible results, statistics, the command line, Ray."""

from __future__ import annotations

import gzip
import io
import json
import math
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

import pytest

from atout import AtoutError, Deal, Ruleset
from atout.actions import Declare, Play, parse_action
from atout.arena import (
    elo,
    format_report,
    mean_ci,
    ratings,
    read_results,
    report,
    run_pair,
    run_tournament,
    t_quantile,
    win_rate_ci,
)
from atout.arena.duplicate import Board, orientations, play_board
from atout.arena.report import BotReport, RunReport
from atout.arena.run import _boards_of_run
from atout.arena.stats import MatchPlayed
from atout.bots import load_spec
from atout.bots.specs import MAX_NODES
from atout.cli import main
from atout.i18n import number

CLUB, RANDOM = load_spec("club"), load_spec("random")
#: The expert's search with budgets small enough for a test, and binding on the first cards and calls.
QUICK_EXPERT = load_spec(
    {
        "name": "quick-expert",
        "bidder": "search",
        "taker": "heuristic",
        "player": "search",
        "samples": 4,
        "nodes_per_card": 150_000,
        "bid_samples": 2,
        "nodes_per_call": 400_000,
        "bid_make_rate": 0.75,
        "coinche_fail_rate": 0.9,
    }
)


def test_a_board_is_the_same_deal_in_both_orientations() -> None:
    rules = Ruleset.preset("coinche")
    board = play_board(rules, CLUB, RANDOM, 0, 99)
    assert [p.a_seats for p in board.plays] == [(0, 2), (1, 3)]
    assert board.diff == sum(p.a_marks - p.b_marks for p in board.plays) / 2
    assert orientations(3) == [(0,), (1,), (2,)] and orientations(2) == [(0,), (1,)]


def test_results_are_reproducible_from_their_seeds_whatever_the_workers() -> None:
    rules = Ruleset.preset("coinche")
    one = run_pair(rules, CLUB, RANDOM, 6, seed=3, workers=1)
    two = run_pair(rules, CLUB, RANDOM, 6, seed=3, workers=2)
    assert [b.diff for b in one.boards] == [b.diff for b in two.boards]
    other = run_pair(rules, CLUB, RANDOM, 6, seed=4, workers=1)
    assert [b.diff for b in other.boards] != [b.diff for b in one.boards]


@pytest.mark.usefixtures("english")  # the messages read here are the English ones
def test_results_file_has_provenance_boards_and_summary(tmp_path: Path) -> None:
    out = io.StringIO()
    rules = Ruleset.preset("trois")
    result = run_pair(rules, CLUB, RANDOM, 3, seed=1, workers=1, out=out)
    lines = [json.loads(line) for line in out.getvalue().splitlines()]
    header, *boards, summary = lines
    assert header["type"] == "header" and header["fingerprint"] == rules.fingerprint
    assert header["a"]["name"] == "club" and "atout" in header and header["seed"] == 1
    assert [b["type"] for b in boards] == ["board"] * 3 and len(boards[0]["plays"]) == 3
    assert summary["type"] == "summary" and summary["boards"] == 3
    assert summary["diff_per_deal"] == pytest.approx(result.diff.mean)
    path = tmp_path / "r.jsonl"
    path.write_text(out.getvalue(), encoding="utf-8")
    assert len(read_results(path)) == 5
    path.write_text("{oops\n", encoding="utf-8")
    with pytest.raises(AtoutError, match="not a JSON line"):
        read_results(path)


def _replay(board: Board) -> list[tuple[list[str], dict[int, int], object]]:
    return [(play.actions, play.marks, play.facts) for play in board.plays]


@contextmanager
def _busy() -> Iterator[None]:
    """A thread spinning beside the test: it takes its share of the interpreter and of a core."""
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            pass

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        yield
    finally:
        stop.set()
        spinner.join()


def test_expert_boards_replay_exactly_in_other_processes_and_under_load() -> None:
    """The search bot's budgets are solver nodes: a board is the same action for action, mark for mark,
    in this process, in this process slowed by a busy thread, and in two worker processes."""
    rules = Ruleset.preset("coinche")
    here = run_pair(rules, QUICK_EXPERT, CLUB, 3, seed=5, workers=1)
    with _busy():
        loaded = run_pair(rules, QUICK_EXPERT, CLUB, 3, seed=5, workers=1)
    there = run_pair(rules, QUICK_EXPERT, CLUB, 3, seed=5, workers=2)
    assert [_replay(b) for b in loaded.boards] == [_replay(b) for b in here.boards]
    assert [_replay(b) for b in there.boards] == [_replay(b) for b in here.boards]
    # The budgets bound: with nodes to spare, the same bot decides otherwise somewhere.
    free = replace(QUICK_EXPERT, nodes_per_card=MAX_NODES, nodes_per_call=MAX_NODES)
    unbounded = run_pair(rules, free, CLUB, 3, seed=5, workers=1)
    assert [_replay(b) for b in unbounded.boards] != [_replay(b) for b in here.boards]
    # The actions recorded are the whole deal: replayed on the board's cards, they give its marks.
    for board in here.boards:
        for play in board.plays:
            deal = Deal.new(rules, dealer=board.dealer, seed=board.seed)
            for action in play.actions:
                deal.apply(action)
            assert deal.result is not None and (deal.result.marks or {0: 0, 1: 0}) == play.marks


def test_t_quantiles_match_the_published_tables() -> None:
    """Student's t, two-sided 95 % (the 0.975 quantile), as printed in the usual tables, and beyond
    the tables' rows, where the old interpolation took the next row."""
    published = {1: 12.706, 2: 4.303, 5: 2.571, 10: 2.228, 30: 2.042, 120: 1.980}
    for df, value in published.items():
        assert t_quantile(0.975, df) == pytest.approx(value, abs=5e-4)
    assert t_quantile(0.975, 45) == pytest.approx(2.0141, abs=5e-5)  # between the rows 30 and 60
    assert t_quantile(0.995, 9) == pytest.approx(3.250, abs=5e-4)
    assert math.isinf(t_quantile(0.975, 0))


def test_mean_interval() -> None:
    est = mean_ci([1.0, -2.0, 3.0, -1.0])
    assert est.mean == 0.25 and not est.significant
    half = t_quantile(0.975, 3) * math.sqrt((0.75**2 + 2.25**2 + 2.75**2 + 1.25**2) / 3 / 4)
    assert (est.low, est.high) == pytest.approx((0.25 - half, 0.25 + half))
    assert mean_ci([10.0, 11.0, 12.0, 10.0, 11.0]).significant
    assert mean_ci([]).n == 0 and math.isinf(mean_ci([1.0]).high)


def _one_board_matches(seating_results: list[tuple[float, float]]) -> list[MatchPlayed]:
    return [
        MatchPlayed(seating, board, board, results[seating])
        for board, results in enumerate(seating_results)
        for seating in (0, 1)
    ]


def test_win_rate_interval_accounts_for_the_seatings_sharing_boards() -> None:
    """Two seatings of a board are not two independent matches: when every board is won in one seating
    and lost in the other, the rate is exactly one half, with no uncertainty; when both seatings of a
    board go the same way, there are half as many independent results as matches."""
    opposite = win_rate_ci(_one_board_matches([(1.0, 0.0), (0.0, 1.0)] * 50), 100)
    assert (opposite.mean, opposite.low, opposite.high, opposite.n) == (0.5, 0.5, 0.5, 200)
    same = win_rate_ci(_one_board_matches([(1.0, 1.0), (0.0, 0.0)] * 50), 100)
    # 100 independent boards at one half: the binomial standard error is 0.05, the interval about ±0.098.
    assert same.mean == 0.5 and 0.39 < same.low < 0.42 and 0.58 < same.high < 0.61
    assert win_rate_ci(_one_board_matches([(1.0, 1.0), (0.0, 0.0)] * 50), 100) == same  # seeded: the same


def test_win_rate_interval_keeps_the_boards_of_a_match_together() -> None:
    """A match of ten boards is one result, not ten: 20 matches of 10 boards (one seating) give the
    interval of 20 independent results at one half, the 2.5 % and 97.5 % points of a binomial
    distribution: 6 and 14 wins of 20."""
    played = [MatchPlayed(0, 10 * i, 10 * i + 9, float(i % 2)) for i in range(20)]
    rate = win_rate_ci(played, 200)
    assert rate.mean == 0.5 and rate.n == 20
    assert (rate.low, rate.high) == pytest.approx((0.3, 0.7))
    few = win_rate_ci(played[:3], 30)  # three blocks: too few for an interval
    assert (few.low, few.high) == (0.0, 1.0)
    assert win_rate_ci([], 4) == win_rate_ci([], 0) and win_rate_ci([], 4).n == 0


def test_elo_fits_to_convergence() -> None:
    """Bradley-Terry by maximum likelihood, one drawn game added to each pair: two bots at 75 to 26
    (74.5 wins of 100, and the draw) are 400 log10(75 / 26) = 184.0 points apart."""
    two = elo({("a", "b"): (74.5, 100)})
    assert two["a"] - two["b"] == pytest.approx(400 * math.log10(75 / 26), abs=0.1)
    ratings = elo({("a", "b"): (75.0, 100), ("b", "c"): (75.0, 100), ("a", "c"): (90.0, 100)})
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert sum(ratings.values()) / 3 == pytest.approx(1500, abs=0.1)
    # Consistent results give exactly the Elo differences: 3 to 1 twice, hence 9 to 1 (with the draws).
    chain = elo({("a", "b"): (7499.5, 10000), ("b", "c"): (7499.5, 10000), ("a", "c"): (9000.0, 10000)})
    assert chain["a"] - chain["b"] == pytest.approx(400 * math.log10(3), abs=0.5)
    sweep = elo({("a", "b"): (100.0, 100), ("b", "c"): (100.0, 100), ("a", "c"): (100.0, 100)})
    assert sweep["a"] > sweep["b"] > sweep["c"] and all(math.isfinite(r) for r in sweep.values())


def test_tournament_gives_elo_ratings() -> None:
    results, ratings = run_tournament(Ruleset.preset("deux"), [CLUB, RANDOM, load_spec("debutant")], 20, workers=1)
    assert len(results) == 3 and set(ratings) == {"club", "random", "debutant"}
    assert ratings["club"] > ratings["random"]


@pytest.mark.usefixtures("english")  # the messages read here are the English ones
def test_bad_arena_input() -> None:
    rules = Ruleset.preset("coinche")
    with pytest.raises(AtoutError, match="at least one deal"):
        run_pair(rules, CLUB, RANDOM, 0)
    with pytest.raises(AtoutError, match="backend"):
        run_pair(rules, CLUB, RANDOM, 1, backend="mpi")
    with pytest.raises(AtoutError, match="own name"):
        run_tournament(rules, [CLUB, CLUB], 1)


def test_arena_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "results.jsonl"
    assert (
        main(
            ["arena", "club", "random", "--deals", "4", "--workers", "1", "--quiet", "--out", str(out), "--lang", "en"]
        )
        == 0
    )
    text = capsys.readouterr().out
    assert "club vs random — coinche, 4 duplicate deals" in text and "points per deal" in text
    assert read_results(out)[-1]["type"] == "summary"
    assert main(["arena", "club", "--deals", "2", "--quiet", "--lang", "en"]) == 2
    assert (
        main(
            ["arena", "club", "random", "--deals", "1", "--quiet", "--out", str(tmp_path / "no" / "r"), "--lang", "en"]
        )
        == 2
    )
    assert "no such file" in capsys.readouterr().err


@pytest.mark.ray
def test_ray_backend_gives_the_same_results(ray_installed: None) -> None:
    rules = Ruleset.preset("coinche")
    local = run_pair(rules, CLUB, RANDOM, 4, seed=8, workers=1)
    remote = run_pair(rules, CLUB, RANDOM, 4, seed=8, workers=2, backend="ray")
    assert [b.diff for b in remote.boards] == [b.diff for b in local.boards]


def test_a_run_cut_short_resumes_from_its_file(tmp_path: Path) -> None:
    rules = Ruleset.preset("classique")
    out = tmp_path / "r.jsonl"
    with out.open("w", encoding="utf-8") as handle:
        run_pair(rules, CLUB, RANDOM, 3, seed=6, workers=1, out=handle)
    played: list[int] = []
    with out.open("a", encoding="utf-8") as handle:
        resumed = run_pair(
            rules, CLUB, RANDOM, 7, seed=6, workers=1, out=handle, progress=played.append, previous=read_results(out)
        )
    whole = run_pair(rules, CLUB, RANDOM, 7, seed=6, workers=1)
    assert played == [3, 1, 1, 1, 1]  # three boards kept, four played
    assert [b.diff for b in resumed.boards] == [b.diff for b in whole.boards]
    assert (resumed.wins, resumed.matches) == (whole.wins, whole.matches)
    assert [b.plays[0].facts for b in resumed.boards] == [b.plays[0].facts for b in whole.boards]
    other = run_pair(rules, CLUB, RANDOM, 2, seed=7, workers=1, previous=read_results(out))
    assert [b.seed for b in other.boards] == [7_000_021, 7_000_022]  # another seed: nothing kept


@pytest.mark.usefixtures("english")  # the messages read here are the English ones
def test_resume_rejects_a_corrupt_board(tmp_path: Path) -> None:
    rules = Ruleset.preset("coinche")
    out = io.StringIO()
    run_pair(rules, CLUB, RANDOM, 1, seed=2, workers=1, out=out)
    header, board, _ = (json.loads(line) for line in out.getvalue().splitlines())
    del board["plays"]
    with pytest.raises(AtoutError, match="malformed"):
        run_pair(rules, CLUB, RANDOM, 2, seed=2, workers=1, previous=[header, board])
    board["plays"], board["seed"] = [], 1
    with pytest.raises(AtoutError, match="corrupt"):
        run_pair(rules, CLUB, RANDOM, 2, seed=2, workers=1, previous=[header, board])
    with pytest.raises(AtoutError, match="not an arena record"):
        run_pair(rules, CLUB, RANDOM, 2, seed=2, workers=1, previous=[header, [1, 2]])  # type: ignore[list-item]


def test_arena_resume_needs_a_file(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "club", "random", "--deals", "2", "--quiet", "--resume", "--lang", "en"]) == 2
    assert "--resume needs --out" in capsys.readouterr().err


def test_a_play_only_match_bids_alike_in_every_orientation() -> None:
    """With a common bidder every seat's calls are the bidder's, seeded by the seat: the club bidder then
    makes the same auction in both orientations, and only the cards differ."""
    rules = Ruleset.preset("coinche")
    out = io.StringIO()
    result = run_pair(rules, CLUB, RANDOM, 4, seed=5, workers=1, out=out, bidder=CLUB)
    for board in result.boards:
        calls = ([a for a in p.actions if not isinstance(parse_action(a), (Play, Declare))] for p in board.plays)
        assert next(calls) == next(calls)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    assert records[0]["bidder"]["name"] == "club" and "player" not in records[0]
    again = run_pair(rules, CLUB, RANDOM, 4, seed=5, workers=1, previous=records, bidder=CLUB)
    assert [b.diff for b in again.boards] == [b.diff for b in result.boards]
    assert _boards_of_run(records, rules, CLUB, RANDOM, 5) == {}  # without the common bidder: another run


def test_a_bidding_only_match_plays_every_card_alike() -> None:
    """With a common card player, a random bidder's deals are played by the club player at every seat."""
    rules = Ruleset.preset("coinche")
    result = run_pair(rules, RANDOM, CLUB, 3, seed=2, workers=1, player=CLUB)
    assert all(play.facts is None or play.outcome for board in result.boards for play in board.plays)


def test_each_deal_logs_its_contract_outcome_and_takers() -> None:
    """The results file says, per play, the contract reached, whose side took it and how it ended."""
    out = io.StringIO()
    run_pair(Ruleset.preset("contree-colver"), CLUB, RANDOM, 6, seed=1, workers=1, out=out)
    plays = [p for line in out.getvalue().splitlines()[1:-1] for p in json.loads(line)["plays"]]
    for play in plays:
        if play["facts"] is None:
            assert play["outcome"] == "passed" and play["takers"] is None and play["contract"] is None
        else:
            assert play["outcome"] in ("made", "chute") and play["takers"] in ("a", "b")
            taker = play["facts"]["contract"]["taker"]
            assert (taker in play["a_seats"]) == (play["takers"] == "a")
    assert any(play["facts"] for play in plays)


def test_a_lone_figure_in_the_report_has_no_interval_and_no_figure_is_a_dash() -> None:
    """A report's estimate over one deal has no interval (not ``[−inf, +inf]``); over none, a dash
    (not ``0.0 [0.0, 0.0]``)."""
    a, b = BotReport("expert", "a", both=[200.0]), BotReport("club", "b")
    run = RunReport(Ruleset.preset("coinche"), 7, 1, 2, 0, mean_ci([200.0]), a, b, won=1.0)
    rows = {line.split("  ")[1]: line for line in format_report([run], "en").splitlines() if line.startswith("  ")}
    assert rows["boards taken in both seatings: points per deal"].split()[-3:] == ["+200.0", "(n=1)", "—"]
    french = format_report([run], "fr")
    assert "inf" not in french and "(n\u202f=\u202f1)" in french


def test_the_report_sums_up_where_the_points_go(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The report counts each bot's contracts and coinches; its shares, taking plus defending, add up to
    the points per deal, and a resumed run's boards count once."""
    rules = Ruleset.preset("coinche")
    path = tmp_path / "r.jsonl"
    with path.open("w", encoding="utf-8") as out:
        result = run_pair(rules, CLUB, RANDOM, 8, seed=4, workers=1, out=out)
    with path.open("a", encoding="utf-8") as out:  # a resumed run writes its header again
        run_pair(rules, CLUB, RANDOM, 8, seed=4, workers=1, out=out, previous=read_results(path))
    (run,) = report(read_results(path))
    assert run.boards == 8 and run.deals == 16 and run.diff.mean == pytest.approx(result.diff.mean)
    assert run.a.taken + run.b.taken + run.passed == run.deals
    assert run.a.made + run.a.fell + run.a.litige == run.a.taken
    estimates = run.a.estimates()
    assert estimates["taking_share"].mean + estimates["defending_share"].mean == pytest.approx(result.diff.mean)
    assert run.a.coinches_won + run.a.coinches_lost == run.b.coinched_won + run.b.coinched_lost
    # The boards one side took in both seatings count for it, with its points per deal on them.
    taken_by = {board.index: {play.takers for play in board.plays} for board in result.boards}
    assert sorted(run.a.both) == sorted(b.diff for b in result.boards if taken_by[b.index] == {"a"})
    assert sorted(run.b.both) == sorted(-b.diff for b in result.boards if taken_by[b.index] == {"b"})
    assert run.b.both  # random bids every deal: it took both seatings of some boards
    # Each board won counts for its winner, with the winner's points per deal on it; a tie for neither.
    assert sorted(run.a.wins) == sorted(b.diff for b in result.boards if b.diff > 0)
    assert sorted(run.b.wins) == sorted(-b.diff for b in result.boards if b.diff < 0)
    assert len(run.a.wins) + len(run.b.wins) + sum(b.diff == 0 for b in result.boards) == 8
    assert run.won == len(run.a.wins) + (8 - len(run.a.wins) - len(run.b.wins)) / 2
    assert main(["arena", "--lang", "en", "--report", str(path)]) == 0
    text = capsys.readouterr().out
    assert "club (A) vs random (B)" in text and "net per deal taken" in text and "coinches of the opponents" in text
    both = run.b.estimates()["both"]  # the club player never took both seatings: a dash in its column
    written = [number(x, 1, "en", sign=True) for x in (both.mean, both.low, both.high)]
    (row,) = (line for line in text.splitlines() if "boards taken in both seatings" in line)
    assert row.split()[-5:] == ["—", *"{} [{}, {}] (n={})".format(*written, both.n).split()]
    (row,) = (line for line in text.splitlines() if "boards won: points per deal" in line)
    assert f"(n={len(run.a.wins)})" in row
    assert main(["arena", "--lang", "fr", "--report", str(path)]) == 0
    text = capsys.readouterr().out
    assert "club (A) contre random (B)" in text and "net par donne prise" in text and "donne prise" in text
    assert "net per deal" not in text
    assert f"({run.passed} passée{'s' if run.passed > 1 else ''})" in text  # French: 0 and 1 are singular
    # French writes the figures its own way: a decimal comma, a true minus sign, "[low ; high]".
    written = [number(x, 1, "fr", sign=True) for x in (run.diff.mean, run.diff.low, run.diff.high)]
    assert "{} [{}\u202f; {}] (n\u202f=\u202f8)".format(*written) in text
    assert "," in written[0]


@pytest.mark.usefixtures("english")  # the messages read here are the English ones
def test_a_finished_results_file_may_be_kept_compressed(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A results file compressed with gzip reads and reports as the plain one; a damaged one is named
    with what is wrong; the arena refuses to append to a compressed file, which stays as it was."""
    path = tmp_path / "r.jsonl"
    with path.open("w", encoding="utf-8") as out:
        run_pair(Ruleset.preset("deux"), CLUB, RANDOM, 3, seed=2, workers=1, out=out)
    packed = tmp_path / "r.jsonl.gz"
    packed.write_bytes(gzip.compress(path.read_bytes()))
    assert read_results(packed) == read_results(path)
    reports = []
    for name in (path, packed):
        assert main(["arena", "--lang", "en", "--report", str(name)]) == 0
        reports.append(capsys.readouterr().out)
    assert reports[0] == reports[1] and "club (A) vs random (B)" in reports[0]
    damaged = tmp_path / "cut.jsonl.gz"
    damaged.write_bytes(packed.read_bytes()[:-20])
    with pytest.raises(AtoutError, match=r"cut\.jsonl\.gz: a damaged gzip file"):
        read_results(damaged)
    assert main(["arena", "--lang", "en", "--report", str(damaged)]) == 2
    assert "a damaged gzip file" in capsys.readouterr().err
    renamed = tmp_path / "packed.jsonl"  # compressed, without the name saying so
    renamed.write_bytes(packed.read_bytes())
    for out_name in (packed, renamed):
        before = out_name.read_bytes()
        command = ["arena", "club", "random", "--preset", "deux", "--deals", "4", "--seed", "2", "--quiet"]
        assert main([*command, "--lang", "en", "--out", str(out_name), "--resume"]) == 2
        assert "cannot write a compressed one" in capsys.readouterr().err
        assert out_name.read_bytes() == before
    assert main([*command, "--lang", "fr", "--out", str(tmp_path / "new.jsonl.gz")]) == 2
    assert "ne peut pas en écrire un compressé" in capsys.readouterr().err
    assert not (tmp_path / "new.jsonl.gz").exists()


def test_the_report_rates_every_pair_of_several_files(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Separate runs' files rated together give the ratings of a tournament of the same pairs and seeds;
    play-only runs are not rated, nor pairs that do not link every bot."""
    rules = Ruleset.preset("deux")
    debutant = load_spec("debutant")
    paths = []
    for seed, (a, b) in enumerate(((CLUB, RANDOM), (CLUB, debutant), (RANDOM, debutant))):  # the tournament's order
        paths.append(tmp_path / f"{seed}.jsonl")
        with paths[-1].open("w", encoding="utf-8") as out:
            run_pair(rules, a, b, 6, seed=seed, workers=1, out=out)
    runs = [run for path in paths for run in report(read_results(path))]
    assert ratings(runs) == {rules.fingerprint: run_tournament(rules, [CLUB, RANDOM, debutant], 6, workers=1)[1]}
    other = tmp_path / "other.jsonl"
    with other.open("w", encoding="utf-8") as out:
        run_pair(rules, CLUB, RANDOM, 4, seed=0, workers=1, out=out)
        run_pair(rules, debutant, RANDOM, 4, seed=0, workers=1, out=out, bidder=CLUB)
    assert list(ratings(report(read_results(other)))[rules.fingerprint]) == ["club", "random"]
    with other.open("a", encoding="utf-8") as out:
        run_pair(rules, debutant, load_spec("heuristic"), 4, seed=0, workers=1, out=out)
    assert ratings(report(read_results(other))) == {}
    assert main(["arena", "--lang", "en", "--report", *map(str, paths)]) == 0
    text = capsys.readouterr().out
    title = f"Elo ratings from the boards won, every pair above of deux [{rules.fingerprint}]:"
    rated = text[text.index(title) + len(title) :].split()
    assert rated[::2] == ["club", "debutant", "random"]  # from the strongest


def test_the_report_says_how_many_cores_each_bot_had_while_deciding() -> None:
    """Each play records the processor seconds of each bot's decisions (a clock-bound bot searches less
    when other work takes its cores); the report gives the median of the boards' cores (processor
    seconds over seconds), which a board paused or shared with other work hardly moves, counts the
    boards with under three quarters of it, and shows dashes for files recorded before."""
    out = io.StringIO()
    run_pair(Ruleset.preset("deux"), CLUB, RANDOM, 3, seed=3, workers=1, out=out)
    records = [json.loads(line) for line in out.getvalue().splitlines()]
    for record in records[1:-1]:
        board = Board.from_dict(record)
        assert Board.from_dict(board.to_dict()) == board
        assert all(set(play.processor) == {"a", "b"} and min(play.processor.values()) >= 0 for play in board.plays)
        for play in record["plays"]:  # known figures: A had two cores, B one
            play["seconds"] = {"a": [0.25, 0.25], "b": [0.5]}
            play["processor"] = {"a": 1.0, "b": 0.5}
    records[1]["plays"][0]["seconds"]["a"][0] = 600.0  # a pause in one of A's decisions
    (run,) = report(records)
    assert run.a.board_cores[1:] == [2.0, 2.0] and run.a.board_cores[0] < 0.1
    assert run.a.cores == pytest.approx(2.0) and run.b.cores == pytest.approx(1.0)
    assert (run.a.short_boards, run.b.short_boards) == (1, 0)
    lines = format_report([run], "en").splitlines()
    assert next(line for line in lines if "processors busy while deciding" in line).split()[-2:] == ["2.00", "1.00"]
    assert next(line for line in lines if "under three quarters" in line).split()[-2:] == ["1", "0"]
    for record in records[1:-1]:
        for play in record["plays"]:
            del play["processor"]
    (older,) = report(records)
    assert older.a.cores is None and older.b.cores is None and older.a.short_boards is None
    lines = format_report([older], "fr").splitlines()
    assert next(line for line in lines if "processeurs occupés pendant" in line).split()[-2:] == ["—", "—"]
    assert next(line for line in lines if "moins des trois quarts" in line).split()[-2:] == ["—", "—"]
