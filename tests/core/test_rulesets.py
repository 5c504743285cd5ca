"""Rulesets: presets, options, validation, fingerprints and serialisation."""

from __future__ import annotations

import json

import pytest

from atout import RulesError, Ruleset
from atout.rules import FORMER_PRESETS, OPTION_NAMES, PRESETS

#: The error messages these tests read are the English ones.
pytestmark = pytest.mark.usefixtures("english")


def test_presets_exist_and_validate() -> None:
    assert set(PRESETS) == {"coinche", "contree", "contree-colver", "classique", "bazar", "deux", "trois"}
    for name in PRESETS:
        rules = Ruleset.preset(name)
        assert rules.name == name
    assert Ruleset() == Ruleset.preset("coinche").replace(name="coinche")
    assert Ruleset.preset("Contrée") == Ruleset.preset("contree")


def test_fingerprint_is_stable_short_and_ignores_the_name() -> None:
    rules = Ruleset.preset("coinche")
    assert len(rules.fingerprint) == 8 and int(rules.fingerprint, 16) >= 0
    assert rules.replace(name="mon club").fingerprint == rules.fingerprint
    assert rules.replace(target=2000).fingerprint != rules.fingerprint
    assert len({Ruleset.preset(n).fingerprint for n in PRESETS}) == len(PRESETS)


@pytest.mark.parametrize("name", sorted(PRESETS))
def test_round_trips(name: str) -> None:
    rules = Ruleset.preset(name, target=777) if name != "deux" else Ruleset.preset(name)
    assert Ruleset.from_dict(rules.to_dict()) == rules
    assert Ruleset.from_json(rules.to_json()) == rules
    assert Ruleset.from_toml(rules.to_toml()) == rules


def test_from_dict_starts_from_the_named_preset() -> None:
    rules = Ruleset.from_dict({"preset": "classique", "target": 500})
    assert rules.auction == "retourne" and rules.target == 500
    assert Ruleset.from_toml('[rules]\npreset = "contree"\nscoring = "faits"\n').scoring == "faits"


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"players": 5}, "players = 5 is not allowed"),
        ({"min_bid": 10}, "out of range"),
        ({"rounding": "up"}, "rounding = 'up' is not allowed"),
        ({"sans_atout": "yes"}, "true or false"),
        ({"target": "1000"}, "whole number"),
        ({"packets": "3-3-3"}, "must add up to 8"),
        ({"packets": "a-b"}, "not a pattern"),
        ({"max_bid": 70}, "below min_bid"),
        ({"players": 3}, "auction 'bids' needs four players"),
        ({"surcoinche": True, "coinche": False}, "surcoinche needs coinche"),
        ({"rounding": "dizaines"}, "dizaines"),
        ({"target": 0, "deals": 0}, "target or a number of deals"),
        ({"hand_size": 9}, "do not fit"),
        ({"undertrump_partner": True, "overtrump_partner": False}, "undertrump_partner needs overtrump_partner"),
        ({"capot_bonus": "takers"}, "contrée scorings only"),
        ({"capot_bonus": "everyone"}, "capot_bonus = 'everyone' is not allowed"),
    ],
)
def test_bad_options_are_rejected_naming_the_option(options: dict[str, object], message: str) -> None:
    with pytest.raises(RulesError, match=message):
        Ruleset.preset("coinche").replace(**options)


def test_unknown_preset_and_option() -> None:
    with pytest.raises(RulesError, match="unknown preset 'belote'"):
        Ruleset.preset("belote")
    with pytest.raises(RulesError, match="unknown option"):
        Ruleset.preset("coinche", pisse=True)


def test_sa_ta_are_not_for_the_retourne() -> None:
    with pytest.raises(RulesError, match="sans atout"):
        Ruleset.preset("classique", sans_atout=True)


def test_malformed_serialisations() -> None:
    with pytest.raises(RulesError, match="JSON"):
        Ruleset.from_json("{")
    with pytest.raises(RulesError, match="TOML"):
        Ruleset.from_toml("target = ")
    with pytest.raises(RulesError, match="table"):
        Ruleset.from_dict([1])  # type: ignore[arg-type]


