"""The search for a best arrangement of a hand's natural cards (see melds).

The sweep is a layered graph, one layer per position; a path through it is an
arrangement, and its cost is the natural points left in pools that are neither
set nor given jokers ("dead"). The graph is walked best first (A*): states are
taken in order of dead points so far plus a lower bound on the dead points
still to come (meld_bounds), and equal states (same open runs, aces kept,
jokers spent) are merged keeping the fewest dead points. Because the bound
never overestimates, the first finished state taken is a best arrangement: the
bound only decides the order and which states are never looked at, never the
cost of a finished path.

A search runs in phases (_Search): plan the steps (the positions and, at each,
the suits that may move), then take states best first (run), expanding each
(_Search.expand: combine the suits' moves, settle the rank's pool, bound and
record the children), and last walk the links back from the finished state
(decisions). A state is one int; KeyLayout says where its fields lie.

Work cap. ``work`` counts down the children looked at (a step's combinations
of moves, counted as they are made, and one for the step). Once it is spent
the search dives: from each state taken it follows only its best child (least
dead points plus bound) to the end, keeps the best arrangement the dives
finish, and goes on from the waiting state of least dead points plus bound
while that could do better, until ``work`` is below ``dive_stop``. The answer
is then not exact, unless nothing waiting could do better.

Speed. What does not depend on a hand's card points is kept for every hand:
the moves of a suit at each kind of position (_step_moves), and those moves
as key deltas, by key layout and the value of the suit's field (_EXPANSIONS).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from heapq import heappop, heappush
from operator import itemgetter

from .meld_bounds import BIG, CANNOT_FINISH, PRICES, BoundTable, Cost
from .meld_moves import (
    HIGH_ACE,
    MODES,
    RUN_COUNTS,
    Decision,
    Rows,
    owed_jokers,
    run_id,
    run_moves,
)

OWED_BITS = 5  # owed jokers at a position: at most 7 a suit (owed_jokers), 28 in all
MADE_BITS = 16  # bits per suit for a move number in a link (see _Search.expand)
_MADE_MASK = (1 << MADE_BITS) - 1

# A suit's moves at a step: (suit or open-run id, natural cards (-1: the aces
# kept), mode (MODES), gap, next1, next2), see _step_moves and _Search.plan.
MovesKey = tuple[int, int, int, int, int | None, int | None]
# (new open-run id, jokers spent, jokers owed, cards left, decision), see _step_moves.
StepMove = tuple[int, int, int, int, Decision]
# (key delta, bound table state, move number in its place), see _field_moves.
FieldMove = tuple[int, int, int]
FieldMoves = tuple[tuple[FieldMove, ...], tuple[StepMove, ...]]
# A mover (see _Search.plan): (shift of the suit's field, its bound table after
# the position, its moves by field value, suit, moves_key).
Mover = tuple[int, Mapping[int, Cost], dict[int, FieldMoves], int, MovesKey]
# A step (see _Search.plan): (position, movers, passive suits as (shift, bound
# table after the position), the other suits' bound costs at each price).
Step = tuple[int, list[Mover], Sequence[tuple[int, Mapping[int, Cost]]], int, int]
# A search's decisions (see _Search.decisions): (position, suit, decision), and
# (position, None, _TO_POOL) for a set made of the position's pool.
Decisions = list[tuple[int, int | None, Decision]]


class KeyLayout:
    """Where the fields of a search state lie in its int key, from the lowest
    bits up:
        pool    pool_bits       natural cards put in the current rank's pool so far
        owed    OWED_BITS       jokers that the open runs of the suits already
                                moved at this position must take at the next two
                                positions (owed_jokers)
        fields  4 x field_bits  per suit, its field: the id of its open-run counts
                                (run_bits, see run_id), then the aces it keeps
                                back for position 14 (kept_bits)
        spent   the rest        jokers spent, plus the jokers owed
    Pool and owed are only filled in while a position is being swept: the
    states kept between positions have both at zero. Counting the owed jokers
    as spent makes "too many jokers" a single comparison (joker_cap). Keys
    compare as (spent, suit 3's field, ..., suit 0's field): that orders
    states of equal cost in the search.

    Suit s's field is key >> field_shift(s) & field_mask. The search's loops
    read the masks and shifts into locals and spell such expressions out, as
    a method would cost a call each time; a comment names the method meant."""

    __slots__ = ("field_bits", "field_mask", "fields_shift", "owed_shift",
                 "pool_bits", "run_bits", "run_mask", "spent_shift", "tally_mask")

    def __init__(self, run_bits: int, kept_bits: int, pool_bits: int) -> None:
        self.run_bits = run_bits
        self.pool_bits = pool_bits
        self.field_bits = run_bits + kept_bits
        self.run_mask = (1 << run_bits) - 1
        self.field_mask = (1 << self.field_bits) - 1
        self.owed_shift = pool_bits
        self.fields_shift = pool_bits + OWED_BITS
        self.spent_shift = self.fields_shift + 4 * self.field_bits
        # A key under this mask is its tally: pool, owed and spent, the suits'
        # fields cleared. How the pool settles depends on the tally alone (_Settle).
        self.tally_mask = ((1 << self.fields_shift) - 1) | -(1 << self.spent_shift)

    @staticmethod
    def for_hand(counts: list[list[int]], run_bits: int) -> KeyLayout:
        """The layout for a hand's natural cards (``counts``, by suit and rank),
        one object per distinct layout."""
        kept_bits = max(2, max(map(itemgetter(1), counts)).bit_length())
        pool_bits = max(4, max(map(sum, zip(*counts, strict=True))).bit_length())
        bits = (run_bits, kept_bits, pool_bits)
        layout = _LAYOUTS.get(bits)
        if layout is None:
            layout = _LAYOUTS.setdefault(bits, KeyLayout(*bits))
        return layout

    def field_shift(self, s: int) -> int:
        """Where suit s's field begins."""
        return self.fields_shift + self.field_bits * s

    def make_field(self, run: int, kept: int) -> int:
        return kept << self.run_bits | run

    def run(self, field: int) -> int:
        """The field's open-run id."""
        return field & self.run_mask

    def kept(self, field: int) -> int:
        """The aces the field's suit keeps back for position 14."""
        return field >> self.run_bits

    def bound_state(self, field: int) -> int:
        """The field as a state of the suit's bound table (meld_bounds)."""
        return (field & self.run_mask) << 16 | field >> self.run_bits

    def spent(self, key: int) -> int:
        return key >> self.spent_shift

    def joker_cap(self, jokers: int) -> int:
        """Keys from this one up spend (or owe) more jokers than the hand has."""
        return (jokers + 1) << self.spent_shift

    def pool(self, key: int) -> int:
        return key & ((1 << self.pool_bits) - 1)

    def owed(self, key: int) -> int:
        return key >> self.owed_shift & ((1 << OWED_BITS) - 1)

    def pack(self, pool: int = 0, owed: int = 0, spent: int = 0) -> int:
        """A key with these fields and every suit's field at zero."""
        return pool | owed << self.owed_shift | spent << self.spent_shift


