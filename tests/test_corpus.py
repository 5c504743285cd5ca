"""The corpus of deals and their double-dummy values (atout.envs.corpus): values, reproducibility, resuming."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("gymnasium")

from atout import Ruleset  # noqa: E402
from atout.envs import corpus  # noqa: E402
from atout.errors import AtoutError  # noqa: E402
from atout.solver import Solver  # noqa: E402

STRAIN_NOTATION = ("S", "H", "D", "C", "SA", "TA")


def test_each_value_is_the_solvers_after_a_real_auction(tmp_path: Path) -> None:
    """The value of a strain is what the solver finds once the opening leader bids it and the others pass."""
    rules = Ruleset.preset("contree")
    (path,) = corpus.build(rules, deals=3, seed=5, out=tmp_path)
    shard = corpus.load(path)
    solver = Solver(rules)
    for row, index in enumerate(shard["index"].tolist()):
        deal = corpus.deal_of(rules, 5, index)
        assert list(shard["hands"][row]) == [deal.hand_mask(seat) for seat in range(4)]
        assert shard["dealer"][row] == deal.dealer == index % 4
        for strain, notation in enumerate(STRAIN_NOTATION):
            played = corpus.deal_of(rules, 5, index)
            played.apply(f"80{notation}")
            for _ in range(3):
                played.apply("P")
            assert shard["dd"][row, strain] == solver.value(played, side=rules.side_of(played.turn))


def test_a_corpus_reproduces_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    first = corpus.build("contree-colver", deals=5, seed=2, out=tmp_path / "a", shard=2)
    assert [p.name for p in first] == [f"contree-colver-2-{k:05d}.npz" for k in range(3)]
    again = corpus.build("contree-colver", deals=5, seed=2, out=tmp_path / "b", shard=2)
    for one, other in zip(first, again, strict=True):
        assert all((corpus.load(one)[k] == corpus.load(other)[k]).all() for k in ("index", "hands", "dd"))
    assert (corpus.load(first[2])["index"] == [4]).all()
    assert (corpus.load(first[0])["dd"][:, 4:] == -1).all()  # no sans atout, no tout atout in this preset
    # A stopped run: one shard missing, a temporary file left. Only the missing shard is written again.
    kept = first[0].stat().st_mtime_ns
    first[1].unlink()
    (tmp_path / "a" / "contree-colver-2-00001.tmp.npz").write_bytes(b"half")
    corpus.build("contree-colver", deals=5, seed=2, out=tmp_path / "a", shard=2)
    assert first[0].stat().st_mtime_ns == kept
    assert (corpus.load(first[1])["dd"] == corpus.load(again[1])["dd"]).all()


def test_a_corrupt_shard_or_a_bad_option_gets_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "x.npz"
    broken.write_bytes(b"not a zip")
    with pytest.raises(AtoutError, match=r"x\.npz: not a corpus shard"):
        corpus.load(broken)
    foreign = tmp_path / "y.npz"
    np.savez(
        foreign, index=np.arange(2), dealer=np.zeros(2, np.uint8), hands=np.zeros((2, 4), np.uint32), dd=np.zeros(2)
    )
    with pytest.raises(AtoutError, match="'dd' is not as a corpus shard holds it"):
        corpus.load(foreign)
    with pytest.raises(SystemExit) as stopped:
        corpus.main(["--preset", "trois", "--deals", "1", "--out", str(tmp_path)])
    assert stopped.value.code == 2 and "four-player deals of 32 cards" in capsys.readouterr().err
    with pytest.raises(AtoutError, match="positive"):
        corpus.build("contree", deals=0, seed=1, out=tmp_path)
