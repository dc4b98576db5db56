"""The sweep's moves, shared by the search (meld_search) and its bound
(meld_bounds); see melds for the sweep itself.

At each run position a suit's part of the sweep's state is its open runs,
counted by length: (n1, n2, n3) for runs of one, two, and three or more cards.
What a suit can do there depends only on those counts, its natural cards at
the position and the position's kind, so the moves are worked out once and
kept for every hand (run_moves). Each distinct (n1, n2, n3) gets a small id
(run_id), the same in every hand, so that states pack into ints.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from functools import cache

HIGH_ACE = 14
MAX_RUN = 14

# A suit's open runs by length: (runs of one card, of two, of three or more).
Runs = tuple[int, int, int]
# What a move does with a suit's open runs, see run_moves:
# (a1, a2, a3, b3, starts, lead_starts).
Decision = tuple[int, int, int, int, int, int]
# (new runs, jokers spent, cards left for the pool, cards put in runs, decision)
RunMove = tuple[Runs, int, int, int, Decision]
# Per suit: the distance from each position to its next natural card (_gaps).
Gaps = tuple[int, ...]
# Per suit: its cards by run position 0..16, None past the high ace (sweep_rows).
Ahead = list[int | None]
Rows = tuple[list[Gaps], list[Ahead]]

# The kind of each position for the moves there: 1, 13 and 14 each allow
# different moves, all others are alike (2).
MODES = [p if p in (1, HIGH_ACE - 1, HIGH_ACE) else 2 for p in range(HIGH_ACE + 1)]


def position_rank(position: int) -> int:
    return 1 if position == HIGH_ACE else position


@cache
def run_moves(runs: Runs, naturals: int, can_start: bool,
              lead_start: bool, gap: int) -> tuple[RunMove, ...]:
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
    moves: list[RunMove] = []
    for a3 in range(min(n3, naturals) + 1):
        for b3 in range(n3 - a3 + 1) if gap <= 1 else (0,):
            ended = n3 - a3 - b3
            for a2 in range(min(n2, naturals - a3) + 1):
                free = naturals - a3 - a2
                a1_choices: Sequence[int] = (
                    range(min(n1, free) + 1) if gap <= 3 else (n1,) if n1 <= free else ())
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


# Open-run counts by id, and ids by counts: grown by every hand, never reset.
RUN_COUNTS: list[Runs] = [(0, 0, 0)]
_RUN_IDS: dict[Runs, int] = {(0, 0, 0): 0}
_RUN_IDS_LOCK = threading.Lock()


def run_id(runs: Runs) -> int:
    i = _RUN_IDS.get(runs)
    if i is None:
        with _RUN_IDS_LOCK:
            i = _RUN_IDS.get(runs)
            if i is None:
                i = len(RUN_COUNTS)
                RUN_COUNTS.append(runs)
                _RUN_IDS[runs] = i
    return i


def owed_jokers(runs: Runs, next1: int, next2: int | None) -> int:
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


_GAPS: dict[bytes, Gaps] = {}  # _gaps by the ranks a suit has


def _gaps(held: bytes) -> Gaps:
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


def sweep_rows(counts: list[list[int]]) -> Rows:
    """Per suit: the distance from each position to its next natural card
    (_gaps), and its cards by run position 0..16 (14: the aces again, 15 and
    16: None), so that the next two positions of any position 1..14 can be
    looked up."""
    gaps: list[Gaps] = []
    ahead: list[Ahead] = []
    for row in counts:
        ahead.append([*row, row[1], None, None])
        gaps.append(_gaps(bytes(map(bool, row))))
    return gaps, ahead
