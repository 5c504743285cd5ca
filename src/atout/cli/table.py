"""``atout play``: a match in the terminal, as South against three bots (Textual).

The screen fits 80×24 (a smaller terminal gets a message instead): the score and the
standing bid or the contract on top, the table with the trick in progress (or the last
calls during the auction; a completed trick stays, with its winner, for a moment or until a
key), what just happened, your hand numbered with the playable cards marked (hearts and
diamonds in red), the prompt, and the keys that work now. Keys: the card's number to play
it, ``?`` for the expert's hint, ``d`` (``l`` in English) for the last trick, ``s`` to save,
``q`` or Ctrl+C to save and quit. Bids are typed in the player's language (``90C``,
``100 cœur``, ``P``, ``X``...; see :mod:`atout.cli.typed`), and said back in words. Bots think
in a worker thread, so the screen never freezes; the solver's kernels are compiled in the
background at start-up, and a hint asked before that says it must wait; a hint that comes
after the player has moved on is dropped. The match is saved after every action; a save that
fails says why and asks for another file.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import ClassVar

from rich.markup import escape
from textual import events, work
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.timer import Timer
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from atout.actions import Action, Bid, Coinche, Declare, Play, Surcoinche, Take, strain_words
from atout.auction import Contract
from atout.cards import Card, Suit, sorted_for_display
from atout.cli.summary import SummaryScreen
from atout.cli.text import call_words, contract_text, doubling, preset_name, side_name
from atout.cli.typed import Reading, bid_examples, read_call, read_take, read_yes, typed, which
from atout.deal import Phase
from atout.errors import AtoutError, IllegalAction, os_reason
from atout.events import Called, CardPlayed, Declared, Event, Heard, Resolved, TrickWon
from atout.i18n import plural, tr
from atout.notation import seat_letter, seat_name
from atout.observation import Observation
from atout.session import GameSession

#: The smallest terminal the table is drawn in.
MIN_SIZE = (80, 24)
#: Width of the bar that shows the solver's compilation (once after an install).
PREPARING_BAR = 24
#: Seconds a completed trick stays on the table (unless a key is pressed).
TRICK_PAUSE = 1.5


def solver_ready(warmed: threading.Event, preparation: Callable[[], tuple[int, int] | None] | None) -> bool:
    """Wait for the solver while it loads from numba's cache (under a second; ``warmed`` is set once it is
    ready); False as soon as it is being compiled (``preparation()`` says so: once after an install, about
    15 s): the bots then decide by the club player's rules meanwhile, and the player never waits for the
    compilation (its progress is shown)."""
    while not warmed.wait(0.05):
        if preparation is not None and preparation() is not None:
            return False
    return True


class TableApp(App[None]):
    """The card table."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "save", "save", priority=True),
        Binding("ctrl+q", "leave", "quit", priority=True),
        Binding("ctrl+c", "leave", "quit", priority=True),
    ]
    #: Words that run a command when typed in the entry (during the auction the keys go there; no last trick yet,
    #: so ``d`` is read as a call: a French player's D may mean diamonds).
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
    .small-note { display: none; }
    App.-small #main, App.-small #summary { display: none; }
    App.-small .small-note { display: block; }
    """

    def __init__(
        self,
        session: GameSession,
        lang: str = "fr",
        save_path: Path | None = None,
        bot_delay: float = 0.6,
        analyse: bool = True,
        *,
        warm_up: Callable[[], None] | None = None,
        preparation: Callable[[], tuple[int, int] | None] | None = None,
        trick_pause: float = TRICK_PAUSE,
    ) -> None:
        super().__init__()
        self.session = session
        self.lang = lang
        self.save_path = save_path
        self.saved_to: Path | None = None
        self.bot_delay = bot_delay
        self.analyse = analyse
        self.trick_pause = trick_pause
        self.log_lines: list[str] = []
        self.pending_belote: Card | None = None
        #: A typed call whose letter may mean more than one thing: the text and its meanings, to ask about.
        self.pending_choice: tuple[str, tuple[Action, ...]] | None = None
        #: The completed trick still on the table.
        self.showing: TrickWon | None = None
        self._trick_timer: Timer | None = None
        #: The save failed: the entry asks for another file (and quits once saved, if the player was leaving).
        self.asking_path = False
        self._leave_after_save = False
        self._saved_moment: tuple[int, int, int] | None = None
        self.busy = False
        self._warm_up = warm_up
        #: Set once the solver's kernels are compiled (at once without a warm-up to run).
        self.warmed = threading.Event()
        if warm_up is None:
            self.warmed.set()
        #: The solver's compilation under way, (steps done, total) or None (atout.solver.prepare.compiling).
        self._preparation = preparation
        self._preparing_timer: Timer | None = None
        #: A bot that searches (the expert) waits for the warm-up rather than compile in its turn, on its clock.
        self._bots_search = any("search" in (s.bidder, s.player, s.taker) for s in session.bot_specs)

    def tr(self, key: str, /, **values: object) -> str:
        return tr(f"table.{key}", self.lang, **values)

    # ---------------------------------------------------------------- layout
    def compose(self) -> ComposeResult:
        with Vertical(id="main"):
            yield Static(id="status")
            yield Static(id="contract")
            yield Static(id="table")
            yield Static(id="log")
            yield Static(id="hand")
            yield Static(id="prompt")
            yield Input(id="entry")
            yield Static(id="keys")
        yield Static(classes="small-note")

    def on_mount(self) -> None:
        self.title = "atout"
        if self._warm_up is not None:
            self._warm()
            if self._preparation is not None:
                self._preparing_timer = self.set_interval(0.25, self._show_preparation)
        self.refresh_view()
        self.after_action()

    @work(thread=True, group="warm-up")
    def _warm(self) -> None:
        assert self._warm_up is not None
        try:
            self._warm_up()  # compile the solver while the player bids,
        finally:
            self.warmed.set()  # (failed too: the bots waiting for it then compile, or fail, in their turn)
        gc.freeze()  # then spare later collections the ~100,000 objects of start-up (an 80 ms pause)

    def on_resize(self, event: events.Resize) -> None:
        width, height = event.size
        small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.set_class(small, "-small")
        note = self.tr("too_small", width=MIN_SIZE[0], height=MIN_SIZE[1], now_width=width, now_height=height)
        for widget in self.query(".small-note"):
            if isinstance(widget, Static):
                widget.update(note)

    # --------------------------------------------------------------- drawing
    def card_markup(self, card: Card, *, bold: bool = False, dim: bool = False) -> str:
        """A card's label, hearts and diamonds in red."""
        red = card.suit in (Suit.HEARTS, Suit.DIAMONDS)
        style = " ".join(s for s, on in (("b", bold), ("dim", dim), ("red", red)) if on)
        label = card.label(self.lang)
        return f"[{style}]{label}[/]" if style else label

    def seat_label(self, seat: int) -> str:
        name = seat_name(self.session.rules, seat, self.lang)
        return self.tr("you", name=name) if seat == self.session.human else name

    def refresh_view(self) -> None:
        session, lang = self.session, self.lang
        deal = session.deal
        rules = session.rules
        scores = " · ".join(f"{side_name(rules, s, lang)} {v}" for s, v in session.match.scores.items())
        goal = (
            self.tr("target", target=rules.target)
            if rules.target and not rules.deals
            else self.tr("deals", deals=rules.deals)
        )
        self.query_one("#status", Static).update(
            " "
            + self.tr(
                "status",
                rules=preset_name(rules, lang),
                scores=scores,
                goal=goal,
                dealer=seat_name(rules, deal.dealer, lang),
            )
        )
        self.query_one("#contract", Static).update(" " + self._contract_line())
        self.query_one("#table", Static).update(self._table_text())
        self.query_one("#log", Static).update("\n".join(self.log_lines[-6:]))
        self.query_one("#hand", Static).update(self._hand_text())
        self.query_one("#prompt", Static).update(self._prompt_text())
        self.query_one("#keys", Static).update(" " + self._keys_text())
        entry = self.query_one("#entry", Input)
        typing = self.asking_path or (deal.phase is Phase.AUCTION and session.human_to_play and self.showing is None)
        entry.disabled = not typing
        if typing:
            entry.focus()

    def _contract_line(self) -> str:
        deal, rules = self.session.deal, self.session.rules
        if deal.contract is not None:
            return self.tr("contract", contract=escape(self._contract_words(deal.contract)))
        standing = deal.auction.standing
        if standing is not None:
            return self.tr("standing", contract=escape(self._contract_words(standing, standing=True)))
        if deal.retourne is not None and deal.phase is Phase.AUCTION:
            return self.tr("retourne", card=self.card_markup(deal.retourne, bold=True))
        return self.tr("no_bid") if rules.auction != "retourne" else self.tr("auction")

    def _contract_words(self, contract: Contract, standing: bool = False) -> str:
        taker = self.seat_label(contract.taker)
        return contract_text(self.session.rules, contract, self.lang, taker=taker, standing=standing)

    def _table_text(self) -> str:
        session = self.session
        deal = session.deal
        n = session.rules.players
        shown: dict[int, str] = {}
        if self.showing is not None:
            for i, card in enumerate(self.showing.cards):
                seat = self.showing.seat_of(i, n)
                shown[seat] = self.card_markup(card, bold=seat == self.showing.winner)
        elif deal.phase is Phase.AUCTION:
            for seat, call in deal.auction.calls:
                shown[seat] = escape(call.label(self.lang))
        else:
            for seat, card in deal.current_trick:
                shown[seat] = self.card_markup(card, bold=True)
        turn = None if self.showing is not None else deal.turn

        def cell(seat: int, width: int = 0) -> str:
            marker = "▶ " if seat == turn else "  "
            text = f"{marker}{self.tr('cell', seat=self.seat_label(seat), what='')}"
            visible = len(text) + len(_plain(shown.get(seat, "")))
            return escape(text) + shown.get(seat, "") + " " * max(0, width - visible)

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
        elif n == 3:  # the third player on his side of the table: East on the right, West on the left
            other = (human + 2) % 3
            east = seat_letter(session.rules, other) == "E"
            lines.append("")
            lines.append(f"{'':42}{cell(other)}" if east else f"  {cell(other)}")
        else:
            lines.extend(["", ""])
        won = "" if self.showing is None else self._won(self.showing)
        indent = max(0, min(14, MIN_SIZE[0] - 1 - len(won)))  # the last trick's line is longer
        lines.append(f"{'':{indent}}[b]{escape(won)}[/b]" if won else "")
        lines.append(f"{'':26}{cell(human)}")
        return "\n".join(lines)

    def _won(self, trick: TrickWon) -> str:
        points = plural("table.points", trick.total, self.lang)
        key = "won_last_trick" if trick.dix_de_der else "won_trick"
        return self.tr(key, seat=self.seat_label(trick.winner), points=points)

    def _display_cards(self) -> list[Card]:
        deal = self.session.deal
        return sorted_for_display(deal.hand_mask(self.session.human), deal.strain)

    def _hand_text(self) -> str:
        obs = self.session.observation()
        playable = {a.card for a in obs.legal_actions() if isinstance(a, Play)}
        parts = []
        for i, card in enumerate(self._display_cards(), start=1):
            if card in playable:
                parts.append(f"[b green]{i}[/] {self.card_markup(card, bold=True)}")
            else:
                parts.append(f"[dim]{i}[/] {self.card_markup(card, dim=True)}")
        return " " + "  ".join(parts)

    def _prompt_text(self) -> str:
        session = self.session
        if self.asking_path:
            return self.tr("save_where")
        if self.showing is not None:
            return self.tr("trick_pause")
        if session.deal_over or not session.human_to_play:
            turn = session.deal.turn
            preparing = self._preparing_text()
            if preparing and turn is not None:
                return preparing
            return self.tr("waiting", seat=self.seat_label(turn)) if turn is not None else ""
        if self.pending_choice is not None:
            return escape(self._choice_question(*self.pending_choice))
        if self.pending_belote is not None:
            return self.tr("belote_q", card=self.card_markup(self.pending_belote))
        legal = session.observation().legal_actions()
        if isinstance(legal[0], Declare):
            options = [
                f"{i} {escape(self._declare_words(a))}" for i, a in enumerate(legal, start=1) if isinstance(a, Declare)
            ]
            return self.tr("declare") + "  " + " · ".join(options)
        if isinstance(legal[0], Play):
            return self.tr("play")
        takes = [a for a in legal if isinstance(a, Take)]
        if takes:
            return escape(self._take_prompt(takes))
        return escape(self._bid_prompt(legal))

    def _preparing_text(self) -> str:
        """What the bots wait for while the solver is compiled (once after an install): its progress, on two
        lines; "" when they wait for nothing."""
        if self.warmed.is_set() or not self._bots_search or self._preparation is None:
            return ""
        state = self._preparation()
        if state is None:
            return ""
        done, total = state
        filled = PREPARING_BAR * done // max(total, 1)
        bar = "━" * filled + "─" * (PREPARING_BAR - filled)
        return tr("text.preparing", self.lang, done=done, total=total) + "\n " + bar + "  " + self.tr("stand_in")

    def _show_preparation(self) -> None:
        """Redraw the prompt while the solver is compiled, for its progress; stop once it is ready."""
        self.query_one("#prompt", Static).update(self._prompt_text())
        if self.warmed.is_set() and self._preparing_timer is not None:
            self._preparing_timer.stop()
            self._preparing_timer = None

    def _take_prompt(self, takes: list[Take]) -> str:
        if len(takes) == 1:
            return self.tr("take_one", strain=strain_words(takes[0].suit).message(self.lang))
        # A lone P is « passe » and a lone S saves: their suits are named in full.
        names = [
            strain_words(t.suit).message(self.lang)
            if typed(t, self.lang) == "P" or typed(t, self.lang).lower() in self.ENTRY_COMMANDS
            else f"{typed(t, self.lang)} {strain_words(t.suit).message(self.lang)}"
            for t in takes
        ]
        return self.tr("take_other", suits=", ".join(names))

    def _bid_prompt(self, legal: list[Action]) -> str:
        rules = self.session.rules
        values = [a.value for a in legal if isinstance(a, Bid) and not a.capot]
        if values:
            text = self.tr("bid", examples=bid_examples(rules, self.lang, min(values)))
        else:
            text = self.tr("no_bid_left")
        if any(isinstance(a, Coinche) for a in legal):
            text += self.tr(f"{doubling(rules)}_ok")
        if any(isinstance(a, Surcoinche) for a in legal):
            text += self.tr(f"sur{doubling(rules)}_ok")
        if values:  # the numbered bids may go far above 160 (coinche has no ceiling of its own)
            text += "\n " + self.tr("bid_range", low=min(values), high=max(values), step=rules.bid_step)
            if any(isinstance(a, Bid) and a.capot for a in legal):
                text += self.tr("capot_ok")
        return text

    def _declare_words(self, action: Declare) -> str:
        return action.label(self.lang) if action.announcements else self.tr("declare_none")

    def _choice_question(self, text: str, actions: tuple[Action, ...]) -> str:
        return which(text, [call_words(self.session.rules, a, self.lang) for a in actions], self.lang)

    def _keys_text(self) -> str:
        """The keys that work now, and only those."""
        session = self.session
        if self.asking_path:
            return self.tr("keys.save_where_leaving" if self._leave_after_save else "keys.save_where")
        if session.deal_over and self.showing is None:
            return ""  # the end of the deal's own screen says its keys
        if self.pending_choice is not None:
            return self.tr("keys.yes_no_typed" if len(self.pending_choice[1]) == 1 else "keys.number")
        if session.deal.phase is Phase.AUCTION and session.human_to_play:
            return self.tr("keys.typed")
        keys: list[str] = []
        if self.showing is not None:
            keys.append(self.tr("keys.any"))
        elif self.pending_belote is not None:
            keys.append(self.tr("keys.yes_no"))
        elif session.human_to_play:
            legal = session.legal_actions()
            last = len(legal) if isinstance(legal[0], Declare) else len(self._display_cards())
            keys.append(self.tr("keys.declare" if isinstance(legal[0], Declare) else "keys.cards", last=last))
            keys.append(self.tr("keys.hint"))
        if session.deal.tricks:
            keys.append(self.tr("keys.last_trick"))
        keys.extend([self.tr("keys.save"), self.tr("keys.quit")])
        return " · ".join(keys)

    def say(self, line: str) -> None:
        self.log_lines.append(line)

    # ------------------------------------------------------------ the flow
    def after_action(self) -> None:
        """Save, report what happened, then let the bots play or wait for the human (a completed trick waits first)."""
        self._autosave()
        self.refresh_view()
        session = self.session
        if self.showing is not None or self.asking_path:
            return  # the game goes on once the trick is taken off the table, or the save's file is answered
        if session.deal_over:
            if session.deal.result is not None and session.deal.result.passed_out:
                self.say(escape(self.tr("all_passed")))
            if not isinstance(self.screen, SummaryScreen):
                self.push_screen(SummaryScreen(self), self._after_summary)
            return
        if not session.human_to_play and not self.busy:
            self.busy = True
            if self.bot_delay:
                self.set_timer(self.bot_delay, self._bot_turn)
            else:
                self._bot_turn()

    def _show_trick(self, trick: TrickWon) -> None:
        """Say who won the trick, and leave it on the table a moment (the last one until a key)."""
        self.say(escape(self._won(trick)))
        if self.trick_pause <= 0:
            return
        self.showing = trick
        if self._trick_timer is not None:
            self._trick_timer.stop()
            self._trick_timer = None
        if not self.session.deal_over:  # the last trick stays until a key: then the end of the deal
            self._trick_timer = self.set_timer(self.trick_pause, self._clear_trick)

    def _clear_trick(self) -> None:
        """Take the completed trick off the table and go on."""
        if self._trick_timer is not None:
            self._trick_timer.stop()
            self._trick_timer = None
        if self.showing is not None:
            self.showing = None
            self.after_action()

    def _after_summary(self, keep_playing: bool | None) -> None:
        if not keep_playing:
            self.action_leave()
            return
        self.session.next_deal()
        self.log_lines.clear()
        self.after_action()

    @work(thread=True, exclusive=True, group="bots")
    def _bot_turn(self) -> None:
        stand_in = self._bots_search and not self._solver_ready()
        choice = self.session.bot_choice(stand_in=stand_in)
        self.call_from_thread(self._apply_bot, choice)

    def _solver_ready(self) -> bool:
        return solver_ready(self.warmed, self._preparation)

    def _apply_bot(self, choice: tuple[int, Action] | None) -> None:
        self.busy = False
        if choice is not None:
            self._narrate(self.session.apply_bot(*choice))
        self.after_action()

    def _narrate(self, events: Iterable[Event]) -> None:
        """Say what an action did, from the rules core's events as the human perceives them."""
        for event in events:
            if isinstance(event, Called):
                call = call_words(self.session.rules, event.call, self.lang)
                self.say(escape(self.tr("calls", seat=self.seat_label(event.seat), call=call)))
            elif isinstance(event, Declared) and event.announcements:  # the human's own, whole
                what = Declare(event.announcements).label(self.lang)
                self.say(escape(self.tr("announces", seat=self.seat_label(event.seat), what=what)))
            elif isinstance(event, Heard) and event.declarations:  # the nature only (FFB §8.2)
                what = ", ".join(tr(f"common.announcement.{d.kind}", self.lang).lower() for d in event.declarations)
                self.say(escape(self.tr("announces", seat=self.seat_label(event.seat), what=what)))
            elif isinstance(event, CardPlayed) and event.word:
                self.say(escape(self.tr(f"says_{event.word}", seat=self.seat_label(event.seat))))
            elif isinstance(event, TrickWon):
                self._show_trick(event)
            elif isinstance(event, Resolved):
                for seat, announced in event.shown.items():
                    what = ", ".join(a.label(self.lang) for a in announced)
                    self.say(escape(self.tr("shown", seat=self.seat_label(seat), what=what)))

    def _human(self, action: Action) -> None:
        try:
            events = self.session.play(action)
        except IllegalAction as err:
            self.say(f"[red]{escape(self.tr('illegal', reason=err.message(self.lang)))}[/red]")
            self.refresh_view()
            return
        self._narrate(events)
        self.after_action()

    # ----------------------------------------------------------------- input
    def on_input_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.value = ""
        if self.asking_path:
            self._answer_path(text)
            return
        if self.pending_choice is not None:
            self._answer_choice(text)
            return
        command = self.ENTRY_COMMANDS.get(text.lower())
        if command is not None:
            getattr(self, f"action_{command}")()
            return
        if not text or not self.session.human_to_play:
            return
        try:
            reading = self._read(text)
        except AtoutError as err:
            self.say(f"[red]{escape(self.tr('refused', reason=err.message(self.lang)))}[/red]")
            self.refresh_view()
            return
        if reading.sure:
            self._human(reading.actions[0])
        else:
            self.pending_choice = (text, reading.actions)
            self.refresh_view()

    def _read(self, text: str) -> Reading:
        """A typed call; while taking around a retourne, « prendre » / "take" or a suit."""
        takes = [a for a in self.session.legal_actions() if isinstance(a, Take)]
        if takes:
            return read_take(text, self.lang, takes)
        return read_call(text, self.lang, self.session.rules)

    def _answer_choice(self, text: str) -> None:
        assert self.pending_choice is not None
        actions = self.pending_choice[1]
        if len(actions) == 1:
            yes = read_yes(text, self.lang)
            if yes is None:
                return
            self.pending_choice = None
            if yes:
                self._human(actions[0])
            else:
                self.refresh_view()
            return
        if text.isdigit() and 1 <= int(text) <= len(actions):
            self.pending_choice = None
            self._human(actions[int(text) - 1])

    def on_key(self, event: events.Key) -> None:
        character = event.character or ""
        session = self.session
        if self.asking_path:
            if event.key == "escape":
                self._answer_path("")
            return  # the keys go to the entry
        if self.showing is not None:
            event.stop()
            event.prevent_default()  # the key takes the trick off the table, and does nothing else
            self._clear_trick()
            return
        if self.query_one("#entry", Input).has_focus and session.deal.phase is Phase.AUCTION:
            return
        answer = read_yes(character, self.lang)
        if self.pending_belote is not None and answer is not None:
            card, self.pending_belote = self.pending_belote, None
            self._human(Play(card, answer))
            return
        if character.isdigit() and session.human_to_play and not session.deal_over and self.showing is None:
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
    def _moment(self) -> tuple[int, int, int]:
        """Where the match is: the deal, the actions in it, the deals recorded."""
        deal = self.session.deal
        return id(deal), len(deal.actions), len(self.session.match.entries)

    def action_hint(self) -> None:
        if self.session.human_to_play and not self.session.deal_over:
            self.say(self.tr("hint_wait" if self.warmed.is_set() else "hint_warming"))
            self.refresh_view()
            self._compute_hint(self.session.observation(), self._moment())

    @work(thread=True, exclusive=True, group="hint")
    def _compute_hint(self, observation: Observation, moment: tuple[int, int, int]) -> None:
        self.warmed.wait()
        action = self.session.hint(observation)
        if not get_current_worker().is_cancelled:  # a newer hint was asked
            self.call_from_thread(self._show_hint, action, moment)

    def _show_hint(self, action: Action, moment: tuple[int, int, int]) -> None:
        if moment != self._moment():
            return  # the player has moved on: the hint was for a position that is gone
        if isinstance(action, Play):
            key = self._display_cards().index(action.card) + 1
            self.say(self.tr("hint_card", key=key, card=self.card_markup(action.card)))
        elif isinstance(action, Declare):
            key = self.session.legal_actions().index(action) + 1
            self.say(self.tr("hint_declare", key=key, what=escape(self._declare_words(action))))
        else:
            call = call_words(self.session.rules, action, self.lang)
            self.say(escape(self.tr("hint_call", call=call, typed=typed(action, self.lang))))
        self.refresh_view()

    def action_last_trick(self) -> None:
        tricks = self.session.deal.tricks
        if not tricks:
            self.say(self.tr("no_last_trick"))
        else:
            last = tricks[-1]
            n = self.session.rules.players
            cards = " ".join(
                f"{escape(self.seat_label(last.seat_of(i, n)))} {self.card_markup(c)}" for i, c in enumerate(last.cards)
            )
            self.say(self.tr("last_trick", cards=cards, winner=escape(self.seat_label(last.winner))))
        self.refresh_view()

    def action_save(self) -> None:
        if self.save_path is None:
            self._ask_path()
        elif self._save():
            self.say(escape(self.tr("saved", path=self.save_path)))
        self.refresh_view()

    def _save(self) -> bool:
        """Save the match (when there is a save file); False if it failed, said why and asked for another file."""
        if self.save_path is None:
            return True
        try:
            self.session.save(self.save_path, human=self.tr("save_name"))
        except OSError as err:
            self.say(f"[red]{escape(self.tr('save_failed', path=self.save_path, reason=os_reason(err)))}[/red]")
            self._ask_path()
            return False
        self.saved_to = self.save_path
        self._saved_moment = self._moment()
        return True

    def _autosave(self) -> None:
        """Save after every action, before anything that may fail: a crash loses at most what was being done."""
        if not self.asking_path and self._saved_moment != self._moment():
            self._save()

    def _ask_path(self) -> None:
        self.asking_path = True
        self.refresh_view()

    def _answer_path(self, text: str) -> None:
        """The file to save to (the folders are made); nothing: go on without saving."""
        self.asking_path = False
        if not text:
            self.save_path = None
            self._leave_after_save = False
            self.say(self.tr("not_saved"))
        else:
            self.save_path = Path(text).expanduser()
            if self._save():
                self.say(escape(self.tr("saved", path=self.save_path)))
                if self._leave_after_save:
                    self.exit()
                    return
        self.after_action()

    def action_leave(self) -> None:
        """Save (when there is a save file) and quit: ``q``, Ctrl+Q, Ctrl+C. If the save fails, another file is
        asked for (then the table quits once saved); leaving again while it is asked quits without saving."""
        if self.asking_path:
            leave = self._leave_after_save  # the second time: without saving
        else:
            leave = self._save()
        if leave:
            self.exit()
        else:
            self._leave_after_save = True
            self.refresh_view()


def _plain(markup: str) -> str:
    """The visible text of Rich markup."""
    from rich.text import Text

    return Text.from_markup(markup).plain
