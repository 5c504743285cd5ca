"""One data folder for every command: the terminal game, the score keeper and the web server agree on it."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from atout.cli.main import default_save_path
from atout.userdata import data_dir
from atout.web.settings import Settings


def test_the_terminal_the_keeper_and_the_server_use_one_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    folder = data_dir()
    assert default_save_path().parent == folder == Settings().data_dir
    if sys.platform.startswith("linux"):
        assert folder == tmp_path / "atout"


def test_a_bare_install_uses_the_xdg_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "platformdirs", None)  # as if it were not installed
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert data_dir() == tmp_path / "atout"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path))
    assert data_dir() == tmp_path / ".local" / "share" / "atout"
