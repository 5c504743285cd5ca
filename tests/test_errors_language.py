"""Errors from the catalogue speak the language current when they are shown: one error of each module
that raises them (the rules core's, the bots', the arena's)."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from unittest.mock import patch

import pytest

from atout.arena import report, run_pair, stats
from atout.auction import Contract
from atout.bots import load_spec, play_deal
from atout.bots.specs import parse_spec
from atout.deal import Deal
from atout.errors import AtoutError
from atout.i18n import language
from atout.match import Match
from atout.record import Record
from atout.rules import Ruleset
from atout.scoring import DealFacts
from atout.session import GameSession
from conformance import plain


def elo_in_two_steps(results: dict[tuple[str, str], tuple[float, int]]) -> dict[str, float]:
    """Elo ratings fitted in two steps at most (too few for an uneven result)."""
    with patch.object(stats, "ELO_MAX_ITERATIONS", 2):
        return stats.elo(results)


def refused(make: Callable[[], object]) -> AtoutError:
    with pytest.raises(AtoutError) as err:
        make()
    return err.value


@pytest.mark.parametrize(
    ("make", "fr", "en"),
    [
        (
            lambda: Ruleset.preset("coinche", players=3),
            "auction = « bids » se joue à quatre ; à deux ou à trois, prenez « retourne »",
            "auction 'bids' needs four players; use 'retourne' for two or three",
        ),
        (
            lambda: Ruleset.from_json('{"players": 4,}'),
            "règles illisibles (JSON, ligne 1, colonne 15) : ",
            "ruleset JSON is malformed (line 1, column 15): ",
        ),
        (
            lambda: load_spec({"name": "x", "noise": 2}),
            "description du robot « x » : noise doit être un nombre entre 0 et 1, pas 2",
            "bot spec 'x': noise must be a number between 0 and 1, not 2",
        ),
        (
            lambda: load_spec("/nonexistent/bot.toml"),
            "impossible de lire la description de robot /nonexistent/bot.toml : ce fichier n'existe pas",
            "cannot read bot spec /nonexistent/bot.toml: no such file",
        ),
        (
            lambda: load_spec({"name": "x", "engine": "colver", "peer_spec": {"play": 3}}),
            "peer_spec.play : la description colver est faite de tables de valeurs simples",
            "peer_spec.play: colver's spec holds tables of plain values",
        ),
        (
            lambda: play_deal(Deal.new(Ruleset.preset("coinche"), seed=1), []),
            "il faut 4 agents, un par place, pas 0",
            "4 agents are needed, not 0",
        ),
        (
            lambda: Match(Ruleset.preset("coinche")).undo(),
            "il n'y a pas de donne à annuler",
            "there is no deal to undo",
        ),
        (
            lambda: DealFacts.from_takers_points(Ruleset.preset("coinche"), Contract(80, 0, 1), 170),
            "les points des preneurs vont de 0 à 162, pas 170",
            "the takers' points must be between 0 and 162, not 170",
        ),
        (
            lambda: GameSession(Ruleset.preset("trois"), human=3),
            "human est une place de 0 à 2, pas 3",
            "human must be a seat 0..2, not 3",
        ),
        (
            lambda: run_pair(Ruleset.preset("coinche"), load_spec("club"), load_spec("random"), 0),
            "l'arène a besoin d'au moins une donne",
            "the arena needs at least one deal",
        ),
        (
            lambda: report([{"type": "board"}]),
            "le fichier de résultats a une donne avant l'en-tête de toute série",
            "the results file has a board before any run's header",
        ),
        (
            lambda: elo_in_two_steps({("a", "b"): (90.0, 100), ("b", "c"): (80.0, 100), ("a", "c"): (10.0, 100)}),
            "les classements Elo n'ont pas convergé en 2 itérations",
            "the Elo ratings did not converge in 2 iterations",
        ),
        # What json, tomllib and Python say (in English) never reaches the reader: referee, analyse, arena.
        (
            lambda: Record.from_json('{"a": }'),
            "JSON illisible : une valeur est attendue (colonne 7)",
            "malformed JSON: a value is expected (column 7)",
        ),
        (
            lambda: Record.from_json('{"format": "atout-record", "version": 1}'),
            "enregistrement illisible : le champ « rules » manque",
            "malformed record: the field 'rules' is missing",
        ),
        (
            lambda: Record.from_json("[" * 100_000),
            "JSON illisible : trop de niveaux imbriqués",
            "malformed JSON: too many nested levels",
        ),
        (
            lambda: parse_spec("[bot\nname = 1"),
            "description de robot illisible (TOML) : erreur ligne 1, colonne 5",
            "error at line 1, column 5",
        ),
        (
            lambda: parse_spec("name = "),
            "description de robot illisible (TOML) : erreur à la fin du texte",
            "error at the end of the text",
        ),
    ],
)
def test_errors_speak_the_current_language(make: Callable[[], object], fr: str, en: str) -> None:
    """An error made from the catalogue is put into words when shown, in the language then current."""
    err = refused(make)
    with language("fr"):
        french = str(err)
    with language("en"):
        english = str(err)
    assert fr in plain(french) and not re.search(r" [:!?;»]|« ", french)
    assert en in english and not re.search(r"[«»]|\s[:!?;]", english)


def test_a_save_with_a_wrong_tag_is_refused_in_the_current_language(tmp_path: Path) -> None:
    """``atout play --resume``: a tag Python cannot read is named, not explained in Python's English."""
    path = tmp_path / "partie.txt"
    GameSession(Ruleset.preset("coinche"), seed=1).save(path)
    text = re.sub(r'\[MatchSeed "[^"]*"\]', '[MatchSeed "x"]', path.read_text(encoding="utf-8"))
    err = refused(lambda: GameSession.from_text(text))
    assert "une des balises Bots, MatchSeed ou Hint a une valeur invalide" in plain(err.message("fr"))
    assert "one of the tags Bots, MatchSeed or Hint has an invalid value" in err.message("en")
    assert "invalid literal" not in err.message("fr")
