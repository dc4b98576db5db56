"""Slow, independent reference implementations used to check the rules engine.

Written from docs/RULES.md only, on purpose without importing anything from
``scorekeeper.rules``: cards are handled through their ``rank`` and ``suit``
attributes (rank 0 = joker, 1 = ace, 11/12/13 = J/Q/K), so any object with
those two attributes will do.

Nothing here is clever. Meld validity is checked by trying every place an
ace could sit; the best arrangement is an exhaustive, memoised search over all
partitions of a hand into melds and deadwood; the fewest transfers is a brute
force over the set partitions of the non-zero balances.
"""

from __future__ import annotations

from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import combinations, product

JOKER_RANK = 0
MAX_RUN = 14  # A 2 ... K A

RANK_TEXT = {1: "A", 11: "J", 12: "Q", 13: "K"}


def key(card):
    """(rank, suit) of a card-like object; jokers are (0, "")."""
    if card.rank == JOKER_RANK:
        return (0, "")
    return (card.rank, card.suit)


def key_text(k):
    rank, suit = k
    if rank == JOKER_RANK:
        return "JK"
    return f"{RANK_TEXT.get(rank, str(rank))}{suit}"


# -- card points (docs/RULES.md §4) ----------------------------------------------

def key_points(k, joker_points=20):
    rank = k[0]
    if rank == JOKER_RANK:
        return joker_points
    if rank == 1:
        return 15
    if rank >= 10:
        return 10
    return rank


def ref_points(card, joker_points=20):
    return key_points(key(card), joker_points)


def hand_points(cards, joker_points=20):
    return sum(ref_points(c, joker_points) for c in cards)


# -- melds (docs/RULES.md §5) ----------------------------------------------------

def _is_set_keys(keys):
    if len(keys) < 3:
        return False
    naturals = [k for k in keys if k[0] != JOKER_RANK]
    if not naturals:
        return False
    return len({rank for rank, _ in naturals}) == 1


def _is_run_keys(keys):
    n = len(keys)
    if n < 3 or n > MAX_RUN:
        return False
    naturals = [k for k in keys if k[0] != JOKER_RANK]
    if not naturals:
        return False
    if len({suit for _, suit in naturals}) != 1:
        return False
    # Every natural card takes a rank position 1..14; an ace may take 1 or 14.
    choices = [(1, 14) if rank == 1 else (rank,) for rank, _ in naturals]
    for positions in product(*choices):
        if len(set(positions)) != len(positions):
            continue  # two naturals on the same position
        # Jokers fill every other position of a window of n consecutive
        # positions inside 1..14 that holds all the naturals.
        for low in range(1, MAX_RUN - n + 2):
            high = low + n - 1
            if all(low <= p <= high for p in positions):
                return True
    return False


@cache
def _is_meld_sorted(keys):
    return _is_set_keys(keys) or _is_run_keys(keys)


def is_meld_keys(keys):
    return _is_meld_sorted(tuple(sorted(keys)))


def ref_is_meld(cards):
    """One legal run or set (jokers wild, at least one natural card)."""
    return is_meld_keys([key(c) for c in cards])


def ref_is_run(cards):
    return _is_run_keys(tuple(sorted(key(c) for c in cards)))


def ref_is_set(cards):
    return _is_set_keys(tuple(sorted(key(c) for c in cards)))


def ref_has_meld(cards, runs_only=False):
    """Whether some cards of the hand form a meld.

    Any meld contains a three-card meld (three cards of a set including a
    natural one; three consecutive positions of a run around a natural card),
    so looking at every three cards is exact.
    """
    keys = sorted(key(c) for c in cards)
    test = _is_run_keys if runs_only else _is_meld_sorted
    return any(test(trio) for trio in set(combinations(keys, 3)))


# -- the best arrangement (exhaustive) --------------------------------------

def ref_min_deadwood(cards, joker_points=20):
    """The fewest deadwood points over every partition of the hand into melds."""
    return _min_deadwood(tuple(sorted(key(c) for c in cards)), joker_points)


@cache
def _min_deadwood(keys, joker_points):
    if not keys:
        return 0
    naturals = [k for k in keys if k[0] != JOKER_RANK]
    if not naturals:
        # Only jokers: no meld is possible (a meld needs a natural card).
        return sum(key_points(k, joker_points) for k in keys)
    # The pivot (the lowest natural card) is either deadwood or in exactly one
    # meld. A meld holding it can only contain jokers, cards of its rank (a
    # set) or cards of its suit (a run); every such block is tried.
    pivot = naturals[0]
    rest = list(keys)
    rest.remove(pivot)
    best = key_points(pivot, joker_points) + _min_deadwood(tuple(rest), joker_points)
    if best == 0:
        return 0
    compatible = Counter(
        k for k in rest
        if k[0] == JOKER_RANK or k[0] == pivot[0] or k[1] == pivot[1]
    )
    others = Counter(rest) - compatible
    kinds = sorted(compatible)
    for counts in product(*(range(compatible[k] + 1) for k in kinds)):
        size = sum(counts)
        if size < 2:
            continue
        chosen = []
        left = Counter(others)
        for k, used in zip(kinds, counts, strict=True):
            chosen.extend([k] * used)
            if compatible[k] - used:
                left[k] += compatible[k] - used
        if not is_meld_keys([pivot, *chosen]):
            continue
        value = _min_deadwood(tuple(sorted(left.elements())), joker_points)
        if value < best:
            best = value
            if best == 0:
                break
    return best


