"""The search's lower bound on the dead points still to come (meld_search).

The bound solves each suit on its own, runs exactly, with two relaxations that
can only lower the cost: a card put in its rank's pool pays its "share" of the
set's jokers (none if the hand has three of the rank, half a joker if two, two
jokers if one) whatever the other suits do, and jokers are not counted against
the hand's total but priced at p points each (Lagrange). A rank of two or
three cards may also get signed per-suit multipliers (_set_costs). For any
arrangement, each suit's part of it is a path of that suit's problem, and the
shares and multipliers of a pool's cards add up to no more than the pool costs
(its dead points, or its set's jokers at the price), so
    dead points to come >= sum over suits of cost_s(p) - p * jokers left,
for every price p >= 0. The tables give this for two prices and the search
takes the larger (in a hand with no joker, both are the least cost using none).
A suit whose own problem is too big to tabulate cheaply (many twins and many
jokers) gets a coarser bound of the same kind with the same guarantee
(_flat_bounds). The suit's problem leaves out moves after which its open runs
owe more jokers (owed_jokers) than the hand has (such a path cannot finish,
and the search never takes one either), and moves that another beats: the
same next state with no more jokers spent and no more cards left.

A suit's state here is one int: its open-run id << 16 | the aces it keeps
back for position 14. The moves of a suit (_suit_moves) and the forward sweep,
position by position, by the suit's states there (_suit_step, the most
recently used) are shared by every hand; a hand pays for the backward pass.

Cards that no meld with the jokers at hand could hold are deadwood in every
arrangement and are left out before anything else (unmeldable).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from .meld_moves import (
    HIGH_ACE,
    MODES,
    RUN_COUNTS,
    Ahead,
    Gaps,
    Rows,
    owed_jokers,
    position_rank,
    run_id,
    run_moves,
)

# A suit state's least cost to come, at each of PRICES.
Cost = tuple[int, int]
# A suit's bound table: per position, its states' costs (state -> Cost).
BoundTable = list[dict[int, Cost]]
# A pool card's cost at each of PRICES, by position: a Cost, or (_set_costs)
# signed multipliers, one per price.
PoolCosts = Sequence[tuple[int, ...]]

BIG = 10 ** 9  # the cost of a suit state that cannot finish
CANNOT_FINISH = BIG // 2  # a bound above it has a suit that cannot finish
PRICES = (8, 20)  # joker prices (points) for the bound, see _suit_bounds
_ZERO: Cost = (0, 0)
_SUIT_BUDGET = 1000  # moves _suit_bounds may look at for one suit
_WINDOW_STARTS = sum(1 << a for a in range(1, HIGH_ACE - 1))  # runs of three at 1..12


def unmeldable(counts: list[list[int]], jokers: int) -> list[tuple[int, int]]:
    """(suit, rank) of every natural card that no meld with at most ``jokers``
    jokers can hold: its rank has too few cards for a set, and every run through
    it lacks too many. Such a card is deadwood in every arrangement. (With two
    jokers any card melds; with fewer, a run holds the card if and only if
    three consecutive positions around it do.)"""
    if jokers >= 2:
        return []
    rank_count = list(map(sum, zip(*counts, strict=True)))
    needed = 3 - jokers  # natural cards a set, or three run positions, need
    dropped: list[tuple[int, int]] = []
    for s, row in enumerate(counts):
        # Bit p: the suit has a card at run position p (14: the high ace).
        present = (1 << HIGH_ACE) if row[1] else 0
        for q in range(1, 14):
            if row[q]:
                present |= 1 << q
        one, two = present >> 1, present >> 2
        if needed == 3:
            starts = present & one & two  # bit a: positions a, a+1, a+2 all held
        else:  # two of the three held, the window inside 1..14
            starts = (present & one | present & two | one & two) & _WINDOW_STARTS
        covered = starts | starts << 1 | starts << 2  # bit p: such a window holds p
        if row[1] and covered & (1 << HIGH_ACE):
            covered |= 2  # the ace melds high
        for q in range(1, 14):
            if row[q] and rank_count[q] < needed and not covered >> q & 1:
                dropped.append((s, q))
    return dropped


_SUIT_MOVES: dict[tuple, tuple] = {}
# Each (next state, jokers, cards left) of _suit_moves once: a new table then
# holds only tuples the garbage collector no longer tracks, so that it soon
# stops tracking the table too (see _suit_step).
_MOVE_RECORDS: dict[tuple, tuple] = {}


def _suit_moves(key: tuple) -> tuple:
    """run_moves for one suit, for _suit_bounds: (how many moves there are, the
    moves as (next state, jokers, cards left for the pool)). ``key`` is (state,
    natural cards, mode (MODES), gap, next1, next2, jokers); shared by every
    hand.

    Moves that need more jokers (spent, plus owed: owed_jokers) than the hand has are
    left out, and so is a move where another reaches the same state with no
    more jokers and no more cards left (past position 1, where the cards left
    are the aces kept back).
    """
    found = _SUIT_MOVES.get(key)
    if found is not None:
        return found
    st, naturals, mode, gap, next1, next2, jokers = key
    moves = {(run_id(new), spent, left,
              spent + (owed_jokers(new, next1, next2) if mode < HIGH_ACE else 0))
             for new, spent, left, _, _ in run_moves(RUN_COUNTS[st >> 16], naturals,
                                                  mode <= HIGH_ACE - 2, mode == HIGH_ACE - 1, gap)
             if mode < HIGH_ACE or not (new[0] or new[1])}
    usable = {move for move in moves if move[3] <= jokers}
    kept = st & 0xFFFF
    records = sorted(
        ((nid << 16) | (left if mode == 1 else kept if mode < HIGH_ACE else 0), spent, left)
        for nid, spent, left, needed in usable
        if not any(other[0] == nid and other[1] <= spent and other[3] <= needed
                   and (other[2] <= left if mode > 1 else other[2] == left)
                   and other != (nid, spent, left, needed)
                   for other in usable))
    found = _SUIT_MOVES[key] = (len(moves), tuple(
        [_MOVE_RECORDS.setdefault(record, record) for record in records]))
    return found


_STAY: dict[int, tuple] = {}  # the one move of a state with nothing to do, by next state


_SUIT_STEPS_KEPT = 16384  # forward steps kept (about 8 MB), see _suit_step


@lru_cache(maxsize=_SUIT_STEPS_KEPT)
def _suit_step(key: tuple) -> tuple:
    """One position of _suit_bounds' forward sweep, shared by every hand (the
    most recently used are kept). ``key`` is (nat, mode, gap, next1, next2,
    jokers) then the suit's states before the position (sorted), with nat
    natural cards there (-1: the aces kept, at 14). The value: (how many moves
    there are, how many next states, the next states (sorted), then each
    state's moves ((next state, jokers, pool cards), ...)). Key and value are
    flat tuples whose items are ints or long-lived move tuples, so that the
    garbage collector stops tracking a new entry at its first pass (nested new
    tuples would reach the oldest generation still tracked and make its full
    collections long)."""
    nat, mode, gap, next1, next2, jokers = key[:6]
    states = key[6:]
    count = 0
    trans = []
    grown: dict[int, None] = {}
    for st in states:
        n = nat if nat >= 0 else st & 0xFFFF
        if not n and st < 0x10000:
            nst = st if mode < HIGH_ACE else 0  # no card, no open run: nothing to do
            out = _STAY.get(nst)
            if out is None:
                record = (nst, 0, 0)
                out = _STAY[nst] = (_MOVE_RECORDS.setdefault(record, record),)
        else:
            moves_count, out = _suit_moves((st, n, mode, gap, next1, next2, jokers))
            count += moves_count
        for nst, _, _ in out:
            grown[nst] = None
        trans.append(out)
    return (count, len(grown), *sorted(grown), *trans)


def _suit_bounds(row: Ahead, jokers: int, gaps: Gaps,
                 pool_costs: PoolCosts) -> BoundTable | None:
    """For one suit (``row``: its cards by run position, see sweep_rows), after
    each position p and for each of its states there
    (open-run id << 16 | aces kept): the least cost of the suit's cards still to
    come, as (cost with jokers at PRICES[0], at PRICES[1]).
    A card left dead costs its points, a card put in a set its share of the
    set's jokers (pool_costs) at the price, and a joker in a run the price.
    Runs are followed exactly (run_moves); sets only through shares, suit by suit.
    None if that takes more than _SUIT_BUDGET moves (a suit of many twins with
    many jokers): see _flat_bounds.
    """
    price1, price2 = PRICES
    budget = _SUIT_BUDGET
    # Forward: the suit's states before each position and their moves.
    # (position, states, each one's moves: see _suit_step)
    steps: list[tuple[int, tuple[int, ...], tuple[tuple[tuple[int, int, int], ...], ...]]] = []
    states: tuple[int, ...] = (0,)
    for q in range(1, HIGH_ACE + 1):
        nat = row[q] if q < HIGH_ACE else -1
        if not nat and states[-1] < 0x10000:
            continue  # no card and no open run here
        kind = (nat, MODES[q], gaps[q], row[q + 1], row[q + 2], jokers)
        step = _suit_step(kind + states)
        budget -= step[0]
        if budget < 0:
            return None
        grown = 2 + step[1]
        steps.append((q, states, step[grown:]))
        states = step[2:grown]
    # Backward: the least cost after each position.
    after = dict.fromkeys(states, _ZERO)
    table = [after] * (HIGH_ACE + 1)  # each position is set below
    q_next = HIGH_ACE + 1
    for q, before, trans in reversed(steps):
        table[q:q_next] = [after] * (q_next - q)
        q_next = q
        c1, c2 = pool_costs[q]
        here: dict[int, Cost] = {}
        # (as long as each other; strict=True would cost a keyword call a step)
        for st, out in zip(before, trans):  # noqa: B905
            if len(out) == 1:
                nst, spent, left = out[0]
                if spent or left:
                    g1, g2 = after[nst]
                    here[st] = (g1 + c1 * left + price1 * spent, g2 + c2 * left + price2 * spent)
                else:
                    here[st] = after[nst]  # its one move costs nothing
                continue
            b1 = b2 = BIG
            for nst, spent, left in out:
                g1, g2 = after[nst]
                if left:
                    g1 += c1 * left
                    g2 += c2 * left
                if spent:
                    g1 += price1 * spent
                    g2 += price2 * spent
                if g1 < b1:
                    b1 = g1
                if g2 < b2:
                    b2 = g2
            here[st] = (b1, b2)
        after = here
    table[:q_next] = [after] * q_next
    return table


class _Flat(dict[int, Cost]):
    """A bound table with one value for every state."""

    def __init__(self, value: Cost) -> None:
        super().__init__()
        self.value = value

    def __missing__(self, key: int) -> Cost:
        return self.value


def _flat_bounds(row: list[int], jokers: int, values: list[int],
                 pool_costs: PoolCosts) -> BoundTable:
    """A cheaper stand-in for _suit_bounds, the same for every state of the
    suit: each card after p + 2 costs its points, or its share of jokers at the
    price (the fewest jokers per natural card of any meld that could hold it: a
    set of its rank (pool_costs), or a run over the suit's natural cards from
    one to another), whichever is less; cards at p + 1 and p + 2 (an open run
    may reach them) and aces kept back cost nothing."""
    price1, price2 = PRICES
    pos = [q for q in range(1, HIGH_ACE) if row[q]]
    if row[1]:
        pos.append(HIGH_ACE)
    share = [2.0 if jokers >= 2 else float(BIG)] * (HIGH_ACE + 1)
    n = len(pos)
    for i in range(n - 1):
        for j in range(i + 1, n):
            span = pos[j] - pos[i] + 1
            m = j - i + 1
            lacking = (span if span > 3 else 3) - m
            if lacking <= jokers:
                for k in range(i, j + 1):
                    share[pos[k]] = min(share[pos[k]], lacking / m)
    share[1] = min(share[1], share[HIGH_ACE])
    costs = [_ZERO] * (HIGH_ACE + 1)
    for q in pos:
        if q < HIGH_ACE:
            v = values[q]
            c1, c2 = pool_costs[q] if q > 1 else pool_costs[HIGH_ACE]
            sh = share[q]
            # (rounded down: still a lower bound)
            costs[q] = (min(c1, v, int(price1 * sh)) * row[q],
                        min(c2, v, int(price2 * sh)) * row[q])
    table: BoundTable = []
    for p in range(HIGH_ACE + 1):
        t1 = t2 = 0
        for q in range(p + 3, HIGH_ACE):
            c = costs[q]
            t1 += c[0]
            t2 += c[1]
        table.append(_Flat((t1, t2)))
    return table


# A bound table of no cost at all, for a search with no bound.
NO_BOUND: BoundTable = [_Flat(_ZERO)] * (HIGH_ACE + 1)


def bound_tables(counts: list[list[int]], jokers: int, values: list[int],
                 rows: Rows) -> list[BoundTable | None]:
    """Per suit, its bound table (see _suit_bounds), None for no cards; ``rows``
    as sweep_rows gives them."""
    gaps, ahead = rows
    rank_count = list(map(sum, zip(*counts, strict=True)))
    pool_costs: list[tuple[int, ...]] = [_ZERO] * (HIGH_ACE + 1)  # per card left in the pool at q
    for q in range(2, HIGH_ACE + 1):
        rc = rank_count[position_rank(q)]
        v = values[q]
        if not rc:
            continue  # no card there
        if rc >= 3:
            pool_costs[q] = _ZERO
        else:
            short = 3 - rc  # jokers the set needs
            if short > jokers:
                pool_costs[q] = (v, v)
            else:
                # each card's share of the set's jokers, at each price (rounded down)
                pool_costs[q] = (min(v, PRICES[0] * short // rc),
                                 min(v, PRICES[1] * short // rc))
    # With signed multipliers for ranks of two or three cards (_set_costs). The
    # coarse bound (_flat_bounds) takes no signed costs: if a suit needs it,
    # every suit is bounded without them.
    suit_costs = _set_costs(counts, jokers, values, rank_count, pool_costs)
    tables: list[BoundTable | None] = [None] * 4
    if suit_costs is not None:
        for s, row in enumerate(counts):
            if any(row):
                tables[s] = _suit_bounds(ahead[s], jokers, gaps[s], suit_costs[s])
                if tables[s] is None:
                    break
        else:
            return tables
    for s, row in enumerate(counts):
        if any(row):
            tables[s] = (_suit_bounds(ahead[s], jokers, gaps[s], pool_costs)
                         or _flat_bounds(row, jokers, values, pool_costs))
    return tables


# Per pool position q (2..14): q, its rank, and the ranks of the suit's natural
# cards that make a run through q likely: (rank, weight), 2 next to q and 1 two
# positions away (an ace counts at both ends).
_AROUND: list[tuple[int, int, tuple[tuple[int, int], ...]]] = []
for _q in range(2, HIGH_ACE + 1):
    _near: dict[int, int] = {}
    for _d, _w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
        if 1 <= _q + _d <= HIGH_ACE:
            _near[position_rank(_q + _d)] = _w
    if _q == HIGH_ACE:
        _near.update({2: 2, 3: 1})
    _AROUND.append((_q, position_rank(_q), tuple(_near.items())))
del _q, _near, _d, _w


Multipliers = tuple[tuple[int, ...], tuple[int, ...]]  # (plus, minus), one per price
_MULTIPLIERS: dict[tuple[int, int, int, int], Multipliers] = {}  # _multipliers by its arguments


def _multipliers(v: int, jokers: int, cards: int, n_pool: int) -> Multipliers:
    """The multipliers per card of a rank of ``cards`` cards (2 or 3) worth v
    points, for the suits likely to leave theirs to the pool (n_pool cards in
    all) and for the others, at each of PRICES: (plus, minus)."""
    plus: list[int] = []
    minus: list[int] = []
    for price in PRICES:
        t1 = min(v, 2 * price) if jokers >= 2 else v  # least cost of 1 card in the pool
        t2 = min(2 * v, price) if jokers >= 1 else 2 * v  # ... of 2 cards
        if cards == 2:  # +T1, T2 - T1
            plus.append(t1)
            minus.append(t2 - t1)
        elif n_pool == 2:  # +m, +m, -2m
            m = min(t1, t2 // 2)
            plus.append(m)
            minus.append(-2 * m)
        else:  # +m, -m/2, -m/2 (rounded away from zero)
            m = min(t1, 2 * t2)
            plus.append(m)
            minus.append(-((m + 1) // 2))
    return tuple(plus), tuple(minus)


def _set_costs(counts: list[list[int]], jokers: int, values: list[int],
               rank_count: list[int],
               pool_costs: PoolCosts) -> list[list[tuple[int, ...]]] | None:
    """Per suit pool costs (see bound_tables), with signed multipliers for the ranks
    of two or three cards, or None if no rank gets any.

    A rank of three cards is free in the pool for each suit's bound, yet a set
    is free only if all three go there; a rank of two costs half a joker per
    card, yet a lone card in the pool costs two jokers or its points. So the
    suits whose card of the rank is likely left to the pool (_AROUND: no
    natural card of the suit next to it, and at most one two positions away)
    pay more per card, the others less, down to below zero, such that for
    every choice of which cards go to the pool the costs summed over them are
    at most what that pool costs at the least: with T1 = min(v, 2 jokers) for
    1 card, T2 = min(2v, 1 joker) for 2 (v alone, 2v, if the hand has too few
    jokers), 0 for 3 cards (a free set), 0 for none (_multipliers):
    - 2 cards, one likely: +T1 and T2 - T1 (sums T1, T2 - T1 <= T1, T2);
    - 3 cards, two likely: +m, +m, -2m with m <= T1 and 2m <= T2;
    - 3 cards, one likely: +m, -m/2, -m/2 (rounded away from zero) with
      m <= T1 and m/2 <= T2.
    Which cards are likely left to the pool only decides how tight the bound
    is, never whether it is one."""
    costs: list[list[tuple[int, ...]]] | None = None
    for q, r, around in _AROUND:
        if not 2 <= rank_count[r] <= 3:
            continue
        pool: list[int] = []  # suits whose cards of rank r are likely left to the pool
        others: list[int] = []
        n_pool = 0
        for s in range(4):
            row = counts[s]
            n = row[r]
            if n:
                near = 0
                for i, weight in around:
                    if row[i]:
                        near += weight
                if near <= 2:
                    pool.append(s)
                    n_pool += n
                else:
                    others.append(s)
        if not pool or not others:
            continue
        mult_key = (values[q], min(jokers, 2), rank_count[r], n_pool)
        found = _MULTIPLIERS.get(mult_key)
        if found is None:
            found = _MULTIPLIERS[mult_key] = _multipliers(*mult_key)
        plus, minus = found
        if costs is None:
            costs = [list(pool_costs) for _ in range(4)]
        for s in pool:
            costs[s][q] = plus
        for s in others:
            costs[s][q] = minus
    return costs
