"""Bot specs (TOML) and the one function that builds an agent from them.

A spec names the bidder and the card player and their budgets::

    name = "expert"
    bidder = "search"        # random | heuristic | search
    taker = "heuristic"      # who takes or passes around a retourne (classique, deux, trois);
                             # default: the bidder
    player = "search"        # random | heuristic | search
    samples = 24                  # search: deals sampled per card, at most
    nodes_per_card = 8_000_000    # search: solver nodes a card may search, at most
    nodes_per_sample = 0          # search: nodes charged to a card's budget for each deal sampled
                                  # (sampling's own cost, so cheap late solves do not run long)
    auction_tries = 30            # search: placements tried for one that fits the others' calls
                                  # (1: any placement the play allows, the calls unread)
    misfit_scale = 0.0            # search, card play: above 0, each sampled deal is any placement
                                  # the play allows, weighted exp(-misfit / misfit_scale), the misfit
                                  # being the points its hands fall short of the others' bids
    bid_samples = 8               # search: deals sampled to value the contracts, at most
    nodes_per_call = 20_000_000   # search: solver nodes a call may search, at most
    time_per_card = 1.0           # search, interactive tables only: seconds a card may take, at most
    time_per_call = 2.0           # search, interactive tables only: seconds a call may take, at most
    bid_model = ""                # search: a learned judgement values the suit contracts instead of
                                  # sampled deals (atout.bots.learned): a shipped model's name or an
                                  # .npz file; none by default
    bid_make_rate = 0.5      # search: how often (in the samples) a contract must be made to bid it
    coinche_fail_rate = 0.75 # search: how often it must fail to coinche it
    aggression = 0           # heuristic and search: points added to its hand's estimates when bidding
    noise = 0.0              # chance of playing a random card instead (card play only)
    seed = 0

The levels shipped with atout (``random``, ``debutant``, ``club``, ``heuristic``,
``expert``) are such files in ``atout/bots/levels``. The arena, the terminal table
and Python users all build bots with :func:`build_agent`.

Another engine's bot (:mod:`atout.bots.peers`) is a spec with ``engine = "colver"`` and
``peer_spec``, that engine's own spec (TOML text, or its tables under ``[peer_spec.…]``);
``colver:NAME`` names one of :data:`atout.bots.peers.COLVER_SPECS` and ``colver:FILE.toml``
reads a colver spec file.

The search budgets are counted in solver nodes, so that a bot's decisions are the same on
any machine: a pure function of what it saw, its spec and its seed. The seconds are a
safety cap that only bots built with ``wall_clock=True`` (the terminal and web tables) obey.

>>> spec = load_spec("club")
>>> spec.bidder, spec.player
('heuristic', 'heuristic')
>>> try:
...     load_spec({"name": "x", "bidder": "psychic"})
... except AtoutError as err:
...     print(err.message("en"))
bot spec 'x': bidder 'psychic' is not one of random, heuristic, search
"""

from __future__ import annotations

import random
import tomllib
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from atout.actions import Action
from atout.bots.base import Agent, RandomAgent
from atout.bots.heuristic import HeuristicAgent
from atout.errors import AtoutError, excerpt, os_reason, toml_reason
from atout.i18n import Message
from atout.observation import Observation

KINDS = ("random", "heuristic", "search")
LEVELS = ("random", "debutant", "club", "heuristic", "expert")
#: Engines whose bots atout seats: its own, and colver's (:mod:`atout.bots.peers`).
ENGINES = ("atout", "colver")
#: Fields added since results files were first written: :meth:`BotSpec.to_dict` leaves them out
#: at their default, so a spec's record (and a run resumed from it) stays the same.
_ADDED_FIELDS = ("engine", "peer_spec", "nodes_per_sample", "auction_tries", "misfit_scale", "bid_model")
#: The largest node budget a decision may have (some minutes of search).
MAX_NODES = 10_000_000_000
#: The numeric fields' bounds; a field whose default is whole takes whole numbers only, and the
#: seconds (``time_per_…``) must be above 0.
_BOUNDS: dict[str, tuple[int, int]] = {
    "samples": (1, 10_000),
    "bid_samples": (1, 10_000),
    "auction_tries": (1, 1000),
    "misfit_scale": (0, 1000),
    "nodes_per_sample": (0, MAX_NODES),
    "nodes_per_card": (1, MAX_NODES),
    "nodes_per_call": (1, MAX_NODES),
    "time_per_card": (0, 60),
    "time_per_call": (0, 60),
    "bid_make_rate": (0, 1),
    "coinche_fail_rate": (0, 1),
    "noise": (0, 1),
    "aggression": (-100, 100),
}


