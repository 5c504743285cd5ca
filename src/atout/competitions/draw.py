"""The draws of a concours: who plays whom at each round.

Three draws, all reproducible from a ``seed``:

- :func:`draw_random` draws the teams at random into tables of two teams;
- :func:`draw_swiss` pairs the teams by their standing (Swiss system, top board first);
- :func:`draw_melee` draws the players anew into teams of two, then the teams into tables (« à la mêlée »).

No pair meets twice where the draw allows it: a draw repeats as few pairs as any draw of that round could.
With an odd number of teams one team is exempt (a bye), never one that had a bye while another has not.

>>> met = {frozenset({1, 2}), frozenset({3, 4})}
>>> draw_swiss([1, 3, 2, 4], met, seed=0)
Round(tables=(((1,), (3,)), ((2,), (4,))), byes=())
>>> draw_swiss([1, 2, 3, 4, 5], met, seed=0, had_bye={5})
Round(tables=(((1,), (3,)), ((2,), (5,))), byes=((4,),))
>>> drawn = draw_random([1, 2, 3, 4], met, seed=7)
>>> sorted(sorted(a + b) for a, b in drawn.tables) in ([[1, 3], [2, 4]], [[1, 4], [2, 3]])
True
>>> drawn == draw_random([1, 2, 3, 4], met, seed=7)
True
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, deque
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass

#: The entrant ids playing as one side: one team id, or two player ids « à la mêlée ».
Side = tuple[int, ...]

#: Pairs of indices into a field.
_Pairs = list[tuple[int, int]]

#: Random draws of at most this many sides (the bye counted as one) look ahead for a round-robin.
_LOOKAHEAD_SIDES = 16
#: The look-ahead's budget, in search steps.
_LOOKAHEAD_STEPS = 6000
#: A mêlée keeps the best of this many draws (fewer for large fields, to stay fast).
_MELEE_TRIES = 32
_MELEE_WORK = 2400


@dataclass(frozen=True)
class Round:
    """One round's draw: the tables in order (table 1 first), two sides each, and the sides exempt this round."""

    tables: tuple[tuple[Side, Side], ...]
    byes: tuple[Side, ...] = ()


def draw_random(
    teams: Sequence[int], met: Collection[frozenset[int]], seed: int, had_bye: Collection[int] = ()
) -> Round:
    """Draw ``teams`` at random into tables of two teams.

    ``met`` holds the pairs of teams that already met; the draw repeats as few of them as possible. With an odd
    number of teams one team is exempt, chosen among those without a bye in ``had_bye`` while there are any.
    Small fields also look ahead: they keep the rounds to come free of repeats as long as can be (a round-robin).
    """
    field = _check_field(teams, 2, "teams")
    rng = random.Random(seed)
    blocked = _blocked(field, met)
    dummy = -1
    if len(field) % 2:
        dummy = len(field)
        blocked.append(_bye_blocked(field, had_bye))
        for index in blocked[dummy]:
            blocked[index].add(dummy)
    vertices = list(range(len(blocked)))
    mate, order = _max_matching(vertices, blocked, rng)
    if dummy >= 0 and mate[dummy] < 0:
        _give_bye(mate, dummy, [v for v in order if v != dummy and v not in blocked[dummy]])
    pairs = _pairs_of(mate, order)
    if len(vertices) <= _LOOKAHEAD_SIDES and all(b not in blocked[a] for a, b in pairs):
        pairs = _first_of_longest_chain(blocked, rng) or pairs
    rng.shuffle(pairs)
    tables = tuple(((field[a],), (field[b],)) for a, b in pairs if dummy not in (a, b))
    byes = tuple((field[a + b - dummy],) for a, b in pairs if dummy in (a, b))
    return Round(tables, byes)


