"""The message catalogue: every message in both languages, with the same placeholders, each
language with its own typography."""

from __future__ import annotations

import re
import string
from pathlib import Path

import pytest

import atout
from atout.i18n import LANGUAGES, language, messages, normalize, section, tr


def placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_both_languages_have_the_same_keys_and_placeholders() -> None:
    fr, en = messages("fr"), messages("en")
    assert fr.keys() == en.keys()
    assert len(fr) > 100
    different = [k for k in fr if placeholders(fr[k]) != placeholders(en[k])]
    assert different == []


def test_french_typography_in_french_and_none_in_english() -> None:
    for key, text in messages("fr").items():
        assert not re.search(r" [:!?;»]", text), f"{key}: a plain space before a French punctuation mark"
        assert "« " not in text, f"{key}: a plain space after «"
    for key, text in messages("en").items():
        assert not re.search(r"[«»]|\s[:!?;]", text), f"{key}: French typography in English"


def test_language_is_an_argument_or_the_current_one() -> None:
    assert tr("common.seat.W") == "Ouest"
    with language("en"):
        assert tr("common.seat.W") == "West"
        assert tr("common.seat.W", "fr") == "Ouest"
    assert tr("common.seat.W") == "Ouest"
    assert normalize("en-GB") == "en" and normalize("de") == "fr"
    assert set(section("common.seat.", "en").values()) == {"North", "East", "South", "West"}
    assert LANGUAGES == ("fr", "en")


def test_a_missing_key_or_value_is_an_error() -> None:
    with pytest.raises(KeyError):
        tr("common.nothing")
    with pytest.raises(KeyError):
        tr("common.you_win", "fr")


def test_every_message_key_in_the_source_is_in_the_catalogue() -> None:
    """A key written out in atout's code (``Message("rules.deck")``, ``tr("cli.error")``) has its messages
    (the catalogue's own module aside: its examples ask for a missing key)."""
    source = Path(atout.__file__).parent
    used = {
        (path.relative_to(source).as_posix(), key)
        for path in source.rglob("*.py")
        if path.name != "i18n.py"
        for key in re.findall(r"(?<![.\w])(?:Message|tr|plural)\(\s*\"([\w.-]+)\"", path.read_text(encoding="utf-8"))
    }
    assert len(used) > 100
    known = messages("fr").keys()
    plurals = {key.rsplit(".", 1)[0] for key in known}
    assert sorted((path, key) for path, key in used if key not in known and key not in plurals) == []
