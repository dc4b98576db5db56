"""A round: validation (docs/RULES.md §6–§7), ranking (§8) and money (§9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic

from .cards import JOKER, Card, CardError, parse_card, scan_cards
from .codes import Code
from .house import TABLE_SIZES, HouseRules
from .melds import best_melds, display_order, find_meld
from .players import P
from .problems import Problem

OUTCOMES = ("dead", "hu", "tien_hu", "no_passport")
WINNING = ("hu", "tien_hu")
FULL_HAND = ("tien_hu", "no_passport")


@dataclass(frozen=True)
class Entry:
    """What one player is left with: an outcome and the cards (text or cards)."""

    outcome: str
    cards: str | Sequence[Card | str] = ()


class RoundError(ValueError):
    """The round can't be scored; ``problems`` lists every reason."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(map(str, self.problems)))


def _of(player: Hashable, code: Code, concerns: Iterable[Card] = (), /,
        **values: object) -> Problem:
    """A problem of one player's hand (and of the cards it ``concerns``): the
    player is among its values."""
    return Problem(code, {"player": player, **values}, (player,), tuple(concerns))


@dataclass(frozen=True)
class Breakdown:
    """A player's money for a round in cents: the tiered (or per-point) part,
    the Hu or Tien Hu part and the joker/ace adjustment."""

    tier: int = 0
    hu: int = 0
    joker_ace: int = 0

    @property
    def total(self) -> int:
        return self.tier + self.hu + self.joker_ace


@dataclass(frozen=True)
class RoundScore(Generic[P]):
    order: tuple[P, ...]
    points: dict[P, int]
    position: dict[P, int]
    net_cents: dict[P, int]
    breakdown: dict[P, Breakdown]
    warnings: list[Problem] = field(default_factory=list)
    winner: P | None = None


@dataclass
class _Hand:
    """One player's entry, read."""

    outcome: str
    cards: list[Card]
    tokens: int


def _read(player: Hashable, entry: object, problems: list[Problem]) -> _Hand:
    outcome = getattr(entry, "outcome", None)
    raw: Any = getattr(entry, "cards", None)
    if outcome not in OUTCOMES:
        problems.append(_of(player, Code.UNKNOWN_OUTCOME, outcome=outcome, outcomes=OUTCOMES))
    cards: list[Card] = []
    errors: list[CardError] = []
    if isinstance(raw, str):
        cards, errors = scan_cards(raw)
        tokens = len(cards) + len(errors)
    else:
        try:
            items = list(raw)
        except TypeError:
            items = [raw]
        tokens = len(items)
        for position, item in enumerate(items, start=1):
            if isinstance(item, Card):
                cards.append(item)
                continue
            try:
                cards.append(parse_card(item if isinstance(item, str) else repr(item),
                                        position))
            except CardError as bad:
                errors.append(bad)
    for error in errors:
        problems.append(_of(player, error.code, **error.values))
    return _Hand(outcome if outcome in OUTCOMES else "", cards, tokens)


def _check_counts(order: Sequence[P], hands: dict[P, _Hand], rules: HouseRules, tien_hu_round: bool,
                  problems: list[Problem]) -> None:
    dealt = rules.cards_dealt(len(order))
    for player, hand in hands.items():
        n = hand.tokens
        if hand.outcome == "dead" and n >= dealt and not tien_hu_round:
            problems.append(_of(player, Code.WRONG_CARD_COUNT, hand.cards, outcome=hand.outcome,
                                count=n, dealt=dealt, most=dealt - 1))
        elif hand.outcome in FULL_HAND and n != dealt:
            problems.append(_of(player, Code.WRONG_CARD_COUNT, hand.cards, outcome=hand.outcome,
                                count=n, dealt=dealt))
        elif hand.outcome == "hu" and n:
            problems.append(_of(player, Code.HU_WITH_CARDS, hand.cards,
                                cards=tuple(hand.cards)))


