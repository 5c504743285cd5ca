"""Where atout keeps a user's files: saved matches, score books, the web server's database.

One function for every command, so that ``atout play``, ``atout score`` and ``atout serve`` agree on every
system. It is the folder platformdirs gives (``~/.local/share/atout`` on Linux, ``~/Library/Application
Support/atout`` on macOS, ``%LOCALAPPDATA%\\atout`` on Windows); platformdirs comes with the terminal game and
the web table (``atout[play]``, ``atout[web]``). A bare install without it (the rules library and its light
commands) uses the folder Linux uses, ``$XDG_DATA_HOME/atout``, else ``~/.local/share/atout``: on macOS and
Windows, install platformdirs so that ``atout score`` keeps its books where the other commands look.
"""

from __future__ import annotations

import os
from pathlib import Path


def data_dir() -> Path:
    """atout's folder in the user's data directory (it may not exist yet)."""
    try:
        from platformdirs import user_data_path
    except ImportError:  # a bare install: the XDG folder
        base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
        return Path(base) / "atout"
    return user_data_path("atout", appauthor=False)


__all__ = ["data_dir"]
