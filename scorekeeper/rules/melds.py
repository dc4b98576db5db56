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
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from .cards import JOKER, SUITS, Card
from .house import HouseRules

HIGH_ACE = 14
MAX_RUN = 14
_NO_RUNS = (0, 0, 0)
_BEAM = 12


@dataclass(frozen=True)
class Arrangement:
    melds: list[list[Card]]
    deadwood: list[Card]
    points: int


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


def _grid(cards: Iterable[Card]) -> tuple[list[list[int]], int]:
    """Counts of natural cards by suit and rank (index 1..13), and the joker count."""
    counts = [[0] * 14 for _ in SUITS]
    jokers = 0
    for card in cards:
        if card.is_joker:
            jokers += 1
        else:
            counts[SUITS.index(card.suit)][card.rank] += 1
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


def _values(rules: HouseRules) -> list[int]:
    return [0] + [rules.points(Card(_position_rank(p), "S")) for p in range(1, HIGH_ACE + 1)]


def _sweep(counts: list[list[int]], jokers: int, values: list[int],
           max_dead: int | None = None, beam: int | None = None):
    """The decisions of the best arrangement, as a link chain, or None.

    ``max_dead`` drops every partial arrangement that has already left more
    natural points unmelded (exact as long as the best leaves no more);
    ``beam`` keeps only that many of the best partial arrangements (fast, not exact).
    """
    gap = [[HIGH_ACE] * (HIGH_ACE + 1) for _ in SUITS]  # distance to the suit's next natural
    for s in range(len(SUITS)):
        following = HIGH_ACE if counts[s][1] else None
        for p in range(HIGH_ACE - 1, 0, -1):
            gap[s][p] = following - p if following else HIGH_ACE
            if counts[s][p]:
                following = p

    # key: (runs per suit, aces kept per suit, jokers spent, pool) -> (value, link)
    states = {((_NO_RUNS,) * 4, (0, 0, 0, 0), 0, 0): (0, None)}
    seen_value = 0
    for p in range(1, HIGH_ACE + 1):
        can_start = p <= HIGH_ACE - 2
        lead_start = p == HIGH_ACE - 1
        for s in range(len(SUITS)):
            here = counts[s][p] if p < HIGH_ACE else None
            if here == 0 and all(key[0][s] == _NO_RUNS for key in states):
                continue
            seen_value += (here or 0) * values[p]
            step = {}
            for key, (value, link) in states.items():
                runs, kept, spent, pool = key
                naturals = kept[s] if here is None else here
                if naturals == 0 and runs[s] == _NO_RUNS:
                    best = step.get(key)
                    if best is None or best[0] < value:
                        step[key] = (value, link)
                    continue
                for new, dj, left, used, decision in _moves(
                        runs[s], naturals, can_start, lead_start, gap[s][p]):
                    j = spent + dj
                    if j > jokers:
                        continue
                    new_runs = runs[:s] + (new,) + runs[s + 1:]
                    if p == 1:
                        new_key = (new_runs, kept[:s] + (left,) + kept[s + 1:], j, pool)
                    else:
                        new_key = (new_runs, kept, j, pool + left)
                    new_value = value + used * values[p]
                    best = step.get(new_key)
                    if best is None or best[0] < new_value:
                        step[new_key] = (new_value, (link, p, s, decision))
            states = step
        if p == 1:
            continue
        resolved = {}
        for (runs, kept, spent, pool), (value, link) in states.items():
            options = [(value, spent, link)]
            if pool >= 3:
                options = [(value + pool * values[p], spent, (link, p, None, pool))]
            elif pool and spent + 3 - pool <= jokers:
                options.append((value + pool * values[p], spent + 3 - pool,
                                (link, p, None, pool)))
            kept_value = sum(kept) * values[HIGH_ACE] if p < HIGH_ACE else 0
            for new_value, j, new_link in options:
                if max_dead is not None and seen_value - kept_value - new_value > max_dead:
                    continue
                new_key = (runs, kept, j, 0)
                best = resolved.get(new_key)
                if best is None or best[0] < new_value:
                    resolved[new_key] = (new_value, new_link)
        if beam is not None and len(resolved) > beam:
            ranked = sorted(resolved.items(), key=lambda item: (-item[1][0], item[0][2]))
            resolved = dict(ranked[:beam])
        states = resolved

    finished = [(value, link) for (runs, _, _, _), (value, link) in states.items()
                if all(r[0] == 0 and r[1] == 0 for r in runs)]
    if not finished:
        return None, 0
    value, link = max(finished, key=lambda item: item[0])
    return (link if value > 0 else None), value


