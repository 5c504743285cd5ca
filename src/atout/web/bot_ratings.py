"""The bots' ratings from the arena: each shipped level's Elo, by variant, as ``docs/strength.md`` gives them.

They come from duplicate matches between the bots alone (every board dealt once and played in both seatings,
so that the cards' luck cancels), fitted by maximum likelihood (Bradley–Terry) on the boards won, all the levels
of a variant together, their mean 1500. They are not ratings from games against people, and are shown beside
the people's ladder, never on it: the two scales were not measured against each other.

>>> BOT_RATINGS["bazar"]
{'expert': 2043, 'club': 1880, 'debutant': 1729, 'random': 348}
>>> sorted(BOT_RATINGS) == sorted(("deux", "trois", "classique", "contree", "bazar", "coinche"))
True
"""

from __future__ import annotations

from typing import Final

#: Elo of each level (``expert``, ``club``, ``debutant``, ``random``) by variant (the preset's name).
BOT_RATINGS: Final[dict[str, dict[str, int]]] = {
    "deux": {"expert": 1677, "club": 1556, "debutant": 1499, "random": 1269},
    "trois": {"expert": 1732, "club": 1582, "debutant": 1545, "random": 1141},
    "classique": {"expert": 1710, "club": 1609, "debutant": 1503, "random": 1179},
    "contree": {"expert": 1895, "club": 1754, "debutant": 1619, "random": 731},
    "bazar": {"expert": 2043, "club": 1880, "debutant": 1729, "random": 348},
    "coinche": {"expert": 1959, "club": 1767, "debutant": 1619, "random": 654},
}

#: Where the figures come from: the arena's runs, when, and the commands that reproduce them.
SOURCE: Final = {
    "document": "docs/strength.md, « Elo of every level, by variant »",
    "measured": "2026-11-27, Xeon machine (2 logical cores, CPython 3.11.7), one worker a run",
    "boards": "the three cheap levels: every pair over 2000 boards; the expert against the club player: "
    "2000 boards (deux, trois, classique), 800 (contree, bazar) or 900 (coinche)",
    "commands": (
        "atout arena random debutant club --preset deux --deals 2000 --seed 21 --out cheap-deux.jsonl",
        "atout arena expert club --preset deux --deals 2000 --seed 21 --out ec-deux.jsonl",
        "atout arena --report cheap-deux.jsonl ec-deux.jsonl",
    ),
}

#: The levels in the order the ladder shows them.
LEVELS: Final = ("expert", "club", "debutant", "random")