_LAYOUTS: dict[tuple[int, int, int], KeyLayout] = {}


class _Overflow(Exception):
    """More distinct open-run counts than the run id field holds; widen it."""


_STEP_MOVES: dict[MovesKey, tuple[StepMove, ...]] = {}


def _step_moves(key: MovesKey) -> tuple[StepMove, ...]:
    """The moves of one suit at one position, for the search, shared by every hand.

    ``key`` is (open-run id, natural cards, mode (MODES), gap, next1, next2), the
    last three as in run_moves and owed_jokers. Each move is (new open-run id,
    jokers spent, jokers owed, cards left, decision); moves with the same outcome
    and cost are the same move for the search and appear once.
    """
    found = _STEP_MOVES.get(key)
    if found is None:
        rid, naturals, mode, gap, next1, next2 = key
        outcomes: dict[tuple[int, int, int, int], Decision] = {}
        for new, spent, left, _, decision in run_moves(RUN_COUNTS[rid], naturals,
                                                       mode <= HIGH_ACE - 2,
                                                       mode == HIGH_ACE - 1, gap):
            if mode == HIGH_ACE:
                if new[0] or new[1]:
                    continue  # a run of one or two cards can't end on the high ace
                owed = 0
            else:
                # Only position 14 (mode HIGH_ACE) has no next position.
                assert next1 is not None
                owed = owed_jokers(new, next1, next2)
            outcomes.setdefault((run_id(new), spent, owed, left), decision)
        found = _STEP_MOVES[key] = tuple((*o, d) for o, d in outcomes.items())
    return found


