"""A round: validation (docs/RULES.md §6–§7), ranking (§8) and money (§9)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic

from .cards import JOKER, Card, CardError, format_cards, parse_card, scan_cards
from .house import TABLE_SIZES, HouseRules
from .melds import best_melds, display_order, find_meld
from .players import P

OUTCOMES = ("dead", "hu", "tien_hu", "no_passport")
WINNING = ("hu", "tien_hu")
FULL_HAND = ("tien_hu", "no_passport")


@dataclass(frozen=True)
class Entry:
    """What one player is left with: an outcome and the cards (text or cards)."""

    outcome: str
    cards: str | Sequence[Card | str] = ()


@dataclass(frozen=True)
class Problem:
    """An error or a warning about a round, with the players and cards it concerns."""

    code: str
    message: str
    players: tuple[Hashable, ...] = ()
    cards: tuple[Card, ...] = ()


class RoundError(ValueError):
    """The round can't be scored; ``problems`` lists every reason."""

    def __init__(self, problems: Iterable[Problem]) -> None:
        self.problems = list(problems)
        super().__init__("; ".join(p.message for p in self.problems))


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
        problems.append(Problem(
            "unknown_outcome",
            f"{player}: the outcome {outcome!r} is not one of {', '.join(OUTCOMES)}",
            (player,)))
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
        problems.append(Problem("unreadable_card", f"{player}: {error}", (player,)))
    return _Hand(outcome if outcome in OUTCOMES else "", cards, tokens)


def _check_counts(order: Sequence[P], hands: dict[P, _Hand], rules: HouseRules, tien_hu_round: bool,
                  problems: list[Problem]) -> None:
    dealt = rules.cards_dealt(len(order))
    for player, hand in hands.items():
        n = hand.tokens
        if hand.outcome == "dead" and n >= dealt and not tien_hu_round:
            problems.append(Problem(
                "wrong_card_count",
                f"{player} is dead with {n} cards, but a dead hand holds at most "
                f"{dealt - 1} ({dealt} were dealt)",
                (player,), tuple(hand.cards)))
        elif hand.outcome in FULL_HAND and n != dealt:
            label = "Tien Hu" if hand.outcome == "tien_hu" else "no passport"
            problems.append(Problem(
                "wrong_card_count",
                f"{player} has {label}, so the whole hand of {dealt} cards is needed; "
                f"{n} {'was' if n == 1 else 'were'} entered",
                (player,), tuple(hand.cards)))
        elif hand.outcome == "hu" and n:
            problems.append(Problem(
                "hu_with_cards",
                f"{player} went out (Hu) but has cards entered: {format_cards(hand.cards)}",
                (player,), tuple(hand.cards)))


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
                     where: str = "") -> list[Problem]:
    """A problem for each card of which there are more than the deck holds,
    naming who holds it (``holders``: card -> players), if anyone; ``where``
    ends the message (which deck)."""
    problems = []
    for card in sorted(totals, key=display_order):
        limit = jokers if card.is_joker else packs
        if totals[card] > limit:
            players = tuple(holders[card]) if holders else ()
            who = f" ({', '.join(map(str, players))})" if players else ""
            name = "jokers" if card.is_joker else f"copies of {card}"
            problems.append(Problem(
                "too_many_copies",
                f"{totals[card]} {name} entered{who}, but the deck has only {limit}{where}",
                players, (card,)))
    return problems


