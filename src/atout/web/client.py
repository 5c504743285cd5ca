"""The protocol from a client's side, for programs that speak it (the load benchmark, the tests): the view a
connection's messages build, kept as the page keeps it (``static/js/core/view.js`` is the page's own).

>>> view = ClientView()
>>> view.receive({"type": "snapshot", "epoch": "e1", "version": 3, "view": {"version": 3, "waiting": [], "deal": None}})
>>> view.receive({"type": "update", "epoch": "e1", "version": 4, "events": [], "changes": {"waiting": [2]}})
>>> view.version, view.view["waiting"], view.view["version"]
(4, [2], 4)
"""

from __future__ import annotations

from typing import Any


class ClientView:
    """The epoch, version and view of one connection, as its messages left them."""

    def __init__(self) -> None:
        self.epoch: str | None = None
        self.version: int | None = None
        self.view: dict[str, Any] = {}

    def receive(self, message: dict[str, Any]) -> None:
        """Take one message of the server into account (those without a view change nothing)."""
        kind = message["type"]
        if kind in ("snapshot", "resume"):
            self.view = message["view"]
        elif kind == "update":
            self.view = apply_changes(self.view, message["changes"])
        else:
            return
        self.epoch, self.version = message["epoch"], message["version"]
        self.view["version"] = message["version"]


def apply_changes(view: dict[str, Any], changes: dict[str, Any]) -> dict[str, Any]:
    """``view`` with ``changes`` made: each field given replaces the old one, the deal's field by field."""
    out = {**view, **changes}
    deal = changes.get("deal")
    if deal is not None and view.get("deal") is not None:
        out["deal"] = {**view["deal"], **deal}
    return out


def actions(view: dict[str, Any]) -> list[str]:
    """Every action the view's recipient may send now: calls, announcements, cards (with belote or without)."""
    deal = view.get("deal")
    if not deal:
        return []
    found = [choice["action"] for choice in deal["declare"]]
    bidding = deal["bidding"]
    if bidding:
        found += [bid for value in bidding["values"] for bid in value["bids"] if bid]
        found += [call["action"] for call in bidding["calls"]]
    for play in deal["plays"]:
        found.append(play["action"])
        if play["belote"]:
            found.append(play["belote"]["action"])
    return found
