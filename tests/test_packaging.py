"""The packaging says what the project claims: every package ships, CI runs the README's test command."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_of_the_source_tree_ships_in_the_wheel() -> None:
    packages = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"])
    found = {
        ".".join(init.parent.relative_to(ROOT / "src").parts)
        for init in (ROOT / "src" / "atout").rglob("__init__.py")
        if "migrations" not in init.parts
    }
    assert found <= packages, f"not shipped: {sorted(found - packages)}"


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    command = re.search(r'pip install -c constraints.txt -e "\.\[test\]" && (python -m pytest[^\n`]*)', readme)
    assert command is not None, "the README's second command"
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert command.group(1).strip() in ci


def test_every_dependency_has_a_lower_and_an_upper_bound() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements = list(project["dependencies"])
    for items in project["optional-dependencies"].values():
        requirements += [r for r in items if not r.startswith("atout[")]
    for requirement in requirements:
        assert ">=" in requirement and "<" in requirement.replace("<=", ""), requirement


@pytest.mark.parametrize(
    "argv",
    [None, ["--help"], ["demo", "--seed", "3"], ["referee", "-"], ["score", "list", "--db", ":memory:"]],
    ids=["import", "help", "demo", "referee", "score"],
)
def test_light_commands_import_neither_numba_nor_the_solver(argv: list[str] | None) -> None:
    """``import atout``, ``--help``, ``demo``, ``referee`` and ``score`` start in a fraction of a second: they
    import neither numba, nor numpy, nor the solver, nor the terminal's Textual."""
    heavy = ("numba", "numpy", "atout.solver", "atout.fast", "textual")
    code = "import atout\n"
    if argv is not None:
        code += f"from atout.cli.main import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
    code += f"import sys\nprint(sorted(m for m in {heavy!r} if m in sys.modules))\n"
    record = subprocess.run([sys.executable, "-m", "atout", "demo", "--seed", "3"], capture_output=True, text=True)
    run = subprocess.run([sys.executable, "-c", code], input=record.stdout, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[]"
