"""The search's states as ints, and the tables it reads them with (see meld_search).

A state of the search is one int; KeyLayout says where its fields lie, one
layout object per distinct layout. What does not depend on a hand's card
points is kept here for every hand, filled in as the searches need it: the
moves of a suit at each kind of position (_step_moves), those moves as key
deltas by key layout and the value of the suit's field (moves_of_layout,
field_moves), and how a position's pool settles by a key's tally (Settle, by
key layout, jokers and no_dead: settle_table).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from operator import itemgetter

from .meld_bounds import PRICES, Cost
from .meld_moves import HIGH_ACE, RUN_COUNTS, Decision, owed_jokers, run_id, run_moves

OWED_BITS = 5  # owed jokers at a position: at most 7 a suit (owed_jokers), 28 in all
MADE_BITS = 16  # bits per suit for a move number in a link (see field_moves)

# A suit's moves at a step: (suit or open-run id, natural cards (-1: the aces
# kept), mode (MODES), gap, next1, next2), see _step_moves and meld_search's plan.
MovesKey = tuple[int, int, int, int, int | None, int | None]
# (new open-run id, jokers spent, jokers owed, cards left, decision), see _step_moves.
StepMove = tuple[int, int, int, int, Decision]
# (key delta, bound table state, move number in its place), see field_moves.
FieldMove = tuple[int, int, int]
FieldMoves = tuple[tuple[FieldMove, ...], tuple[StepMove, ...]]
# A mover (see meld_search's plan): (shift of the suit's field, its bound table after
# the position, its moves by field value, suit, moves_key).
Mover = tuple[int, Mapping[int, Cost], dict[int, FieldMoves], int, MovesKey]


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
        # fields cleared. How the pool settles depends on the tally alone (Settle).
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


class RunIdOverflow(Exception):
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
# meld_search's plan), then by the value of the suit's field (field_moves).
_EXPANSIONS: dict[KeyLayout, defaultdict[MovesKey, dict[int, FieldMoves]]] = {}


def moves_of_layout(layout: KeyLayout) -> defaultdict[MovesKey, dict[int, FieldMoves]]:
    """The moves of every suit at every kind of step, for every hand with this
    key layout: by moves_key, then by field value (field_moves fills them in)."""
    found = _EXPANSIONS.get(layout)
    if found is None:
        found = _EXPANSIONS.setdefault(layout, defaultdict(dict))
    return found


def field_moves(layout: KeyLayout, mover: Mover, field: int) -> FieldMoves:
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
            raise RunIdOverflow
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


class Settle(dict[int, tuple[Settling, ...]]):
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


_SETTLE: dict[tuple[KeyLayout, int, bool], Settle] = {}


def settle_table(layout: KeyLayout, jokers: int, no_dead: bool) -> Settle:
    """The Settle table of every search with this key layout, jokers and no_dead."""
    key = (layout, jokers, no_dead)
    found = _SETTLE.get(key)
    if found is None:
        found = _SETTLE[key] = Settle(*key)
    return found
