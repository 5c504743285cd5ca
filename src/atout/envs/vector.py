"""Many deals stepped together in compiled code: a Gymnasium vector environment, turn-based.

:class:`VectorTable` holds ``num_envs`` deals of one ruleset and steps them all at once with the
numba kernels of :mod:`atout.fast.simulate`: one action per deal, for the seat whose turn it is
there. Actions, observations and masks are the other environments' (:mod:`atout.envs.actions`,
:mod:`atout.envs.encoding`), held to the rules core action by action by the differential tests.

It follows Gymnasium's ``VectorEnv`` (``reset``, ``step``, the batched spaces, same-step
autoreset), with what a game of four seats adds: ``step`` returns every seat's reward
(``rewards[deal, seat]``: its side's marks minus the other side's when the deal ends, 0 before),
``infos["turn"]`` says whose observation each row of ``observations`` is, ``infos["action_mask"]``
the legal actions, ``infos["marks"]`` the marks of the deals that ended in the step (``marks[deal, side]``; side 0 holds
seats 0 and 2), and :attr:`VectorTable.observations` holds every seat's array.

>>> import numpy as np
>>> from atout.envs.vector import VectorTable
>>> envs = VectorTable("contree", num_envs=4)
>>> obs, infos = envs.reset(seed=1)
>>> obs.shape, infos["action_mask"].shape
((4, 655), (4, 115))
>>> finished = 0
>>> while finished < 8:
...     actions = envs.sample_actions()
...     obs, rewards, terminations, truncations, infos = envs.step(actions)
...     finished += int(terminations.sum())
>>> bool((rewards.sum(axis=1) == 0).all())      # zero-sum, seat by seat
True
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from atout.auction import bids, next_higher_bids
from atout.envs.actions import action_space_of
from atout.envs.aec import ruleset_of
from atout.envs.encoding import FloatArray, layout_of
from atout.errors import AtoutError
from atout.fast import simulate as sim
from atout.rules import Ruleset

IntArray = npt.NDArray[np.int64]

#: The observation's sections, in the order of the kernels' offsets (``atout.fast.simulate.O_*``).
_SECTIONS = (
    "phase",
    "dealer",
    "turn",
    "hand",
    "bids",
    "coinche",
    "surcoinche",
    "contract_strain",
    "contract_level",
    "contract_capot",
    "contract_value",
    "taker",
    "played",
    "trick_of_card",
    "trick",
    "leader",
    "voids",
    "tricks_won",
    "card_points",
    "belote",
    "deal_marks",
    "to_declare",
    "declared",
    "shown",
    "announcement_winner",
)
_SCORINGS = {"ffb": sim.FFB, "faits_annonces": sim.FAITS_ANNONCES, "faits": sim.FAITS, "annonces": sim.ANNONCES}


def unsupported(rules: Ruleset) -> str | None:
    """Why the batched simulator cannot play ``rules`` (None if it can).

    It plays four players bidding (``coinche``, ``contree``, ``contree-colver`` and their house rules),
    the announcements valued and compared as the FFB does; the other rulesets have the step-by-step
    environments.

    >>> unsupported(Ruleset.preset("coinche")) is None
    True
    >>> unsupported(Ruleset.preset("bazar"))
    'announcement_values (the simulator values announcements as the FFB does)'
    """
    ffb_announcements = rules.announcement_values == rules.announcement_tiebreak == "ffb"
    reasons = (
        (rules.players != 4, "players (the simulator plays four)"),
        (rules.auction != "bids", "auction (the simulator plays bidding auctions, not the retourne)"),
        (
            rules.announcements and not ffb_announcements,
            "announcement_values (the simulator values announcements as the FFB does)",
        ),
        (rules.scoring not in _SCORINGS, f"scoring (the simulator scores {', '.join(_SCORINGS)})"),
        (rules.rounding == "dizaines", "rounding (the simulator rounds to the nearest ten or not at all)"),
    )
    return next((reason for failing, reason in reasons if failing), None)


def _config(rules: Ruleset, dealer: int | None) -> IntArray:
    values = {
        sim.C_OVER_PARTNER: rules.overtrump_partner,
        sim.C_UNDERTRUMP: rules.must_undertrump,
        sim.C_UNDER_PARTNER: rules.undertrump_partner,
        sim.C_BELOTE: rules.belote,
        sim.C_IMPRENABLE: rules.belote_imprenable,
        sim.C_DEFENCE_KEEPS: rules.defence_keeps_belote,
        sim.C_BELOTE_POINTS: rules.belote_points,
        sim.C_COINCHE: rules.coinche,
        sim.C_SURCOINCHE: rules.surcoinche,
        sim.C_CAPOT_BID_MIN: rules.capot_bid_min,
        sim.C_GOAL_CARDS: rules.goal_points == "cards",
        sim.C_MIN_POINTS: rules.min_points,
        sim.C_MUST_BEAT: rules.must_beat_defence,
        sim.C_TIE_MADE: rules.tie == "made",
        sim.C_CHUTE: rules.chute_points,
        sim.C_COINCHE_X: rules.coinche_multiplier,
        sim.C_SURCOINCHE_X: rules.surcoinche_multiplier,
        sim.C_SCOPE_ALL: rules.multiplier_scope == "all",
        sim.C_CAPOT_POINTS: rules.capot_points,
        sim.C_CAPOT_CONTRACT: rules.capot_contract,
        sim.C_CAPOT_TAKERS: rules.capot_bonus == "takers",
        sim.C_CAPOT_PRIME: rules.capot_prime,
        sim.C_ROUND: rules.rounding == "nearest",
        sim.C_TA_MODE: 6 if rules.ta_values == "funbelote" else sim.TOUT_ATOUT,
        sim.C_DEALER: -1 if dealer is None else dealer,
        sim.C_SCORING: _SCORINGS[rules.scoring],
        sim.C_HIGHEST: rules.highest_bid,
        sim.C_ANNOUNCE: rules.announcements,
        sim.C_LITIGE: rules.litige != "off",
    }
    config = np.zeros(sim.CONFIG, np.int64)
    for column, value in values.items():
        config[column] = int(value)
    return config


class VectorTable(gymnasium.vector.VectorEnv[FloatArray, IntArray, npt.NDArray[Any]]):
    """``num_envs`` deals of ``rules`` (a preset's name or a :class:`~atout.rules.Ruleset`), stepped together.

    ``dealer`` fixes every deal's dealer (drawn at random for each deal by default). With
    ``autoreset`` (the default) a deal that ends is dealt anew in the same step: ``step`` returns
    its rewards and ``terminations`` True with the new deal's first observation. Without it, a
    deal that ends stays over (its turn -1, its mask empty, its action ignored) until
    :meth:`reset_done`. With ``copy=False`` the arrays returned are the simulator's own, overwritten
    by the next step (the fastest way; copy what you keep).
    """

    def __init__(
        self,
        rules: Ruleset | str = "contree",
        num_envs: int = 1024,
        *,
        dealer: int | None = None,
        autoreset: bool = True,
        copy: bool = True,
    ) -> None:
        self.rules = rules = ruleset_of(rules)
        reason = unsupported(rules)
        if reason is not None:
            raise AtoutError(f"the batched simulator cannot play the ruleset {rules.name!r}: {reason}")
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise AtoutError(f"num_envs must be a positive integer, not {num_envs!r}")
        if dealer is not None and (isinstance(dealer, bool) or dealer not in range(4)):
            raise AtoutError(f"dealer must be a seat 0..3 or None, not {dealer!r}")
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self.num_envs = num_envs
        self.autoreset = autoreset
        self.copy = copy
        self.layout = layout = layout_of(rules)
        self.space = action_space_of(rules)
        size, actions = layout.size, self.space.size
        self.single_observation_space = spaces.Box(layout.low, layout.high, dtype=np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Box(
            np.tile(layout.low, (num_envs, 1)), np.tile(layout.high, (num_envs, 1)), dtype=np.float32
        )
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self._config = _config(rules, dealer)
        ladder = bids(rules)
        self._ladder = np.array([(b.value, b.strain, int(b.capot)) for b in ladder], np.int64).reshape(-1, 3)
        self._next_higher = np.array(next_higher_bids(rules), np.int64)
        self._offsets = np.array([layout.sections[name].offset for name in _SECTIONS], np.int64)
        self._state = np.zeros((num_envs, sim.COLUMNS), np.int64)
        self._obs = np.zeros((num_envs, 4, size), np.float32)
        self._mask = np.zeros((num_envs, actions), np.int8)
        self._out = np.zeros((num_envs, size), np.float32)
        self._rewards = np.zeros((num_envs, 4), np.float32)
        self._done = np.zeros(num_envs, np.bool_)
        self._ended = np.zeros((num_envs, 2), np.int64)
        self._truncated = np.zeros(num_envs, np.bool_)
        self._sampler = np.ones(1, np.int64)
        self._started = False
        for deal in range(num_envs):  # every deal over until the first reset
            self._state[deal, sim.PHASE] = sim.OVER
            self._state[deal, sim.TURN] = -1

    # ------------------------------------------------------------------ episodes
    def reset(
        self, *, seed: int | list[int] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[FloatArray, dict[str, Any]]:
        """Deal every deal anew (from ``seed``: the same seed deals the same deals); with
        ``options={"hands": hands, "dealers": dealers}``, start the deals given instead: ``hands``
        holds each deal's four hands as card masks (``num_envs × 4``), ``dealers`` its dealer."""
        if isinstance(seed, list):
            raise AtoutError("seed must be one integer (each deal draws from a stream of its own)")
        given = self._given(options) if options else None  # checked before anything changes
        if seed is not None or not self._started:
            sim.seed_streams(self._state, int(np.random.SeedSequence(seed).generate_state(1, np.uint64)[0] >> 1))
        self._started = True
        if given is None:
            sim.deal_all(self._state, self._obs, self._config, self._offsets)
        else:
            hands, dealers = given
            for deal in range(self.num_envs):
                sim.start(self._state, self._obs, deal, hands[deal], int(dealers[deal]), self._offsets)
        self._refresh()
        return self._give(self._out), self._infos()

    def _given(self, options: dict[str, Any]) -> tuple[IntArray, IntArray]:
        """The deals of ``reset``'s options, checked."""
        unknown = set(options) - {"hands", "dealers"}
        if unknown or "hands" not in options:
            raise AtoutError(f"reset's options are hands and dealers, not {', '.join(sorted(unknown)) or 'nothing'}")
        try:
            hands = np.asarray(options["hands"], np.int64)
            dealers = np.asarray(options.get("dealers", np.zeros(self.num_envs)), np.int64)
        except (TypeError, ValueError, OverflowError):
            raise AtoutError("hands must be card masks (integers) and dealers seats") from None
        if hands.shape != (self.num_envs, 4) or dealers.shape != (self.num_envs,):
            raise AtoutError(f"hands must be {self.num_envs} × 4 card masks and dealers {self.num_envs} seats")
        for deal, (four, dealer) in enumerate(zip(hands.tolist(), dealers.tolist(), strict=True)):
            union = 0
            for hand in four:
                union |= hand
            if any(h < 0 or h.bit_count() != 8 for h in four) or union != (1 << 32) - 1 or not 0 <= dealer < 4:
                raise AtoutError(f"deal {deal}: four hands of eight cards dealing the 32 cards, and a dealer 0..3")
        return hands, dealers

    def reset_done(self) -> None:
        """Deal anew the deals that are over (without ``autoreset``)."""
        for deal in np.flatnonzero(self._state[:, sim.PHASE] == sim.OVER):
            sim.deal_new(self._state, self._obs, int(deal), self._config, self._offsets)
        self._refresh()

    def _refresh(self) -> None:
        sim.refresh(self._state, self._obs, self._mask, self._out, self._config, self._ladder, self._next_higher)

    # ------------------------------------------------------------------ steps
    def step(
        self, actions: npt.ArrayLike
    ) -> tuple[FloatArray, npt.NDArray[Any], npt.NDArray[Any], npt.NDArray[Any], dict[str, Any]]:
        """Apply one action per deal for its seat in turn (ignored where a deal is over). An illegal
        action raises :class:`~atout.errors.AtoutError` naming the deal and the action, and changes nothing."""
        if not self._started:
            raise AtoutError("reset the environment before its first step")
        chosen = np.asarray(actions)
        if chosen.shape != (self.num_envs,) or not np.issubdtype(chosen.dtype, np.integer):
            raise AtoutError(f"actions must be {self.num_envs} integers, one per deal")
        chosen = chosen.astype(np.int64, copy=False)
        bad = sim.first_illegal(self._state, self._mask, chosen)
        if bad >= 0:
            action = int(chosen[bad])
            name = self.space.label(action) if 0 <= action < self.space.size else "out of range"
            raise AtoutError(f"deal {bad}: action {action} ({name}) is not legal now")
        sim.step(
            self._state,
            self._obs,
            self._mask,
            chosen,
            self._rewards,
            self._done,
            self._ended,
            self._out,
            self._config,
            self._ladder,
            self._next_higher,
            self._offsets,
            self.autoreset,
        )
        give = self._give
        return give(self._out), give(self._rewards), give(self._done), give(self._truncated), self._infos()

    def sample_actions(self) -> IntArray:
        """A legal action drawn at random for each deal (-1 where a deal is over): a random player."""
        actions = np.empty(self.num_envs, np.int64)
        sim.sample(self._mask, actions, self._sampler)
        return actions

    # ------------------------------------------------------------------ what the deals show
    @property
    def observations(self) -> FloatArray:
        """Every seat's observation: ``observations[deal, seat]`` (the simulator's array, read-only)."""
        view = self._obs.view()
        view.flags.writeable = False
        return view

    @property
    def turn(self) -> IntArray:
        """The seat to act in each deal (-1 once over)."""
        return self._state[:, sim.TURN].copy()

    def _give(self, array: npt.NDArray[Any]) -> npt.NDArray[Any]:
        return array.copy() if self.copy else array

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._give(self._mask),
            "turn": self._state[:, sim.TURN].copy(),
            "marks": self._give(self._ended),
        }


__all__ = ["VectorTable", "unsupported"]