def test_describe_lists_every_option() -> None:
    text = Ruleset.describe()
    assert all(f"{name} = " in text for name in OPTION_NAMES)


def test_derived_facts() -> None:
    coinche, trois = Ruleset.preset("coinche"), Ruleset.preset("trois")
    assert coinche.partnerships and coinche.sides == (0, 1) and coinche.side_of(2) == 0
    assert not trois.partnerships and trois.sides == (0, 1, 2) and trois.side_of(2) == 2
    assert coinche.strains() == (0, 1, 2, 3)
    assert Ruleset.preset("contree").strains() == (0, 1, 2, 3, 4, 5)
    assert coinche.packet_patterns() == ((3, 2, 3),)
    assert coinche.replace(packets="any").packet_patterns() == ((3, 2, 3), (3, 3, 2), (2, 3, 3))
    assert Ruleset.preset("classique").first_stage == 5 and Ruleset.preset("deux").first_stage == 6
    assert coinche.round_marks(85) == 90 and coinche.round_marks(84) == 80
    assert json.loads(coinche.to_json())["name"] == "coinche"


def test_former_presets_give_the_fingerprints_of_the_presets_before_their_correction() -> None:
    """The presets as they were before coinche lost its 160 ceiling, contrée its overtrumping of a partner then the
    defence's belote on a contract made, classique its litige then its shuffle after a deal nobody took: their
    fingerprints, newest first, as records written then carry them."""
    before = {
        "coinche": ["5adad953"],
        "contree": ["19eb78e1", "8db8b40e"],
        "classique": ["80e122cd", "6ae5ea83"],
        "deux": ["9dfe9f56", "64d17639"],
        "trois": ["2eedbe82"],
    }
    for name, fingerprints in before.items():
        assert [Ruleset.preset(name, **former).fingerprint for former in FORMER_PRESETS[name]] == fingerprints


def test_options_added_since_keep_every_earlier_fingerprint() -> None:
    """The presets' fingerprints as records and results files written before undertrump_partner,
    defence_keeps_belote and capot_bonus existed carry them: an added option at its default
    leaves the fingerprint alone, and counts once changed."""
    before = {
        "coinche": "3872eea2",
        "contree": "19eb78e1",
        "classique": "80e122cd",
        "bazar": "d98e16d6",
        "deux": "9dfe9f56",
        "trois": "c0b2bd4c",
    }
    corrected_since = {"contree": {"defence_keeps_belote": False}, "classique": {"redeal": "shuffle"}}
    corrected_since["deux"] = {"redeal": "shuffle"}
    then = {name: Ruleset.preset(name, **corrected_since.get(name, {})).fingerprint for name in before}
    assert then == before
    contree = Ruleset.preset("contree", defence_keeps_belote=False)
    for option, value in (("undertrump_partner", True), ("defence_keeps_belote", True), ("capot_bonus", "takers")):
        changed = contree.replace(overtrump_partner=True, **{option: value})
        assert changed.fingerprint != contree.replace(overtrump_partner=True).fingerprint
        assert Ruleset.from_json(changed.to_json()) == changed


def test_contree_colver_is_contree_with_colver_s_options() -> None:
    """The preset differs from contrée exactly where colver's engine does (docs/rules.md)."""
    contree, colver = Ruleset.preset("contree"), Ruleset.preset("contree-colver")
    changed = {name: getattr(colver, name) for name in OPTION_NAMES if getattr(colver, name) != getattr(contree, name)}
    assert changed == {
        "overtrump_partner": True,
        "undertrump_partner": True,
        "sans_atout": False,
        "tout_atout": False,
        "chute_points": 162,
        "surcoinche_multiplier": 3,
        "capot_bonus": "takers",
        "capot_points": 252,
        "capot_prime": 0,
        "rounding": "none",
    }
    assert colver.strains() == (0, 1, 2, 3) and colver.highest_bid == 160
