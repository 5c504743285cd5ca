"""Research environments for every variant: PettingZoo, Gymnasium and OpenSpiel.

The three share one integer action space (:mod:`atout.envs.actions`), one observation
encoding (:mod:`atout.envs.encoding`) and one driver (:mod:`atout.envs.table`); they
need the optional extra ``atout[rl]`` (pettingzoo, gymnasium, open_spiel):

* :func:`atout.envs.aec.env`: a PettingZoo AEC environment, one agent per seat;
* :class:`atout.envs.gym_env.AtoutEnv`: a Gymnasium environment for one seat, the
  others played by atout's bots;
* :mod:`atout.envs.spiel`: the OpenSpiel game ``python_atout``;
* :mod:`atout.envs.policy`: any policy as an atout agent, for the arena.

See docs/envs.md.
"""

from atout.envs.actions import ActionSpace
from atout.envs.encoding import Layout, encode, layout_of
from atout.envs.table import Table

__all__ = ["ActionSpace", "Layout", "Table", "encode", "layout_of"]