@dataclass(frozen=True)
class BotSpec:
    """Everything that defines a bot."""

    name: str
    bidder: str = "heuristic"
    player: str = "heuristic"
    taker: str | None = None
    samples: int = 24
    nodes_per_card: int = 8_000_000
    nodes_per_sample: int = 0
    auction_tries: int = 30
    misfit_scale: float = 0.0
    bid_samples: int = 8
    nodes_per_call: int = 20_000_000
    time_per_card: float = 1.0
    time_per_call: float = 2.0
    bid_model: str = ""
    bid_make_rate: float = 0.5
    coinche_fail_rate: float = 0.75
    aggression: int = 0
    noise: float = 0.0
    seed: int = 0
    #: Whose bot it is: atout's (the fields above), or another engine's, described by ``peer_spec``.
    engine: str = "atout"
    peer_spec: str = ""

    def __post_init__(self) -> None:
        if self.engine not in ENGINES:
            raise self._wrong(
                Message("bots.choice", field="engine", value=excerpt(repr(self.engine)), allowed=", ".join(ENGINES))
            )
        if (self.engine == "atout") != (not self.peer_spec):
            raise self._wrong(Message("bots.peer_spec"))
        for role in ("bidder", "player", "taker"):
            value = getattr(self, role)
            if value not in KINDS and (role != "taker" or value is not None):
                raise self._wrong(
                    Message("bots.choice", field=role, value=excerpt(repr(value)), allowed=", ".join(KINDS))
                )
        if not isinstance(self.bid_model, str):
            raise self._wrong(
                Message(
                    "bots.bid_model",
                    value=excerpt(repr(self.bid_model)),
                    reason=Message("bots.bid_model_file", reason="str"),
                )
            )
        if self.bid_model and self.bidder != "search":
            raise self._wrong(
                Message("bots.bid_model", value=excerpt(repr(self.bid_model)), reason=Message("bots.bid_model_bidder"))
            )
        for name, (low, high) in _BOUNDS.items():
            value = getattr(self, name)
            whole = isinstance(BotSpec.__dataclass_fields__[name].default, int)
            seconds = name.startswith("time_per_")
            number = not isinstance(value, bool) and isinstance(value, int if whole else (int, float))
            if not (number and (low < value if seconds else low <= value) and value <= high):
                key = "bots.seconds" if seconds else "bots.whole_range" if whole else "bots.range"
                bounds = {"low": _shown(low), "high": _shown(high)}
                raise self._wrong(Message(key, field=name, value=excerpt(repr(value)), **bounds))

    def _wrong(self, reason: Message) -> AtoutError:
        """The error of a field of this spec: its name, then ``reason``."""
        return AtoutError(Message("bots.spec", name=excerpt(str(self.name)), reason=reason))

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        for name in _ADDED_FIELDS:
            if data[name] == BotSpec.__dataclass_fields__[name].default:
                del data[name]
        return data


def _shown(bound: int) -> str:
    """A bound as a spec file may write it: ``10_000_000_000``, ``1000``."""
    return f"{bound:_}" if abs(bound) >= 10_000 else str(bound)


def load_spec(source: str | Path | dict[str, Any] | BotSpec) -> BotSpec:
    """A spec from a level name, a TOML file's path, TOML text or a dict.

    >>> try:
    ...     load_spec("psychic")
    ... except AtoutError as err:
    ...     print(err.message("en"))
    unknown bot 'psychic' (levels: random, debutant, club, heuristic, expert; or a TOML file)
    """
    if isinstance(source, BotSpec):
        return source
    if isinstance(source, dict):
        return spec_from_dict(source)
    text = str(source)
    if text.startswith("colver:"):
        return _colver_spec(text.removeprefix("colver:"))
    if text in LEVELS:
        return parse_spec(resources.files("atout.bots").joinpath("levels", f"{text}.toml").read_text(encoding="utf-8"))
    if "=" in text:
        return parse_spec(text)
    if not text.endswith(".toml") and not Path(text).is_file():
        raise AtoutError(Message("bots.unknown", name=excerpt(text), levels=", ".join(LEVELS)))
    return parse_spec(_read(text))


