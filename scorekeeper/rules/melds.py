"""Melds and the best arrangement of a hand (docs/RULES.md §5).

The solver sweeps the run positions 1 (ace low) to 14 (ace high) once. At each
position every natural card either extends an open run of its suit, starts a
run, or joins the pool of its rank, which becomes a set (with jokers if the pool
has fewer than three cards) or deadwood. The state is, per suit, how many open
runs have one, two, or three-or-more cards, plus the aces kept back for runs
that end on a high ace and the jokers spent. Only natural cards are scored by
the sweep: once any meld exists, every leftover joker can join one (a set takes
any number, a run grows or splits), so jokers are deadwood only in a hand with
no meld at all.

The solver's parts: best_melds (here) leaves out the cards no meld could hold
(meld_bounds.unmeldable), searches the sweep best first (meld_search) under a
lower bound on the dead points still to come (meld_bounds), and rebuilds the
melds from the search's decisions (_replay). The moves both share are in
meld_moves; the search's state keys and the tables it keeps for every hand
are in meld_keys.

Many jokers. A hand with _MELD_ALL_JOKERS jokers or more can usually meld
every natural card. Such a hand is first searched with no bound at all and
only for states with no dead card, for at most _MELD_ALL_BUDGET steps (and
_MELD_ALL_WORK children, see below): an arrangement found leaves no natural
card dead, so it is a best one, and the bound's tables are never made.
Otherwise (some card must stay dead, or the steps ran out) the hand is solved
in full.

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

from collections.abc import Iterable
from dataclasses import dataclass

from .cards import JOKER, SUITS, Card
from .house import HouseRules
from .meld_bounds import NO_BOUND, bound_tables, unmeldable
from .meld_moves import HIGH_ACE, MAX_RUN, position_rank, sweep_rows
from .meld_search import Decisions, solve

_MELD_ALL_JOKERS = 6  # from this many jokers, first look for no dead card ...
_MELD_ALL_BUDGET = 40  # ... for at most this many steps of the search
_WORK_BUDGET = 2000  # children the search may look at before it dives ...
_DIVE_STOP = -_WORK_BUDGET  # ... and as many again for the dives (see "Work cap")
_MELD_ALL_WORK = _WORK_BUDGET // 4  # the children of the first look, see "Many jokers"

# A card's kind: (rank, suit), as in _DISPLAY_KEY.
Kind = tuple[int, str]
# A meld being rebuilt: card kinds by position (run positions 1..14 for a run,
# 0.. for a set, see _is_set_map).
MeldMap = dict[int, Kind]


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
    candidates = [[*middle, 1], [*middle, HIGH_ACE]] if aces else [middle]
    return any(max(ps) - min(ps) + 1 <= len(cards) for ps in candidates)


_SUIT_INDEX = {suit: s for s, suit in enumerate(SUITS)}
# display_order as one int, by (rank, suit); jokers last
_DISPLAY_KEY = {(rank, suit): 16 * s + rank
                for s, suit in enumerate(SUITS) for rank in range(1, 14)}
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
                present = [p for p in window if counts[s][position_rank(p)]]
                if present and 3 - len(present) == jokers_needed:
                    return [Card(position_rank(p), suit) if p in present else JOKER
                            for p in window]
        if runs_only:
            continue
        for rank in range(1, 14):
            suits = [suit for s, suit in enumerate(SUITS) for _ in range(counts[s][rank])]
            if suits and 3 - min(len(suits), 3) == jokers_needed:
                meld = [Card(rank, suit) for suit in suits[:3]]
                return meld + [JOKER] * jokers_needed
    return None


_VALUES_CACHE: tuple[HouseRules | None, list[int]] = (None, [])  # (rules, values) of the last call


def _values(rules: HouseRules) -> list[int]:
    """Card points by run position (1..14, 14 being the high ace)."""
    global _VALUES_CACHE
    cached_rules, values = _VALUES_CACHE
    if cached_rules is rules:
        return values
    values = [0] + [rules.points(Card(position_rank(p), "S")) for p in range(1, HIGH_ACE + 1)]
    _VALUES_CACHE = (rules, values)
    return values


_JOKER_KIND: Kind = (JOKER.rank, JOKER.suit)
# The kind of card at each run position 1..14, by suit (position 0, where no
# card lies, is never looked up).
_NATURALS: list[list[Kind]] = [[(position_rank(p), suit) for p in range(HIGH_ACE + 1)]
                               for suit in SUITS]


def _replay(events: Decisions, counts: list[list[int]]) -> list[MeldMap]:
    """Rebuild the melds, as position -> card kind maps, from the sweep's decisions."""
    # by length class 1, 2, 3+
    open_runs: list[tuple[list[MeldMap], list[MeldMap], list[MeldMap]]] = [
        ([], [], []) for _ in SUITS]
    kept_aces = [0] * len(SUITS)
    melds: list[MeldMap] = []
    pool: list[Kind] = []
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
    for _, _, longs in open_runs:
        melds.extend(longs)
    return melds


def _place_spare_jokers(melds: list[MeldMap], spare: int) -> None:
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
    below = {p: kind for p, kind in run.items() if p <= cut}
    above = {p: kind for p, kind in run.items() if p > cut}
    melds.extend([above, below])
    _place_spare_jokers(melds, spare)


def _is_set_map(meld: MeldMap) -> bool:
    """Sets are stored under positions 0.., runs under their run positions 1..14."""
    return min(meld) == 0


def best_melds(cards: Iterable[Card], rules: HouseRules) -> Arrangement:
    """An arrangement of the hand into melds that leaves the fewest points."""
    cards = list(cards)
    counts, jokers = _grid(cards)
    values = _values(rules)
    for s, q in unmeldable(counts, jokers):
        counts[s][q] = 0  # no meld can hold it: deadwood whatever else happens
    maps: list[MeldMap] = []
    used_jokers = 0
    exact = True
    if any(map(any, counts)):
        rows = sweep_rows(counts)
        found = None  # (decisions, jokers used, exact), see solve
        if jokers >= _MELD_ALL_JOKERS:
            # Most such hands meld every natural card: look for that first,
            # with no bound to work out, for a few steps.
            no_bounds = [NO_BOUND if any(row) else None for row in counts]
            found = solve(counts, jokers, values, rows, no_bounds, [_MELD_ALL_WORK],
                          _DIVE_STOP, no_dead=True, budget=_MELD_ALL_BUDGET)
        if found is None:
            found = solve(counts, jokers, values, rows,
                          bound_tables(counts, jokers, values, rows), [_WORK_BUDGET], _DIVE_STOP)
        if found is None:  # the dive stopped too: claim no meld, not exact
            exact = False
        else:
            events, used_jokers, exact = found
            maps = _replay(events, counts)
    if not maps:
        deadwood = sorted(cards, key=display_order)
        return Arrangement([], deadwood, sum(rules.points(c) for c in deadwood), exact)
    _place_spare_jokers(maps, jokers - used_jokers)
    # Hand back the caller's own card objects: melds take them by suit and rank.
    by_kind: dict[Kind, list[Card]] = {}
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