# The search's moves of one suit at one kind of step, by key layout, then by
# suit and the rest of the _step_moves key (a mover's moves_key, see
# _Search.plan), then by the value of the suit's field (_field_moves).
_EXPANSIONS: dict[KeyLayout, defaultdict[MovesKey, dict[int, FieldMoves]]] = {}


def _field_moves(layout: KeyLayout, mover: Mover, field: int) -> FieldMoves:
    """The moves of a suit at a step from its field's value, for every hand
    with this key layout: ((key delta, bound table state, move number in its
    place), ...), and the _step_moves they come from."""
    _, _, by_field, s, moves_key = mover
    kept = layout.kept(field)
    mode = moves_key[2]
    naturals = kept if moves_key[1] < 0 else moves_key[1]
    step_moves = _step_moves((layout.run(field), naturals, *moves_key[2:]))
    shift = layout.field_shift(s)
    moves: list[FieldMove] = []
    for i, (new_run, spent, owed, left, _) in enumerate(step_moves):
        if new_run > layout.run_mask:
            raise _Overflow
        if mode == 1:
            new_kept, pool = left, 0  # aces not used low wait for position 14
        elif mode == HIGH_ACE:
            new_kept, pool = 0, left
        else:
            new_kept, pool = kept, left
        new_field = layout.make_field(new_run, new_kept)
        delta = ((new_field - field) << shift) + layout.pack(pool=pool, owed=owed,
                                                             spent=spent + owed)
        moves.append((delta, layout.bound_state(new_field), i << (MADE_BITS * s)))
    found = by_field[field] = (tuple(moves), step_moves)
    return found


# How a pool settles: (amount taken off the key, cards left dead, whether a set
# is made, then the jokers left at each of PRICES, as many as there are prices).
Settling = tuple[int, ...]


class _Settle(dict[int, tuple[Settling, ...]]):
    """How the pool of a position may settle, by a key's tally (KeyLayout.tally_mask):
    ((amount taken off the key, cards left dead, whether a set is made, the
    jokers left at each of PRICES), ...). Taking the amount off clears pool
    and owed and, for a set of one or two cards, adds the jokers it takes to
    those spent; the owed jokers stay out of the spent count, but a set may
    only take jokers the runs do not owe. With ``no_dead``, only the ways that
    leave no card dead."""

    def __init__(self, layout: KeyLayout, jokers: int, no_dead: bool) -> None:
        super().__init__()
        self.layout = layout
        self.jokers = jokers
        self.no_dead = no_dead

    def __missing__(self, tally: int) -> tuple[Settling, ...]:
        layout = self.layout
        pool = layout.pool(tally)
        owed = layout.owed(tally)
        drop = layout.pack(pool=pool, owed=owed, spent=owed)
        left = self.jokers - layout.spent(tally) + owed  # once the owed jokers are taken off
        options: list[tuple[int, int, int, int]] = []
        if pool == 1 or pool == 2:
            if not self.no_dead:
                options.append((drop, pool, 0, left))
            if 3 - pool <= left - owed:
                options.append((drop - layout.pack(spent=3 - pool), 0, 1, left - (3 - pool)))
        else:
            options.append((drop, 0, 1 if pool else 0, left))
        found = self[tally] = tuple((*o[:3], *(price * o[3] for price in PRICES))
                                    for o in options)
        return found


_SETTLE: dict[tuple[KeyLayout, int, bool], _Settle] = {}
_TO_POOL = (0, 0, 0, 0, 0, 0)  # the decision (run_moves) that puts every card in the pool
# The one move of no suit, (key delta, bound table state, move number), and its
# bound table.
_NO_CHOICE: tuple[tuple[FieldMove, ...], Mapping[int, Cost]] = (((0, 0, 0),), {0: (0, 0)})


