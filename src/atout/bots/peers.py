"""Other engines' bots at atout's tables, refereed by atout: colver (``pip install 'atout[peers]'``).

colver is an open belote contrée engine with Python bindings. Its bots play the ``contree-colver``
preset, the ruleset its engine implements (docs/rules.md). A colver bot is a spec with
``engine = "colver"`` whose ``peer_spec`` is colver's own bot spec (its ``[bid]``, ``[play]`` and
``[worlds]`` tables); :func:`atout.bots.build_agent` builds it like any other bot, and
:func:`atout.bots.load_spec` reads ``colver:NAME`` (a spec of :data:`COLVER_SPECS`) and
``colver:path/to/spec.toml`` (a colver spec file).

A colver bot gets an :class:`~atout.observation.Observation` like every atout bot, never the deal.
For each decision it deals a colver ``Env`` the seat's own hand and, for the hidden cards, a
placement consistent with everything the seat saw (:class:`~atout.bots.knowledge.Knowledge`:
voids, trump ceilings, belotes said and not said), replays the auction and the play into a fresh
colver ``Agent`` (``init_deal``, then ``observe`` before each action), and maps its answer back to
an atout action. colver's agents read only their own hand from the ``Env``, so the placement does
not change their decision (see docs/bots.md for the measurement).

>>> from atout.actions import parse_action
>>> to_colver_card(Card.parse("10S")), to_colver_card(Card.parse("JH")), str(from_colver_card(31))
(6, 11, 'A♣')
>>> [to_colver_action(parse_action(call)) for call in ("P", "90D", "160C", "capotC", "X", "XX")]
[0, 7, 36, 40, 41, 42]
"""

from __future__ import annotations

import random
import tomllib
from typing import TYPE_CHECKING, Any

from atout.actions import COINCHE, PASS, SURCOINCHE, Action, Bid, Play
from atout.bots.knowledge import Knowledge
from atout.cards import Card
from atout.errors import AtoutError, excerpt, toml_reason
from atout.i18n import Message
from atout.observation import Observation
from atout.rules import OPTION_NAMES, Ruleset

if TYPE_CHECKING:
    import colver

    from atout.bots.specs import BotSpec

#: The ruleset colver's engine plays.
COLVER_PRESET = "contree-colver"

#: colver bots known by name (``colver:NAME``): colver's own spec format.
COLVER_SPECS: dict[str, str] = {
    # The strongest open belote AI we know: colver's rule-based bidder improved_v2, then determinized double-dummy
    # card play (IS-DD) over worlds drawn uniformly under the hard constraints, one second a card
    # (wall-clock, colver's default determinizations); the label colver gives it:
    # "improved_v2/isdd:1000ms+unif".
    "improved_isdd": """[bid]
strategy = "improved_v2"
[play]
method = "isdd"
time_ms = 1000
[worlds]
source = "uniform"
""",
    # The same bidder with colver's heuristic card player: instant, for tests and quick checks.
    "improved_heuristic": """[bid]
strategy = "improved_v2"
[play]
method = "heuristic"
""",
}

#: Options a colver bot ignores: the match and how the cards reach the hands (colver plays single
#: deals from the hands it is given). Every other option must be the ``contree-colver`` preset's.
MATCH_OPTIONS = frozenset(
    [
        "target",
        "deals",
        "game_end",
        "both_past",
        "belote_only_rule",
        "traditional_deal",
        "cut_min",
        "packets",
        "direction",
    ]
)

#: colver's card index of atout's ranks 7 8 9 10 J Q K A (colver orders a suit 7 8 9 J Q K 10 A).
_RANK_TO_COLVER = (0, 1, 2, 6, 3, 4, 5, 7)
_RANK_FROM_COLVER = tuple(_RANK_TO_COLVER.index(i) for i in range(8))
#: colver's calls: 0 pass, 1..36 the bids 80..160 (four suits each), 37..40 capot, 41 and 42 the coinches.
_FIRST_BID, _FIRST_CAPOT = 1, 37
_CALL_NUMBERS: dict[Action, int] = {PASS: 0, COINCHE: 41, SURCOINCHE: 42}
_BID_VALUES = range(80, 161, 10)