def hand_problems(cards: Sequence[Card], rules: HouseRules) -> list[Problem]:
    """Why no deal under ``rules`` gives a player ``cards``: none if at some
    table size (TABLE_SIZES) as many cards are dealt, from packs that hold the
    copies and the jokers (docs/RULES.md §1, §3). Else more cards than the largest
    hand dealt, more copies of a card than the most packs, more jokers than
    the deck has: a round's own messages, without the players. A hand within
    each of those, but not at one table size (Penang: 25 cards only with three
    players, a third pack only with five), is told the copies the deck has
    where a hand that large is dealt."""
    counts = Counter(cards)
    dealt_at = [n for n in TABLE_SIZES if len(cards) <= rules.cards_dealt(n)]
    if any(not _too_many_copies(counts, rules.packs_for(n), rules.jokers) for n in dealt_at):
        return []
    problems = []
    largest = rules.largest_hand()
    if len(cards) > largest:
        problems.append(Problem(
            "too_many_cards",
            f"{len(cards)} cards entered, but a hand holds at most {largest} "
            "(the most these rules deal)"))
    problems.extend(_too_many_copies(counts, rules.most_packs(), rules.jokers))
    if not problems:  # each fits some table size, but not the same one
        packs = max(rules.packs_for(n) for n in dealt_at)
        where = f" where a hand of {len(cards)} cards or more is dealt"
        problems = _too_many_copies(counts, packs, rules.jokers, where=where)
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
                    melds = " | ".join(format_cards(m) for m in best.melds) or "no meld"
                    problems.append(Problem(
                        "tien_hu_not_melded",
                        f"{player}'s hand does not meld completely: the best is {melds}, "
                        f"leaving {format_cards(best.deadwood)} ({best.points} points)",
                        (player,), tuple(best.deadwood)))
                else:
                    # The solver stopped at its work cap: the table decides. The
                    # message names no arrangement: what a capped search finds may
                    # differ between processes, and a confirmation covers the text.
                    unchecked.append(Problem(
                        "tien_hu_unchecked",
                        f"{player}'s hand is too large to check in full: save only if "
                        "it melds completely",
                        (player,)))
        elif hand.outcome == "no_passport":
            meld = find_meld(hand.cards, rules, runs_only=rules.passport == "run")
            if meld:
                problems.append(Problem(
                    "has_passport",
                    f"{player} has a passport, so it is not 'no passport': "
                    f"{format_cards(meld)}",
                    (player,), tuple(meld)))


def _and_list(names: Iterable[object]) -> str:
    """Two names or more as a sentence says them: "A and B", "A, B and C"."""
    *rest, last = map(str, names)
    return f"{', '.join(rest)} and {last}"


def _validate(order: Sequence[P], entries: Mapping[P, Entry],
              rules: HouseRules) -> tuple[dict[P, _Hand], list[Problem]]:
    """The hands read, and the warnings of the checks (a Tien Hu not checked in full)."""
    problems: list[Problem] = []
    if len(order) < 2:
        problems.append(Problem("too_few_players", "A round needs at least two players"))
    for player, n in Counter(order).items():
        if n > 1:
            problems.append(Problem(
                "duplicate_player", f"{player} is listed {n} times in the round", (player,)))
    for player in entries:
        if player not in order:
            problems.append(Problem(
                "unknown_player", f"{player} has an entry but does not play this round",
                (player,)))
    for player in dict.fromkeys(order):
        if player not in entries:
            problems.append(Problem(
                "missing_entry", f"{player} has no entry: choose an outcome", (player,)))
    hands = {p: _read(p, entries[p], problems) for p in dict.fromkeys(order) if p in entries}

    winners = [p for p, hand in hands.items() if hand.outcome in WINNING]
    if len(winners) > 1:
        problems.append(Problem(
            "several_winners",
            f"Only one player can win a round, but {_and_list(winners)} are "
            f"{'both' if len(winners) == 2 else 'all'} marked Hu or Tien Hu",
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
            warnings.append(Problem(
                "dead_without_cards",
                f"{player} is dead with no cards left: if {player} went out, choose Hu",
                (player,)))
            continue
        meld = find_meld(hand.cards, rules)
        if meld:
            holding[player] = meld
    # In a round nobody won, the last player standing may keep melds.
    if winner is None and len(holding) == 1:
        holding = {}
    for player, meld in holding.items():
        warnings.append(Problem(
            "meld_in_dead_hand",
            f"{player} is dead but holds a meld that could have been played: "
            f"{format_cards(meld)}",
            (player,), tuple(meld)))
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
    return [Problem("same_as_last_round",
                    f"Every hand is the same as in round {number}, card for card: if this is "
                    f"round {number} entered again, don't save it, or it counts twice")]


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