def draw_swiss(
    ranked: Sequence[int], met: Collection[frozenset[int]], seed: int, had_bye: Collection[int] = ()
) -> Round:
    """Pair the teams by their standing ``ranked`` (best first), Swiss system.

    With an odd number of teams, the lowest-ranked team without a bye is exempt (passing over one only if its
    bye would force a repeat that another's avoids). Then the best unpaired team plays the next best one it has
    not met, backtracking so that the round repeats as few pairs of ``met`` as possible: among such rounds, the
    one closest to 1v2, 3v4, ... in lexicographic order. Where a repeat is forced, each team from the top still
    takes the best opponent it has not met that the fewest repeats allow, so repeats fall as low as they can.
    Table 1 is the top board. ``seed`` is unused: the pairing is fully determined by the standing; it keeps the
    draws' signatures alike.
    """
    field = _check_field(ranked, 2, "teams")
    blocked = _blocked(field, met)
    count = len(field)
    adjacency = _adjacency(range(count), blocked, count)
    alive = [True] * count
    mate = [-1] * count
    for a in range(0, count - 1, 2):
        if a + 1 not in blocked[a]:
            _link(mate, a, a + 1)
    _augment_all(adjacency, mate, alive, range(count))
    byes: tuple[Side, ...] = ()
    if count % 2:
        without = _without_bye(field, had_bye)
        bye, mate = _swiss_bye(adjacency, mate, alive, [i for i in reversed(range(count)) if field[i] in without])
        byes = ((field[bye],),)
    pairs = _swiss_pairs(adjacency, blocked, mate, alive)
    return Round(tuple(((field[a],), (field[b],)) for a, b in pairs), byes)


