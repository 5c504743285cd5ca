"""Reading what the command line is given: files or standard input, checked before anything is parsed.

An input is refused, with a message naming it, when it cannot be opened, is larger than
:data:`MAX_INPUT` bytes (checked before reading, so a huge file is refused at once), or is
not UTF-8 text; ``-`` reads standard input.
"""

from __future__ import annotations

import sys
from pathlib import Path

from atout.errors import AtoutError, RecordError, os_reason
from atout.i18n import Message

#: The largest input atout reads (16 MiB: some ten thousand recorded deals).
MAX_INPUT = 16 * 1024 * 1024


class Unreadable(AtoutError):
    """An input that cannot be read as text: missing, too large, not UTF-8 (exit code 2)."""


class WrongInput(AtoutError):
    """An input read but wrong: a bot spec with bad fields, a file that is not a saved match (exit code 1)."""


def source_name(source: str) -> str | Message:
    """How messages name an input: its path, or « l'entrée standard »."""
    return Message("cli.stdin") if source == "-" else source


def read_text(source: str) -> str:
    """The text of the file ``source`` (``-``: standard input); raises :class:`Unreadable`."""
    name = source_name(source)
    try:
        if source == "-":
            data = sys.stdin.buffer.read(MAX_INPUT + 1)
        else:
            path = Path(source)
            if path.is_dir():
                raise Unreadable(Message("cli.input.directory", name=name))
            if path.stat().st_size > MAX_INPUT:
                raise Unreadable(Message("cli.input.too_large", name=name, limit=MAX_INPUT // (1024 * 1024)))
            with path.open("rb") as handle:
                data = handle.read(MAX_INPUT + 1)
    except OSError as err:
        raise Unreadable(Message("cli.input.cannot_read", name=name, reason=os_reason(err))) from None
    if len(data) > MAX_INPUT:
        raise Unreadable(Message("cli.input.too_large", name=name, limit=MAX_INPUT // (1024 * 1024)))
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise Unreadable(Message("cli.input.not_text", name=name)) from None


def located(source: str, err: RecordError) -> RecordError:
    """A record error naming the input and the line: ``partie.txt:17 : …``."""
    name = source_name(source)
    if err.line is None:
        where: str | Message = name
    elif source == "-":
        where = Message("cli.stdin_line", line=err.line)
    else:
        where = f"{name}:{err.line}"
    return RecordError(Message("cli.where", where=where, reason=err.detail()))
