"""Leave the research environments' modules and docs out of the run when the extra atout[rl] is absent."""

from importlib.util import find_spec

collect_ignore_glob: list[str] = []
if any(find_spec(name) is None for name in ("pettingzoo", "gymnasium", "pyspiel")):
    collect_ignore_glob = [
        "src/atout/envs/aec.py",
        "src/atout/envs/gym_env.py",
        "src/atout/envs/spiel.py",
        "docs/envs.md",
    ]
