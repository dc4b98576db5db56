"""Melds and the best arrangement of a hand (RULES.md §5).

The solver sweeps the run positions 1 (ace low) to 14 (ace high) once. At each
position every natural card either extends an open run of its suit, starts a
run, or joins the pool of its rank, which becomes a set (with jokers if the pool
has fewer than three cards) or deadwood. The state is, per suit, how many open
runs have one, two, or three-or-more cards, plus the aces kept back for runs
that end on a high ace and the jokers spent. Only natural cards are scored by
the sweep: once any meld exists, every leftover joker can join one (a set takes
any number, a run grows or splits), so jokers are deadwood only in a hand with
no meld at all.

Search (_solve). The sweep is a layered graph, one layer per position; a path
through it is an arrangement, and its cost is the natural points left in pools
that are neither set nor given jokers ("dead"). The graph is walked best first
(A*): states are taken in order of dead points so far plus a lower bound on the
dead points still to come, and equal states (same open runs, aces kept, jokers
spent) are merged keeping the fewest dead points. Because the bound never
overestimates, the first finished state taken is a best arrangement: the bound
only decides the order and which states are never looked at, never the cost of
a finished path. Cards that no meld with the jokers at hand could hold are
deadwood in every arrangement and are left out first (_unmeldable).

The bound (_suit_bounds) solves each suit on its own, runs exactly, with two
relaxations that can only lower the cost: a card put in its rank's pool pays
its "share" of the set's jokers (none if the hand has three of the rank, half a
joker if two, two jokers if one) whatever the other suits do, and jokers are not
counted against the hand's total but priced at p points each (Lagrange). A rank
of two or three cards may also get signed per-suit multipliers (_set_costs). For
any arrangement, each suit's part of it is a path of that suit's problem, and
the shares and multipliers of a pool's cards add up to no more than the pool
costs (its dead points, or its set's jokers at the price), so
    dead points to come >= sum over suits of cost_s(p) - p * jokers left,
for every price p >= 0. The tables give this for two prices and the search
takes the larger (in a hand with no joker, both are the least cost using none).
A suit whose own problem is too big to tabulate cheaply (many twins and many
jokers) gets a coarser bound of the same kind with the same guarantee
(_flat_bounds). The suit's problem leaves out moves after which its open runs
owe more jokers (_owed) than the hand has (such a path cannot finish, and the
search never takes one either), and moves that another beats: the same next
state with no more jokers spent and no more cards left.

Speed. What does not depend on a hand's card points is worked out once and
kept for every hand: the moves of a suit at each kind of position (_moves,
_step_moves for the search, _suit_moves for the bound), the search's moves of
a suit by the value of its part of the state (_EXPANSIONS), and the bound's
forward sweep, position by position, by the suit's states there (_suit_step,
the most recently used). A hand then pays mostly for what depends on its
points: the backward pass of each suit's bound and the search itself.

Many jokers. A hand with _MELD_ALL_JOKERS jokers or more can usually meld
every natural card. Such a hand is first searched with no bound at all and
only for states with no dead card, for at most _MELD_ALL_BUDGET steps (and
_MELD_ALL_WORK children, see below): an arrangement found leaves no natural
card dead, so it is a best one, and the bound's tables are never made.
Otherwise (some card must stay dead, or the steps ran out) the hand is solved
as above.

Work cap. The search may look at _WORK_BUDGET children (a step's
combinations of moves, counted as they are made, and one for the step), about
2 ms. Past that it dives: from each state taken it follows only its best
child (least dead points plus bound) to the end, keeps the best arrangement
the dives finish, and goes on from the waiting state of least dead points
plus bound while that could do better, until as much work again is spent
(_DIVE_STOP). The arrangement is then marked not exact, unless nothing
waiting could do better or it leaves no natural card dead. A hand that a deal
of the presets can give reaches the cap only when built for it (see
bench/README.md, "Worst-case hands (hardening)").
"""

from __future__ import annotations

import threading
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache
from heapq import heappop, heappush
from operator import itemgetter
from typing import Iterable

from .cards import JOKER, SUITS, Card
from .house import HouseRules

HIGH_ACE = 14
MAX_RUN = 14
_BIG = 10 ** 9  # the cost of a suit state that cannot finish
_CANNOT_FINISH = _BIG // 2  # a bound above it has a suit that cannot finish
_ZERO = (0, 0)
_PRICES = (8, 20)  # joker prices (points) for the bound, see _suit_bounds
_SUIT_BUDGET = 1000  # moves _suit_bounds may look at for one suit
_MELD_ALL_JOKERS = 6  # from this many jokers, first look for no dead card ...
_MELD_ALL_BUDGET = 40  # ... for at most this many steps of the search
_WORK_BUDGET = 2000  # children the search may look at before it dives ...
_DIVE_STOP = -_WORK_BUDGET  # ... and as many again for the dives (see "Work cap")
_MELD_ALL_WORK = _WORK_BUDGET // 4  # the children of the first look, see "Many jokers"


@dataclass(frozen=True)
class Arrangement:
    """Melds and deadwood; ``exact`` is False when the search reached its work
    cap before it could tell that no arrangement leaves fewer points."""

    melds: list[list[Card]]
    deadwood: list[Card]
    points: int
    exact: bool = True


def display_order(card: Card) -> tuple[int, int]:
    """Suits in S H D C order, ranks ascending, jokers last."""
    if card.is_joker:
        return (len(SUITS), 0)
    return (SUITS.index(card.suit), card.rank)


