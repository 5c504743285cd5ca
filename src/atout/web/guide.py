"""The rules pages' content: the players' guide in the visitor's language and the reference text, as HTML."""

from __future__ import annotations

import re
from functools import cache
from html import escape
from importlib import resources
from pathlib import Path

from markdown_it import MarkdownIt

from atout.i18n import section


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
    html = _anchored(_markdown(text), lang)
    return french_spacing(html) if lang == "fr" else html


#: The guide's section of a preset that has none of its own: its variant's.
_SECTION_OF = {"contree-colver": "contree"}


def rules_section(preset: str) -> str:
    """Where the guide tells ``preset``'s rules: its section's anchor on the rules page (``/rules#deux``)."""
    return f"/rules#{_SECTION_OF.get(preset, preset)}"


def _anchored(html: str, lang: str) -> str:
    """Each variant's section of the guide with its preset's id as anchor (the catalogue names the sections)."""
    prefix = "web.rules.section."
    for key, heading in section(prefix, lang).items():
        text = escape(heading, quote=False)
        html = html.replace(f"<h2>{text}</h2>", f'<h2 id="{key.removeprefix(prefix)}">{text}</h2>', 1)
    return html


#: The HTML's tags and code, which keep their spaces; the text between them.
_TAG_OR_CODE = re.compile(r"(<code>.*?</code>|<pre>.*?</pre>|<[^>]*>)", re.DOTALL)


def french_spacing(html: str) -> str:
    """French typography in an HTML page's text: a non-breaking space before « : ; ! ? » and inside « »
    (the narrow one before ; ! ?, as the message catalogue has them), so that a line never breaks there."""
    parts = _TAG_OR_CODE.split(html)
    for i in range(0, len(parts), 2):  # the text between the tags (the odd parts are the tags and code)
        text = re.sub(r"[ \n\u00a0\u202f]([;!?])", "\u202f\\1", parts[i])
        text = re.sub(r"[ \n\u00a0\u202f]([:»])", "\u00a0\\1", text)
        parts[i] = re.sub(r"«[ \n\u00a0\u202f]", "«\u00a0", text)
    return "".join(parts)


@cache
def reference_html() -> str:
    """docs/rules.md, the reference text of the rules (in English), as HTML."""
    return _markdown(doc_text("rules.md"))


def _markdown(text: str) -> str:
    """Markdown as HTML (tables on, raw HTML off: the text is the project's own)."""
    return str(MarkdownIt("commonmark", {"html": False}).enable("table").render(text))
