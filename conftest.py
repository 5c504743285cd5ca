"""Leave the research environments' modules and docs out of the run when the extra atout[rl] is absent;
the ``english`` fixture for tests that read error messages in English."""

from collections.abc import Iterator
from importlib.util import find_spec

import pytest

from atout.i18n import language


@pytest.fixture
def english() -> Iterator[None]:
    """Errors speak English during the test (French is the default)."""
    with language("en"):
        yield


collect_ignore_glob: list[str] = []
if any(find_spec(name) is None for name in ("pettingzoo", "gymnasium", "pyspiel")):
    collect_ignore_glob = [
        "src/atout/envs/aec.py",
        "src/atout/envs/gym_env.py",
        "src/atout/envs/spiel.py",
        "docs/envs.md",
    ]