def _check_copies(order: Sequence[P], hands: dict[P, _Hand], rules: HouseRules,
                  problems: list[Problem]) -> None:
    holders: dict[Card, list[P]] = {}
    totals: Counter[Card] = Counter()
    for player in order:
        hand = hands.get(player)
        if hand is None:
            continue
        for card, n in Counter(hand.cards).items():
            totals[card] += n
            holders.setdefault(card, []).append(player)
    problems.extend(_too_many_copies(totals, rules.packs_for(len(order)), rules.jokers,
                                     holders))


def _too_many_copies(totals: Counter[Card], packs: int, jokers: int,
                     holders: Mapping[Card, Sequence[Hashable]] | None = None,
                     **deck: int) -> list[Problem]:
    """A problem for each card of which there are more than the deck holds:
    the card, its count and the limit, and who holds it (``holders``: card
    -> players; "players", if anyone); ``deck`` says which deck, if need be."""
    problems = []
    for card in sorted(totals, key=display_order):
        limit = jokers if card.is_joker else packs
        if totals[card] > limit:
            players = tuple(holders[card]) if holders else ()
            who = {"players": players} if players else {}
            problems.append(Problem(
                Code.TOO_MANY_COPIES,
                {"card": card, "count": totals[card], "limit": limit, **who, **deck},
                players, (card,)))
    return problems


def hand_problems(cards: Sequence[Card], rules: HouseRules) -> list[Problem]:
    """Why no deal under ``rules`` gives a player ``cards``: none if at some
    table size (TABLE_SIZES) as many cards are dealt, from packs that hold the
    copies and the jokers (docs/RULES.md §1, §3). Else more cards than the largest
    hand dealt, more copies of a card than the most packs, more jokers than
    the deck has: a round's own problems, without the players. A hand within
    each of those, but not at one table size (Penang: 25 cards only with three
    players, a third pack only with five), is told the copies the deck has
    where a hand that large is dealt (the value "hand": its size)."""
    counts = Counter(cards)
    dealt_at = [n for n in TABLE_SIZES if len(cards) <= rules.cards_dealt(n)]
    if any(not _too_many_copies(counts, rules.packs_for(n), rules.jokers) for n in dealt_at):
        return []
    problems = []
    largest = rules.largest_hand()
    if len(cards) > largest:
        problems.append(Problem(Code.TOO_MANY_CARDS, {"count": len(cards), "most": largest}))
    problems.extend(_too_many_copies(counts, rules.most_packs(), rules.jokers))
    if not problems:  # each fits some table size, but not the same one
        packs = max(rules.packs_for(n) for n in dealt_at)
        problems = _too_many_copies(counts, packs, rules.jokers, hand=len(cards))
    return problems


def _check_full_hands(hands: dict[P, _Hand], rules: HouseRules, dealt: int,
                      problems: list[Problem], unchecked: list[Problem]) -> None:
    for player, hand in hands.items():
        if hand.tokens != dealt or len(hand.cards) != dealt:
            continue
        if hand.outcome == "tien_hu":
            best = best_melds(hand.cards, rules)
            if best.points:
                if best.exact:
                    problems.append(_of(
                        player, Code.TIEN_HU_NOT_MELDED, best.deadwood,
                        melds=tuple(map(tuple, best.melds)), deadwood=tuple(best.deadwood),
                        points=best.points))
                else:
                    # The solver stopped at its work cap: the table decides. The
                    # warning names no arrangement: what a capped search finds may
                    # differ between processes, and a confirmation covers its values.
                    unchecked.append(_of(player, Code.TIEN_HU_UNCHECKED))
        elif hand.outcome == "no_passport":
            meld = find_meld(hand.cards, rules, runs_only=rules.passport == "run")
            if meld:
                problems.append(_of(player, Code.HAS_PASSPORT, meld, meld=tuple(meld)))