def import_colver() -> Any:
    """The colver module, or an :class:`AtoutError` naming the extra that installs it."""
    try:
        import colver
    except ImportError:
        raise AtoutError(Message("peers.extra")) from None
    return colver


def to_colver_card(card: int) -> int:
    """colver's index of an atout card (suits in the same order, ranks not)."""
    return (card & ~7) | _RANK_TO_COLVER[card & 7]


def from_colver_card(index: int) -> Card:
    """The atout card of a colver card index."""
    if not 0 <= index < 32:
        raise AtoutError(f"colver card index {index} is not 0..31")
    return Card((index & ~7) | _RANK_FROM_COLVER[index & 7])


def to_colver_action(action: Action) -> int:
    """colver's action number of an atout call or card (``contree-colver``'s calls only)."""
    if isinstance(action, Play):
        return to_colver_card(action.card)
    if action in _CALL_NUMBERS:
        return _CALL_NUMBERS[action]
    if isinstance(action, Bid) and action.strain < 4:
        if action.capot and not action.value:
            return _FIRST_CAPOT + action.strain
        if not action.capot and action.value in _BID_VALUES:
            return _FIRST_BID + _BID_VALUES.index(action.value) * 4 + action.strain
    raise AtoutError(f"colver has no action for {action.notation()}")


def from_colver_action(number: int, phase: str) -> Action:
    """The atout action of colver's action ``number`` in a deal's ``phase`` ("auction" or "play");
    a card comes without belote (:func:`legal_answer` adds it)."""
    if phase == "play":
        return Play(from_colver_card(number))
    if _FIRST_BID <= number < _FIRST_CAPOT:
        value, strain = divmod(number - _FIRST_BID, 4)
        return Bid(_BID_VALUES[value], strain)
    if _FIRST_CAPOT <= number < _FIRST_CAPOT + 4:
        return Bid(0, number - _FIRST_CAPOT, True)
    for call, known in _CALL_NUMBERS.items():
        if known == number:
            return call
    raise AtoutError(f"colver action {number} is not a call")


def legal_answer(action: Action, legal: list[Action]) -> Action:
    """``action`` as one of ``legal`` (a card with belote when it may be said with it), or an
    :class:`AtoutError` if it is not legal."""
    if isinstance(action, Play):
        plays = [a for a in legal if isinstance(a, Play) and a.card == action.card]
        if plays:
            return max(plays, key=lambda a: a.belote)
    elif action in legal:
        return action
    raise AtoutError(f"colver answered {action.notation()}, which is not legal here")


def check_rules(rules: Ruleset) -> None:
    """Raise :class:`AtoutError` unless ``rules`` plays deals the way colver's engine does."""
    expected = Ruleset.preset(COLVER_PRESET)
    wrong = [n for n in OPTION_NAMES if n not in MATCH_OPTIONS and getattr(rules, n) != getattr(expected, n)]
    if wrong:
        shown = ", ".join(f"{name} = {getattr(rules, name)!r}" for name in wrong)
        raise AtoutError(Message("peers.rules", preset=COLVER_PRESET, options=shown))


def history(obs: Observation) -> list[Action]:
    """Every public action of the deal so far, in order (the auction, then the cards)."""
    out = [action for _, action in obs.calls]
    for trick in obs.tricks:
        out.extend(Play(card) for card in trick.cards)
    out.extend(Play(card) for _, card in obs.trick)
    return out


