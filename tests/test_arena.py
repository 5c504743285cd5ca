"""The arena: duplicate boards, reproducible results, statistics, the command line, Ray."""

from __future__ import annotations

import io
import json
import math
from pathlib import Path

import pytest

from atout import AtoutError, Ruleset
from atout.arena import elo, mean_ci, proportion_ci, read_results, run_pair, run_tournament
from atout.arena.duplicate import orientations, play_board
from atout.bots import load_spec
from atout.cli import main

CLUB, RANDOM = load_spec("club"), load_spec("random")


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


def test_statistics() -> None:
    est = mean_ci([1.0, -2.0, 3.0, -1.0])
    assert est.mean == 0.25 and est.low < 0.25 < est.high and not est.significant
    assert mean_ci([10.0, 11.0, 12.0, 10.0, 11.0]).significant
    assert mean_ci([]).n == 0 and math.isinf(mean_ci([1.0]).high)
    rate = proportion_ci(90, 100)
    assert 0.82 < rate.low < 0.9 < rate.high < 0.95
    ratings = elo({("a", "b"): (75.0, 100), ("b", "c"): (75.0, 100), ("a", "c"): (90.0, 100)})
    assert ratings["a"] > ratings["b"] > ratings["c"]
    assert sum(ratings.values()) / 3 == pytest.approx(1500, abs=0.5)
    assert 150 < ratings["a"] - ratings["b"] < 250  # 75 % is about 190 Elo


def test_tournament_gives_elo_ratings() -> None:
    results, ratings = run_tournament(Ruleset.preset("deux"), [CLUB, RANDOM, load_spec("debutant")], 20, workers=1)
    assert len(results) == 3 and set(ratings) == {"club", "random", "debutant"}
    assert ratings["club"] > ratings["random"]


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
    assert main(["arena", "club", "random", "--deals", "4", "--workers", "1", "--quiet", "--out", str(out)]) == 0
    text = capsys.readouterr().out
    assert "club vs random (coinche, 4 duplicate deals)" in text and "points per deal" in text
    assert read_results(out)[-1]["type"] == "summary"
    assert main(["arena", "club", "--deals", "2", "--quiet"]) == 2
    assert main(["arena", "club", "random", "--deals", "1", "--quiet", "--out", str(tmp_path / "no" / "r")]) == 2
    assert "No such file or directory" in capsys.readouterr().err


def test_ray_backend_gives_the_same_results() -> None:
    pytest.importorskip("ray")
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
    assert main(["arena", "club", "random", "--deals", "2", "--quiet", "--resume"]) == 2
    assert "--resume needs --out" in capsys.readouterr().err
