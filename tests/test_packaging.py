"""The packaging says what the project claims: every package ships, CI runs the README's test command."""

from __future__ import annotations

import ast
import importlib.metadata
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
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
    [
        None,
        ["--help"],
        ["demo", "--seed", "3"],
        ["referee", "-"],
        ["score", "list", "--db", ":memory:"],
        ["score", "new", "--db", ":memory:"],
    ],
    ids=["import", "help", "demo", "referee", "score-list", "score-new"],
)
def test_light_commands_import_nothing_outside_the_standard_library(argv: list[str] | None) -> None:
    """``import atout``, ``--help``, ``demo``, ``referee`` and ``score`` are what a plain install (no dependency)
    runs: they import no third-party package at all (so neither numba, nor SciPy, nor Textual, nor FastAPI), nor
    atout's modules that do."""
    heavy = ("atout.solver", "atout.fast", "atout.arena", "atout.web", "atout.envs", "atout.cli.table", "atout.bots")
    code = "import sys\nbefore = set(sys.modules)\nimport atout\n"
    if argv is not None:
        code += f"from atout.cli.main import main\ntry:\n    main({argv!r})\nexcept SystemExit:\n    pass\n"
    code += (
        "new = {m.partition('.')[0] for m in set(sys.modules) - before} - set(sys.stdlib_module_names) - {'atout'}\n"
        f"print(sorted(new), sorted(m for m in sys.modules if m.startswith({heavy!r})))\n"
    )
    record = subprocess.run(
        [sys.executable, "-m", "atout", "demo", "--seed", "3"], capture_output=True, text=True, timeout=120
    )
    stdin = record.stdout if argv and argv[0] == "referee" else ""
    run = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip().splitlines()[-1] == "[] []"


def _name(requirement: str) -> str:
    """A requirement's distribution name, normalized (PEP 503): ``uvicorn[standard]>=0.29,<1`` is ``uvicorn``."""
    found = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert found is not None, requirement
    return re.sub(r"[-_.]+", "-", found.group()).lower()


def _declared(extra: str) -> set[str]:
    """The distributions an extra installs, those of the extras it names (``atout[bots]``) included."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    names: set[str] = set()
    for requirement in extras[extra]:
        if requirement.startswith("atout["):
            for named in requirement[len("atout[") : requirement.index("]")].split(","):
                names |= _declared(named.strip())
        else:
            names.add(_name(requirement))
    return names


def _distributions(module: str) -> set[str]:
    """The installed distributions that hold the top-level ``module``, normalized."""
    return {_name(name) for name in importlib.metadata.packages_distributions().get(module, [])}


def test_a_plain_install_has_no_dependency_and_each_command_names_the_extra_that_declares_what_it_needs() -> None:
    from atout.cli.main import NEEDS

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["dependencies"] == []
    for command, (extra, modules) in NEEDS.items():
        assert extra in project["optional-dependencies"], command
        for module in modules:
            assert _distributions(module) & _declared(extra), f"atout[{extra}] does not install {module} ({command})"
    assert {"scipy"} & _declared("play") == set() and "scipy" in _declared("arena")
    assert "asyncpg" not in _declared("web") and "asyncpg" in _declared("postgres")


def _imported(folder: Path) -> dict[str, str]:
    """The third-party top-level modules the code under ``folder`` imports (``pytest.importorskip`` included), each
    with a file that does."""
    local = {path.stem for path in folder.rglob("*.py")} | {path.parent.name for path in folder.rglob("__init__.py")}
    found: dict[str, str] = {}
    for path in sorted(folder.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names = [node.module]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "importorskip"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                names = [str(node.args[0].value)]
            for name in names:
                top = name.partition(".")[0]
                if top not in sys.stdlib_module_names and top not in local and top != "atout":
                    found.setdefault(top, str(path.relative_to(ROOT)))
    return found


def test_every_package_a_test_imports_is_declared_by_the_test_extra() -> None:
    """``pip install -e ".[test]"`` installs everything the tests import (Ray: CI's Ray step adds the ``ray`` extra)."""
    imported = _imported(ROOT / "tests")
    assert {"websockets", "numpy", "hypothesis", "pytest"} <= imported.keys()
    undeclared = {
        module: path
        for module, path in imported.items()
        if module != "ray" and not _distributions(module) & _declared("test")
    }
    assert undeclared == {}
    assert "ray" in _declared("ray")


def test_every_package_atout_imports_is_declared_by_an_extra() -> None:
    """What atout's own modules import is declared, not merely brought by another package (Ray by its extra)."""
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    declared = set().union(*(_declared(extra) for extra in extras))
    imported = _imported(ROOT / "src" / "atout")
    assert {"numba", "scipy", "fastapi", "textual"} <= imported.keys()
    undeclared = {
        module: path for module, path in imported.items() if module != "ray" and not _distributions(module) & declared
    }
    assert undeclared == {}


def test_the_readme_installs_what_atout_play_needs_and_ci_checks_the_light_install() -> None:
    """The README's first command installs the extra ``atout play`` needs; CI checks, in an environment without any
    dependency, that the light commands run and that each other command names its extra."""
    from atout.cli.main import NEEDS

    readme = (ROOT / "README.md").read_text()
    play = NEEDS["play"][0]
    assert f'pip install -e ".[{play}]" && atout play' in readme.splitlines()[3]
    ci = (ROOT / ".ci" / "run").read_text()
    for line in ("$core/atout demo --seed 1 | $core/atout referee -", "$core/atout score list --db"):
        assert line in ci
    for command in ("play", "analyse", "arena", "serve"):
        assert re.search(rf"^refuses {NEEDS[command][0]} \"atout {command} .*\" {command}\b", ci, re.M), command


def _docs_the_web_pages_read() -> set[str]:
    """The docs the web table's rules pages read (``atout.web.guide``): the players' guide in each language of the
    catalogue, and the reference text."""
    languages = {path.stem for path in (ROOT / "src" / "atout" / "locales").glob("*.toml")}
    return {"rules.md", *(f"players-rules.{lang}.md" for lang in languages)}


def test_the_wheel_ships_only_the_docs_the_web_pages_read(tmp_path: Path) -> None:
    """The wheel's ``atout.docs`` holds exactly the pages the web table reads: not the other docs, not docs/history/.

    The wheel is built from a copy of the sources (``pip wheel --no-deps``, a few seconds; pip fetches the build
    backend from the package index or its cache, and the test is skipped when it cannot)."""
    expected = _docs_the_web_pages_read()
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    assert set(config["package-data"]["atout.docs"]) == expected
    # Only package-data ships: a stale egg-info's file list (left by an editable install) would add every doc.
    assert config["include-package-data"] is False
    assert all((ROOT / "docs" / name).is_file() for name in expected)

    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy2(ROOT / name, source / name)
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info", "*.pyc")
    for folder in ("src", "docs"):
        shutil.copytree(ROOT / folder, source / folder, ignore=ignore)
    dist = tmp_path / "dist"
    build = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "--wheel-dir", str(dist), str(source)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    if build.returncode != 0 and "build dependencies" in build.stdout + build.stderr:
        pytest.skip(f"the build backend could not be installed (offline?): {build.stderr[-300:]}")
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = dist.glob("atout-*.whl")
    names = set(zipfile.ZipFile(wheel).namelist())
    assert {name.removeprefix("atout/docs/") for name in names if name.startswith("atout/docs/")} == expected
    assert not any("history" in name for name in names)
    # The package data listed for the other packages still ships.
    assert {"atout/locales/fr.toml", "atout/bots/levels/expert.toml", "atout/web/templates/base.html"} <= names