def placed_hands(obs: Observation, rng: random.Random) -> list[int]:
    """Every seat's hand as dealt (masks): the seat's own, and for the others the cards they played
    and a placement of the hidden cards consistent with what the seat saw."""
    know = Knowledge.of(obs, always_say_belote=True)
    placed = know.sample(rng)
    hands = [placed.get(seat, 0) | know.played.get(seat, 0) for seat in range(obs.rules.players)]
    hands[obs.seat] = obs.hand | know.played.get(obs.seat, 0)
    return hands


def colver_env(dealer: int, hands: list[int]) -> colver.Env:
    """A colver ``Env`` dealt ``hands`` (atout masks by seat) by ``dealer``, before the auction."""
    engine = import_colver()
    cards = [[to_colver_card(c) for c in range(32) if hand >> c & 1] for hand in hands]
    env: colver.Env = engine.Env.deal_with_hands(dealer, cards)
    return env


def peer_spec_text(source: str | dict[str, Any]) -> str:
    """colver's spec as text, from TOML text or the tables it holds; checked to be TOML."""
    if isinstance(source, dict):
        lines = []
        for table, values in source.items():
            if not isinstance(values, dict) or any(isinstance(v, (dict, list)) for v in values.values()):
                raise AtoutError(Message("peers.tables", table=excerpt(str(table))))
            lines.append(f"[{table}]")
            lines.extend(f"{key} = {_toml_value(value)}" for key, value in values.items())
        return "\n".join(lines) + "\n"
    if not isinstance(source, str):
        raise AtoutError(Message("peers.text"))
    try:
        tomllib.loads(source)
    except tomllib.TOMLDecodeError as err:
        raise AtoutError(Message("peers.toml", reason=toml_reason(err))) from None
    return source


def _toml_value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    return str(value)


class ColverAgent:
    """A colver bot behind atout's agent interface (see the module's doc)."""

    def __init__(self, spec: BotSpec, seed: int) -> None:
        engine = import_colver()
        self.name = spec.name
        self.spec_text = spec.peer_spec
        self.seed = seed
        self.rng = random.Random(seed)
        try:
            engine.Agent(self.spec_text, 0, seed)
        except (ValueError, RuntimeError) as err:
            refused = Message("peers.refused", reason=str(err))
            raise AtoutError(Message("bots.spec", name=excerpt(spec.name), reason=refused)) from None
        #: colver's answer to the last decision it was asked (its stats included).
        self.last_decision: dict[str, Any] = {}

    def act(self, obs: Observation) -> Action:
        check_rules(obs.rules)
        legal = obs.legal_actions()
        if not legal:
            raise AtoutError("the colver bot was asked to act out of turn")
        if len({a.card if isinstance(a, Play) else a for a in legal}) == 1:
            return legal_answer(legal[0], legal)
        env, agent = self.replay(obs, placed_hands(obs, self.rng))
        self.last_decision = agent.decide(env)
        action = from_colver_action(int(self.last_decision["action"]), obs.phase.value)
        return legal_answer(action, legal)

    def replay(self, obs: Observation, hands: list[int]) -> tuple[colver.Env, colver.Agent]:
        """A colver ``Env`` dealt ``hands`` and a fresh ``Agent`` for the seat, both brought to the
        observation's moment."""
        engine = import_colver()
        env = colver_env(obs.dealer, hands)
        agent: colver.Agent = engine.Agent(self.spec_text, obs.seat, self.seed)
        agent.init_deal(env)
        for action in history(obs):
            number = to_colver_action(action)
            if number not in env.legal_actions():  # colver's Env would take it without a word
                raise AtoutError(f"colver's engine refuses {action.notation()} where atout allowed it")
            agent.observe(env, number)
            env.step(number)
        return env, agent


__all__ = [
    "COLVER_PRESET",
    "COLVER_SPECS",
    "ColverAgent",
    "check_rules",
    "colver_env",
    "from_colver_action",
    "from_colver_card",
    "history",
    "import_colver",
    "legal_answer",
    "peer_spec_text",
    "placed_hands",
    "to_colver_action",
    "to_colver_card",
]
