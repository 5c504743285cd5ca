"""The bot arena: duplicate boards, confidence intervals, match win rates and Elo ratings.

>>> from atout import Ruleset
>>> from atout.arena import run_pair
>>> from atout.bots import load_spec
>>> result = run_pair(Ruleset.preset("coinche"), load_spec("club"), load_spec("random"), deals=4, workers=1)
>>> len(result.boards), result.diff.n
(4, 4)
"""

from atout.arena.duplicate import Board, play_board
from atout.arena.report import RunReport, format_report, ratings, report
from atout.arena.run import PairResult, read_results, run_pair, run_tournament
from atout.arena.stats import Estimate, elo, mean_ci, t_quantile, win_rate_ci

__all__ = [
    "Board",
    "Estimate",
    "PairResult",
    "RunReport",
    "elo",
    "format_report",
    "mean_ci",
    "play_board",
    "ratings",
    "read_results",
    "report",
    "run_pair",
    "run_tournament",
    "t_quantile",
    "win_rate_ci",
]
