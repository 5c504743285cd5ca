"""The wheel ships every file the web table serves as it is (no build step): the styles, the page's script
modules and their pure core, the protocol's JSON Schema, the templates, the migrations."""

from __future__ import annotations

import tomllib
from fnmatch import fnmatch
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
WEB = ROOT / "src" / "atout" / "web"


def test_every_file_the_web_table_serves_is_in_the_wheels_package_data() -> None:
    globs = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["atout.web"]
    served = [
        path.relative_to(WEB).as_posix()
        for folder in ("static", "templates", "migrations")
        for path in (WEB / folder).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    ]
    assert any(name.startswith("static/js/core/") for name in served)
    assert [name for name in served if not any(fnmatch(name, glob) for glob in globs)] == []
