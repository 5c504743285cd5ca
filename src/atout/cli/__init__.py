"""The ``atout`` command: one entry point for the demo, the referee and the tools."""

from atout.cli.main import main

__all__ = ["main"]