def _position_rank(position: int) -> int:
    return 1 if position == HIGH_ACE else position


def is_meld(cards: Iterable[Card]) -> bool:
    """Whether the cards form one legal run or set, jokers standing for anything."""
    cards = list(cards)
    naturals = [c for c in cards if not c.is_joker]
    if len(cards) < 3 or not naturals:
        return False
    if len({c.rank for c in naturals}) == 1:
        return True
    if len({c.suit for c in naturals}) != 1 or len(cards) > MAX_RUN:
        return False
    aces = sum(c.rank == 1 for c in naturals)
    middle = sorted(c.rank for c in naturals if c.rank != 1)
    if len(set(middle)) != len(middle) or aces > 2:
        return False
    if aces == 2:
        return len(cards) == MAX_RUN
    candidates = [middle + [1], middle + [HIGH_ACE]] if aces else [middle]
    return any(max(ps) - min(ps) + 1 <= len(cards) for ps in candidates)


_SUIT_INDEX = {suit: s for s, suit in enumerate(SUITS)}
# display_order as one int, by (rank, suit); jokers last
_DISPLAY_KEY = {(rank, suit): 16 * s + rank for s, suit in enumerate(SUITS) for rank in range(1, 14)}
_DISPLAY_KEY[(JOKER.rank, JOKER.suit)] = 16 * len(SUITS)


def _grid(cards: Iterable[Card]) -> tuple[list[list[int]], int]:
    """Counts of natural cards by suit and rank (index 1..13), and the joker count."""
    counts = [[0] * 14 for _ in SUITS]
    jokers = 0
    suit_index = _SUIT_INDEX
    for card in cards:
        if card.rank:
            counts[suit_index[card.suit]][card.rank] += 1
        else:
            jokers += 1
    return counts, jokers


def find_meld(cards: Iterable[Card], rules: HouseRules | None = None,
              runs_only: bool = False) -> list[Card] | None:
    """A three-card meld in the hand, using as few jokers as possible, or None.

    ``rules`` is accepted for symmetry with best_melds; a meld does not depend on it.
    """
    counts, jokers = _grid(cards)
    for jokers_needed in range(min(jokers, 2) + 1):
        for s, suit in enumerate(SUITS):
            for low in range(1, HIGH_ACE - 1):
                window = range(low, low + 3)
                present = [p for p in window if counts[s][_position_rank(p)]]
                if present and 3 - len(present) == jokers_needed:
                    return [Card(_position_rank(p), suit) if p in present else JOKER
                            for p in window]
        if runs_only:
            continue
        for rank in range(1, 14):
            suits = [suit for s, suit in enumerate(SUITS) for _ in range(counts[s][rank])]
            if suits and 3 - min(len(suits), 3) == jokers_needed:
                meld = [Card(rank, suit) for suit in suits[:3]]
                return meld + [JOKER] * jokers_needed
    return None


@lru_cache(maxsize=None)
def _moves(runs: tuple[int, int, int], naturals: int, can_start: bool,
           lead_start: bool, gap: int) -> tuple:
    """What one suit can do at one position.

    ``runs`` counts the suit's open runs of length 1, 2 and 3+. Each move is
    (new runs, jokers spent, cards left for the rank's pool, cards put in runs,
    decision), the decision being (a1, a2, a3, b3, starts, lead_starts): open
    runs of each length given a natural card (a*), long runs given a joker (b3),
    new runs, and new runs that begin with a joker on the previous position.
    Short runs not given a natural take a joker; long runs not continued end.

    ``gap`` is how far the suit's next natural card is. A joker bridges a run
    to it only where two shorter runs would need more jokers than the bridge:
    a gap of at most 3, 2 or 1 positions for runs of 1, 2 or 3+ cards. Runs of
    two may also take a joker just to reach three.
    """
    n1, n2, n3 = runs
    moves = []
    for a3 in range(min(n3, naturals) + 1):
        for b3 in range(n3 - a3 + 1) if gap <= 1 else (0,):
            ended = n3 - a3 - b3
            for a2 in range(min(n2, naturals - a3) + 1):
                free = naturals - a3 - a2
                if gap <= 3:
                    a1_choices = range(min(n1, free) + 1)
                else:
                    a1_choices = (n1,) if n1 <= free else ()
                for a1 in a1_choices:
                    left = free - a1
                    for starts in range(left + 1) if can_start else (0,):
                        if starts and ended:
                            continue  # continuing the ended run is never worse
                        for lead in range(left - starts + 1) if lead_start else (0,):
                            moves.append((
                                (starts, n1 + lead, n2 + a3 + b3),
                                (n1 - a1) + (n2 - a2) + b3 + lead,
                                left - starts - lead,
                                a1 + a2 + a3 + starts + lead,
                                (a1, a2, a3, b3, starts, lead),
                            ))
    return tuple(moves)


_VALUES_CACHE: tuple = (None, None)  # (rules, values) of the last call


def _values(rules: HouseRules) -> list[int]:
    """Card points by run position (1..14, 14 being the high ace)."""
    global _VALUES_CACHE
    cached_rules, values = _VALUES_CACHE
    if cached_rules is rules:
        return values
    values = [0] + [rules.points(Card(_position_rank(p), "S")) for p in range(1, HIGH_ACE + 1)]
    _VALUES_CACHE = (rules, values)
    return values