def _read(path: str) -> str:
    """A spec file's text; :class:`AtoutError` if it cannot be read."""
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = os_reason(err) if isinstance(err, OSError) else Message("bots.not_text")
        raise AtoutError(Message("bots.cannot_read", path=excerpt(path), reason=reason)) from None


def parse_spec(text: str) -> BotSpec:
    """A spec from TOML text (a ``[bot]`` table, or its fields at the top)."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise AtoutError(Message("bots.toml", reason=toml_reason(err))) from None
    return spec_from_dict(data.get("bot", data))


def spec_from_dict(data: dict[str, Any]) -> BotSpec:
    """A spec from its fields; raises :class:`AtoutError` naming a missing name or an unknown field."""
    if not isinstance(data, dict) or "name" not in data:
        raise AtoutError(Message("bots.no_name"))
    if "peer_spec" in data:
        from atout.bots.peers import peer_spec_text

        data = {**data, "peer_spec": peer_spec_text(data["peer_spec"])}
    unknown = sorted(set(data) - set(BotSpec.__dataclass_fields__))
    if unknown:
        fields = Message("bots.unknown_fields", fields=excerpt(", ".join(unknown)))
        raise AtoutError(Message("bots.spec", name=excerpt(str(data["name"])), reason=fields))
    return BotSpec(**data)


def _colver_spec(which: str) -> BotSpec:
    """``colver:NAME`` (a spec atout knows by name) or ``colver:FILE`` (a colver spec file)."""
    from atout.bots.peers import COLVER_SPECS, peer_spec_text

    if which in COLVER_SPECS:
        return BotSpec(f"colver:{which}", engine="colver", peer_spec=COLVER_SPECS[which])
    path = Path(which)
    if not path.is_file():
        known = ", ".join(f"colver:{name}" for name in COLVER_SPECS)
        raise AtoutError(Message("bots.unknown_colver", name=excerpt(which), known=known))
    return BotSpec(f"colver:{path.stem}", engine="colver", peer_spec=peer_spec_text(_read(which)))


class ComposedAgent:
    """An auction agent (with its own taker for take-or-pass auctions around a retourne) and a
    card-play agent behind one interface; ``noise`` is the chance of a random card (a beginner's
    slips; his bidding stays his own)."""

    def __init__(
        self, name: str, bidder: Agent, player: Agent, noise: float, seed: int, taker: Agent | None = None
    ) -> None:
        self.name = name
        self.bidder = bidder
        self.taker = taker or bidder
        self.player = player
        self.noise = noise
        self.rng = random.Random(seed)

    def act(self, obs: Observation) -> Action:
        if obs.phase.value == "auction":
            return (self.taker if obs.rules.auction == "retourne" else self.bidder).act(obs)
        if self.noise and self.rng.random() < self.noise:
            return self.rng.choice(obs.legal_actions())
        return self.player.act(obs)


def build_agent(
    spec: str | Path | dict[str, Any] | BotSpec, seed: int | None = None, *, wall_clock: bool = False
) -> Agent:
    """Build the agent a spec describes; ``seed`` (default: the spec's) makes it reproducible.

    Its decisions are then a pure function of what it sees, on any machine. With ``wall_clock``
    a search bot also stops a decision at the spec's ``time_per_card`` or ``time_per_call``
    seconds (for interactive tables: a cap on the wait when the machine is slow or busy), and
    then may decide differently on a slower machine.
    """
    spec = load_spec(spec)
    seed = spec.seed if seed is None else seed
    if spec.engine == "colver":
        from atout.bots.peers import ColverAgent

        return ColverAgent(spec, seed)

    def make(kind: str, salt: int) -> Agent:
        if kind == "random":
            return RandomAgent(spec.name, seed * 7919 + salt)
        if kind == "heuristic":
            return HeuristicAgent(spec.name, spec.aggression)
        from atout.bots.search import SearchAgent

        return SearchAgent(spec, seed * 7919 + salt, wall_clock)

    player = make(spec.player, 2)
    bidder = player if spec.bidder == spec.player else make(spec.bidder, 1)
    taker = None if spec.taker in (None, spec.bidder) else make(spec.taker, 3)
    return ComposedAgent(spec.name, bidder, player, spec.noise, seed, taker)
