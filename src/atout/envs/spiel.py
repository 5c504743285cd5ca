"""The OpenSpiel game ``python_atout``: one deal of any ruleset, registered with ``pyspiel``.

Importing this module registers the game. Its parameters: ``preset`` (a preset's name,
``coinche`` by default), ``options`` (a JSON object of options replacing the preset's,
e.g. ``{"sans_atout": true}``; empty by default) and ``dealer`` (the dealing seat, by
default the last, so that player 0 speaks first). Chance deals the shuffled deck one
card at a time (32 chance nodes, 24 with a short deck); then the deal is dealt from it
as the rules say. Player actions are the integer actions of :mod:`atout.envs.actions`;
the returns are each seat's side's marks minus the other sides' average (zero-sum).

The information-state and observation tensors are the seat's observation array (see
:mod:`atout.envs.encoding`), which has perfect recall: the order of the calls and the
trick of each card played are in it. The information-state string is the seat's dealt
hand and every action as the seat perceived it (the others' announcements by kind and
points only). ``resample_from_infostate`` (for IS-MCTS) deals the unseen cards again
consistently with what the seat knows, in the variants with a bidding auction.

>>> import pyspiel
>>> import atout.envs.spiel
>>> game = pyspiel.load_game("python_atout", {"preset": "contree"})
>>> game.num_players(), game.num_distinct_actions()
(4, 115)
>>> state = game.new_initial_state()
>>> import random
>>> rng = random.Random(1)
>>> while not state.is_terminal():
...     if state.is_chance_node():
...         state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
...     else:
...         state.apply_action(rng.choice(state.legal_actions()))
>>> sum(state.returns())
0.0
"""

from __future__ import annotations

import json
import random
from itertools import repeat
from typing import Any

import numpy as np
import pyspiel

from atout.actions import Declare, Play
from atout.bots.knowledge import Knowledge
from atout.cards import cards_of, deck_mask, format_hand
from atout.deal import Deal
from atout.envs.actions import action_space_of
from atout.envs.encoding import FloatArray, layout_of
from atout.envs.table import Table, deal_bound, seat_rewards
from atout.errors import AtoutError
from atout.rules import Ruleset

_DEFAULTS: dict[str, Any] = {"preset": "coinche", "options": "", "dealer": -1}
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)