class _Search:
    """One search of a hand's natural cards, in the layout ``layout``; see the
    module doc. ``work`` is shared with the caller (see "Work cap")."""

    __slots__ = ("cap", "first", "heap", "idle_masks", "layout", "links", "no_dead", "settle",
                 "steps", "values", "work")

    def __init__(self, layout: KeyLayout, jokers: int, values: list[int], rows: Rows,
                 tables: Sequence[BoundTable | None], work: list[int], no_dead: bool) -> None:
        self.layout = layout
        self.values = values
        self.work = work
        self.no_dead = no_dead
        self.cap = layout.joker_cap(jokers)
        settle_key = (layout, jokers, no_dead)
        settle = _SETTLE.get(settle_key)
        if settle is None:
            settle = _SETTLE[settle_key] = _Settle(*settle_key)
        self.settle = settle
        self.heap: list[tuple[int, int, int, int]] = []
        self.plan(jokers, rows, tables)
        # per step: state -> (dead, parent's step, parent, move numbers, whether
        # a set was made), the first state's (0,)
        self.links: list[dict[int, tuple]] = [{} for _ in self.idle_masks]

    def plan(self, jokers: int, rows: Rows, tables: Sequence[BoundTable | None]) -> None:
        """The positions, in order, each with the suits that may have something
        to do there: a natural card, or a run still open (a run carries jokers
        at most min(3, jokers) positions past its last natural card, see
        run_moves).

        steps[t]: (p, movers: the suits that move, as (shift of the suit's
        field, its bound table after p, its moves by field value for every hand
        (_EXPANSIONS), suit, moves_key), the other suits with aces: (shift,
        bound table after p), and the bound costs after p of the other suits,
        which have no run open and no ace kept: a constant at each price).
        idle_masks[t]: a state is idle at step t (nothing can happen to it
        there) when its bits under the mask are zero; -1 for a step with a
        natural card and after the last step.
        """
        layout = self.layout
        gaps, ahead = rows
        layout_moves = _EXPANSIONS.get(layout)
        if layout_moves is None:
            layout_moves = _EXPANSIONS.setdefault(layout, defaultdict(dict))
        reach = min(3, jokers) + 1
        run_mask = layout.run_mask
        steps: list[Step] = []
        idle_masks: list[int] = []
        recent = [-99] * 4  # last position before p with a natural card, by suit
        suits = [(s, ahead[s], gaps[s], table, layout.field_shift(s))
                 for s, table in enumerate(tables) if table is not None]
        for p in range(1, HIGH_ACE):
            mode = MODES[p]
            movers: list[Mover] = []
            passive: list[tuple[int, Mapping[int, Cost]]] = []
            k1 = k2 = 0
            idle_mask = 0
            for s, row, gap, table, shift in suits:
                nat = row[p]
                assert nat is not None  # None only past the high ace (sweep_rows)
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
                moves_key: MovesKey = (s, nat, mode, gap[p], row[p + 1], row[p + 2])
                movers.append((shift, table[p], layout_moves[moves_key], s, moves_key))
            if movers:
                steps.append((p, movers, passive, k1, k2))
                idle_masks.append(idle_mask)
        # Position 14: the aces kept back, and runs that may end on the high ace.
        movers = []
        k1 = k2 = 0
        idle_mask = 0
        for s, row, _, table, shift in suits:
            if row[1] or HIGH_ACE - recent[s] <= reach:
                idle_mask |= layout.field_mask << shift
                moves_key = (s, -1, HIGH_ACE, 4, None, None)
                movers.append((shift, table[HIGH_ACE], layout_moves[moves_key], s, moves_key))
            else:
                g1, g2 = table[HIGH_ACE][0]
                k1 += g1
                k2 += g2
        if movers:
            steps.append((HIGH_ACE, movers, (), k1, k2))
            idle_masks.append(idle_mask)
        idle_masks.append(-1)
        self.steps = steps
        self.idle_masks = idle_masks

    def run(self, dive_stop: int, budget: int) -> tuple[int, int, bool] | None:
        """(dead points, finished state, whether it is surely a best) of the
        search, or None (see solve)."""
        last = len(self.steps)
        idle_masks = self.idle_masks
        work = self.work
        expand = self.expand
        take = self.take
        t = 0
        key = 0
        while idle_masks[t] >= 0 and not key & idle_masks[t]:
            t += 1
        self.first = t
        self.links[t][key] = (0,)
        dead = 0
        f = 0
        exact = True
        done = None  # (dead, key) of the best arrangement the dives finished
        while True:
            if t == last:
                if exact:
                    return dead, key, True
                # A dive finished: keep the best, and go on from the next state
                # that might do better.
                if done is None or dead < done[0]:
                    done = (dead, key)
                taken = take(done[0])
                if taken is None:  # none can: the best finished is a best arrangement
                    return done[0], done[1], True
                f, t, key, dead = taken
                t = -t
                continue
            budget -= 1
            if budget < 0:
                return None
            if work[0] < 0:
                if self.no_dead:
                    return None
                if work[0] < dive_stop:
                    return None if done is None else (done[0], done[1], False)
                exact = False
                f = BIG  # dive: follow the best child of each state taken
            taken = expand(t, key, dead, f, exact) or take()
            if taken is None:  # nothing waiting: the dives looked at every state left
                return None if done is None else (done[0], done[1], True)
            f, t, key, dead = taken
            t = -t

    def take(self, below: int | None = None) -> tuple[int, int, int, int] | None:
        """The waiting state of least dead points plus bound, if that is less
        than ``below``, as the heap holds it (see expand); a state reached
        since with fewer dead points is passed over."""
        heap = self.heap
        links = self.links
        while heap and (below is None or heap[0][0] < below):
            f, t, key, dead = heappop(heap)
            if links[-t][key][0] == dead:
                return f, t, key, dead
        return None

    def expand(self, t: int, key: int, dead: int, f: int,
               exact: bool) -> tuple[int, int, int, int] | None:
        """Make the children of state ``key`` at step t, then bound, link and
        queue them.

        The heap holds (dead + bound, -step, state, dead). A child no worse
        than ``f`` (everything waiting, or BIG in a dive) is returned to be
        taken at once, without the heap (of several, the least dead + bound,
        then the least key). In a dive (not ``exact``) a child already reached
        with no more dead points is gone on from as reached before.
        """
        layout = self.layout
        field_mask = layout.field_mask
        run_mask = layout.run_mask
        run_bits = layout.run_bits
        cap = self.cap
        p, movers, passive, s1, s2 = self.steps[t]
        # Combine: every combination of the suits' moves at p but the last
        # suit's with a choice, as (key, move numbers, and the suits' bound
        # costs after p summed at each price, see meld_bounds). A suit's moves
        # depend on its own field only; a suit with one move is added to every
        # combination at once. A combination reaching the joker cap is left out.
        for shift, table in passive:
            field = key >> shift & field_mask
            g1, g2 = table[(field & run_mask) << 16 | field >> run_bits]  # layout.bound_state
            s1 += g1
            s2 += g2
        nk = key
        made = 0
        choices = []
        for mover in movers:
            field = key >> mover[0] & field_mask
            found = mover[2].get(field)
            if found is None:
                found = _field_moves(layout, mover, field)
            moves = found[0]
            if len(moves) == 1:
                delta, bound_state, i = moves[0]
                g1, g2 = mover[1][bound_state]
                nk += delta
                made += i
                s1 += g1
                s2 += g2
            else:
                choices.append((moves, mover[1]))  # none at all: no combination
        last_moves, last_table = choices.pop() if choices else _NO_CHOICE
        partial = [(nk, made, s1, s2)] if nk < cap else []
        for moves, table in choices:
            grown = []
            for pk, made, s1, s2 in partial:
                for delta, bound_state, i in moves:
                    if pk + delta < cap:
                        g1, g2 = table[bound_state]
                        grown.append((pk + delta, made + i, s1 + g1, s2 + g2))
            partial = grown
        self.work[0] -= len(partial) * len(last_moves) + 1
        # Children: each combination with each move of the last suit, its
        # rank's pool settled (dead, or a set with jokers), past the idle steps
        # after. A child with a suit that cannot finish (BIG) is left out.
        tally_mask = layout.tally_mask
        settle = self.settle
        idle_masks = self.idle_masks
        links = self.links
        heap = self.heap
        push = heappush
        vp = self.values[p]
        t1 = t + 1
        next_busy = idle_masks[t1] < 0  # no state is idle at the next step
        follow = None
        for base, made, s1, s2 in partial:
            for delta, bound_state, i in last_moves:
                pk = base + delta
                if pk >= cap:
                    continue
                g1, g2 = last_table[bound_state]
                for drop, dead_cards, made_set, price1_left, price2_left in \
                        settle[pk & tally_mask]:  # the key's tally
                    nk = pk - drop
                    d = dead + dead_cards * vp
                    t2 = t1
                    if not next_busy:
                        while True:
                            mask = idle_masks[t2]
                            if mask < 0 or nk & mask:
                                break
                            t2 += 1
                    seen = links[t2]
                    old = seen.get(nk)
                    if old is not None and old[0] <= d:
                        if exact:
                            continue
                        d, link = old[0], old
                    else:
                        link = (d, t, key, made + i, made_set)
                    # The bound: the suits' costs, less the jokers left at the price.
                    h = s1 + g1 - price1_left
                    if h > CANNOT_FINISH:
                        continue
                    h2 = s2 + g2 - price2_left
                    if h2 > h:
                        h = h2
                    cf = d + h if h > 0 else d
                    seen[nk] = link
                    if cf <= f and (follow is None or cf < follow[0]
                                    or (cf == follow[0] and nk < follow[2])):
                        if follow is not None:
                            push(heap, follow)
                        follow = (cf, -t2, nk, d)
                    else:
                        push(heap, (cf, -t2, nk, d))
        return follow

    def decisions(self, key: int) -> Decisions:
        """Walk the links back from the finished state ``key``, naming each
        step's moves: (position, suit, decision (run_moves)), and (position,
        None, _TO_POOL) for a set made of the position's pool."""
        layout = self.layout
        field_mask = layout.field_mask
        run_mask = layout.run_mask
        run_bits = layout.run_bits
        steps = self.steps
        links = self.links
        t = len(steps)
        by_step: list[Decisions] = []
        while t != self.first:
            _, t, pk, made, made_set = links[t][key]
            p, movers, _, _, _ = steps[t]
            step_events: Decisions = []
            for shift, _, by_field, s, moves_key in movers:
                field = pk >> shift & field_mask
                has_run = field & run_mask  # layout.run
                # The suit has natural cards here, or at 14 aces kept (layout.kept).
                if has_run or (moves_key[1] if moves_key[1] >= 0 else field >> run_bits):
                    decision = by_field[field][1][made >> (MADE_BITS * s) & _MADE_MASK][4]
                    # With no run open, a move starting none only puts the cards in
                    # the pool (or keeps the aces, at 1): left out if the pool is dead.
                    if has_run or made_set or p == 1 or decision != _TO_POOL:
                        step_events.append((p, s, decision))
            if made_set:
                step_events.append((p, None, _TO_POOL))
            by_step.append(step_events)
            key = pk
        return [event for step_events in reversed(by_step) for event in step_events]


