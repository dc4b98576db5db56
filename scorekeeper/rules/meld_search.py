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
(decisions). A state is one int; KeyLayout says where its fields lie, and
the tables the search reads states with are shared by every hand (meld_keys).

Work cap. ``work`` counts down the children looked at (a step's combinations
of moves, counted as they are made, and one for the step). Once it is spent
the search dives: from each state taken it follows only its best child (least
dead points plus bound) to the end, keeps the best arrangement the dives
finish, and goes on from the waiting state of least dead points plus bound
while that could do better, until ``work`` is below ``dive_stop``. The answer
is then not exact, unless nothing waiting could do better.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from heapq import heappop, heappush

from .meld_bounds import BIG, CANNOT_FINISH, BoundTable, Cost
from .meld_keys import (
    MADE_BITS,
    FieldMove,
    KeyLayout,
    Mover,
    MovesKey,
    RunIdOverflow,
    field_moves,
    moves_of_layout,
    settle_table,
)
from .meld_moves import HIGH_ACE, MODES, RUN_COUNTS, Decision, Rows

_MADE_MASK = (1 << MADE_BITS) - 1

# A step (see _Search.plan): (position, movers, passive suits as (shift, bound
# table after the position), the other suits' bound costs at each price).
Step = tuple[int, list[Mover], Sequence[tuple[int, Mapping[int, Cost]]], int, int]
# A search's decisions (see _Search.decisions): (position, suit, decision), and
# (position, None, _TO_POOL) for a set made of the position's pool.
Decisions = list[tuple[int, int | None, Decision]]

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
        self.settle = settle_table(layout, jokers, no_dead)
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
        (moves_of_layout), suit, moves_key), the other suits with aces: (shift,
        bound table after p), and the bound costs after p of the other suits,
        which have no run open and no ace kept: a constant at each price).
        idle_masks[t]: a state is idle at step t (nothing can happen to it
        there) when its bits under the mask are zero; -1 for a step with a
        natural card and after the last step.
        """
        layout = self.layout
        gaps, ahead = rows
        layout_moves = moves_of_layout(layout)
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
                found = field_moves(layout, mover, field)
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
        except RunIdOverflow:
            run_bits += 2
            continue
        if found is None:
            return None
        dead, key, exact = found
        # no joker is owed after the last position
        return search.decisions(key), layout.spent(key), exact or not dead