GAME_TYPE = pyspiel.GameType(
    short_name="python_atout",
    long_name="atout: one deal of belote (any variant)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=2,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def ruleset_from_params(params: dict[str, Any]) -> Ruleset:
    """The ruleset the game's parameters name."""
    options = params.get("options") or ""
    extra = {}
    if options:
        try:
            extra = json.loads(options)
        except json.JSONDecodeError as err:
            raise AtoutError(f"the options parameter is not a JSON object: {err}") from None
        if not isinstance(extra, dict):
            raise AtoutError("the options parameter must be a JSON object of ruleset options")
    return Ruleset.preset(str(params.get("preset", "coinche")), **extra)


class Setup:
    """What a game's parameters fix: the ruleset, the dealer, the action space, the deck."""

    def __init__(self, params: dict[str, Any]) -> None:
        self.rules = ruleset_from_params(params)
        self.dealer = int(params["dealer"]) % self.rules.players
        self.space = action_space_of(self.rules)
        self.layout = layout_of(self.rules)
        self.deck = cards_of(deck_mask(self.rules.short_deck))

    def __deepcopy__(self, memo: dict[int, Any]) -> Setup:
        return self  # shared by the game's states, never changed


_SETUPS: dict[str, Setup] = {}


def setup_of(params: dict[str, Any]) -> Setup:
    """The (shared) setup of a game's parameters."""
    params = {**_DEFAULTS, **params}
    key = json.dumps(params, sort_keys=True)
    if key not in _SETUPS:
        _SETUPS[key] = Setup(params)
    return _SETUPS[key]


class AtoutGame(pyspiel.Game):
    """One deal of a ruleset."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = {**_DEFAULTS, **(params or {})}
        self.setup = setup = setup_of(params)
        rules, n = setup.rules, setup.rules.players
        calls = 2 * n if rules.auction == "retourne" else n * (len(setup.space.bids) + 2) + 2
        bound = float(deal_bound(rules))
        info = pyspiel.GameInfo(
            num_distinct_actions=setup.space.size,
            max_chance_outcomes=32,
            num_players=n,
            min_utility=-bound,
            max_utility=bound,
            utility_sum=0.0,
            max_game_length=len(setup.deck) + calls + n + n * rules.hand_size,
        )
        super().__init__(GAME_TYPE, info, params)

    def new_initial_state(self) -> AtoutState:
        return AtoutState(self)

    def make_py_observer(
        self, iig_obs_type: pyspiel.IIGObservationType | None = None, params: dict[str, Any] | None = None
    ) -> AtoutObserver:
        iig_obs_type = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        return AtoutObserver(self.setup, iig_obs_type, params)


class AtoutState(pyspiel.State):
    """A deal being dealt (chance nodes), then bid and played."""

    def __init__(self, game: AtoutGame) -> None:
        super().__init__(game)
        self.atout: Setup = game.setup
        self.cards: list[int] = []
        #: The cards still to deal.
        self.rest: list[int] = list(self.atout.deck)
        self.table: Table | None = None
        self.dealt: list[int] = []
        #: current_player(), which OpenSpiel asks for several times a step.
        self._player = _CHANCE

    @property
    def deal(self) -> Deal | None:
        """The deal, once dealt."""
        return self.table.deal if self.table is not None else None

    def current_player(self) -> int:
        return self._player

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(zip(self.rest, repeat(1.0 / len(self.rest))))

    def _legal_actions(self, player: int) -> list[int]:
        assert self.table is not None
        return self.table.legal_actions()

    def _apply_action(self, action: int) -> None:
        table = self.table
        if table is None:
            try:
                self.rest.remove(action)
            except ValueError:
                raise pyspiel.SpielError(f"chance action {action} is not a card left to deal") from None
            self.cards.append(action)
            if self.rest:
                return
            table = self._start()
        else:
            table.step(action)
        turn = table.turn
        self._player = _TERMINAL if turn is None else turn

    def _start(self) -> Table:
        rules = self.atout.rules
        self.table = table = Table(rules)
        table.start(Deal.from_deck(rules, self.cards, self.atout.dealer))
        self.dealt = [table.deal.hand_mask(s) for s in range(rules.players)]
        return table

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {format_hand(1 << action)}"
        return self.atout.space.label(action)

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def returns(self) -> list[float]:
        rules = self.atout.rules
        deal = self.deal
        if deal is None or deal.result is None:
            return [0.0] * rules.players
        marks = deal.result.marks or {s: 0 for s in rules.sides}
        rewards = seat_rewards(rules, marks)
        return [rewards[s] for s in range(rules.players)]

    def history_seen_by(self, player: int) -> str:
        """The seat's dealt hand and every action as the seat perceived it."""
        if self.deal is None:
            return f"p{player} dealing {len(self.cards)}"
        deal = self.deal
        parts = [f"p{player}", format_hand(self.dealt[player]), "|"]
        for index, (seat, action) in enumerate(deal.actions):
            if index == len(deal.auction.calls) and deal.rules.auction == "retourne":
                parts.append(f"| {format_hand(deal.initial_hands[player])} |")
            if isinstance(action, Declare) and seat != player:
                heard = ",".join(_heard(action))
                parts.append(f"{seat}:ann:{heard or '-'}")
            else:
                parts.append(f"{seat}:{action.notation()}")
        shown = deal.observation(player).shown
        parts.extend(f"{seat}:shown:{Declare(shown[seat]).notation()}" for seat in sorted(shown))
        return " ".join(parts)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> AtoutState:
        """A state ``player_id`` cannot tell from this one: the cards it has not seen dealt again at
        random, consistently with everything it saw (the plays it saw are legal, the announcements
        it heard are held), for IS-MCTS. Variants with a bidding auction only (around a retourne the
        stock's dealing would have to be inverted too)."""
        rules = self.atout.rules
        if rules.auction == "retourne":
            raise pyspiel.SpielError("resampling is implemented for the variants with a bidding auction")
        if self.table is None:
            return AtoutState(self.get_game())
        rng = random.Random(int(probability_sampler() * (1 << 62)))
        obs = self.table.deal.observation(player_id)
        knowledge = Knowledge.of(obs)
        played = [0] * rules.players
        for seat, action in self.table.deal.actions:
            if isinstance(action, Play):
                played[seat] |= 1 << action.card
        for _ in range(_RESAMPLING_TRIES):
            hands = knowledge.sample(rng)
            hands[player_id] = obs.hand
            world = self._world([hands[s] | played[s] for s in range(rules.players)], player_id)
            if world is not None:
                return world
        raise pyspiel.SpielError("no deal consistent with the player's information was found")

    def _world(self, dealt: list[int], player: int) -> AtoutState | None:
        """This state's actions replayed on a deal of these hands (None if they do not fit: the
        others' declarations must be found among their new announcements, by kind)."""
        setup = self.atout
        positions = Deal.from_deck(setup.rules, list(range(len(setup.deck))), setup.dealer)
        deck = [0] * len(setup.deck)
        for seat, hand in enumerate(dealt):
            for position, card in zip(cards_of(positions.hand_mask(seat)), cards_of(hand), strict=True):
                deck[position] = int(card)
        world = AtoutState(self.get_game())
        for dealt_card in deck:
            world.apply_action(dealt_card)
        assert self.table is not None and world.table is not None
        for seat, action in self.table.deal.actions:
            legal = world.table.deal.legal_actions()
            if isinstance(action, Declare) and seat != player:
                heard = _heard(action)
                found = [d for d in legal if isinstance(d, Declare) and _heard(d) == heard]
                if not found:
                    return None
                action = found[0]
            if action not in legal:
                return None
            best = legal[0].announcements if isinstance(legal[0], Declare) else ()
            world.apply_action(world.table.space.index(action, best))
        return world

    def __deepcopy__(self, memo: dict[int, Any]) -> AtoutState:
        twin = AtoutState(self.get_game())
        twin.cards = list(self.cards)
        twin.rest = list(self.rest)
        twin._player = self._player
        twin.dealt = list(self.dealt)
        twin.table = self.table.copy() if self.table is not None else None
        return twin

    def __str__(self) -> str:
        if self.deal is None:
            return f"dealing: {len(self.cards)} cards"
        return self.deal.position()


def _heard(declare: Declare) -> list[str]:
    """A declaration as the other seats hear it: the kinds of its announcements (FFB §8.2)."""
    return sorted(a.kind for a in declare.announcements)


_RESAMPLING_TRIES = 50


class AtoutObserver:
    """Tensors and strings of a seat's view (OpenSpiel's Python observer interface)."""

    def __init__(self, setup: Setup, iig_obs_type: pyspiel.IIGObservationType, params: dict[str, Any] | None):
        if params:
            raise ValueError(f"the atout observer takes no parameters, not {params}")
        if iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER or not iig_obs_type.public_info:
            raise ValueError(
                "the atout observer gives a seat's own view (public and single-player private information)"
            )
        self.layout = setup.layout
        self.perfect_recall = iig_obs_type.perfect_recall
        self.tensor: FloatArray = np.zeros(self.layout.size, np.float32)
        self.dict = {
            name: self.tensor[self.layout.slices[name]]
            for name, section in self.layout.sections.items()
            if section.unit
        }

    def set_from(self, state: AtoutState, player: int) -> None:
        if state.table is None:
            self.tensor.fill(0.0)
            return
        self.tensor[:] = state.table.observe(player)

    def string_from(self, state: AtoutState, player: int) -> str:
        if self.perfect_recall:
            return state.history_seen_by(player)
        if state.deal is None:
            return f"p{player} dealing {len(state.cards)}"
        obs = state.deal.observation(player)
        trick = " ".join(f"{s}:{c}" for s, c in obs.trick)
        contract = obs.contract.label("en") if obs.contract else "-"
        return f"p{player} {obs.phase.value} hand {format_hand(obs.hand)} contract {contract} trick {trick or '-'}"


pyspiel.register_game(GAME_TYPE, AtoutGame)

__all__ = ["GAME_TYPE", "AtoutGame", "AtoutObserver", "AtoutState", "Setup", "ruleset_from_params", "setup_of"]