def solve(counts: list[list[int]], jokers: int, values: list[int], rows: Rows,
          tables: Sequence[BoundTable | None], work: list[int], dive_stop: int,
          no_dead: bool = False, budget: int = BIG) -> tuple[Decisions, int, bool] | None:
    """(decisions, jokers used, whether it is surely a best) of a
    best arrangement of the natural cards (``counts``); a decision that only
    leaves cards dead is left out. ``rows`` as sweep_rows gives them,
    ``tables`` the bound tables by suit (meld_bounds). ``work`` holds the
    children the hand's searches may still look at; once it is spent the
    search dives, and stops below ``dive_stop`` (see "Work cap").

    With ``no_dead`` or ``budget``: of an arrangement leaving no dead card,
    found within ``budget`` steps taken (a state expanded) and the work, or
    None if there is none or either runs out first.

    The run id field starts as wide as the open-run counts seen so far need,
    and is widened if a move reaches a count it cannot hold.
    """
    run_bits = max(5, len(RUN_COUNTS).bit_length())
    while True:
        layout = KeyLayout.for_hand(counts, run_bits)
        search = _Search(layout, jokers, values, rows, tables, work, no_dead)
        try:
            found = search.run(dive_stop, budget)
        except _Overflow:
            run_bits += 2
            continue
        if found is None:
            return None
        dead, key, exact = found
        # no joker is owed after the last position
        return search.decisions(key), layout.spent(key), exact or not dead