def _validate(order: Sequence[P], entries: Mapping[P, Entry],
              rules: HouseRules) -> tuple[dict[P, _Hand], list[Problem]]:
    """The hands read, and the warnings of the checks (a Tien Hu not checked in full)."""
    problems: list[Problem] = []
    if len(order) < 2:
        problems.append(Problem(Code.TOO_FEW_PLAYERS, {"least": 2}))
    for player, n in Counter(order).items():
        if n > 1:
            problems.append(_of(player, Code.DUPLICATE_PLAYER, times=n))
    for player in entries:
        if player not in order:
            problems.append(_of(player, Code.UNKNOWN_PLAYER))
    for player in dict.fromkeys(order):
        if player not in entries:
            problems.append(_of(player, Code.MISSING_ENTRY))
    hands = {p: _read(p, entries[p], problems) for p in dict.fromkeys(order) if p in entries}

    winners = [p for p, hand in hands.items() if hand.outcome in WINNING]
    if len(winners) > 1:
        problems.append(Problem(Code.SEVERAL_WINNERS, {"players": tuple(winners)},
                                tuple(winners)))
    tien_hu_round = any(hands[p].outcome == "tien_hu" for p in winners)
    _check_counts(order, hands, rules, tien_hu_round, problems)
    _check_copies(order, hands, rules, problems)
    unchecked: list[Problem] = []
    _check_full_hands(hands, rules, rules.cards_dealt(len(order)), problems, unchecked)
    if problems:
        raise RoundError(problems)
    return hands, unchecked


def _warnings(order: Sequence[P], hands: dict[P, _Hand], rules: HouseRules,
              winner: P | None) -> list[Problem]:
    if winner is not None and hands[winner].outcome == "tien_hu":
        return []
    warnings = []
    holding: dict[P, list[Card]] = {}
    for player in order:
        hand = hands[player]
        if hand.outcome != "dead":
            continue
        if not hand.cards:
            warnings.append(_of(player, Code.DEAD_WITHOUT_CARDS))
            continue
        meld = find_meld(hand.cards, rules)
        if meld:
            holding[player] = meld
    # In a round nobody won, the last player standing may keep melds.
    if winner is None and len(holding) == 1:
        holding = {}
    for player, meld in holding.items():
        warnings.append(_of(player, Code.MELD_IN_DEAD_HAND, meld, meld=tuple(meld)))
    return warnings


def _positions(order: Sequence[P], hands: dict[P, _Hand], points: dict[P, int],
               rules: HouseRules, winner: P | None) -> dict[P, int]:
    def key(player: P) -> tuple[int, int]:
        if player == winner:
            return (0, 0)
        last = rules.no_passport_last and hands[player].outcome == "no_passport"
        return (2 if last else 1, points[player])

    keys = {p: key(p) for p in order}
    return {p: 1 + sum(keys[q] < keys[p] for q in order) for p in order}


def _half_up(numerator: int, denominator: int) -> int:
    return (2 * numerator + denominator) // (2 * denominator)


def _tiered(order: Sequence[P], position: dict[P, int], rules: HouseRules) -> dict[P, int]:
    """Each place pays the winners its tier; tied places pay the average."""
    paid: dict[P, int] = {}
    for player in order:
        first = position[player]
        size = sum(position[q] == first for q in order)
        if first == 1:
            continue
        units = sum(rules.tier(q) for q in range(first, first + size))
        paid[player] = _half_up(units * rules.unit_cents, size)
    winners = [p for p in order if position[p] == 1]
    share, extra = divmod(sum(paid.values()), len(winners))
    money = {p: -paid.get(p, 0) for p in order}
    for i, player in enumerate(winners):
        money[player] = share + (i < extra)
    return money


@dataclass(frozen=True)
class Payouts:
    """What a round pays under a set of rules at a table of ``players``
    (§9), in cents. ``places``: each place's money, 1st first, in a round
    nobody went out of and nobody tied for, before the joker/ace adjustment
    (tiered rules only; empty for the other schemes, whose money follows the
    points). ``hu``, ``tien_hu``: what each other player pays the winner."""

    players: int
    places: tuple[int, ...]
    hu: int
    tien_hu: int


def payouts(rules: HouseRules, n_players: int) -> Payouts:
    """The money of a round of ``n_players`` under ``rules``, as a table
    reads it before it plays (the new session's page)."""
    if n_players not in TABLE_SIZES:
        raise ValueError(f"A table has {min(TABLE_SIZES)} to {max(TABLE_SIZES)} players")
    order = range(n_players)
    places: tuple[int, ...] = ()
    if rules.scheme == "tiered":
        money = _tiered(order, {p: p + 1 for p in order}, rules)
        places = tuple(money[p] for p in order)
    paid = rules.scheme != "none"
    return Payouts(n_players, places, rules.hu_cents if paid else 0,
                   rules.tien_hu_cents if paid else 0)


