"""The rules pages' content: the players' guide in the visitor's language and the reference text, as HTML."""

from __future__ import annotations

from functools import cache
from importlib import resources
from pathlib import Path

from markdown_it import MarkdownIt


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
