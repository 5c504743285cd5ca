"""Content of the pages that are not the live table: the rules, and finished games for their replay."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from markdown_it import MarkdownIt

from atout.actions import Declare, Play
from atout.i18n import tr
from atout.notation import seat_letters
from atout.record import read_records
from atout.rules import PRESETS, Ruleset
from atout.web.store import GameRow
from atout.web.views import hand_order, score_lines


def doc_text(name: str) -> str:
    """A page of atout's docs: shipped in the wheel as ``atout.docs``, read from the checkout otherwise."""
    try:
        return resources.files("atout.docs").joinpath(name).read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        checkout = Path(__file__).resolve().parents[3] / "docs" / name
        return checkout.read_text(encoding="utf-8")


#: Where the players' guide links to the reference text, the link on the web.
REFERENCE_LINK = "/rules/reference"


@cache
def rules_html(lang: str) -> str:
    """The players' guide to the rules in ``lang`` (docs/players-rules.LANG.md) as HTML."""
    text = doc_text(f"players-rules.{lang}.md").replace("](rules.md)", f"]({REFERENCE_LINK})")
    return _markdown(text)


@cache
def reference_html() -> str:
    """docs/rules.md, the reference text of the rules (in English), as HTML."""
    return _markdown(doc_text("rules.md"))


def _markdown(text: str) -> str:
    """Markdown as HTML (tables on, raw HTML off: the text is the project's own)."""
    return str(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))


def player_labels(game: GameRow, lang: str, short: bool = False) -> list[str]:
    """Each seat's player as the history shows it: a person by name, a bot by its seat and level (by its
    seat alone if ``short``)."""
    letters = seat_letters(Ruleset.preset(game.preset)) if game.preset in PRESETS else ()
    labels = []
    for seat, player in enumerate(game.players):
        if isinstance(player, str):  # games kept before bots were told apart
            player = {"name": player, "bot": False}
        if player["bot"] and seat < len(letters):
            seat_name = tr(f"common.seat.{letters[seat]}", lang)
            level = tr(f"web.level.{player['name']}", lang)
            labels.append(seat_name if short else tr("web.table.bot_seat", lang, seat=seat_name, level=level))
        else:
            labels.append(str(player["name"]))
    return labels


def game_data(game: GameRow) -> dict[str, Any]:
    """A finished game for the replay page: each deal's hands, calls, tricks and score."""
    deals = []
    for record in read_records(game.records):
        deal = record.replay()
        result = deal.result
        score = result.score if result else None
        calls = [
            {"seat": s, "action": a.notation(), "fr": a.label("fr"), "en": a.label("en")}
            for s, a in deal.actions
            if not isinstance(a, (Play, Declare))
        ]
        n = deal.rules.players
        deals.append(
            {
                "dealer": deal.dealer,
                "hands": [hand_order(deal.initial_hands[s], deal.strain) for s in range(n)],
                "retourne": deal.retourne.code if deal.retourne is not None else None,
                "calls": calls,
                "contract": None
                if deal.contract is None
                else {"taker": deal.contract.taker, "fr": deal.contract.label("fr"), "en": deal.contract.label("en")},
                "tricks": [
                    {
                        "leader": t.leader,
                        "winner": t.winner,
                        "points": t.points,
                        "cards": [{"seat": t.seat_of(i, n), "card": c.code} for i, c in enumerate(t.cards)],
                    }
                    for t in deal.tricks
                ],
                "outcome": score.outcome if score else "passed",
                "marks": {str(k): v for k, v in (score.marks if score else {}).items()},
                "lines": {lang: score_lines(score, lang) if score else [] for lang in ("fr", "en")},
                "held": score.held if score else 0,
            }
        )
    return {
        "id": game.id,
        "code": game.code,
        "preset": game.preset,
        "players": {lang: player_labels(game, lang) for lang in ("fr", "en")},
        "short": {lang: player_labels(game, lang, short=True) for lang in ("fr", "en")},
        "scores": game.scores,
        "winner": game.winner,
        "deals": deals,
    }