def draw_melee(
    players: Sequence[int],
    partnered: Collection[frozenset[int]],
    met: Collection[frozenset[int]],
    seed: int,
    had_bye: Collection[int] = (),
) -> Round:
    """Draw the players anew into teams of two, and the teams into tables (« à la mêlée »).

    The draw repeats as few partnerships of ``partnered`` as possible, then, among the best of a bounded number
    of random tries, as few opposing pairs of players of ``met``. When the number of players is not a multiple
    of four, the 1 to 3 left over are exempt, each a side of one player, chosen among those without a bye in
    ``had_bye`` while there are any.
    """
    field = _check_field(players, 4, "players")
    rng = random.Random(seed)
    sitting = _melee_byes(field, had_bye, rng)
    playing = [i for i in range(len(field)) if i not in sitting]
    partners = _blocked(field, partnered)
    opponents = _blocked(field, met)
    best: tuple[int, list[tuple[tuple[int, int], tuple[int, int]]]] | None = None
    for _ in range(max(1, min(_MELEE_TRIES, _MELEE_WORK // len(playing)))):
        mate, order = _max_matching(playing, partners, rng)
        seating = _seat_teams(_pairs_of(mate, order), opponents, rng)
        if best is None or seating[0] < best[0]:
            best = seating
        if best[0] == 0:
            break
    assert best is not None

    def side(team: tuple[int, int]) -> Side:
        return tuple(sorted(field[i] for i in team))

    tables = tuple((side(a), side(b)) for a, b in best[1])
    return Round(tables, tuple((field[i],) for i in sorted(sitting, key=field.__getitem__)))


# The field: checks, and the pairs it has met, as indices.


def _check_field(ids: Sequence[int], least: int, what: str) -> list[int]:
    field = list(ids)
    repeated = sorted(entrant for entrant, times in Counter(field).items() if times > 1)
    if repeated:
        raise ValueError(f"duplicate {what} in the draw: {', '.join(map(str, repeated))}")
    if len(field) < least:
        raise ValueError(f"a draw needs at least {least} {what}, not {len(field)}")
    return field


def _blocked(field: list[int], pairs: Collection[frozenset[int]]) -> list[set[int]]:
    """For each index of the field, the indices it is paired with in ``pairs``."""
    index = {entrant: i for i, entrant in enumerate(field)}
    blocked: list[set[int]] = [set() for _ in field]
    for pair in pairs:
        if len(pair) == 2:
            a, b = (index.get(entrant) for entrant in pair)
            if a is not None and b is not None:
                blocked[a].add(b)
                blocked[b].add(a)
    return blocked


def _without_bye(field: list[int], had_bye: Collection[int]) -> set[int]:
    """Who may be exempt: the entrants without a bye yet, or all of them when every one had one."""
    without = set(field) - set(had_bye)
    return without or set(field)


def _bye_blocked(field: list[int], had_bye: Collection[int]) -> set[int]:
    """The bye's blocked set: the indices that may not be exempt."""
    without = _without_bye(field, had_bye)
    return {i for i, entrant in enumerate(field) if entrant not in without}


def _give_bye(mate: list[int], dummy: int, eligible: list[int]) -> None:
    """Exempt the first eligible side; its opponent is left unpaired (a maximum matching stays maximum)."""
    chosen = eligible[0]
    if mate[chosen] >= 0:
        mate[mate[chosen]] = -1
    _link(mate, dummy, chosen)


def _pairs_of(mate: list[int], order: list[int]) -> _Pairs:
    """The pairs of a matching in ``order``, then its unmatched vertices paired in ``order`` (the forced repeats)."""
    pairs: _Pairs = []
    seen: set[int] = set()
    for v in order:
        if mate[v] >= 0 and v not in seen:
            pairs.append((v, mate[v]))
            seen.update((v, mate[v]))
    free = [v for v in order if mate[v] < 0]
    return pairs + list(zip(free[::2], free[1::2], strict=True))


# Maximum matchings of the graph of allowed pairs (Edmonds' blossom algorithm, on indices).


def _link(mate: list[int], a: int, b: int) -> None:
    mate[a] = b
    mate[b] = a


def _adjacency(vertices: Iterable[int], blocked: list[set[int]], size: int) -> list[list[int]]:
    order = list(vertices)
    inside = set(order)
    return [[w for w in order if w != v and w not in blocked[v]] if v in inside else [] for v in range(size)]


def _max_matching(vertices: list[int], blocked: list[set[int]], rng: random.Random) -> tuple[list[int], list[int]]:
    """A random maximum matching of ``vertices`` avoiding ``blocked`` pairs, and the shuffled order used."""
    order = vertices.copy()
    rng.shuffle(order)
    mate = [-1] * len(blocked)
    for a, b in zip(order[::2], order[1::2], strict=False):
        if b not in blocked[a]:
            _link(mate, a, b)
    free = [v for v in order if mate[v] < 0]
    for v in free:
        for w in free:
            if mate[v] < 0 and mate[w] < 0 and w != v and w not in blocked[v]:
                _link(mate, v, w)
    if sum(mate[v] < 0 for v in free) > 1:
        alive = [False] * len(blocked)
        for v in order:
            alive[v] = True
        _augment_all(_adjacency(order, blocked, len(blocked)), mate, alive, order)
    return mate, order


def _augment_all(adjacency: list[list[int]], mate: list[int], alive: list[bool], order: Iterable[int]) -> None:
    for v in order:
        if alive[v] and mate[v] < 0:
            _augment(adjacency, mate, alive, v)


def _augment(adjacency: list[list[int]], mate: list[int], alive: list[bool], root: int) -> bool:
    """Look for an augmenting path from the free vertex ``root`` and flip it; whether one was found."""
    size = len(mate)
    parent = [-1] * size
    base = list(range(size))
    outer = [False] * size
    outer[root] = True
    queue = deque([root])
    while queue:
        v = queue.popleft()
        for to in adjacency[v]:
            if not alive[to] or base[v] == base[to] or mate[v] == to:
                continue
            if to == root or (mate[to] >= 0 and parent[mate[to]] >= 0):
                _contract(v, to, base, mate, parent, outer, queue)
            elif parent[to] < 0:
                parent[to] = v
                if mate[to] < 0:
                    _flip(to, parent, mate)
                    return True
                outer[mate[to]] = True
                queue.append(mate[to])
    return False


def _contract(
    v: int, to: int, base: list[int], mate: list[int], parent: list[int], outer: list[bool], queue: deque[int]
) -> None:
    """Shrink the odd cycle closed by the edge v-to into its base; its inner vertices become outer."""
    common = _common_base(v, to, base, mate, parent)
    blossom = [False] * len(mate)
    _mark_path(v, common, to, base, mate, parent, blossom)
    _mark_path(to, common, v, base, mate, parent, blossom)
    for i in range(len(mate)):
        if blossom[base[i]]:
            base[i] = common
            if not outer[i]:
                outer[i] = True
                queue.append(i)


def _common_base(a: int, b: int, base: list[int], mate: list[int], parent: list[int]) -> int:
    seen = [False] * len(mate)
    while True:
        a = base[a]
        seen[a] = True
        if mate[a] < 0:
            break
        a = parent[mate[a]]
    while True:
        b = base[b]
        if seen[b]:
            return b
        b = parent[mate[b]]


def _mark_path(
    v: int, common: int, child: int, base: list[int], mate: list[int], parent: list[int], blossom: list[bool]
) -> None:
    while base[v] != common:
        blossom[base[v]] = blossom[base[mate[v]]] = True
        parent[v] = child
        child = mate[v]
        v = parent[mate[v]]


def _flip(v: int, parent: list[int], mate: list[int]) -> None:
    while v >= 0:
        previous = mate[parent[v]]
        _link(mate, v, parent[v])
        v = previous


def _remove(
    adjacency: list[list[int]], mate: list[int], alive: list[bool], gone: tuple[int, ...], ceiling: int
) -> tuple[list[int], int]:
    """A maximum matching once the vertices ``gone`` are removed, and how its size changed.

    ``ceiling`` bounds the change from above (0 for one vertex, -1 for an allowed pair): a matching that
    reaches it is maximum. Below it, every free vertex is tried in turn (Edmonds), those left unmatched first.
    """
    trial = mate.copy()
    for v in gone:
        alive[v] = False
    change = 0
    freed = []
    for v in gone:
        partner = trial[v]
        if partner >= 0:
            trial[v] = trial[partner] = -1
            change -= 1
            if alive[partner]:
                freed.append(partner)
    others = (v for v in range(len(trial)) if v not in freed)
    for v in itertools.chain(freed, others):
        if change >= ceiling:
            break
        if alive[v] and trial[v] < 0:
            change += _augment(adjacency, trial, alive, v)
    return trial, change


# The Swiss draw's choices, one at a time, each keeping the fewest repeats possible.


def _swiss_bye(
    adjacency: list[list[int]], mate: list[int], alive: list[bool], candidates: list[int]
) -> tuple[int, list[int]]:
    """The first candidate whose bye costs no repeat that another's would avoid, and the matching without it."""
    fallback: tuple[int, list[int]] | None = None
    for bye in candidates:
        trial, change = _remove(adjacency, mate, alive, (bye,), 0)
        if change == 0:
            return bye, trial
        fallback = fallback or (bye, trial)
        alive[bye] = True
    assert fallback is not None
    alive[fallback[0]] = False
    return fallback


def _swiss_pairs(adjacency: list[list[int]], blocked: list[set[int]], mate: list[int], alive: list[bool]) -> _Pairs:
    pairs: _Pairs = []
    for top in range(len(mate)):
        if not alive[top]:
            continue
        later = range(top + 1, len(mate))
        for other in [o for o in later if o not in blocked[top]] + [o for o in later if o in blocked[top]]:
            if not alive[other]:
                continue
            allowed = other not in blocked[top]
            trial, change = _remove(adjacency, mate, alive, (top, other), -1 if allowed else 0)
            if change + allowed == 0:
                mate = trial
                pairs.append((top, other))
                break
            alive[top] = alive[other] = True
    return pairs


# The random draw's look-ahead: the first round of the longest run of rounds without repeats.


def _first_of_longest_chain(blocked: list[set[int]], rng: random.Random) -> _Pairs | None:
    """Among the draws without repeats, one that leaves the most further rounds without repeats (within a budget)."""
    size = len(blocked)
    allowed = [set(range(size)) - blocked[v] - {v} for v in range(size)]
    depth = min(len(neighbours) for neighbours in allowed)
    found = _longest_chain(allowed, depth, rng, [_LOOKAHEAD_STEPS])
    return found[1] if found[0] else None


def _longest_chain(allowed: list[set[int]], depth: int, rng: random.Random, budget: list[int]) -> tuple[int, _Pairs]:
    best: tuple[int, _Pairs] = (0, [])
    for pairs in _perfect_matchings(allowed, frozenset(range(len(allowed))), rng, budget):
        for a, b in pairs:
            allowed[a].discard(b)
            allowed[b].discard(a)
        reached = 1 + (_longest_chain(allowed, depth - 1, rng, budget)[0] if depth > 1 else 0)
        for a, b in pairs:
            allowed[a].add(b)
            allowed[b].add(a)
        if reached > best[0]:
            best = (reached, pairs)
        if reached >= depth or budget[0] <= 0:
            break
    return best


def _perfect_matchings(
    allowed: list[set[int]], free: frozenset[int], rng: random.Random, budget: list[int]
) -> Iterator[_Pairs]:
    """The perfect matchings of ``free``, in random order, most constrained vertex first, while budget lasts."""
    if not free:
        yield []
        return
    budget[0] -= 1
    if budget[0] < 0:
        return
    v = min(free, key=lambda u: (len(allowed[u] & free), u))
    options = sorted(allowed[v] & free)
    rng.shuffle(options)
    for w in options:
        for rest in _perfect_matchings(allowed, free - {v, w}, rng, budget):
            yield [(v, w), *rest]


# The mêlée: who sits out, and the teams seated at tables.


def _melee_byes(field: list[int], had_bye: Collection[int], rng: random.Random) -> set[int]:
    leftover = len(field) % 4
    without = set(field) - set(had_bye)
    first = [i for i, entrant in enumerate(field) if entrant in without]
    rest = [i for i, entrant in enumerate(field) if entrant not in without]
    if len(first) >= leftover:
        return set(rng.sample(first, leftover))
    return set(first) | set(rng.sample(rest, leftover - len(first)))


def _seat_teams(
    teams: _Pairs, opponents: list[set[int]], rng: random.Random
) -> tuple[int, list[tuple[tuple[int, int], tuple[int, int]]]]:
    """Teams paired into tables, greedily then improved by swaps; the repeated opposing pairs, and the tables."""
    costs = [
        [(p in mine) + (q in mine) + (p in yours) + (q in yours) for p, q in teams]
        for mine, yours in ((opponents[a], opponents[b]) for a, b in teams)
    ]
    waiting = list(range(len(teams)))
    rng.shuffle(waiting)
    tables: list[list[int]] = []
    while waiting:
        first = waiting.pop(0)
        second = min(waiting, key=costs[first].__getitem__)
        waiting.remove(second)
        tables.append([first, second])
    improved = any(costs[a][b] for a, b in tables)
    while improved:
        improved = False
        for x, y in itertools.combinations(range(len(tables)), 2):
            improved = _swap_if_better(tables[x], tables[y], costs) or improved
    total = sum(costs[a][b] for a, b in tables)
    return total, [(teams[a], teams[b]) for a, b in tables]


def _swap_if_better(one: list[int], other: list[int], costs: list[list[int]]) -> bool:
    """Reseat two tables' four teams the other way round if that repeats fewer opposing pairs."""
    (a, b), (c, d) = one, other
    now = costs[a][b] + costs[c][d]
    for w, x, y, z in ((a, c, b, d), (a, d, b, c)):
        if costs[w][x] + costs[y][z] < now:
            one[:], other[:] = [w, x], [y, z]
            return True
    return False
