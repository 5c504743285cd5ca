"""Why a club player makes a move: a short reason for an action, read from the seat's own observation with the
rules of thumb of :class:`atout.bots.heuristic.HeuristicAgent` (what it chose and why), never from the deal.

The reason is a key; the interfaces put it into words (the web's practice tables: ``web.practice.reason.KEY``).
"""

from __future__ import annotations

from atout.actions import PASS, Action, Bid, Coinche, Declare, Play, Surcoinche, Take
from atout.observation import Observation
from atout.play import trick_winner_index
from atout.tables import TOUT_ATOUT, play_mode


def reason(obs: Observation, action: Action) -> str:
    """The key (under ``web.practice.reason.``) of why a club player makes ``action`` from ``obs``."""
    if isinstance(action, Declare):
        return "declare"
    if isinstance(action, Coinche):
        return "coinche"
    if isinstance(action, Surcoinche):
        return "surcoinche"
    if isinstance(action, Take):
        return "take"
    if isinstance(action, Bid):
        return "bid"
    if action == PASS or not isinstance(action, Play):
        return "pass_take" if obs.rules.auction == "retourne" else "pass"
    return _play_reason(obs, action)


def _play_reason(obs: Observation, action: Play) -> str:
    if obs.contract is None:
        return "cheap"
    if len({a.card for a in obs.legal_actions() if isinstance(a, Play)}) == 1:
        return "only"
    mode = play_mode(obs.contract.strain, obs.rules.ta_values)
    card = action.card
    gone = obs.played | obs.hand
    master = mode.above[card] & ~gone == 0
    trump = bool(mode.trump_mask >> card & 1) and mode.strain < 4
    if not obs.trick:
        takers = obs.rules.side_of(obs.contract.taker) == obs.rules.side_of(obs.seat)
        if trump and takers:
            return "draw_trumps"
        if master:
            return "lead_master"
        return "lead_low"
    cards = [c for _, c in obs.trick]
    win = trick_winner_index(cards, mode)
    partner_holds = obs.trick[win][0] == obs.rules.partner_of(obs.seat)
    if partner_holds and mode.points[card] >= 10 and not (trump and mode.strain != TOUT_ATOUT):
        return "load"
    if not partner_holds and mode.beats(card, cards[win]):
        return "win_last" if len(cards) == obs.rules.players - 1 else "win"
    if partner_holds:
        return "partner"
    return "cheap"
