"""Hypothesis strategies for rulesets and decks, so that a failing case shrinks to a small one.

Rulesets are drawn from the options' own metadata (``Ruleset``'s fields: booleans, choices and
ranges): a preset, then a few of its options changed. The shape of the table (players, deck, hand
size, auction) stays the preset's, as most other shapes are not belote at all.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import strategies as st

from atout import Ruleset
from atout.dealing import full_deck
from atout.errors import RulesError
from atout.rules import PRESETS

#: Options that give the table its shape; a preset fixes them.
SHAPE = frozenset({"name", "players", "short_deck", "hand_size", "auction", "packets"})


def _values(field: dataclasses.Field[Any]) -> st.SearchStrategy[Any] | None:
    """The values an option may take, from its metadata (None: free text, not drawn)."""
    meta = field.metadata
    if isinstance(field.default, bool):
        return st.booleans()
    if meta.get("choices"):
        return st.sampled_from(meta["choices"])
    if meta.get("low") is not None:
        return st.integers(meta["low"], meta["high"])
    return None


OPTIONS = {
    f.name: values for f in dataclasses.fields(Ruleset) if f.name not in SHAPE and (values := _values(f)) is not None
}


@st.composite
def rulesets(draw: st.DrawFn, presets: tuple[str, ...] = tuple(sorted(PRESETS))) -> Ruleset:
    """A valid ruleset: a preset with up to five options changed (shrinks towards the preset itself)."""
    rules = Ruleset.preset(draw(st.sampled_from(presets)))
    for name in draw(st.lists(st.sampled_from(sorted(OPTIONS)), max_size=5, unique=True)):
        value = draw(OPTIONS[name])
        try:
            rules = rules.replace(**{name: value})
        except RulesError:
            continue  # this change does not fit the others: leave it out
    return rules


def decks(rules: Ruleset) -> st.SearchStrategy[list[int]]:
    """The ruleset's deck in any order (shrinks towards the unshuffled deck)."""
    return st.permutations(full_deck(rules))