# -- state keys ---------------------------------------------------------------------
#
# A state of the sweep is one int, from the lowest bits up:
#   pool    PW bits     natural cards put in the current rank's pool so far
#   owed    5 bits      jokers that the open runs of the suits already moved at
#                       this position must take at the next two positions (_owed)
#   suits   4 x (W+KW)  per suit, the id of its (n1, n2, n3) open-run counts
#                       (W bits), then the aces it keeps back for position 14
#   spent   the rest    jokers spent, plus the jokers owed
# Pool and owed are only filled in while a position is being swept: the states
# kept between positions have both at zero. Counting the owed jokers as spent
# makes "too many jokers" a single comparison with (jokers + 1) << spent shift.

_MADE_BITS = 16  # bits per suit for a move number in a step's record (see _solve)

_RUN_IDS: dict[tuple[int, int, int], int] = {(0, 0, 0): 0}
_RUN_COUNTS: list[tuple[int, int, int]] = [(0, 0, 0)]
_RUN_IDS_LOCK = threading.Lock()


class _Overflow(Exception):
    """More distinct open-run counts than the run id field holds; widen it."""


def _run_id(runs: tuple[int, int, int]) -> int:
    i = _RUN_IDS.get(runs)
    if i is None:
        with _RUN_IDS_LOCK:
            i = _RUN_IDS.get(runs)
            if i is None:
                i = len(_RUN_COUNTS)
                _RUN_COUNTS.append(runs)
                _RUN_IDS[runs] = i
    return i


def _owed(runs: tuple[int, int, int], next1: int, next2: int | None) -> int:
    """Jokers that open runs of one or two cards must take at the next two
    positions, where their suit has next1 and next2 natural cards (None: there
    is no second position)."""
    n1, n2, _ = runs
    if not (n1 or n2):
        return 0
    owed = max(0, n1 + n2 - next1)
    if n1 and next2 is not None:
        owed += max(0, n1 - next2)
    return min(owed, 7)


# The kind of each position for the moves there: 1, 13 and 14 each allow
# different moves, all others are alike (2).
_MODES = [p if p in (1, HIGH_ACE - 1, HIGH_ACE) else 2 for p in range(HIGH_ACE + 1)]


_STEP_MOVES: dict[tuple, tuple] = {}


def _step_moves(key: tuple) -> tuple:
    """The moves of one suit at one position, for the search, shared by every hand.

    ``key`` is (open-run id, natural cards, mode (_MODES), gap, next1, next2), the
    last three as in _moves and _owed. Each move is (new open-run id, jokers
    spent, jokers owed, cards left, decision); moves with the same outcome and
    cost are the same move for the search and appear once.
    """
    found = _STEP_MOVES.get(key)
    if found is None:
        rid, naturals, mode, gap, next1, next2 = key
        outcomes: dict[tuple, tuple] = {}
        for new, spent, left, _, decision in _moves(_RUN_COUNTS[rid], naturals,
                                                    mode <= HIGH_ACE - 2,
                                                    mode == HIGH_ACE - 1, gap):
            if mode == HIGH_ACE:
                if new[0] or new[1]:
                    continue  # a run of one or two cards can't end on the high ace
                owed = 0
            else:
                owed = _owed(new, next1, next2)
            outcomes.setdefault((_run_id(new), spent, owed, left), decision)
        found = _STEP_MOVES[key] = tuple(o + (d,) for o, d in outcomes.items())
    return found


# -- lower bounds -------------------------------------------------------------------

_WINDOW_STARTS = sum(1 << a for a in range(1, HIGH_ACE - 1))  # runs of three at 1..12


