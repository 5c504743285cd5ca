"""Adding a language is adding a file: with a pseudo-language catalogue beside French and English, every message
of played matches (calls, contracts, announcements, cards, refusals of illegal actions and impossible facts, the
end-of-deal summary term by term, the winner) is said in it, and no word comes from the code."""

from __future__ import annotations

import json
import random
import re
import shutil
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from atout import AtoutError, Contract, Deal, DealFacts, IllegalAction, Match, Ruleset
from atout.actions import PLAYS, Declare
from atout.cli.text import call_words, contract_text, deal_summary, side_name
from atout.events import Called, CardPlayed, Declared, Heard, Resolved, Settled, TrickWon
from atout.i18n import LOCALES, languages, messages, tr
from atout.notation import seat_name

PSEUDO = "xx"
#: Each letter of the pseudo-language is this sign: a letter in what it says came from elsewhere.
SIGN = "¤"


def pseudo(text: str) -> str:
    """The text with every letter outside ``{placeholders}`` turned into the sign."""
    out, depth = [], 0
    for ch in text:
        depth += ch == "{"
        out.append(SIGN if depth == 0 and ch.isalpha() else ch)
        depth -= ch == "}"
    return "".join(out)


def toml_lines(table: dict[str, Any], prefix: tuple[str, ...] = ()) -> Iterator[str]:
    for key, value in table.items():
        path = (*prefix, key)
        if isinstance(value, dict):
            yield from toml_lines(value, path)
        else:
            yield ".".join(json.dumps(part) for part in path) + " = " + json.dumps(pseudo(str(value)))


@pytest.fixture
def pseudo_language(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A catalogue folder holding French, English and the pseudo-language made from English."""
    for path in LOCALES.glob("*.toml"):
        shutil.copy(path, tmp_path)
    english = tomllib.loads((LOCALES / "en.toml").read_text(encoding="utf-8"))
    (tmp_path / f"{PSEUDO}.toml").write_text("\n".join(toml_lines(english)) + "\n", encoding="utf-8")
    monkeypatch.setattr("atout.i18n.LOCALES", tmp_path)
    languages.cache_clear()
    messages.cache_clear()
    yield
    monkeypatch.undo()
    languages.cache_clear()
    messages.cache_clear()


def said(deal: Deal, events: tuple[Any, ...]) -> list[str]:
    """What an interface says of the events, in the pseudo-language."""
    rules, out = deal.rules, []
    for event in events:
        seen = event.seen_by(0)
        if isinstance(seen, Called):
            out += [seen.call.label(PSEUDO), call_words(rules, seen.call, PSEUDO)]
        elif isinstance(seen, Settled):
            out += [seen.contract.label(PSEUDO), contract_text(rules, seen.contract, PSEUDO)]
        elif isinstance(seen, Declared):
            out.append(Declare(seen.announcements).label(PSEUDO))
        elif isinstance(seen, Heard):
            out += [tr(f"common.announcement.{d.kind}", PSEUDO) for d in seen.declarations]
        elif isinstance(seen, CardPlayed):
            out += [seen.card.label(PSEUDO), seen.card.name_in(PSEUDO)]
        elif isinstance(seen, TrickWon):
            out.append(seat_name(rules, seen.winner, PSEUDO))
        elif isinstance(seen, Resolved):
            out += [a.label(PSEUDO) for shown in seen.shown.values() for a in shown]
    return out


def refusal(deal: Deal, rng: random.Random) -> list[str]:
    """Why an action the rules forbid now is refused (a card or a call), in the pseudo-language."""
    legal = deal.legal_actions()
    tried = [a for a in (*PLAYS, *Deal.new(deal.rules).legal_actions()) if a not in legal]
    if not tried:
        return []
    try:
        deal.copy().apply(rng.choice(tried))
    except IllegalAction as err:
        return [err.message(PSEUDO)]
    raise AssertionError("an illegal action was accepted")


def play_match(rules: Ruleset, seed: int) -> list[str]:
    rng = random.Random(seed)
    match = Match(rules, seed=seed)
    out: list[str] = []
    while not match.finished:
        deal = match.new_deal()
        while deal.turn is not None:
            out += refusal(deal, rng)
            out += said(deal, deal.apply(rng.choice(deal.legal_actions())))
        out.append(deal_summary(deal, PSEUDO))
        match.record(deal)
    assert match.winner is not None
    out.append(tr("common.you_win", PSEUDO, name=side_name(rules, match.winner, PSEUDO)))
    return out


def impossible_facts(rules: Ruleset) -> list[str]:
    """Why facts no deal can give are refused, in the pseudo-language."""
    takers = rules.sides[0]
    tries = [
        DealFacts(Contract(80, 1, 0), {takers: 200}),
        DealFacts(Contract(80, 4, 0), {takers: 100}, belote={takers: 20}),
        DealFacts(Contract(80, 1, 0, level=3), {takers: 100}),
        DealFacts(Contract(85, 1, 0), {takers: 100}),
    ]
    out = []
    for facts in tries:
        with pytest.raises(AtoutError) as err:
            facts.check(rules)
        out.append(err.value.message(PSEUDO))
    return out


@pytest.mark.usefixtures("pseudo_language")
@pytest.mark.parametrize("preset", ["coinche", "contree", "classique", "bazar", "deux", "trois"])
def test_a_played_match_speaks_only_the_pseudo_language(preset: str) -> None:
    assert PSEUDO in languages()
    rules = Ruleset.preset(preset, target=150 if preset == "deux" else 400)
    texts = play_match(rules, seed=3) + impossible_facts(rules)
    assert len(texts) > 100
    leaks = sorted({word for text in texts for word in re.findall(r"[^\W\d_]+", text.replace(SIGN, " "))})
    assert leaks == [], f"words said outside the catalogue: {leaks}"
