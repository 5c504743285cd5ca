"""``atout play``: a match in the terminal, as South against three bots (Textual).

The screen fits 80×24: the score and the contract on top, the table with the trick
in progress (or the last calls during the auction), what just happened, your hand
numbered with the playable cards marked, and the prompt. Keys: the card's number
to play it, ``?`` for the expert's hint, ``d`` (``l`` in English) for the last
trick, ``s`` to save, ``q`` to quit. Bids are typed (``90H``, ``100 coeur``,
``80SA``, ``P``, ``X``...). Bots think in a worker thread, so the screen never freezes.
"""

from __future__ import annotations

from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from atout.actions import (
    Action,
    Bid,
    Coinche,
    Declare,
    Pass,
    Play,
    Surcoinche,
    Take,
    parse_call,
    parse_strain,
    strain_name,
)
from atout.cards import Card, sorted_for_display
from atout.cli.i18n import t
from atout.cli.text import deal_summary, side_name
from atout.deal import Phase
from atout.errors import AtoutError, IllegalAction, NotationError
from atout.notation import seat_name
from atout.session import GameSession
from atout.solver.analysis import CardAnalysis


class SummaryScreen(ModalScreen[bool]):
    """The end of a deal: the score in detail, then the double-dummy cost of the human's cards."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "next", show=False),
        Binding("space", "next", show=False),
        Binding("q", "quit_game", show=False),
    ]

    def __init__(self, app: TableApp) -> None:
        super().__init__()
        self.table = app

    def compose(self) -> ComposeResult:
        yield Static(id="summary")

    def on_mount(self) -> None:
        self.table.session.finish_deal()
        self.query_one("#summary", Static).update(self._text(None))
        if self.table.session.deal.contract is not None and self.table.analyse:
            self._analyse()

    @work(thread=True, exclusive=True)
    def _analyse(self) -> None:
        analysis = self.table.session.analysis()
        self.app.call_from_thread(self._show, analysis)

    def _show(self, analysis: list[CardAnalysis]) -> None:
        self.query_one("#summary", Static).update(self._text(analysis))

    def _text(self, analysis: list[CardAnalysis] | None) -> str:
        session, lang = self.table.session, self.table.lang
        lines = [f"[b]{t('deal_over', lang)}[/b]", escape(deal_summary(session.deal, lang, hands=False))]
        if session.deal.contract is not None and self.table.analyse:
            lines.append("")
            lines.append(f"[b]{t('analysis', lang)}[/b]")
            if analysis is None:
                lines.append(t("analysis_wait", lang))
            else:
                row = []
                for a in analysis:
                    mark = f"[red]{a.card.label(lang)} −{a.cost}[/red]" if a.mistake else a.card.label(lang)
                    row.append(mark)
                lines.append("  ".join(row))
                lost = sum(a.cost for a in analysis)
                mistakes = sum(a.mistake for a in analysis)
                lines.append(t("mistakes", lang, n=mistakes, points=lost) if mistakes else t("no_mistake", lang))
        lines.append("")
        if session.match_over:
            winner = side_name(session.deal, session.match.winner or 0, lang)
            lines.append(f"[b]{t('match_over', lang, winner=winner)}[/b]  {t('match_over_keys', lang)}")
        else:
            lines.append(t("continue", lang))
        return "\n".join(lines)

    def action_next(self) -> None:
        if not self.table.session.match_over:
            self.dismiss(True)

    def action_quit_game(self) -> None:
        self.dismiss(False)


class TableApp(App[None]):
    """The card table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "save", priority=True),
        Binding("ctrl+q", "leave", "quit", priority=True),
    ]
    #: Words that run a command when typed in the entry (during the auction the keys go there).
    ENTRY_COMMANDS: ClassVar[dict[str, str]] = {
        "?": "hint",
        "aide": "hint",
        "conseil": "hint",
        "hint": "hint",
        "s": "save",
        "sauver": "save",
        "save": "save",
        "q": "leave",
        "quitter": "leave",
        "quit": "leave",
        "d": "last_trick",
        "l": "last_trick",
    }

    CSS = """
    Screen { layout: vertical; }
    #status { height: 1; background: $primary-darken-2; }
    #contract { height: 1; }
    #table { height: 7; }
    #log { height: 6; color: $text-muted; }
    #hand { height: 2; }
    #prompt { height: 2; }
    #entry { height: 3; }
    #keys { height: 1; color: $text-muted; }
    SummaryScreen { align: center middle; }
    #summary { width: 78; height: auto; max-height: 22; border: round $primary; padding: 0 1; background: $panel; }
    """

    def __init__(
        self,
        session: GameSession,
        lang: str = "fr",
        save_path: Path | None = None,
        bot_delay: float = 0.6,
        analyse: bool = True,
    ) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.save_path = save_path
        self.bot_delay = bot_delay
        self.analyse = analyse
        self.log_lines: list[str] = []
        self.pending_belote: Card | None = None
        self.busy = False
        self._tricks_seen = len(session.deal.tricks)
        self._shown_seen = False

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        yield Static(id="status")
        yield Static(id="contract")
        yield Static(id="table")
        yield Static(id="log")
        yield Static(id="hand")
        yield Static(id="prompt")
        yield Input(id="entry")
        yield Static(t("keys", self.lang), id="keys")

    def on_mount(self) -> None:
        self.title = "atout"
        self.refresh_view()
        self.after_action()

    # --------------------------------------------------------------- drawing
    def seat_label(self, seat: int) -> str:
        if seat == self.session.human:
            return f"{seat_name(self.session.rules, seat, self.lang)} ({t('you', self.lang)})"
        return seat_name(self.session.rules, seat, self.lang)

    def refresh_view(self) -> None:
        session, lang = self.session, self.lang
        deal = session.deal
        rules = session.rules
        scores = "  ".join(f"{side_name(deal, s, lang)} {v}" for s, v in session.match.scores.items())
        goal = f"{t('target', lang)} {rules.target}" if rules.target and not rules.deals else f"{rules.deals} donnes"
        self.query_one("#status", Static).update(
            f" atout · {rules.name} · {t('score', lang)} {scores} · {goal} · "
            f"{t('dealer', lang)} {seat_name(rules, deal.dealer, lang)}"
        )
        if deal.contract is not None:
            c = deal.contract
            contract = f"{t('contract', lang)} : {c.label(lang)} {t('by', lang)} {self.seat_label(c.taker)}"
        else:
            contract = f"{t('auction', lang)} · {t('no_contract', lang)}"
        if deal.retourne is not None and deal.phase is Phase.AUCTION:
            contract += f" · retourne {deal.retourne.label(lang)}"
        self.query_one("#contract", Static).update(" " + contract)
        self.query_one("#table", Static).update(self._table_text())
        self.query_one("#log", Static).update("\n".join(self.log_lines[-6:]))
        self.query_one("#hand", Static).update(self._hand_text())
        self.query_one("#prompt", Static).update(self._prompt_text())
        entry = self.query_one("#entry", Input)
        auction = deal.phase is Phase.AUCTION and session.human_to_play
        entry.disabled = not auction
        if auction:
            entry.focus()

    def _table_text(self) -> str:
        session = self.session
        deal = session.deal
        n = session.rules.players
        shown: dict[int, str] = {}
        if deal.phase is Phase.AUCTION:
            for seat, call in deal.auction.calls:
                shown[seat] = call.label(self.lang)
        else:
            for seat, card in deal.current_trick:
                shown[seat] = f"[b]{card.label(self.lang)}[/b]"
        turn = deal.turn

        def cell(seat: int, width: int = 0) -> str:
            marker = "▶ " if seat == turn else "  "
            text = f"{marker}{self.seat_label(seat)} : "
            visible = len(text) + len(_plain(shown.get(seat, "")))
            return text + shown.get(seat, "") + " " * max(0, width - visible)

        human = session.human
        # The human at the bottom, partner (or the next-but-one) at the top, the others at the sides.
        top = (human + 2) % n if n == 4 else (human + 1) % n
        lines = [f"{'':26}{cell(top)}"]
        if n == 4:
            left, right = (human + 1) % 4, (human + 3) % 4
            if session.rules.direction == "counterclockwise":
                left, right = right, left
            lines.append("")
            lines.append(f"  {cell(left, 40)}{cell(right)}")
            lines.append("")
        elif n == 3:
            lines.append("")
            lines.append(f"  {cell((human + 2) % 3)}")
            lines.append("")
        else:
            lines.extend(["", "", ""])
        lines.append(f"{'':26}{cell(human)}")
        return "\n".join(lines)

    def _display_cards(self) -> list[Card]:
        deal = self.session.deal
        return sorted_for_display(deal.hand_mask(self.session.human), deal.strain)

    def _hand_text(self) -> str:
        obs = self.session.observation()
        playable = {a.card for a in obs.legal_actions() if isinstance(a, Play)}
        parts = []
        for i, card in enumerate(self._display_cards(), start=1):
            label = card.label(self.lang)
            if card in playable:
                parts.append(f"[b green]{i}[/] [b]{label}[/b]")
            else:
                parts.append(f"[dim]{i} {label}[/dim]")
        return " " + "  ".join(parts)

    def _prompt_text(self) -> str:
        session, lang = self.session, self.lang
        if session.deal_over or not session.human_to_play:
            turn = session.deal.turn
            return t("waiting", lang, seat=self.seat_label(turn)) if turn is not None else ""
        obs = session.observation()
        legal = obs.legal_actions()
        if self.pending_belote is not None:
            return t("belote_q", lang, card=self.pending_belote.label(lang))
        if isinstance(legal[0], Declare):
            options = [
                f"{i} {a.label(lang) if a.announcements else t('declare_none', lang)}"
                for i, a in enumerate(legal, start=1)
                if isinstance(a, Declare)
            ]
            return t("declare", lang) + "  " + " · ".join(options)
        if isinstance(legal[0], Play):
            return t("your_turn_play", lang)
        takes = [a for a in legal if isinstance(a, Take)]
        if takes:
            if len(takes) == 1:
                return t("your_turn_take", lang, suit=strain_name(takes[0].suit, lang))
            return t("your_turn_take2", lang)
        text = t("your_turn_bid", lang)
        if any(isinstance(a, Coinche) for a in legal):
            text += t("coinche_ok", lang)
        if any(isinstance(a, Surcoinche) for a in legal):
            text += t("surcoinche_ok", lang)
        values = [a.value for a in legal if isinstance(a, Bid) and not a.capot]
        if values:  # the numbered bids may go far above 160 (coinche has no ceiling of its own)
            text += "\n " + t("bid_range", lang, low=min(values), high=max(values))
            if any(isinstance(a, Bid) and a.capot for a in legal):
                text += t("capot_ok", lang)
        return text

    def say(self, line: str) -> None:
        self.log_lines.append(line)

    # ------------------------------------------------------------ the flow
    def after_action(self) -> None:
        """Report what happened, then let the bots play or wait for the human."""
        self._report()
        self.refresh_view()
        session = self.session
        if session.deal_over:
            if session.deal.result is not None and session.deal.result.passed_out:
                self.say(t("all_passed", self.lang))
            self.push_screen(SummaryScreen(self), self._after_summary)
            return
        if not session.human_to_play and not self.busy:
            self.busy = True
            if self.bot_delay:
                self.set_timer(self.bot_delay, self._bot_turn)
            else:
                self._bot_turn()

    def _report(self) -> None:
        deal = self.session.deal
        tricks = deal.tricks
        while self._tricks_seen < len(tricks):
            trick = tricks[self._tricks_seen]
            self.say(t("won_trick", self.lang, seat=self.seat_label(trick.winner), points=trick.points))
            self._tricks_seen += 1
        if deal.resolution is not None and not self._shown_seen:
            self._shown_seen = True
            for seat, announced in deal.resolution.shown.items():
                what = ", ".join(a.label(self.lang) for a in announced)
                self.say(t("shown", self.lang, seat=self.seat_label(seat), what=what))

    def _after_summary(self, keep_playing: bool | None) -> None:
        if not keep_playing:
            self._save_quietly()
            self.exit()
            return
        self.session.next_deal()
        self.log_lines.clear()
        self._tricks_seen = 0
        self._shown_seen = False
        self.after_action()

    @work(thread=True, exclusive=True, group="bots")
    def _bot_turn(self) -> None:
        choice = self.session.bot_choice()
        self.call_from_thread(self._apply_bot, choice)

    def _apply_bot(self, choice: tuple[int, Action] | None) -> None:
        self.busy = False
        if choice is not None:
            seat, action = choice
            self.session.apply_bot(seat, action)
            self._narrate(seat, action)
        self.after_action()

    def _narrate(self, seat: int, action: Action) -> None:
        lang = self.lang
        if isinstance(action, (Pass, Bid, Coinche, Surcoinche, Take)):
            self.say(t("calls", lang, seat=self.seat_label(seat), call=action.label(lang)))
        elif isinstance(action, Declare) and action.announcements:
            what = ", ".join(f"{a.kind.replace('carre', 'carré')}" for a in action.announcements)
            self.say(t("announces", lang, seat=self.seat_label(seat), what=what))
        elif isinstance(action, Play) and action.belote:
            said = sum(
                1
                for s, c in self.session.deal.observation(seat).belote_said
                if s == seat and c >> 3 == action.card >> 3
            )
            self.say(t("says_rebelote" if said == 2 else "says_belote", lang, seat=self.seat_label(seat)))

    def _human(self, action: Action) -> None:
        try:
            self.session.play(action)
        except IllegalAction as err:
            self.say(f"[red]{escape(t('illegal', self.lang, reason=err.message(self.lang)))}[/red]")
            self.refresh_view()
            return
        self._narrate(self.session.human, action)
        self.after_action()

    # ----------------------------------------------------------------- input
    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        command = self.ENTRY_COMMANDS.get(text.lower())
        if command is not None:
            getattr(self, f"action_{command}")()
            return
        if not text or not self.session.human_to_play:
            return
        try:
            action = _parse_call(text, self.session)
        except NotationError:
            self.say(f"[red]{escape(t('unknown_input', self.lang, text=text))}[/red]")
            self.refresh_view()
            return
        self._human(action)

    def on_key(self, event: object) -> None:
        character = getattr(event, "character", None) or ""
        session = self.session
        if self.query_one("#entry", Input).has_focus and session.deal.phase is Phase.AUCTION:
            return
        if self.pending_belote is not None and character.lower() in ("o", "y", "n"):
            card, self.pending_belote = self.pending_belote, None
            self._human(Play(card, character.lower() in ("o", "y")))
            return
        if character.isdigit() and session.human_to_play and not session.deal_over:
            self._choose(int(character))
            return
        actions = {
            "?": self.action_hint,
            "d": self.action_last_trick,
            "l": self.action_last_trick,
            "s": self.action_save,
            "q": self.action_leave,
        }
        if character in actions:
            actions[character]()

    def _choose(self, number: int) -> None:
        legal = self.session.legal_actions()
        if isinstance(legal[0], Declare):
            if 1 <= number <= len(legal):
                self._human(legal[number - 1])
            return
        cards = self._display_cards()
        if not 1 <= number <= len(cards):
            return
        card = cards[number - 1]
        variants = [a for a in legal if isinstance(a, Play) and a.card == card]
        if any(a.belote for a in variants):
            self.pending_belote = card
            self.refresh_view()
            return
        self._human(Play(card))

    # --------------------------------------------------------------- actions
    def action_hint(self) -> None:
        if self.session.human_to_play and not self.session.deal_over:
            self.say(t("hint_wait", self.lang))
            self.refresh_view()
            self._compute_hint()

    @work(thread=True, exclusive=True, group="hint")
    def _compute_hint(self) -> None:
        action = self.session.hint()
        self.call_from_thread(self._show_hint, action)

    def _show_hint(self, action: Action) -> None:
        label = (
            action.label(self.lang)
            if not isinstance(action, Declare) or action.announcements
            else t("declare_none", self.lang)
        )
        self.say(t("hint", self.lang, action=label))
        self.refresh_view()

    def action_last_trick(self) -> None:
        tricks = self.session.deal.tricks
        if not tricks:
            self.say(t("no_last_trick", self.lang))
        else:
            last = tricks[-1]
            n = self.session.rules.players
            cards = " ".join(
                f"{self.seat_label(last.seat_of(i, n))} {c.label(self.lang)}" for i, c in enumerate(last.cards)
            )
            self.say(f"{t('last_trick', self.lang)} : {cards} → {self.seat_label(last.winner)}")
        self.refresh_view()

    def action_save(self) -> None:
        if self.save_path is None:
            self.say(t("no_save_path", self.lang))
        else:
            self.session.save(self.save_path)
            self.say(t("saved", self.lang, path=self.save_path))
        self.refresh_view()

    def _save_quietly(self) -> None:
        if self.save_path is not None:
            self.session.save(self.save_path)

    def action_leave(self) -> None:
        self._save_quietly()
        self.exit()


def _plain(markup: str) -> str:
    """The visible text of Rich markup."""
    from rich.text import Text

    return Text.from_markup(markup).plain


def _parse_call(text: str, session: GameSession) -> Action:
    """A typed call; while taking, « prendre » / "take" or a suit's name takes."""
    words = text.strip().lower()
    takes = [a for a in session.legal_actions() if isinstance(a, Take)]
    if takes:
        if words in ("t", "prendre", "prends", "je prends", "take") and len(takes) == 1:
            return takes[0]
        try:
            return Take(parse_strain(words))
        except AtoutError:
            pass
    return parse_call(text)


def run_table(session: GameSession, lang: str, save_path: Path | None, bot_delay: float) -> None:
    TableApp(session, lang, save_path, bot_delay).run()