def _replay(link, counts: list[list[int]]) -> list[dict[int, Card]]:
    """Rebuild the melds, as position -> card maps, from the sweep's decisions."""
    events = []
    while link is not None:
        link, p, s, decision = link
        events.append((p, s, decision))
    events.reverse()
    by_position: dict[int, list] = {}
    for p, s, decision in events:
        by_position.setdefault(p, []).append((s, decision))

    open_runs = [([], [], []) for _ in SUITS]  # by length class 1, 2, 3+
    kept_aces = [0] * len(SUITS)
    melds: list[dict[int, Card]] = []
    for p in range(1, HIGH_ACE + 1):
        pool: list[Card] = []
        for s, decision in by_position.get(p, []):
            if s is None:
                melds.append({i: card for i, card in enumerate(pool)})
                melds[-1].update({len(pool) + i: JOKER for i in range(3 - len(pool))})
                continue
            suit = SUITS[s]
            natural = Card(_position_rank(p), suit)
            available = kept_aces[s] if p == HIGH_ACE else counts[s][p]
            a1, a2, a3, b3, starts, lead = decision
            ones, twos, longs = open_runs[s]
            ended, longs = longs[: len(longs) - a3 - b3], longs[len(longs) - a3 - b3:]
            melds.extend(ended)
            for i, run in enumerate(longs):
                run[p] = natural if i < a3 else JOKER
            for i, run in enumerate(twos):
                run[p] = natural if i < a2 else JOKER
            for i, run in enumerate(ones):
                run[p] = natural if i < a1 else JOKER
            new_ones = [{p: natural} for _ in range(starts)]
            new_twos = [{p - 1: JOKER, p: natural} for _ in range(lead)]
            open_runs[s] = (new_ones, ones + new_twos, twos + longs)
            left = available - (a1 + a2 + a3 + starts + lead)
            if p == 1:
                kept_aces[s] = left
            else:
                pool.extend([natural] * left)
    for ones, twos, longs in open_runs:
        melds.extend(longs)
    return melds


def _place_spare_jokers(melds: list[dict[int, Card]], spare: int) -> None:
    """Add spare jokers to the melds; there is always room (see module doc)."""
    if not spare:
        return
    for meld in melds:
        if _is_set_map(meld):
            start = max(meld) + 1
            meld.update({start + i: JOKER for i in range(spare)})
            return
    for meld in melds:
        while spare and len(meld) < MAX_RUN:
            low, high = min(meld), max(meld)
            meld[high + 1 if high < HIGH_ACE else low - 1] = JOKER
            spare -= 1
        if not spare:
            return
    # Only full 14-card runs are left: split one and grow the low half.
    run = melds.pop()
    naturals = [p for p, c in run.items() if not c.is_joker]
    cut = next(p for p in range(3, MAX_RUN - 2)
               if any(q <= p for q in naturals) and any(q > p for q in naturals))
    low = {p: c for p, c in run.items() if p <= cut}
    high = {p: c for p, c in run.items() if p > cut}
    melds.extend([high, low])
    _place_spare_jokers(melds, spare)


def _is_set_map(meld: dict[int, Card]) -> bool:
    """Sets are stored under positions 0.., runs under their run positions 1..14."""
    return min(meld) == 0


def best_melds(cards: Iterable[Card], rules: HouseRules) -> Arrangement:
    """An arrangement of the hand into melds that leaves the fewest points."""
    cards = list(cards)
    counts, jokers = _grid(cards)
    values = _values(rules)
    total = sum(values[p] * counts[s][p] for s in range(len(SUITS)) for p in range(1, 14))
    _, guess = _sweep(counts, jokers, values, beam=_BEAM)
    link, _ = _sweep(counts, jokers, values, max_dead=total - guess)
    if link is None:
        deadwood = sorted(cards, key=display_order)
        return Arrangement([], deadwood, sum(rules.points(c) for c in deadwood))
    maps = _replay(link, counts)
    used = [c for meld in maps for c in meld.values()]
    _place_spare_jokers(maps, jokers - sum(c.is_joker for c in used))
    melds = [[meld[p] for p in sorted(meld)] for meld in maps]
    remaining = list(cards)
    for meld in melds:
        for card in meld:
            remaining.remove(card)
    melds.sort(key=lambda m: min(display_order(c) for c in m))
    deadwood = sorted(remaining, key=display_order)
    return Arrangement(melds, deadwood, sum(rules.points(c) for c in deadwood))
