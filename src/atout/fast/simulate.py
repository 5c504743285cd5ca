"""The batched simulator's kernels: many deals of one ruleset stepped together (see :mod:`atout.envs.vector`).

A deal's state is one row of an int64 array (the columns below), every seat's observation one row of a
float32 array ``obs[deal, seat]`` in the environments' encoding (:mod:`atout.envs.encoding`), kept up to
date action by action, the turn and the trick in progress included; the legal actions one row of an int8
mask in the environments' action space (:mod:`atout.envs.actions`). The rules are the rules core's, read
from a ruleset's options (``config``) and bid ladder; :func:`atout.envs.vector.unsupported` says which
rulesets these kernels cover, and the differential tests hold them to the core at every step.
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from atout.announcements import best_announcements as core_best_announcements
from atout.announcements import carre_points
from atout.fast.cache import guard
from atout.fast.kernels import POINTS, beats, legal_mask, lowest, popcount
from atout.tables import PLAIN_STRENGTH

# ---------------------------------------------------------------- a deal's columns
PHASE, DEALER, TURN, BEST, BEST_SEAT, LEVEL, PASSES, COINCHER, SURCOINCHER, CAPOT_SIDE = range(10)
LEADER, COUNT, WIN_POS, WIN_CARD, TRICKS, STRAIN, MODE, TAKER, RNG, PASSED_OUT = range(10, 20)
TRICK, HANDS, BELOTE_CARDS, BELOTE_OK, BELOTE_SAID, BELOTES = 20, 24, 28, 32, 36, 40
POINTS_WON, TRICKS_WON, MARKS = 44, 46, 48
#: Announcements: each seat's best ones at the play's start (count; then, by seat, three of cards, kind,
#: points and strength), what it declared (bits of those, -1 until it has decided), the resolution.
ANN_COUNT, ANN_LIST, DECLARED, ANN_WINNER, ANN_PUBLISHED, ANN_POINTS = 50, 54, 102, 106, 107, 108
COLUMNS = 110
#: An announcement's four columns, and the most a seat holds.
A_CARDS, A_KIND, A_POINTS, A_KEY = range(4)
MOST_ANNOUNCEMENTS = 3
#: Phases (as the observation's ``phase`` section orders them).
AUCTION, PLAY, OVER = 0, 1, 2

# ---------------------------------------------------------------- the ruleset's options
(
    C_OVER_PARTNER,
    C_UNDERTRUMP,
    C_UNDER_PARTNER,
    C_BELOTE,
    C_IMPRENABLE,
    C_DEFENCE_KEEPS,
    C_BELOTE_POINTS,
    C_COINCHE,
    C_SURCOINCHE,
    C_CAPOT_BID_MIN,
    C_GOAL_CARDS,
    C_MIN_POINTS,
    C_MUST_BEAT,
    C_TIE_MADE,
    C_CHUTE,
    C_COINCHE_X,
    C_SURCOINCHE_X,
    C_SCOPE_ALL,
    C_CAPOT_POINTS,
    C_CAPOT_CONTRACT,
    C_CAPOT_TAKERS,
    C_CAPOT_PRIME,
    C_ROUND,
    C_TA_MODE,
    C_DEALER,
    C_SCORING,
    C_HIGHEST,
    C_ANNOUNCE,
    C_LITIGE,
) = range(29)
CONFIG = 29
#: Scoring formulas (``config[C_SCORING]``).
FAITS_ANNONCES, FAITS, ANNONCES, FFB = 0, 1, 2, 3

# ---------------------------------------------------------------- where the observation's sections start
(
    O_PHASE,
    O_DEALER,
    O_TURN,
    O_HAND,
    O_BIDS,
    O_COINCHE,
    O_SURCOINCHE,
    O_STRAIN,
    O_LEVEL,
    O_CAPOT,
    O_VALUE,
    O_TAKER,
    O_PLAYED,
    O_TRICK_OF_CARD,
    O_TRICK,
    O_LEADER,
    O_VOIDS,
    O_TRICKS_WON,
    O_CARD_POINTS,
    O_BELOTE,
    O_MARKS,
    O_TO_DECLARE,
    O_DECLARED,
    O_SHOWN,
    O_ANN_WINNER,
) = range(25)
OFFSETS = 25

# ---------------------------------------------------------------- the action space (atout.envs.actions)
A_BELOTE, A_DECLARE, A_PASS, A_COINCHE, A_SURCOINCHE, A_BIDS = 32, 40, 48, 49, 50, 55
#: An announcement's block in the observation: its kind one-hot (tierce, cinquante, cent, carré), points / 200.
ANN_UNIT = 5
SANS_ATOUT, TOUT_ATOUT = 4, 5
_QUEEN_KING = 0x60
HAND_SIZE = 8
DIX_DE_DER = 10


def _sequence_tables() -> tuple[np.ndarray, np.ndarray]:
    """For each byte of a suit's cards, its best sequences (the rules core's split): (low rank, length) each."""
    sequences = np.zeros((256, 2, 2), np.int64)
    count = np.zeros(256, np.int64)
    for byte in range(256):
        found = core_best_announcements(byte, 0)  # one suit's cards: sequences only
        count[byte] = len(found)
        for j, announcement in enumerate(found):
            sequences[byte, j] = ((announcement.cards & -announcement.cards).bit_length() - 1, announcement.length)
    return sequences, count


SEQUENCES, SEQUENCE_COUNT = _sequence_tables()
#: A carré's points by strain and rank (0 for the 7 and the 8, which make none), FFB values.
CARRE_POINTS = np.array(
    [[carre_points(rank, strain) if rank >= 2 else 0 for rank in range(8)] for strain in range(6)], np.int64
)
RANK_STRENGTH = np.array(PLAIN_STRENGTH, np.int64)
_CARRE_RANKS = 0xFC
_ONE_OF_EACH_SUIT = 0x01010101


@njit(cache=True, inline="always")
def _seat_put(obs: np.ndarray, d: int, at: int, unit: int, seat: int, index: int, value: float) -> None:
    """Write an entry of ``seat``'s block of a seat section in every seat's observation."""
    for viewer in range(4):
        obs[d, viewer, at + ((seat - viewer) & 3) * unit + index] = value


@njit(cache=True, inline="always")
def _side_put(obs: np.ndarray, d: int, at: int, side: int, value: float) -> None:
    """Write a side's one-entry block of a side section in every seat's observation."""
    for viewer in range(4):
        obs[d, viewer, at + ((side - viewer) & 1)] = value


@njit(cache=True, inline="always")
def _global_put(obs: np.ndarray, d: int, at: int, value: float) -> None:
    for viewer in range(4):
        obs[d, viewer, at] = value


@njit(cache=True, inline="always")
def _random(s: np.ndarray, d: int) -> int:
    """The deal's next random number (xorshift64*, its state in the RNG column)."""
    x = np.uint64(s[d, RNG])
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    s[d, RNG] = np.int64(x)
    return int((x * np.uint64(2685821657736338717)) >> np.uint64(33))