def _unmeldable(counts: list[list[int]], jokers: int) -> list[tuple[int, int]]:
    """(suit, rank) of every natural card that no meld with at most ``jokers``
    jokers can hold: its rank has too few cards for a set, and every run through
    it lacks too many. Such a card is deadwood in every arrangement. (With two
    jokers any card melds; with fewer, a run holds the card if and only if
    three consecutive positions around it do.)"""
    if jokers >= 2:
        return []
    rank_count = list(map(sum, zip(*counts)))
    needed = 3 - jokers  # natural cards a set, or three run positions, need
    dropped = []
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
    """_moves for one suit, for _suit_bounds: (how many moves there are, the
    moves as (next state, jokers, cards left for the pool)). ``key`` is (state,
    natural cards, mode (_MODES), gap, next1, next2, jokers); shared by every
    hand.

    Moves that need more jokers (spent, plus owed: _owed) than the hand has are
    left out, and so is a move where another reaches the same state with no
    more jokers and no more cards left (past position 1, where the cards left
    are the aces kept back).
    """
    found = _SUIT_MOVES.get(key)
    if found is not None:
        return found
    st, naturals, mode, gap, next1, next2, jokers = key
    moves = {(_run_id(new), spent, left,
              spent + (_owed(new, next1, next2) if mode < HIGH_ACE else 0))
             for new, spent, left, _, _ in _moves(_RUN_COUNTS[st >> 16], naturals,
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
    return (count, len(grown)) + tuple(sorted(grown)) + tuple(trans)


def _suit_bounds(row: list[int], jokers: int, gaps: list[int], pool_costs: list) -> list | None:
    """For one suit (``row``: its cards by run position, see _layout), after
    each position p and for each of its states there
    (open-run id << 16 | aces kept): the least cost of the suit's cards still to
    come, as (cost with jokers at _PRICES[0], at _PRICES[1]).
    A card left dead costs its points, a card put in a set its share of the
    set's jokers (pool_costs) at the price, and a joker in a run the price.
    Runs are followed exactly (_moves); sets only through shares, suit by suit.
    None if that takes more than _SUIT_BUDGET moves (a suit of many twins with
    many jokers): see _flat_bounds.
    """
    price1, price2 = _PRICES
    budget = _SUIT_BUDGET
    # Forward: the suit's states before each position and their moves.
    steps = []  # (position, states, each one's moves: see _suit_step)
    states = (0,)
    for q in range(1, HIGH_ACE + 1):
        nat = row[q] if q < HIGH_ACE else -1
        if not nat and states[-1] < 0x10000:
            continue  # no card and no open run here
        kind = (nat, _MODES[q], gaps[q], row[q + 1], row[q + 2], jokers)
        step = _suit_step(kind + states)
        budget -= step[0]
        if budget < 0:
            return None
        grown = 2 + step[1]
        steps.append((q, states, step[grown:]))
        states = step[2:grown]
    # Backward: the least cost after each position.
    table = [None] * (HIGH_ACE + 1)
    after = dict.fromkeys(states, _ZERO)
    q_next = HIGH_ACE + 1
    for q, before, trans in reversed(steps):
        table[q:q_next] = [after] * (q_next - q)
        q_next = q
        c1, c2 = pool_costs[q]
        here = {}
        for st, out in zip(before, trans):
            if len(out) == 1:
                nst, spent, left = out[0]
                if spent or left:
                    g1, g2 = after[nst]
                    here[st] = (g1 + c1 * left + price1 * spent, g2 + c2 * left + price2 * spent)
                else:
                    here[st] = after[nst]  # its one move costs nothing
                continue
            b1 = b2 = _BIG
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


class _Flat(dict):
    """A bound table with one value for every state."""

    def __init__(self, value: tuple) -> None:
        super().__init__()
        self.value = value

    def __missing__(self, key: int) -> tuple:
        return self.value


def _flat_bounds(row: list[int], jokers: int, values: list[int], pool_costs: list) -> list:
    """A cheaper stand-in for _suit_bounds, the same for every state of the
    suit: each card after p + 2 costs its points, or its share of jokers at the
    price (the fewest jokers per natural card of any meld that could hold it: a
    set of its rank (pool_costs), or a run over the suit's natural cards from
    one to another), whichever is less; cards at p + 1 and p + 2 (an open run
    may reach them) and aces kept back cost nothing."""
    price1, price2 = _PRICES
    pos = [q for q in range(1, HIGH_ACE) if row[q]]
    if row[1]:
        pos.append(HIGH_ACE)
    share = [2.0 if jokers >= 2 else float(_BIG)] * (HIGH_ACE + 1)
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
    table = []
    for p in range(HIGH_ACE + 1):
        t1 = t2 = 0
        for q in range(p + 3, HIGH_ACE):
            c = costs[q]
            t1 += c[0]
            t2 += c[1]
        table.append(_Flat((t1, t2)))
    return table


# A bound table of no cost at all, for a search with no bound.
_NO_BOUND = [_Flat(_ZERO)] * (HIGH_ACE + 1)


# -- the search -----------------------------------------------------------------------

_GAPS: dict[bytes, tuple] = {}  # _gaps by the ranks a suit has


def _gaps(held: bytes) -> tuple:
    """The distance from each position to the suit's next natural card (4: four
    or more), from whether the suit has each rank (``held``, index 1..13)."""
    found = _GAPS.get(held)
    if found is None:
        g = [4] * (HIGH_ACE + 1)
        following = HIGH_ACE if held[1] else 99
        for q in range(HIGH_ACE - 1, 0, -1):
            if following - q < 4:
                g[q] = following - q
            if held[q]:
                following = q
        found = _GAPS[held] = tuple(g)
    return found


def _layout(counts: list[list[int]]) -> tuple:
    """Per suit: the distance from each position to its next natural card
    (_gaps), and its cards by run position 0..16 (14: the aces again, 15 and
    16: None), so that the next two positions of any position 1..14 can be
    looked up."""
    gaps = []
    ahead = []
    for row in counts:
        ahead.append(row + [row[1], None, None])
        gaps.append(_gaps(bytes(map(bool, row))))
    return gaps, ahead


def _bounds(counts: list[list[int]], jokers: int, values: list[int], layout: tuple) -> list:
    """Per suit, its bound table (see _suit_bounds), None for no cards."""
    gaps, ahead = layout
    rank_count = list(map(sum, zip(*counts)))
    pool_costs = [_ZERO] * (HIGH_ACE + 1)  # per card left in the pool at q
    for q in range(2, HIGH_ACE + 1):
        rc = rank_count[_position_rank(q)]
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
                pool_costs[q] = (min(v, _PRICES[0] * short // rc),
                                 min(v, _PRICES[1] * short // rc))
    # With signed multipliers for ranks of two or three cards (_set_costs). The
    # coarse bound (_flat_bounds) takes no signed costs: if a suit needs it,
    # every suit is bounded without them.
    suit_costs = _set_costs(counts, jokers, values, rank_count, pool_costs)
    tables = [None] * 4
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
_AROUND = []
for _q in range(2, HIGH_ACE + 1):
    _near = {}
    for _d, _w in ((-2, 1), (-1, 2), (1, 2), (2, 1)):
        if 1 <= _q + _d <= HIGH_ACE:
            _near[_position_rank(_q + _d)] = _w
    if _q == HIGH_ACE:
        _near.update({2: 2, 3: 1})
    _AROUND.append((_q, _position_rank(_q), tuple(_near.items())))
del _q, _near, _d, _w


_MULTIPLIERS: dict[tuple, tuple] = {}  # _multipliers by its arguments


def _multipliers(v: int, jokers: int, cards: int, n_pool: int) -> tuple:
    """The multipliers per card of a rank of ``cards`` cards (2 or 3) worth v
    points, for the suits likely to leave theirs to the pool (n_pool cards in
    all) and for the others, at each of _PRICES: (plus, minus)."""
    plus = []
    minus = []
    for price in _PRICES:
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
               rank_count: list[int], pool_costs: list) -> list | None:
    """Per suit pool costs (see _bounds), with signed multipliers for the ranks
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
    costs = None
    for q, r, around in _AROUND:
        if not 2 <= rank_count[r] <= 3:
            continue
        pool = []  # suits whose cards of rank r are likely left to the pool
        others = []
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


class _Settle(dict):
    """How the pool of a position may settle, by a state key's spent field
    (jokers spent plus owed, see "state keys") above its pool and owed bits:
    ((amount taken off the key, cards left dead, whether a set is made, the
    jokers left at each of _PRICES), ...). Taking the amount off clears
    pool and owed and, for a set of one or two cards, adds the jokers it takes
    to those spent; the owed jokers stay out of the spent count, but a set may
    only take jokers the runs do not owe. With ``no_dead``, only the ways that
    leave no card dead."""

    def __init__(self, owed_shift: int, sp: int, jokers: int, no_dead: bool) -> None:
        super().__init__()
        self.owed_shift = owed_shift
        self.sp = sp
        self.jokers = jokers
        self.no_dead = no_dead

    def __missing__(self, code: int) -> tuple:
        low_width = self.owed_shift + 5
        spent = code >> low_width
        pool = code & ((1 << self.owed_shift) - 1)
        owed = (code >> self.owed_shift) & 31
        sp = self.sp
        drop = (code & ((1 << low_width) - 1)) + (owed << sp)
        left = self.jokers - spent + owed  # once the owed jokers are taken off
        options = []
        if pool == 1 or pool == 2:
            if not self.no_dead:
                options.append((drop, pool, 0, left))
            if 3 - pool <= left - owed:
                options.append((drop - ((3 - pool) << sp), 0, 1, left - (3 - pool)))
        else:
            options.append((drop, 0, 1 if pool else 0, left))
        found = self[code] = tuple((*o[:3], *(price * o[3] for price in _PRICES))
                                   for o in options)
        return found


_SETTLE: dict[tuple, _Settle] = {}
_TO_POOL = (0, 0, 0, 0, 0, 0)  # the decision (_moves) that puts every card in the pool
# The one move of no suit, (key delta, bound table key, move number), and its table.
_NO_CHOICE = (((0, 0, 0),), _NO_BOUND[0])

# The search's moves of one suit at one kind of step (see _solve), by key
# layout, then by suit and the rest of the _step_moves key, then by the value
# of the suit's field.
_EXPANSIONS: dict[tuple, defaultdict] = {}


def _solve(counts: list[list[int]], jokers: int, values: list[int], width: int,
           layout: tuple, tables: list, work: list[int], no_dead: bool = False,
           budget: int = _BIG) -> tuple[int, list, int, bool] | None:
    """(dead points, decisions, jokers used, whether it is surely a best) of a
    best arrangement of the natural cards; a decision that only leaves cards
    dead is left out. ``work`` holds the children the hand's searches may
    still look at (see "Work cap"); once it is spent, the search dives.

    With ``no_dead`` or ``budget``: of an arrangement leaving no dead card,
    found within ``budget`` steps taken (a state expanded) and the work, or
    None if there is none or either runs out first.
    """
    J = jokers
    kw = max(2, max(map(itemgetter(1), counts)).bit_length())
    owed_shift = max(4, max(map(sum, zip(*counts))).bit_length())  # pool bits
    run_mask = (1 << width) - 1
    suit_mask = (1 << (width + kw)) - 1
    sp = owed_shift + 5 + 4 * (width + kw)
    cap = (J + 1) << sp
    low_width = owed_shift + 5  # pool and owed
    low_mask = (1 << low_width) - 1
    gaps, ahead = layout
    key_layout = (width, kw, owed_shift)
    layout_moves = _EXPANSIONS.get(key_layout)
    if layout_moves is None:
        layout_moves = _EXPANSIONS[key_layout] = defaultdict(dict)
    settle_key = (owed_shift, sp, J, no_dead)
    settle = _SETTLE.get(settle_key)
    if settle is None:
        settle = _SETTLE[settle_key] = _Settle(*settle_key)

    # The positions, in order, each with the suits that may have something to
    # do there: a natural card, or a run still open (a run carries jokers at most
    # min(3, J) positions past its last natural card, see _moves).
    reach = min(3, J) + 1
    # Per step: (p, the suits that move: (shift of the suit's field, its bound
    # table after p, its moves by field value for every hand (see _EXPANSIONS),
    # suit, _EXPANSIONS key), the other suits with aces: (shift, bound table
    # after p), and the bound costs after p of the other suits, which have no
    # run open and no ace kept: a constant). idle_masks[t]: a state is idle at
    # step t (nothing can happen to it there) when its bits under the mask are
    # zero; -1 for a step with a natural card and after the last step.
    steps = []
    idle_masks = []
    recent = [-99] * 4  # last position before p with a natural card, by suit
    suits = [(s, ahead[s], gaps[s], tables[s], owed_shift + 5 + (width + kw) * s)
             for s in range(4) if tables[s] is not None]
    for p in range(1, HIGH_ACE):
        mode = _MODES[p]
        active = []
        passive = []
        k1 = k2 = 0
        idle_mask = 0
        for s, row, gap, table, shift in suits:
            nat = row[p]
            if nat:
                recent[s] = p
                idle_mask = -1
            elif p - recent[s] > reach:
                if row[1]:
                    passive.append((shift, table[p]))
                else:
                    g1, g2 = table[p][0]
                    k1 += g1
                    k2 += g2
                continue
            idle_mask |= run_mask << shift
            moves_key = (s, nat, mode, gap[p], row[p + 1], row[p + 2])
            active.append((shift, table[p], layout_moves[moves_key], s, moves_key))
        if active:
            steps.append((p, active, passive, k1, k2))
            idle_masks.append(idle_mask)
    # Position 14: the aces kept back, and runs that may end on the high ace.
    active = []
    k1 = k2 = 0
    idle_mask = 0
    for s, row, _, table, shift in suits:
        if row[1] or HIGH_ACE - recent[s] <= reach:
            idle_mask |= suit_mask << shift
            moves_key = (s, -1, HIGH_ACE, 4, None, None)
            active.append((shift, table[HIGH_ACE], layout_moves[moves_key], s, moves_key))
        else:
            g1, g2 = table[HIGH_ACE][0]
            k1 += g1
            k2 += g2
    if active:
        steps.append((HIGH_ACE, active, (), k1, k2))
        idle_masks.append(idle_mask)
    last = len(steps)
    idle_masks.append(-1)
    # state -> (dead, parent's step, parent, move numbers, whether a set was made)
    best = [{} for _ in range(last + 1)]

    def shared_moves(suit: tuple, field: int) -> tuple:
        """The moves of a suit at a step from its field's value, for every hand
        with this key layout: ((key delta, bound table key, move number in its
        place), ...), and the _step_moves they come from."""
        shift, _, shared, s, moves_key = suit
        rid = field & run_mask
        kept = field >> width
        mode = moves_key[2]
        naturals = kept if moves_key[1] < 0 else moves_key[1]
        step_moves = _step_moves((rid, naturals) + moves_key[2:])
        moves = []
        for i, (new_rid, spent, owed, left, _) in enumerate(step_moves):
            if new_rid > run_mask:
                raise _Overflow
            if mode == 1:
                new_kept, pool = left, 0  # aces not used low wait for position 14
            elif mode == HIGH_ACE:
                new_kept, pool = 0, left
            else:
                new_kept, pool = kept, left
            delta = ((((new_kept << width) | new_rid) - field) << shift) \
                + ((spent + owed) << sp) + (owed << owed_shift) + pool
            moves.append((delta, (new_rid << 16) | new_kept, i << (_MADE_BITS * s)))
        found = shared[field] = (tuple(moves), step_moves)
        return found

    # Best first: the heap holds (dead + bound, -step, state, dead). A child no
    # worse than everything waiting is followed at once, without the heap (of
    # several, the least dead + bound, then the fewest jokers spent).
    heap: list = []
    push = heappush
    t = 0
    key = 0
    while idle_masks[t] >= 0 and not key & idle_masks[t]:
        t += 1
    first = t
    dead = 0
    f = 0
    best[t][key] = (0,)
    exact = True
    done = None  # (dead, key) of the best arrangement the dives finished
    while True:
        if t == last:
            if exact:
                break
            # A dive finished: keep the best, and go on from the next state
            # that might do better.
            if done is None or dead < done[0]:
                done = (dead, key)
            while heap and heap[0][0] < done[0]:
                f, t, key, dead = heappop(heap)
                t = -t
                if best[t][key][0] == dead:
                    break
            else:  # none can: the best finished is a best arrangement
                exact = True
                dead, key = done
                t = last
                break
            continue
        budget -= 1
        if budget < 0:
            return None
        if work[0] < 0:
            if no_dead:
                return None
            if work[0] < _DIVE_STOP:
                if done is None:
                    return None
                dead, key = done
                t = last
                break
            exact = False
            f = _BIG  # dive: follow the best child of each state taken
        p, active, passive, s1, s2 = steps[t]
        # Every combination of the suits' moves at p: (state, move numbers, and
        # the suits' bound costs after p summed, see _suit_bounds). A suit's
        # moves depend on its own field only; a suit with one move is added to
        # every combination at once.
        for shift, table in passive:
            field = (key >> shift) & suit_mask
            g1, g2 = table[((field & run_mask) << 16) | (field >> width)]
            s1 += g1
            s2 += g2
        nk = key
        made = 0
        choices = []
        for suit in active:
            field = (key >> suit[0]) & suit_mask
            moves = suit[2].get(field)
            if moves is None:
                moves = shared_moves(suit, field)
            moves = moves[0]
            if len(moves) == 1:
                delta, bound_key, i = moves[0]
                g1, g2 = suit[1][bound_key]
                nk += delta
                made += i
                s1 += g1
                s2 += g2
            else:
                choices.append((moves, suit[1]))  # none at all: no combination
        # The last suit with a choice is combined in the loop below. A move
        # needing more jokers than the hand has overflows the spent field
        # (cap); a child with a suit that cannot finish (_BIG) is left out.
        last_moves, last_table = choices.pop() if choices else _NO_CHOICE
        partial = [(nk, made, s1, s2)] if nk < cap else []
        for moves, table in choices:
            grown = []
            for pk, made, s1, s2 in partial:
                for delta, bound_key, i in moves:
                    if pk + delta < cap:
                        g1, g2 = table[bound_key]
                        grown.append((pk + delta, made + i, s1 + g1, s2 + g2))
            partial = grown
        work[0] -= len(partial) * len(last_moves) + 1
        # Settle the pool of rank p (dead, or a set with jokers), bound, and
        # pass the idle steps after.
        vp = values[p]
        t1 = t + 1
        next_busy = idle_masks[t1] < 0  # no state is idle at the next step
        follow = None
        for base, made, s1, s2 in partial:
            for delta, bound_key, i in last_moves:
                pk = base + delta
                if pk >= cap:
                    continue
                g1, g2 = last_table[bound_key]
                for drop, dead_cards, made_set, price1_left, price2_left in \
                        settle[pk >> sp << low_width | pk & low_mask]:
                    nk = pk - drop
                    d = dead + dead_cards * vp
                    t2 = t1
                    if not next_busy:
                        while True:
                            mask = idle_masks[t2]
                            if mask < 0 or nk & mask:
                                break
                            t2 += 1
                    seen = best[t2]
                    old = seen.get(nk)
                    if old is not None and old[0] <= d:
                        if exact:
                            continue
                        d, link = old[0], old  # dive: on from it as reached before
                    else:
                        link = (d, t, key, made + i, made_set)
                    # The bound: the suits' costs, less the jokers left at the price.
                    h = s1 + g1 - price1_left
                    if h > _CANNOT_FINISH:
                        continue
                    h2 = s2 + g2 - price2_left
                    if h2 > h:
                        h = h2
                    cf = d + h if h > 0 else d
                    seen[nk] = link
                    if cf <= f and (follow is None or cf < follow[0]
                                    or cf == follow[0] and nk < follow[2]):
                        if follow is not None:
                            push(heap, follow)
                        follow = (cf, -t2, nk, d)
                    else:
                        push(heap, (cf, -t2, nk, d))
        if follow is not None:
            f, t, key, dead = follow
            t = -t
            continue
        while True:
            if not heap:
                if done is None:
                    return None
                dead, key = done  # the dives looked at every state left
                t = last
                exact = True
                break
            f, t, key, dead = heappop(heap)
            t = -t
            if best[t][key][0] == dead:
                break

    used_jokers = key >> sp  # no joker is owed after the last position
    # Walk the links back, naming each step's moves.
    made_mask = (1 << _MADE_BITS) - 1
    by_step = []
    while t != first:
        _, t, pk, made, made_set = best[t][key]
        p, active, _, _, _ = steps[t]
        step_events = []
        for shift, _, shared, s, moves_key in active:
            field = (pk >> shift) & suit_mask
            if field & run_mask:
                decision = shared[field][1][(made >> (_MADE_BITS * s)) & made_mask][4]
                step_events.append((p, s, decision))
            elif moves_key[1] if moves_key[1] >= 0 else field >> width:
                decision = shared[field][1][(made >> (_MADE_BITS * s)) & made_mask][4]
                # With no run open, a move starting none only puts the cards in
                # the pool (or keeps the aces, at 1): left out if the pool is dead.
                if made_set or p == 1 or decision != _TO_POOL:
                    step_events.append((p, s, decision))
        if made_set:
            step_events.append((p, None, 0))
        by_step.append(step_events)
        key = pk
    events = [event for step_events in reversed(by_step) for event in step_events]
    return dead, events, used_jokers, exact or not dead


# A card's kind: (rank, suit), as in _DISPLAY_KEY.
_JOKER_KIND = (JOKER.rank, JOKER.suit)
_NATURALS = [[(_position_rank(p), suit) if p else None for p in range(HIGH_ACE + 1)]
             for suit in SUITS]  # the kind of card at each run position, by suit


def _replay(events: list, counts: list[list[int]]) -> list[dict[int, tuple]]:
    """Rebuild the melds, as position -> card kind maps, from the sweep's decisions."""
    open_runs = [([], [], []) for _ in SUITS]  # by length class 1, 2, 3+
    kept_aces = [0] * len(SUITS)
    melds: list[dict[int, tuple]] = []
    pool: list[tuple] = []
    pool_at = 0
    for p, s, decision in events:
        if p != pool_at:
            pool = []
            pool_at = p
        if s is None:
            meld = dict(enumerate(pool))
            for i in range(len(pool), 3):
                meld[i] = _JOKER_KIND
            melds.append(meld)
            continue
        natural = _NATURALS[s][p]
        available = kept_aces[s] if p == HIGH_ACE else counts[s][p]
        a1, a2, a3, b3, starts, lead = decision
        ones, twos, longs = open_runs[s]
        had = ones or twos or longs
        if had:
            cut = len(longs) - a3 - b3
            if cut:
                melds.extend(longs[:cut])
                longs = longs[cut:]
            for i, run in enumerate(longs):
                run[p] = natural if i < a3 else _JOKER_KIND
            for i, run in enumerate(twos):
                run[p] = natural if i < a2 else _JOKER_KIND
            for i, run in enumerate(ones):
                run[p] = natural if i < a1 else _JOKER_KIND
        if had or starts or lead:
            new_ones = [{p: natural} for _ in range(starts)] if starts else []
            if lead:
                ones = ones + [{p - 1: _JOKER_KIND, p: natural} for _ in range(lead)]
            open_runs[s] = (new_ones, ones, twos + longs if twos else longs)
        left = available - (a1 + a2 + a3 + starts + lead)
        if p == 1:
            kept_aces[s] = left
        elif left:
            pool.extend([natural] * left)
    for ones, twos, longs in open_runs:
        melds.extend(longs)
    return melds


def _place_spare_jokers(melds: list[dict[int, tuple]], spare: int) -> None:
    """Add spare jokers to the melds; there is always room (see module doc)."""
    if not spare:
        return
    for meld in melds:
        if _is_set_map(meld):
            start = max(meld) + 1
            meld.update({start + i: _JOKER_KIND for i in range(spare)})
            return
    for meld in melds:
        while spare and len(meld) < MAX_RUN:
            low, high = min(meld), max(meld)
            meld[high + 1 if high < HIGH_ACE else low - 1] = _JOKER_KIND
            spare -= 1
        if not spare:
            return
    # Only full 14-card runs are left: split one between its natural cards
    # into two runs of three or more, and grow them.
    run = melds.pop()
    naturals = sorted(p for p, kind in run.items() if kind != _JOKER_KIND)
    cut = next((p for p in range(3, MAX_RUN - 2) if naturals[0] <= p < naturals[-1]), None)
    if cut is None:
        # Its natural cards lie within three positions at one end (or there
        # is one): each makes a set with two jokers, and a set takes the rest.
        sets = [{0: run[p], 1: _JOKER_KIND, 2: _JOKER_KIND} for p in naturals]
        melds.extend(sets)
        _place_spare_jokers(melds, spare + len(run) - 3 * len(sets))
        return
    low = {p: kind for p, kind in run.items() if p <= cut}
    high = {p: kind for p, kind in run.items() if p > cut}
    melds.extend([high, low])
    _place_spare_jokers(melds, spare)


def _search(counts: list[list[int]], jokers: int, values: list[int], layout: tuple,
            tables: list, work: list[int], **limits) -> tuple[int, list, int, bool] | None:
    """_solve, with the run id field as wide as the open-run counts need."""
    width = max(5, len(_RUN_COUNTS).bit_length())
    while True:
        try:
            return _solve(counts, jokers, values, width, layout, tables, work, **limits)
        except _Overflow:
            width += 2


def _is_set_map(meld: dict[int, tuple]) -> bool:
    """Sets are stored under positions 0.., runs under their run positions 1..14."""
    return min(meld) == 0


def best_melds(cards: Iterable[Card], rules: HouseRules) -> Arrangement:
    """An arrangement of the hand into melds that leaves the fewest points."""
    cards = list(cards)
    counts, jokers = _grid(cards)
    values = _values(rules)
    for s, q in _unmeldable(counts, jokers):
        counts[s][q] = 0  # no meld can hold it: deadwood whatever else happens
    maps: list[dict[int, tuple]] = []
    used_jokers = 0
    exact = True
    if any(map(any, counts)):
        layout = _layout(counts)
        found = None
        if jokers >= _MELD_ALL_JOKERS:
            # Most such hands meld every natural card: look for that first,
            # with no bound to work out, for a few steps.
            no_bounds = [_NO_BOUND if any(row) else None for row in counts]
            found = _search(counts, jokers, values, layout, no_bounds, [_MELD_ALL_WORK],
                            no_dead=True, budget=_MELD_ALL_BUDGET)
        if found is None:
            found = _search(counts, jokers, values, layout,
                            _bounds(counts, jokers, values, layout), [_WORK_BUDGET])
        if found is None:  # the dive stopped too: claim no meld (never seen)
            found = (0, [], 0, False)
        _, events, used_jokers, exact = found
        maps = _replay(events, counts)
    if not maps:
        deadwood = sorted(cards, key=display_order)
        return Arrangement([], deadwood, sum(rules.points(c) for c in deadwood), exact)
    _place_spare_jokers(maps, jokers - used_jokers)
    # Hand back the caller's own card objects: melds take them by suit and rank.
    by_kind: dict[tuple[int, str], list[Card]] = {}
    for card in cards:
        kind = (card.rank, card.suit)
        group = by_kind.get(kind)
        if group is None:
            by_kind[kind] = [card]
        else:
            group.append(card)
    melds = []
    firsts = []  # each meld's first card in display order (see display_order)
    for meld in maps:
        cards_of = []
        first = _DISPLAY_KEY[_JOKER_KIND]
        for p in sorted(meld):
            kind = meld[p]
            cards_of.append(by_kind[kind].pop())
            if _DISPLAY_KEY[kind] < first:
                first = _DISPLAY_KEY[kind]
        melds.append(cards_of)
        firsts.append(first)
    melds = [melds[i] for i in sorted(range(len(melds)), key=firsts.__getitem__)]
    deadwood = []
    points = 0
    for kind in sorted(by_kind, key=_DISPLAY_KEY.__getitem__):
        group = by_kind[kind]
        if group:
            deadwood.extend(group)
            points += len(group) * (values[kind[0]] if kind[0] else rules.points(group[0]))
    return Arrangement(melds, deadwood, points, exact)