def _joker_ace_units(cards: list[Card]) -> int:
    counts = Counter(cards)
    units = counts[JOKER]
    for card, n in counts.items():
        if card.rank == 1:
            units += n * (2 if n >= 2 else 1)
    return units


def _money(order: Sequence[P], hands: dict[P, _Hand], points: dict[P, int],
           position: dict[P, int], rules: HouseRules, winner: P | None) -> dict[P, Breakdown]:
    n = len(order)
    tier = dict.fromkeys(order, 0)
    hu = dict.fromkeys(order, 0)
    joker_ace = dict.fromkeys(order, 0)
    if rules.scheme != "none":
        if winner is not None:
            amount = rules.tien_hu_cents if hands[winner].outcome == "tien_hu" else rules.hu_cents
            for player in order:
                hu[player] = amount * (n - 1) if player == winner else -amount
        elif rules.scheme == "tiered":
            tier = _tiered(order, position, rules)
        else:
            total = sum(points.values())
            tier = {p: rules.point_cents * (total - n * points[p]) for p in order}
        tien_hu = winner is not None and hands[winner].outcome == "tien_hu"
        if rules.joker_ace_cents and not tien_hu:
            units = {p: _joker_ace_units(hands[p].cards) for p in order}
            total = sum(units.values())
            joker_ace = {p: rules.joker_ace_cents * (total - n * units[p]) for p in order}
    return {p: Breakdown(tier[p], hu[p], joker_ace[p]) for p in order}


def same_hands(first: Mapping[P, Entry], second: Mapping[P, Entry]) -> bool:
    """Whether two rounds' entries are the same players' same hands, card for
    card (in any order); a hand that can't be read is like no other."""
    if not first or set(first) != set(second):
        return False
    kept = {p: _as_kept(first[p]) for p in first}
    return all(hand is not None and hand == _as_kept(second[p]) for p, hand in kept.items())


def shares_a_hand(first: Mapping[P, Entry], second: Mapping[P, Entry]) -> bool:
    """Whether some player left the same cards in both rounds, card for card:
    two games hardly ever leave one hand alike, so the same game, entered twice."""
    for player, entry in first.items():
        kept = _as_kept(entry) if player in second else None
        if kept is not None and kept[1] and kept == _as_kept(second[player]):
            return True
    return False


def repeated_round(number: int, entries: Mapping[P, Entry],
                   before: Mapping[P, Entry]) -> list[Problem]:
    """The warning for a round whose hands are all those of round ``number``,
    the round before it (same_hands): the same game entered again would
    count twice. [] otherwise."""
    if not same_hands(entries, before):
        return []
    return [Problem(Code.SAME_AS_LAST_ROUND, {"number": number})]


def _as_kept(entry: Entry) -> tuple[str, tuple[Card, ...]] | None:
    """An entry's outcome and cards in a fixed order; None if unreadable."""
    problems: list[Problem] = []
    hand = _read("", entry, problems)
    return None if problems else (hand.outcome, tuple(sorted(hand.cards)))


def score_round(order: Sequence[P], entries: Mapping[P, Entry],
                rules: HouseRules) -> RoundScore[P]:
    """Validate and score one round; ``order`` is the playing order.

    Raises RoundError listing every problem; warnings come back on the score.
    """
    order = tuple(order)
    hands, unchecked = _validate(order, entries, rules)
    winner = next((p for p in order if hands[p].outcome in WINNING), None)
    points = {p: 0 if p == winner else sum(rules.points(c) for c in hands[p].cards)
              for p in order}
    position = _positions(order, hands, points, rules, winner)
    breakdown = _money(order, hands, points, position, rules, winner)
    return RoundScore(
        order=order,
        points=points,
        position=position,
        net_cents={p: breakdown[p].total for p in order},
        breakdown=breakdown,
        warnings=unchecked + _warnings(order, hands, rules, winner),
        winner=winner,
    )