@njit(cache=True)
def seed_streams(s: np.ndarray, seed: int) -> None:
    """Give each deal's row a random stream of its own, from ``seed`` and the row's number (splitmix64)."""
    for d in range(s.shape[0]):
        z = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) + np.uint64(d + 1) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
        z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
        z ^= z >> np.uint64(31)
        s[d, RNG] = np.int64(z | np.uint64(1))


@njit(cache=True)
def start(s: np.ndarray, obs: np.ndarray, d: int, hands: np.ndarray, dealer: int, off: np.ndarray) -> None:
    """Start deal ``d`` with these hands (masks by seat) and dealer."""
    rng = s[d, RNG]
    s[d, :] = 0
    s[d, RNG] = rng
    obs[d, :, :] = 0.0
    s[d, DEALER] = dealer
    s[d, BEST] = -1
    s[d, BEST_SEAT] = -1
    s[d, COINCHER] = -1
    s[d, SURCOINCHER] = -1
    s[d, CAPOT_SIDE] = -1
    s[d, STRAIN] = -1
    s[d, TAKER] = -1
    s[d, LEADER] = -1
    turn = (dealer + 1) & 3
    s[d, TURN] = turn
    _global_put(obs, d, off[O_PHASE], 1.0)
    _seat_put(obs, d, off[O_DEALER], 1, dealer, 0, 1.0)
    _seat_put(obs, d, off[O_TURN], 1, turn, 0, 1.0)
    for seat in range(4):
        hand = hands[seat]
        s[d, HANDS + seat] = hand
        for card in range(32):
            if (hand >> card) & 1:
                obs[d, seat, off[O_HAND] + card] = 1.0


