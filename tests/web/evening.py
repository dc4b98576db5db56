"""The evening that tests/e2e/test_evening.py plays on the pad and
tests/web/test_evening.py checks through the pages: four players at Rummi, three
rounds (a tie, a Hu, twin aces), the first corrected. The money expected is
worked out by a small implementation of docs/RULES.md §8–§10 of its own
(``expected_round``), cross-checked against totals worked out by hand."""

from collections import Counter

SEATS = ["Ann", "Ben", "Cat", "Dan"]  # clockwise round the table
FIRST_DEALER = "Ann"
CURRENCY = "RM"

# The Rummi preset as it comes (docs/RULES.md §3, §4, §9).
TIERS = (0, 1, 2, 3, 4, 5)
UNIT_CENTS, HU_CENTS, JOKER_ACE_CENTS, JOKER_POINTS = 100, 300, 50, 20

# What each player is left holding, by round; "hu" went out.
ROUNDS = [
    # Dan and Cat tie for first on 14 points.
    {"Ann": "QS QH 3C", "Ben": "JK 7C", "Cat": "4D KC", "Dan": "5S 9H"},
    # Ben goes out.
    {"Ann": "JK 6S", "Ben": "hu", "Cat": "AH 2C", "Dan": "4S 4D"},
    # Ann holds twin aces of clubs: each counts 2 units.
    {"Ann": "AC AC 2S", "Ben": "AS 9H", "Cat": "JK 7H", "Dan": "3D 4D"},
]
# Round 1 corrected: Ann had 3C 2H, not QS QH 3C.
EDITED_ANN = "3C 2H"

# The same money worked out by hand, as a check on expected_round itself.
# Round 1 (dealer Ann; play Dan Cat Ben Ann). Points Dan 14, Cat 14, Ann 23, Ben 27:
#   Dan and Cat tie for 1st; Ann (3rd) pays 2.00, Ben (4th) 3.00; Dan, Cat +2.50 each.
#   Units: Ben 1 (joker), Σ 1: Ben 0.50×(1−4) = −1.50, the others +0.50.
#   Net: Ann −1.50, Ben −4.50, Cat +3.00, Dan +3.00. Dan deals next (first in play).
# Round 2 (dealer Dan; play Cat Ben Ann Dan). Ben Hu: +9.00, the others −3.00.
#   Units: Ann 1, Cat 1, Σ 2: Ann, Cat 0.50×(2−4) = −1.00; Ben, Dan +1.00.
#   Net: Ann −4.00, Ben +10.00, Cat −4.00, Dan −2.00. Ben deals next.
# Round 3 (dealer Ben; play Ann Dan Cat Ben). Points Dan 7, Ben 24, Cat 27, Ann 32:
#   Ben −1.00, Cat −2.00, Ann −3.00, Dan +6.00.
#   Units: Ann 4 (twin aces), Ben 1, Cat 1, Σ 6: Ann 0.50×(6−16) = −5.00,
#   Ben, Cat +1.00, Dan +3.00. Net: Ann −8.00, Ben 0.00, Cat −1.00, Dan +9.00.
BY_HAND_BEFORE_EDIT = {"Ann": -1350, "Ben": 550, "Cat": -200, "Dan": 1000}
# Round 1 edited: Ann 5 points wins; Dan and Cat tie for 2nd on 14 and each pay
#   avg(1, 2) = 1.50; Ben 3.00. With the joker: Ann +6.50, Ben −4.50, Cat −1.00,
#   Dan −1.00. Ann now deals round 2 (play Dan Cat Ben Ann): its money is unchanged.
BY_HAND_AFTER_EDIT = {"Ann": -550, "Ben": 550, "Cat": -600, "Dan": 600}
# Fewest transfers: two pairs that settle each other.
TRANSFERS = [("Ann", "Ben", 550), ("Cat", "Dan", 600)]


# An independent reading of docs/RULES.md §4, §8–§10 for the Rummi preset.

def card_points(card: str) -> int:
    if card == "JK":
        return JOKER_POINTS
    rank = card[:-1]
    return 15 if rank == "A" else 10 if rank in ("J", "Q", "K") else int(rank)


def playing_order(dealer: str) -> list[str]:
    """Anticlockwise: play starts at the dealer's right, the previous seat clockwise."""
    i = SEATS.index(dealer)
    return [SEATS[(i - k) % len(SEATS)] for k in range(1, len(SEATS) + 1)]


def expected_round(dealer: str, hands: dict) -> dict:
    order = playing_order(dealer)
    winner = next((p for p in order if hands[p] == "hu"), None)
    cards = {p: [] if hands[p] == "hu" else hands[p].split() for p in order}
    points = {p: sum(map(card_points, cards[p])) for p in order}
    key = {p: (0, 0) if p == winner else (1, points[p]) for p in order}
    position = {p: 1 + sum(key[q] < key[p] for q in order) for p in order}
    money = dict.fromkeys(order, 0)
    if winner:
        for p in order:
            if p != winner:
                money[p] -= HU_CENTS
                money[winner] += HU_CENTS
    else:
        for p in order:
            first = position[p]
            if first == 1:
                continue
            size = sum(position[q] == first for q in order)
            units = sum(TIERS[min(q, len(TIERS)) - 1] for q in range(first, first + size))
            money[p] -= (2 * units * UNIT_CENTS + size) // (2 * size)  # average, half up
        firsts = [p for p in order if position[p] == 1]
        share, extra = divmod(-sum(money.values()), len(firsts))
        for i, p in enumerate(firsts):
            money[p] += share + (i < extra)
    units = {}
    for p in order:
        held = Counter(cards[p])
        units[p] = held["JK"] + sum(n * (2 if n >= 2 else 1)
                                    for card, n in held.items() if card.startswith("A"))
    for p in order:
        money[p] += JOKER_ACE_CENTS * (sum(units.values()) - len(order) * units[p])
    assert sum(money.values()) == 0
    return {"dealer": dealer, "order": order, "points": points, "position": position,
            "money": money,
            "next": min(order, key=lambda p: (position[p], order.index(p)))}


def expected_evening(rounds: list[dict]) -> list[dict]:
    results, dealer = [], FIRST_DEALER
    for hands in rounds:
        results.append(expected_round(dealer, hands))
        dealer = results[-1]["next"]
    return results


def totals(results: list[dict], what: str) -> dict:
    return {p: sum(r[what][p] for r in results) for p in SEATS}


def shown(cents: int, whole: bool = False) -> str:
    """Money as the app writes it: "+9.00", "−1.50" (a real minus sign), "0.00";
    in a table whose every amount is ``whole``, "+9", "0"."""
    sign = "+" if cents > 0 else "\u2212" if cents < 0 else ""
    if whole:
        return f"{sign}{abs(cents) // 100}"
    return f"{sign}{abs(cents) // 100}.{abs(cents) % 100:02d}"


def plain(text: str) -> str:
    return " ".join(text.split())
