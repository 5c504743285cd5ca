"""French typography on the web: a non-breaking space before « : ; ! ? » and inside « », in the message
catalogue and on the rules page, so that a line never breaks between a word and its mark (issue 35)."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Iterator
from importlib import resources
from typing import Any

from atout.web.guide import french_spacing, rules_html

#: A breakable space (or a line's end) where French wants a non-breaking one.
BREAKABLE = re.compile(r"[ \n\t][:;!?»]|«[ \n\t]")


def strings(table: dict[str, Any], prefix: str = "") -> Iterator[tuple[str, str]]:
    for key, value in table.items():
        if isinstance(value, dict):
            yield from strings(value, f"{prefix}{key}.")
        elif isinstance(value, str):
            yield prefix + key, value


def test_the_french_catalogue_has_no_breakable_space_before_its_marks() -> None:
    catalogue = tomllib.loads(resources.files("atout.locales").joinpath("fr.toml").read_text(encoding="utf-8"))
    bad = [(key, value) for key, value in strings(catalogue) if BREAKABLE.search(value)]
    assert bad == []


def test_the_french_rules_page_never_breaks_between_a_mark_and_its_word() -> None:
    text = re.sub(r"<code>.*?</code>|<pre>.*?</pre>|<[^>]*>", "", rules_html("fr"), flags=re.DOTALL)
    assert "«" in text and ":" in text
    assert BREAKABLE.findall(text) == []


def test_french_spacing_leaves_tags_and_code_alone() -> None:
    html = '<p>Le « capot » : <code>a : b</code> <a href="x">oui</a> ?</p>'
    assert french_spacing(html) == '<p>Le «\u00a0capot\u00a0»\u00a0: <code>a : b</code> <a href="x">oui</a>\u202f?</p>'