@njit(cache=True)
def deal_new(s: np.ndarray, obs: np.ndarray, d: int, config: np.ndarray, off: np.ndarray) -> None:
    """Shuffle and start a new deal in row ``d`` (the dealer fixed by the options, or drawn)."""
    deck = np.arange(32)
    for i in range(31, 0, -1):
        j = _random(s, d) % (i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    hands = np.zeros(4, np.int64)
    for i in range(32):
        hands[i >> 3] |= 1 << deck[i]
    dealer = config[C_DEALER] if config[C_DEALER] >= 0 else _random(s, d) & 3
    start(s, obs, d, hands, dealer, off)


@njit(cache=True)
def auction_mask(
    s: np.ndarray, mask: np.ndarray, d: int, config: np.ndarray, ladder: np.ndarray, next_higher: np.ndarray
) -> None:
    """The legal calls of the seat in turn: pass, the higher bids (only capot bids against a capot, with
    ``capot_bid_min``), coinche against the other side's bid, surcoinche of one's side's coinched bid."""
    mask[d, :] = 0
    mask[d, A_PASS] = 1
    seat = s[d, TURN]
    best = s[d, BEST]
    level = s[d, LEVEL]
    if level == 0:
        first = 0 if best < 0 else next_higher[best]
        capot_side = s[d, CAPOT_SIDE]
        only_capot = capot_side >= 0 and capot_side != (seat & 1)
        for k in range(first, ladder.shape[0]):
            if not only_capot or ladder[k, 2]:
                mask[d, A_BIDS + k] = 1
        if best >= 0 and config[C_COINCHE] and (s[d, BEST_SEAT] - seat) & 1:
            mask[d, A_COINCHE] = 1
    elif level == 1 and config[C_SURCOINCHE] and not (s[d, BEST_SEAT] - seat) & 1:
        mask[d, A_SURCOINCHE] = 1


@njit(cache=True)
def play_mask(s: np.ndarray, mask: np.ndarray, d: int, config: np.ndarray) -> None:
    """The legal cards of the seat in turn, and those of them it may play saying belote."""
    mask[d, :] = 0
    seat = s[d, TURN]
    count = s[d, COUNT]
    hand = s[d, HANDS + seat]
    if count == 0:
        legal = hand
    else:
        partner = count >= 2 and s[d, WIN_POS] == count - 2
        legal = legal_mask(
            hand,
            s[d, TRICK],
            s[d, WIN_CARD],
            partner,
            s[d, MODE],
            config[C_OVER_PARTNER] != 0,
            config[C_UNDERTRUMP] != 0,
            config[C_UNDER_PARTNER] != 0,
        )
    for card in range(32):
        if (legal >> card) & 1:
            mask[d, card] = 1
    belote = legal & s[d, BELOTE_OK + seat]
    while belote:
        card = lowest(belote)
        belote &= belote - 1
        mask[d, A_BELOTE + 2 * (card >> 3) + (card & 7) - 5] = 1


@njit(cache=True)
def _sequences(rest: int, strain: int, found: np.ndarray, n: int) -> int:
    """Add the sequences of ``rest`` (suit by suit) to ``found`` (rows: cards, kind, points, strength)."""
    for suit in range(4):
        byte = (rest >> (8 * suit)) & 255
        for j in range(SEQUENCE_COUNT[byte]):
            low, length = SEQUENCES[byte, j, 0], SEQUENCES[byte, j, 1]
            points = 20 if length == 3 else (50 if length == 4 else 100)
            trump = 1 if strain == TOUT_ATOUT or suit == strain else 0
            found[n, A_CARDS] = ((1 << length) - 1) << (8 * suit + low)
            found[n, A_KIND] = length - 3
            found[n, A_POINTS] = points
            found[n, A_KEY] = points * 1000 + (low + length - 1) * 10 + trump
            n += 1
    return n


@njit(cache=True)
def _strongest_first(found: np.ndarray, n: int) -> None:
    """Sort the announcements by strength, strongest first, equal ones in their order (a stable sort)."""
    for i in range(1, n):
        j = i
        while j > 0 and found[j, A_KEY] > found[j - 1, A_KEY]:
            for column in range(4):
                found[j, column], found[j - 1, column] = found[j - 1, column], found[j, column]
            j -= 1


@njit(cache=True)
def best_announcements(hand: int, strain: int, out: np.ndarray) -> int:
    """The hand's best non-overlapping announcements, strongest first, in ``out`` (the rules core's
    ``best_announcements`` with the FFB values and tie-break; the strength is one number ordered as the
    core's key: points, carré, height, trump). Returns how many."""
    in_all_suits = hand & (hand >> 8) & (hand >> 16) & (hand >> 24) & _CARRE_RANKS
    if in_all_suits == 0:
        n = _sequences(hand, strain, out, 0)
        _strongest_first(out, n)
        return n
    ranks = np.empty(8, np.int64)
    m = 0
    for rank in range(2, 8):
        if (in_all_suits >> rank) & 1:
            ranks[m] = rank
            m += 1
    found = np.zeros((MOST_ANNOUNCEMENTS + 3, 4), np.int64)
    best_n, best_total = -1, -1
    for size in range(m + 1):
        for used in range(1 << m):  # the combinations of each size in the core's order (m ≤ 3)
            if popcount(used) != size:
                continue
            rest, n, total = hand, 0, 0
            for k in range(m):
                if (used >> k) & 1:
                    rank = ranks[k]
                    rest &= ~(_ONE_OF_EACH_SUIT << rank)
                    found[n, A_CARDS] = _ONE_OF_EACH_SUIT << rank
                    found[n, A_KIND] = 3
                    found[n, A_POINTS] = CARRE_POINTS[strain, rank]
                    found[n, A_KEY] = CARRE_POINTS[strain, rank] * 1000 + 100 + RANK_STRENGTH[rank] * 10
                    n += 1
            n = _sequences(rest, strain, found, n)
            _strongest_first(found, n)
            for i in range(n):
                total += found[i, A_POINTS]
            if _better(total, found, n, best_total, out, best_n):
                best_n, best_total = n, total
                out[:n, :] = found[:n, :]
    return best_n


@njit(cache=True)
def _better(total: int, found: np.ndarray, n: int, best_total: int, best: np.ndarray, best_n: int) -> bool:
    """Is (total, strengths…) above the best so far, compared as the core compares its keys (a tuple that
    is a beginning of another is below it)?"""
    if best_n < 0 or total != best_total:
        return best_n < 0 or total > best_total
    for i in range(min(n, best_n)):
        if found[i, A_KEY] != best[i, A_KEY]:
            return found[i, A_KEY] > best[i, A_KEY]
    return n > best_n


@njit(cache=True)
def _deal_announcements(s: np.ndarray, obs: np.ndarray, d: int, strain: int, off: np.ndarray) -> None:
    """At the play's start: each seat's best announcements, and the choice to declare them (``to_declare``)."""
    found = np.zeros((MOST_ANNOUNCEMENTS, 4), np.int64)
    unit = 32 + ANN_UNIT
    for seat in range(4):
        n = best_announcements(s[d, HANDS + seat], strain, found)
        s[d, ANN_COUNT + seat] = n
        s[d, DECLARED + seat] = -1 if n else 0
        for i in range(n):
            for column in range(4):
                s[d, ANN_LIST + seat * 12 + i * 4 + column] = found[i, column]
            at = off[O_TO_DECLARE] + i * unit
            cards = found[i, A_CARDS]
            for card in range(32):
                if (cards >> card) & 1:
                    obs[d, seat, at + card] = 1.0
            obs[d, seat, at + 32 + found[i, A_KIND]] = 1.0
            obs[d, seat, at + 32 + 4] = found[i, A_POINTS] / 200.0


@njit(cache=True)
def _declare(s: np.ndarray, obs: np.ndarray, d: int, bits: int, off: np.ndarray) -> None:
    """The seat in turn declares the announcements of ``bits`` (of its best ones) with its first card: the
    others hear their kinds, and the points of its sequences (a carré's only once shown, FFB §8.2)."""
    seat = s[d, TURN]
    s[d, DECLARED + seat] = bits
    for k in range(MOST_ANNOUNCEMENTS * (32 + ANN_UNIT)):
        obs[d, seat, off[O_TO_DECLARE] + k] = 0.0
    i = 0
    for k in range(s[d, ANN_COUNT + seat]):
        if (bits >> k) & 1:
            at = ANN_LIST + seat * 12 + k * 4
            kind = s[d, at + A_KIND]
            _seat_put(obs, d, off[O_DECLARED], 3 * ANN_UNIT, seat, i * ANN_UNIT + kind, 1.0)
            value = s[d, at + A_POINTS] / 200.0
            if kind == 3:
                obs[d, seat, off[O_DECLARED] + i * ANN_UNIT + 4] = value
            else:
                _seat_put(obs, d, off[O_DECLARED], 3 * ANN_UNIT, seat, i * ANN_UNIT + 4, value)
            i += 1


@njit(cache=True)
def _resolve(s: np.ndarray, d: int) -> None:
    """At the end of trick 1: the side whose announcements count (the strictly strongest one declared; none
    on a tie), and its points (every announcement its players declared, FFB §8.3)."""
    strongest = np.full(2, -1, np.int64)
    for seat in range(4):
        for k in range(s[d, ANN_COUNT + seat]):
            if (s[d, DECLARED + seat] >> k) & 1:
                strongest[seat & 1] = max(strongest[seat & 1], s[d, ANN_LIST + seat * 12 + k * 4 + A_KEY])
    winner = -1
    if strongest[0] != strongest[1]:
        winner = 0 if strongest[0] > strongest[1] else 1
    s[d, ANN_WINNER] = winner
    if winner < 0:
        return
    for seat in range(winner, 4, 2):
        for k in range(s[d, ANN_COUNT + seat]):
            if (s[d, DECLARED + seat] >> k) & 1:
                s[d, ANN_POINTS + winner] += s[d, ANN_LIST + seat * 12 + k * 4 + A_POINTS]


@njit(cache=True)
def _publish(s: np.ndarray, obs: np.ndarray, d: int, off: np.ndarray) -> None:
    """At the first card of trick 2, the announcements that count are shown (FFB §8.3)."""
    s[d, ANN_PUBLISHED] = 1
    winner = s[d, ANN_WINNER]
    if winner < 0:
        return
    for seat in range(winner, 4, 2):
        for k in range(s[d, ANN_COUNT + seat]):
            if (s[d, DECLARED + seat] >> k) & 1:
                cards = s[d, ANN_LIST + seat * 12 + k * 4 + A_CARDS]
                for card in range(32):
                    if (cards >> card) & 1:
                        _seat_put(obs, d, off[O_SHOWN], 32, seat, card, 1.0)
    _side_put(obs, d, off[O_ANN_WINNER], winner, 1.0)


@njit(cache=True)
def turn_mask(s: np.ndarray, mask: np.ndarray, d: int, config: np.ndarray) -> None:
    """In the play: the declare choices (every part of its best announcements) of a seat that must first
    decide them, otherwise its cards."""
    seat = s[d, TURN]
    if s[d, DECLARED + seat] >= 0:
        play_mask(s, mask, d, config)
        return
    mask[d, :] = 0
    for bits in range(1 << s[d, ANN_COUNT + seat]):
        mask[d, A_DECLARE + bits] = 1


@njit(cache=True)
def _start_play(
    s: np.ndarray, obs: np.ndarray, d: int, config: np.ndarray, ladder: np.ndarray, off: np.ndarray
) -> None:
    best = s[d, BEST]
    strain = ladder[best, 1]
    s[d, STRAIN] = strain
    s[d, MODE] = config[C_TA_MODE] if strain == TOUT_ATOUT else strain
    s[d, TAKER] = s[d, BEST_SEAT]
    s[d, PHASE] = PLAY
    _global_put(obs, d, off[O_PHASE], 0.0)
    _global_put(obs, d, off[O_PHASE] + 1, 1.0)
    _global_put(obs, d, off[O_STRAIN] + strain, 1.0)
    _global_put(obs, d, off[O_LEVEL] + s[d, LEVEL], 1.0)
    _global_put(obs, d, off[O_CAPOT], float(ladder[best, 2]))
    _global_put(obs, d, off[O_VALUE], ladder[best, 0] / config[C_HIGHEST])
    _seat_put(obs, d, off[O_TAKER], 1, s[d, BEST_SEAT], 0, 1.0)
    leader = (s[d, DEALER] + 1) & 3
    s[d, LEADER] = leader
    _seat_put(obs, d, off[O_LEADER], 1, leader, 0, 1.0)
    if config[C_ANNOUNCE]:
        _deal_announcements(s, obs, d, strain, off)
    if config[C_BELOTE] and strain != SANS_ATOUT:
        for seat in range(4):
            held = 0
            for suit in range(4):
                if strain == TOUT_ATOUT or suit == strain:
                    pair = _QUEEN_KING << (8 * suit)
                    if s[d, HANDS + seat] & pair == pair:
                        held |= pair
            s[d, BELOTE_CARDS + seat] = held
            s[d, BELOTE_OK + seat] = held


@njit(cache=True)
def _set_turn(s: np.ndarray, obs: np.ndarray, d: int, turn: int, off: np.ndarray) -> None:
    old = s[d, TURN]
    if old >= 0:
        _seat_put(obs, d, off[O_TURN], 1, old, 0, 0.0)
    if turn >= 0:
        _seat_put(obs, d, off[O_TURN], 1, turn, 0, 1.0)
    s[d, TURN] = turn


@njit(cache=True)
def _call(
    s: np.ndarray, obs: np.ndarray, d: int, action: int, config: np.ndarray, ladder: np.ndarray, off: np.ndarray
) -> int:
    """Apply a call; return the phase it leaves the deal in."""
    seat = s[d, TURN]
    finished = False
    if action == A_PASS:
        s[d, PASSES] += 1
        if s[d, BEST] < 0 and s[d, PASSES] == 4:
            s[d, PASSED_OUT] = 1
            return OVER
        finished = s[d, BEST] >= 0 and s[d, PASSES] == 3
    elif action == A_COINCHE:
        s[d, LEVEL] = 1
        s[d, PASSES] = 0
        s[d, COINCHER] = seat
        _seat_put(obs, d, off[O_COINCHE], 1, seat, 0, 1.0)
    elif action == A_SURCOINCHE:
        s[d, LEVEL] = 2
        s[d, SURCOINCHER] = seat
        _seat_put(obs, d, off[O_SURCOINCHE], 1, seat, 0, 1.0)
        finished = True
    else:
        k = action - A_BIDS
        s[d, BEST] = k
        s[d, BEST_SEAT] = seat
        s[d, PASSES] = 0
        if ladder[k, 2] and config[C_CAPOT_BID_MIN]:
            s[d, CAPOT_SIDE] = seat & 1
        _seat_put(obs, d, off[O_BIDS], ladder.shape[0], seat, k, 1.0)
    if finished:
        _start_play(s, obs, d, config, ladder, off)
        _set_turn(s, obs, d, s[d, LEADER], off)
        return PLAY
    _set_turn(s, obs, d, (seat + 1) & 3, off)
    return AUCTION


@njit(cache=True)
def _play(s: np.ndarray, obs: np.ndarray, d: int, action: int, config: np.ndarray, off: np.ndarray) -> int:
    """Play a card (saying belote with ``action`` 32..39); return the phase it leaves the deal in."""
    seat = s[d, TURN]
    if action >= A_DECLARE:
        _declare(s, obs, d, action - A_DECLARE, off)
        return PLAY
    if config[C_ANNOUNCE] and s[d, TRICKS] == 1 and s[d, COUNT] == 0 and not s[d, ANN_PUBLISHED]:
        _publish(s, obs, d, off)
    said = action >= A_BELOTE
    if said:
        pair = action - A_BELOTE
        card = 8 * (pair >> 1) + 5 + (pair & 1)
    else:
        card = action
    bit = 1 << card
    if s[d, BELOTE_CARDS + seat] & bit:
        other = bit ^ (_QUEEN_KING << (card & ~7))
        if said:
            if s[d, BELOTE_SAID + seat] & other:
                s[d, BELOTES + seat] += 1
            s[d, BELOTE_SAID + seat] |= bit
            _seat_put(obs, d, off[O_BELOTE], 8, seat, 2 * (card >> 3) + (card & 7) - 5, 1.0)
        else:
            s[d, BELOTE_OK + seat] &= ~other
        s[d, BELOTE_OK + seat] &= ~bit
    s[d, HANDS + seat] ^= bit
    obs[d, seat, off[O_HAND] + card] = 0.0
    _seat_put(obs, d, off[O_PLAYED], 32, seat, card, 1.0)
    _global_put(obs, d, off[O_TRICK_OF_CARD] + card, (s[d, TRICKS] + 1) / HAND_SIZE)
    _seat_put(obs, d, off[O_TRICK], 32, seat, card, 1.0)
    count = s[d, COUNT]
    mode = s[d, MODE]
    if count == 0:
        s[d, WIN_CARD] = card
        s[d, WIN_POS] = 0
    else:
        led = s[d, TRICK] >> 3
        if card >> 3 != led:
            _seat_put(obs, d, off[O_VOIDS], 4, seat, led, 1.0)
        if beats(card, s[d, WIN_CARD], mode):
            s[d, WIN_CARD] = card
            s[d, WIN_POS] = count
    s[d, TRICK + count] = card
    count += 1
    if count < 4:
        s[d, COUNT] = count
        _set_turn(s, obs, d, (seat + 1) & 3, off)
        return PLAY
    # The trick is complete.
    s[d, COUNT] = 0
    leader = s[d, LEADER]
    winner = (leader + s[d, WIN_POS]) & 3
    value = 0
    for i in range(4):
        c = s[d, TRICK + i]
        value += POINTS[mode, c]
        _seat_put(obs, d, off[O_TRICK], 32, (leader + i) & 3, c, 0.0)
    tricks = s[d, TRICKS] + 1
    s[d, TRICKS] = tricks
    if tricks == 1 and config[C_ANNOUNCE]:
        _resolve(s, d)
    if tricks == HAND_SIZE:
        value += DIX_DE_DER
    side = winner & 1
    s[d, POINTS_WON + side] += value
    s[d, TRICKS_WON + side] += 1
    _side_put(obs, d, off[O_TRICKS_WON], side, s[d, TRICKS_WON + side] / HAND_SIZE)
    _side_put(obs, d, off[O_CARD_POINTS], side, s[d, POINTS_WON + side] / 162.0)
    _seat_put(obs, d, off[O_LEADER], 1, leader, 0, 0.0)
    if tricks == HAND_SIZE:
        return OVER
    s[d, LEADER] = winner
    _seat_put(obs, d, off[O_LEADER], 1, winner, 0, 1.0)
    _set_turn(s, obs, d, winner, off)
    return PLAY


@njit(cache=True, inline="always")
def _round(points: int, config: np.ndarray) -> int:
    return (points + 5) // 10 * 10 if config[C_ROUND] else points


@njit(cache=True, inline="always")
def _scoped(marks: np.ndarray, side: int, base: int, amount: int, mult: int, config: np.ndarray) -> None:
    """Add ``base`` plus the contract, the coinche multiplier applied as ``multiplier_scope`` says."""
    if config[C_SCOPE_ALL] or mult == 1:
        marks[side] += (base + amount) * mult
    else:
        marks[side] += base + amount * mult


@njit(cache=True)
def score(s: np.ndarray, d: int, config: np.ndarray, ladder: np.ndarray) -> None:
    """Each side's marks for the deal just played (the rules core's ``score_deal``: the formulas ``ffb``,
    ``faits_annonces``, ``faits`` and ``annonces``, a litige's takers scoring nothing yet)."""
    best = s[d, BEST]
    value = ladder[best, 0]
    capot_bid = ladder[best, 2] != 0
    level = s[d, LEVEL]
    t = s[d, TAKER] & 1
    w_def = 1 - t
    capot = -1
    card = np.zeros(2, np.int64)
    belote = np.zeros(2, np.int64)
    ann = np.zeros(2, np.int64)
    marks = np.zeros(2, np.int64)
    for side in range(2):
        card[side] = s[d, POINTS_WON + side]
        ann[side] = s[d, ANN_POINTS + side]
        if s[d, TRICKS_WON + side] == HAND_SIZE:
            capot = side
    if capot >= 0:
        card[capot] = config[C_CAPOT_POINTS]
        card[1 - capot] = 0
    for seat in range(4):
        belote[seat & 1] += s[d, BELOTES + seat] * config[C_BELOTE_POINTS]
    amount = config[C_CAPOT_CONTRACT] if capot_bid and value == 0 else value
    mult = 1 if level == 0 else (config[C_COINCHE_X] if level == 1 else config[C_SURCOINCHE_X])
    # The outcome.
    counted_t = card[t] + (0 if config[C_GOAL_CARDS] else belote[t] + ann[t])
    counted_d = card[w_def] + (0 if config[C_GOAL_CARDS] else belote[w_def] + ann[w_def])
    goal = max(value, config[C_MIN_POINTS])
    made = counted_t >= goal and (not capot_bid or capot == t)
    if made and config[C_MUST_BEAT] and counted_t <= counted_d:
        if counted_t == counted_d and config[C_LITIGE] and level == 0:  # a litige: the defence scores its own
            marks[w_def] = card[w_def] + belote[w_def] + ann[w_def]
            for side in range(2):
                s[d, MARKS + side] = _round(marks[side], config)
            return
        made = counted_t == counted_d and config[C_TIE_MADE] != 0
    w = t if made else w_def
    scoring = config[C_SCORING]
    prenable = 0 if config[C_IMPRENABLE] else 1
    prime = config[C_CAPOT_CONTRACT] if scoring == ANNONCES else config[C_CAPOT_PRIME]
    belotes_to_winner = scoring != FFB
    if scoring == FFB:
        if made and level == 0:
            taken = 1 if prenable and not config[C_DEFENCE_KEEPS] else 0
            marks[t] += card[t] + belote[t] + ann[t] + amount
            if capot == t:
                marks[t] += ann[w_def]
                marks[w_def] += belote[w_def] * (1 - taken)
            else:
                marks[w_def] += card[w_def] + belote[w_def] * (1 - taken) + ann[w_def]
            marks[t] += belote[w_def] * taken
        elif made:
            first = config[C_CAPOT_CONTRACT] if capot == t else config[C_CHUTE]
            base = first + ann[t] + belote[t] + ann[w_def] + belote[w_def] * prenable
            _scoped(marks, t, base, amount, mult, config)
            marks[w_def] += belote[w_def] * (1 - prenable)
        else:
            marks[t] += belote[t] * (1 - prenable)
            base = config[C_CHUTE] + ann[w_def] + belote[w_def] + ann[t] + belote[t] * prenable
            _scoped(marks, w_def, base, amount, mult, config)
    elif capot_bid and prime:
        marks[w] += prime * mult
        belotes_to_winner = scoring != ANNONCES
    elif scoring == ANNONCES:
        belotes_to_winner = False
        if level:
            marks[w] += amount * mult
        elif made:
            marks[w] += amount
        else:
            marks[w] += config[C_CHUTE]
    elif level:
        base = config[C_CAPOT_POINTS] if made and config[C_CAPOT_TAKERS] and capot == t else config[C_CHUTE]
        if scoring == FAITS:
            marks[w] += base * mult
        else:
            _scoped(marks, w, base, amount, mult, config)
    elif made:
        marks[t] += card[t] + (amount if scoring == FAITS_ANNONCES else 0)
        marks[w_def] += card[w_def]
    elif capot == w_def and not config[C_CAPOT_TAKERS]:
        marks[w_def] += card[w_def] + (amount if scoring == FAITS_ANNONCES else 0)
    else:
        marks[w_def] += config[C_CHUTE] + (amount if scoring == FAITS_ANNONCES else 0)
    if belotes_to_winner:
        taken = not config[C_IMPRENABLE] and not (config[C_DEFENCE_KEEPS] and level == 0)
        keep = config[C_IMPRENABLE] or (w == t and not taken)
        for side in range(2):
            if belote[side]:
                marks[side if keep else w] += belote[side]
    for side in range(2):
        s[d, MARKS + side] = _round(marks[side], config)


@njit(cache=True)
def _end(
    s: np.ndarray, obs: np.ndarray, d: int, rewards: np.ndarray, config: np.ndarray, ladder: np.ndarray, off: np.ndarray
) -> None:
    """The deal is over: its phase, marks and rewards (each seat: its side's marks minus the other's)."""
    _set_turn(s, obs, d, -1, off)
    s[d, PHASE] = OVER
    _global_put(obs, d, off[O_PHASE], 0.0)
    _global_put(obs, d, off[O_PHASE] + 1, 0.0)
    _global_put(obs, d, off[O_PHASE] + 2, 1.0)
    if s[d, PASSED_OUT]:
        return
    score(s, d, config, ladder)
    for side in range(2):
        _side_put(obs, d, off[O_MARKS], side, s[d, MARKS + side] / 1000.0)
    gap = float(s[d, MARKS] - s[d, MARKS + 1])
    for seat in range(4):
        rewards[d, seat] = gap if seat & 1 == 0 else -gap


@njit(cache=True)
def step(
    s: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    actions: np.ndarray,
    rewards: np.ndarray,
    done: np.ndarray,
    marks: np.ndarray,
    out: np.ndarray,
    config: np.ndarray,
    ladder: np.ndarray,
    next_higher: np.ndarray,
    off: np.ndarray,
    autoreset: bool,
) -> None:
    """Apply each deal's action (legal: checked by the caller against ``mask``) for its seat in turn; a
    deal that ends gives its rewards and ``marks``, is marked ``done`` and, with ``autoreset``, is dealt anew. Then
    the masks, and ``out``: the observation of each deal's seat in turn (of no seat once over)."""
    for d in range(s.shape[0]):
        rewards[d, :] = 0.0
        marks[d, :] = 0
        done[d] = False
        if s[d, PHASE] == OVER:
            continue
        action = actions[d]
        phase = (
            _call(s, obs, d, action, config, ladder, off)
            if s[d, PHASE] == AUCTION
            else _play(s, obs, d, action, config, off)
        )
        if phase == OVER:
            _end(s, obs, d, rewards, config, ladder, off)
            done[d] = True
            marks[d, 0] = s[d, MARKS]
            marks[d, 1] = s[d, MARKS + 1]
            if autoreset:
                deal_new(s, obs, d, config, off)
                auction_mask(s, mask, d, config, ladder, next_higher)
            else:
                mask[d, :] = 0
        elif phase == PLAY:
            turn_mask(s, mask, d, config)
        else:
            auction_mask(s, mask, d, config, ladder, next_higher)
        _observe(s, obs, out, d)


@njit(cache=True, inline="always")
def _observe(s: np.ndarray, obs: np.ndarray, out: np.ndarray, d: int) -> None:
    turn = s[d, TURN]
    if turn >= 0:
        out[d, :] = obs[d, turn, :]
    else:
        out[d, :] = 0.0


@njit(cache=True)
def refresh(
    s: np.ndarray,
    obs: np.ndarray,
    mask: np.ndarray,
    out: np.ndarray,
    config: np.ndarray,
    ladder: np.ndarray,
    next_higher: np.ndarray,
) -> None:
    """Each deal's mask and ``out`` (after deals were started)."""
    for d in range(s.shape[0]):
        if s[d, PHASE] == AUCTION:
            auction_mask(s, mask, d, config, ladder, next_higher)
        elif s[d, PHASE] == PLAY:
            turn_mask(s, mask, d, config)
        else:
            mask[d, :] = 0
        _observe(s, obs, out, d)


@njit(cache=True)
def deal_all(s: np.ndarray, obs: np.ndarray, config: np.ndarray, off: np.ndarray) -> None:
    """Shuffle and start a new deal in every row."""
    for d in range(s.shape[0]):
        deal_new(s, obs, d, config, off)


@njit(cache=True)
def first_illegal(s: np.ndarray, mask: np.ndarray, actions: np.ndarray) -> int:
    """The first deal not over whose action is not legal (-1 if none)."""
    for d in range(s.shape[0]):
        if s[d, PHASE] != OVER:
            a = actions[d]
            if a < 0 or a >= mask.shape[1] or mask[d, a] == 0:
                return d
    return -1


@njit(cache=True)
def sample(mask: np.ndarray, actions: np.ndarray, state: np.ndarray) -> None:
    """A legal action drawn uniformly for each deal (a random player; -1 where none is legal)."""
    for d in range(mask.shape[0]):
        count = 0
        for a in range(mask.shape[1]):
            count += mask[d, a]
        if count == 0:
            actions[d] = -1
            continue
        x = np.uint64(state[0])
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        state[0] = np.int64(x)
        k = int((x * np.uint64(2685821657736338717)) >> np.uint64(33)) % count
        for a in range(mask.shape[1]):
            if mask[d, a]:
                if k == 0:
                    actions[d] = a
                    break
                k -= 1


guard(sys.modules[__name__], (POINTS,))
