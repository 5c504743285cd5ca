"""The tests' shared helpers (conformance.py, strategies.py, solver_reference.py) live in this folder,
which pytest puts on the import path for the tests of its subfolders too."""

import os

import pytest


@pytest.fixture(scope="session")
def ray_installed() -> None:
    """Ray, for the tests marked ``ray``: skipped where it is not installed, except where
    ``ATOUT_REQUIRE_RAY`` is set (CI's Ray step), where a missing Ray fails."""
    if not os.environ.get("ATOUT_REQUIRE_RAY"):
        pytest.importorskip("ray")