def arrangement_problems(hand, arrangement, joker_points=20):
    """Everything wrong with an Arrangement for ``hand`` (empty list: valid)."""
    problems = []
    melds = [list(m) for m in arrangement.melds]
    deadwood = list(arrangement.deadwood)
    for meld in melds:
        if not ref_is_meld(meld):
            problems.append(f"not a meld: {' '.join(key_text(key(c)) for c in meld)}")
    used = Counter(key(c) for m in melds for c in m) + Counter(key(c) for c in deadwood)
    held = Counter(key(c) for c in hand)
    if used != held:
        problems.append(
            f"cards not conserved: extra {sorted((used - held).elements())}, "
            f"missing {sorted((held - used).elements())}"
        )
    if arrangement.points != hand_points(deadwood, joker_points):
        problems.append(
            f"points {arrangement.points} != deadwood points "
            f"{hand_points(deadwood, joker_points)}"
        )
    return problems


# -- money (docs/RULES.md §8, §9) -------------------------------------------------

def half_up(fraction):
    """Round a non-negative Fraction to the nearest integer, halves up."""
    fraction = Fraction(fraction)
    return (2 * fraction.numerator + fraction.denominator) // (2 * fraction.denominator)


def ace_joker_units(cards):
    """1 per joker, 1 per ace, 2 per ace whose identical twin is in the hand."""
    counts = Counter(key(c) for c in cards)
    units = 0
    for (rank, _suit), count in counts.items():
        if rank == JOKER_RANK:
            units += count
        elif rank == 1:
            units += count if count == 1 else 2 * count
    return units


def ref_positions(order, points, winner=None, no_passport=(), no_passport_last=False):
    """Competition ranking (1, 1, 3, 4); the Hu winner first; optionally the
    no_passport players last."""
    def rank_key(player):
        if player == winner:
            return (-1, 0)
        late = 1 if (no_passport_last and player in no_passport) else 0
        return (late, points[player])

    keys = {p: rank_key(p) for p in order}
    return {p: 1 + sum(1 for q in order if keys[q] < keys[p]) for p in order}


def ref_tiered_cents(order, positions, tiers, unit_cents):
    """No-Hu tiered money: everyone pays the first place by position; the
    first places split the pot, leftover cents one each in playing order."""
    n = len(order)

    def tier(position):  # position is 1-based; beyond the list: the last tier
        index = position - 1
        return tiers[index] if index < len(tiers) else tiers[-1]

    money = dict.fromkeys(order, 0)
    groups = {}
    for p in order:
        groups.setdefault(positions[p], []).append(p)
    first = min(groups)
    pot = 0
    for start, members in groups.items():
        if start == first:
            continue
        span = range(start, start + len(members))
        pay = half_up(Fraction(unit_cents * sum(tier(q) for q in span), len(members)))
        for p in members:
            money[p] -= pay
            pot += pay
    winners = [p for p in order if positions[p] == first]  # playing order
    share, leftover = divmod(pot, len(winners))
    for i, p in enumerate(winners):
        money[p] += share + (1 if i < leftover else 0)
    assert len(money) == n
    return money


def ref_round_net(order, outcomes, hands, rules):
    """Net cents per player for a *valid* round, straight from docs/RULES.md §9.

    outcomes: player -> outcome; hands: player -> list of cards entered.
    rules: anything with the HouseRules attribute names.
    """
    n = len(order)
    points = {
        p: 0 if outcomes[p] in ("hu", "tien_hu") else hand_points(hands[p], rules.joker_points)
        for p in order
    }
    winners = [p for p in order if outcomes[p] in ("hu", "tien_hu")]
    winner = winners[0] if winners else None
    no_passport = {p for p in order if outcomes[p] == "no_passport"}
    positions = ref_positions(order, points, winner, no_passport, rules.no_passport_last)
    net = dict.fromkeys(order, 0)
    if rules.scheme == "none":
        return net, points, positions
    if winner is not None:
        amount = rules.tien_hu_cents if outcomes[winner] == "tien_hu" else rules.hu_cents
        for p in order:
            net[p] += amount * (n - 1) if p == winner else -amount
    elif rules.scheme == "tiered":
        for p, cents in ref_tiered_cents(order, positions, rules.tiers, rules.unit_cents).items():
            net[p] += cents
    elif rules.scheme == "per_point":
        total = sum(points.values())
        for p in order:
            net[p] += rules.point_cents * (total - n * points[p])
    else:  # pragma: no cover - generator never asks for this
        raise AssertionError(rules.scheme)
    if rules.joker_ace_cents and (winner is None or outcomes[winner] == "hu"):
        units = {
            p: 0 if outcomes[p] in ("hu", "tien_hu") else ace_joker_units(hands[p])
            for p in order
        }
        total_units = sum(units.values())
        for p in order:
            net[p] += rules.joker_ace_cents * (total_units - n * units[p])
    return net, points, positions


# -- settlement (docs/RULES.md §11) -----------------------------------------------

def _set_partitions(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for partition in _set_partitions(rest):
        yield [[first], *partition]
        for i in range(len(partition)):
            yield [*partition[:i], [first, *partition[i]], *partition[i + 1:]]


def ref_min_transfers(balances):
    """n - k: n non-zero balances, k the most blocks of a partition of them
    into zero-sum groups (brute force over every set partition)."""
    values = [v for v in balances.values() if v != 0]
    if not values:
        return 0
    best = 0
    for partition in _set_partitions(values):
        if all(sum(block) == 0 for block in partition):
            best = max(best, len(partition))
    return len(values) - best
