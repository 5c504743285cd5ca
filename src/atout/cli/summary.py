"""The end of a deal at the terminal table: the score term by term, then what the human's cards cost."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.markup import escape
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Static

from atout.cli.text import deal_summary, side_name
from atout.i18n import plural, tr

if TYPE_CHECKING:
    from atout.cli.table import TableApp
    from atout.deal import Deal
    from atout.solver.analysis import CardAnalysis


class SummaryScreen(ModalScreen[bool]):
    """The score in detail (every term, so that the marks add up), then the double-dummy cost of the human's cards."""

    #: Enter only goes on (not Space, the key that takes a trick off the table): the box is never skipped by accident.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "next", show=False),
        Binding("q", "quit_game", show=False),
    ]

    def __init__(self, app: TableApp) -> None:
        super().__init__()
        self.table = app

    def compose(self) -> ComposeResult:
        yield Static(id="summary")
        yield Static(classes="small-note")

    def on_mount(self) -> None:
        self.table.session.finish_deal()
        self.query_one("#summary", Static).update(self._text(None))
        if self.table.session.deal.contract is not None and self.table.analyse:
            self._analyse(self.table.session.deal)

    @work(thread=True, exclusive=True)
    def _analyse(self, deal: Deal) -> None:
        self.table.warmed.wait()  # the solver's kernels are compiled once, in the background, at start-up
        analysis = self.table.session.analysis(deal)
        self.app.call_from_thread(self._show, analysis)

    def _show(self, analysis: list[CardAnalysis]) -> None:
        if self.is_attached:  # the player may have gone on to the next deal meanwhile
            self.query_one("#summary", Static).update(self._text(analysis))

    def _text(self, analysis: list[CardAnalysis] | None) -> str:
        session, lang = self.table.session, self.table.lang
        rules = session.rules
        lines = [f"[b]{tr('table.deal_over', lang)}[/b]", escape(deal_summary(session.deal, lang, hands=False))]
        if session.deal.contract is not None and self.table.analyse:
            lines.append("")
            lines.append(f"[b]{tr('table.analysis', lang)}[/b]")
            if analysis is None:
                wait = "table.analysis_wait" if self.table.warmed.is_set() else "table.analysis_warming"
                lines.append(tr(wait, lang))
            else:
                row = []
                for a in analysis:
                    card = self.table.card_markup(a.card)
                    row.append(f"{card} [b red]−{a.cost}[/]" if a.mistake else card)
                lines.append("  ".join(row))
                lost = sum(a.cost for a in analysis)
                mistakes = sum(a.mistake for a in analysis)
                if mistakes:
                    lines.append(
                        tr(
                            "table.mistakes",
                            lang,
                            mistakes=plural("text.mistakes", mistakes, lang),
                            points=plural("text.points_lost", lost, lang),
                        )
                    )
                else:
                    lines.append(tr("table.no_mistake", lang))
        lines.append("")
        if session.match_over:
            winner = side_name(rules, session.match.winner or 0, lang)
            lines.append(f"[b]{tr('table.match_over', lang, winner=winner)}[/b]  {tr('table.keys.match_over', lang)}")
        else:
            lines.append(tr("table.keys.continue", lang))
        return "\n".join(lines)

    def action_next(self) -> None:
        if not self.table.session.match_over:
            self.dismiss(True)

    def action_quit_game(self) -> None:
        self.dismiss(False)
