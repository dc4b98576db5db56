"""Timing of the meld solver (best_melds) and of scoring a round (score_round).

Run from the project root:

    .venv/bin/python bench/solver.py [--hands N] [--seed S]
    .venv/bin/python bench/solver.py --worst   # the worst-case hands, capped and not
    .venv/bin/python bench/solver.py --against DIR [--worst]   # beside another solver

``--against`` takes a copy of the rules package (DIR: its scorekeeper/rules
directory, e.g. from ``git archive``) and times that solver and this one on
the same hands, hand by hand in turn, so that a swing of the host's speed
falls on both alike.

Every set of hands is generated up front from a fixed seed, so two runs (or two
versions of the solver) are timed on the same hands. Each call is timed on its
own with time.perf_counter; the figures are the median, the 99th percentile and
the maximum per call, in milliseconds. See bench/README.md.
"""

from __future__ import annotations

import argparse
import dataclasses
import gc
import importlib.util
import os
import platform
import random
import statistics
import sys
import time
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import hostspeed
from scorekeeper.rules import (
    JOKER,
    Card,
    Entry,
    HouseRules,
    best_melds,
    hand_problems,
    melds,
    parse_cards,
    score_round,
)
from scorekeeper.rules.cards import SUITS

TARGET_MEDIAN_MS = 0.5
TARGET_MAX_MS = 10.0
RETIME_SLOWEST = 20  # the slowest hands of each set are timed again ...
RETIME_TRIES = 5  # ... this many times each (see retime_slowest)


def full_deck(packs: int, jokers: int) -> list[Card]:
    return [Card(rank, suit) for _ in range(packs) for suit in SUITS
            for rank in range(1, 14)] + [JOKER] * jokers


def random_deals(rng: random.Random, deck: list[Card], size: int, n: int) -> list[list[Card]]:
    return [rng.sample(deck, size) for _ in range(n)]


ADVERSARIAL_KINDS = ("two_suits", "one_suit", "mesh", "ladder", "three_packs")


def adversarial(rng: random.Random, n: int) -> list[list[Card]]:
    """Hard hands: 7 or 8 jokers with naturals crowded into long runs with twins.

    two_suits    the naturals from two suits, twins allowed (two packs)
    one_suit     one suit with twins, plus a few odd cards of other suits
    mesh         six consecutive ranks in every suit, twins: runs and sets cross
    ladder       every suit with one rank in three missing: runs need jokers
    three_packs  seven consecutive ranks of three suits, three packs (triplets)
    Half of each kind are 20-card hands, half 25-card hands.
    """
    hands = []
    for i in range(n):
        kind = ADVERSARIAL_KINDS[i % len(ADVERSARIAL_KINDS)]
        jokers = 7 + (i // len(ADVERSARIAL_KINDS)) % 2
        size = 20 if (i // 10) % 2 == 0 else 25
        if kind == "two_suits":
            suits = rng.sample(SUITS, 2)
            deck = [Card(r, s) for s in suits for r in range(1, 14) for _ in range(2)]
        elif kind == "one_suit":
            suit = rng.choice(SUITS)
            deck = [Card(r, suit) for r in range(1, 14) for _ in range(2)]
            deck += [Card(r, rng.choice(SUITS)) for r in rng.sample(range(1, 14), 6)]
        elif kind == "mesh":
            low = rng.randint(1, 8)
            deck = [Card(r, s) for s in SUITS for r in range(low, low + 6) for _ in range(2)]
        elif kind == "ladder":
            deck = [Card(r, s) for s in SUITS for r in range(1, 14)
                    if r % 3 != SUITS.index(s) % 3 for _ in range(2)]
        else:
            low = rng.randint(1, 7)
            suits = rng.sample(SUITS, 3)
            deck = [Card(r, s) for s in suits for r in range(low, low + 7) for _ in range(3)]
        hand = rng.sample(deck, min(size - jokers, len(deck))) + [JOKER] * jokers
        rng.shuffle(hand)
        hands.append(hand)
    return hands


def rounds(rng: random.Random, n: int, rules: HouseRules) -> list[tuple]:
    """Five-player rounds dealt from one shuffled deck: mostly every player dead
    holding a random part of the dealt hand, sometimes one Hu, now and then a
    Tien Hu (a dealt hand of two ten-card runs that melds completely)."""
    players = ("P1", "P2", "P3", "P4", "P5")
    dealt = rules.cards_dealt(len(players))
    deck = full_deck(rules.packs_for(len(players)), rules.jokers)
    out = []
    for _ in range(n):
        cards = list(deck)
        rng.shuffle(cards)
        kind = rng.random()
        winner = rng.choice(players) if kind < 0.25 else None
        entries = {}
        if winner is not None and kind < 0.05:
            s1, s2 = rng.sample(SUITS, 2)
            a, b = rng.randint(1, 4), rng.randint(1, 4)
            hand = ([Card(r, s1) for r in range(a, a + 10)]
                    + [Card(r, s2) for r in range(b, b + 10)])
            for card in hand:
                cards.remove(card)
            entries[winner] = Entry("tien_hu", hand)
        elif winner is not None:
            entries[winner] = Entry("hu")
        for player in players:
            if player == winner:
                continue
            hand, cards = cards[:dealt], cards[dealt:]
            entries[player] = Entry("dead", rng.sample(hand, rng.randint(0, dealt - 1)))
        out.append((players, entries))
    return out


# The largest house rules the app takes (limits.RULE_RANGES): 4 packs and the
# extra one, 16 jokers, 40 cards dealt.
LARGEST = HouseRules(packs=4, extra_pack_players=2, jokers=16, hand_size=40, hand_size_three=40)
# Hands built to cost the solver the most work (a hill climb on it; see
# bench/README.md, "Worst-case hands (hardening)"): (name, rules, hand).
WORST = [
    ("200 characters, 67 cards", HouseRules.penang(),
     ("3C 5C 4D 7D 7C 6D 4H 3H 7C AD 6D 6H 6D 4C 6H 5H 7D 5D 4H 3C 4H 4C 3H 2D AD 3D 5C 5D "
      "5H 4D 6H 3H 5H 7H 6C 6C 6H 3D 7H 5C 5D 4H 3C 2D 5D 4D 4S 6D 5C 3H 5C AS 2D 2H 5D 5H "
      "JK 4D 3H 5D 3D 2D 6D 7C 2H 3H 4C")),
    ("Penang, 25 cards", HouseRules.penang(),
     "JK JK JK JK AC AS 2C 2C 2S 3C 3C 4C 4C 4C 4S 5C 5C 5C 5S 5S 5S 6C 6S 8D 9C"),
    ("Penang, 25 cards (2)", HouseRules.penang(),
     "JK JK JK JK JK AC AD 2D 2S 3C 3D 3H 4D 4H 4S 5C 5D 5H 5S 6D 6S 6S 7D 9H JC"),
    ("Rummi, 20 cards", HouseRules.rummi(),
     "JK JK JK JK JK AD AD 2D 2H 3D 3H 4D 5D 5D 5H 6D 7D 7D 8C 10D"),
    ("largest rules, 40 cards", LARGEST,
     ("JK JK AC AC AD AS 2C 2C 2C 2D 2D 2D 2S 2S 3C 3C 3C 3C 3D 3D 3S 3S 4C 4C 4D 4D 4D 4D "
      "4S 4S 4S 5C 5C 5D 5S 6D 6S 6S 7D 8H")),
    ("largest rules, 40 cards (2)", LARGEST,
     ("JK JK AH AS AS 2C 2H 2H 2S 2S 2S 3D 3H 3H 3S 3S 3S 4D 4D 4D 4D 4H 4H 4H 4H 4S 4S 4S "
      "5D 5H 5H 5H 5S 5S 5S 6D 6H 6S 7C 8H")),
    ("14 jokers, QC KC", LARGEST, "JK JK JK JK JK JK JK JK JK JK JK JK JK JK QC KC"),
]


def worst_cases() -> None:
    """Each WORST hand timed with the solver's work cap and without it (best
    of 5 calls after one to fill the shared tables; 1 without the cap for a
    hand over a second), and whether Check a hand takes it at all."""
    print("worst-case hands, ms per call (best of 5):")
    print("| hand | cards | a deal can give it | capped | points | exact | uncapped | points |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rules, text in WORST:
        hand = parse_cards(text)
        legal = "yes" if not hand_problems(hand, rules) else "no"
        capped, arrangement = _best_of(hand, rules, 5)
        saved = melds._WORK_BUDGET, melds._DIVE_STOP
        melds._WORK_BUDGET, melds._DIVE_STOP = 10 ** 9, -10 ** 9
        try:
            once, _ = _best_of(hand, rules, 1)
            uncapped, best = _best_of(hand, rules, 1 if once > 1 else 5)
        finally:
            melds._WORK_BUDGET, melds._DIVE_STOP = saved
        print(f"| {name} | {len(hand)} | {legal} | {capped * 1e3:.2f} | {arrangement.points} "
              f"| {arrangement.exact} | {uncapped * 1e3:.1f} | {best.points} |", flush=True)


def _best_of(hand: list[Card], rules: HouseRules, tries: int) -> tuple[float, object]:
    best_melds(hand, rules)
    clock = time.perf_counter
    times = []
    for _ in range(tries):
        start = clock()
        arrangement = best_melds(hand, rules)
        times.append(clock() - start)
    return min(times), arrangement


def load_rules(path: str):
    """The rules package in directory ``path``, imported beside this one."""
    name = "rules_against"
    spec = importlib.util.spec_from_file_location(
        name, Path(path) / "__init__.py", submodule_search_locations=[path])
    package = importlib.util.module_from_spec(spec)
    sys.modules[name] = package
    spec.loader.exec_module(package)
    return package


def _in_turn(calls: list, tries: int = 1, flip: int = 0) -> tuple[list[list[float]], list]:
    """Each call timed ``tries`` times, the calls taking turns (in their
    order on even tries, plus ``flip``; reversed on odd ones): (times per
    call, last results), in the calls' order."""
    clock = time.perf_counter
    times: list[list[float]] = [[] for _ in calls]
    results = [None] * len(calls)
    order = list(range(len(calls)))
    for k in range(tries):
        for i in order if (k + flip) % 2 == 0 else reversed(order):
            start = clock()
            results[i] = calls[i]()
            times[i].append(clock() - start)
    return times, results


def _their_rules(other, rules: HouseRules):
    """``rules`` as the other package's HouseRules (the fields both have)."""
    return other.HouseRules(**{f.name: getattr(rules, f.name)
                               for f in dataclasses.fields(other.HouseRules)
                               if hasattr(rules, f.name)})


def _their_hand(other, hand: list[Card]) -> list:
    return [other.Card(c.rank, c.suit) for c in hand]


def time_against(other, sets: list, warm_up: list[list[Card]]) -> None:
    """best_melds of ``other`` (load_rules: "before") and of this tree
    ("after") on each hand of each set in turn, and whether they agree."""
    rummi = HouseRules.rummi()
    their_rummi = _their_rules(other, rummi)
    for hand in warm_up:  # fills both solvers' shared move tables
        best_melds(hand, rummi)
        other.best_melds(_their_hand(other, hand), their_rummi)
    print("best_melds, ms per hand, the two solvers in turn on each hand:")
    print("| set | hands | median before | median after | after / before | mean before "
          "| mean after |")
    print("|---|---|---|---|---|---|---|")
    differ = 0
    for name, hands, rules in sets:
        before, after = [], []
        their_rules = _their_rules(other, rules)
        for i, hand in enumerate(hands):
            calls = [partial(other.best_melds, _their_hand(other, hand), their_rules),
                     partial(best_melds, hand, rules)]
            (time_before, time_after), (b, a) = _in_turn(calls, flip=i)
            before += time_before
            after += time_after
            differ += (b.points, b.exact) != (a.points, a.exact)
        mb, ma = statistics.median(before) * 1e3, statistics.median(after) * 1e3
        print(f"| {name} | {len(hands)} | {mb:.3f} | {ma:.3f} | {ma / mb:.3f} "
              f"| {sum(before) / len(before) * 1e3:.3f} | {sum(after) / len(after) * 1e3:.3f} |",
              flush=True)
    print(f"hands where the two differ in points or exactness: {differ}")


def worst_against(other, tries: int = 5) -> None:
    """Each WORST hand, capped and not, the two solvers in turn (best of
    ``tries`` after one call each; of 1 without the cap for a hand over a
    second)."""
    print(f"worst-case hands, ms per call (best of {tries}), before / after:")
    print("| hand | cards | capped before | capped after | points, exact before | after "
          "| uncapped before | uncapped after |")
    print("|---|---|---|---|---|---|---|---|")
    for name, rules, text in WORST:
        hand = parse_cards(text)
        calls = [partial(other.best_melds, _their_hand(other, hand), _their_rules(other, rules)),
                 partial(best_melds, hand, rules)]
        _in_turn(calls)
        (capped_before, capped_after), (b, a) = _in_turn(calls, tries)
        saved = [(m, m._WORK_BUDGET, m._DIVE_STOP) for m in (other.melds, melds)]
        for m, _, _ in saved:
            m._WORK_BUDGET, m._DIVE_STOP = 10 ** 9, -10 ** 9
        try:
            (once, _), _ = _in_turn(calls)
            (free_before, free_after), _ = _in_turn(calls, 1 if once[0] > 1 else tries)
        finally:
            for m, budget, stop in saved:
                m._WORK_BUDGET, m._DIVE_STOP = budget, stop
        print(f"| {name} | {len(hand)} | {min(capped_before) * 1e3:.2f} "
              f"| {min(capped_after) * 1e3:.2f} | {b.points}, {b.exact} | {a.points}, {a.exact} "
              f"| {min(free_before) * 1e3:.1f} | {min(free_after) * 1e3:.1f} |", flush=True)


def machine() -> str:
    model = "?"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return (f"nproc {os.cpu_count()}, CPU {model}, "
            f"Python {platform.python_version()} ({platform.python_implementation()})")


def summary(name: str, times: list[float], retimed: float | None = None) -> str:
    times = sorted(times)
    n = len(times)
    med = statistics.median(times) * 1e3
    p99 = times[min(n - 1, int(n * 0.99))] * 1e3
    top = times[-1] * 1e3
    mean = sum(times) / n * 1e3
    again = f" {retimed * 1e3:.3f} |" if retimed is not None else ""
    return f"| {name} | {n} | {med:.3f} | {p99:.3f} | {top:.3f} |{again} {mean:.3f} |"


def time_melds(hands: list[list[Card]], rules: HouseRules) -> list[float]:
    clock = time.perf_counter
    out = []
    for hand in hands:
        start = clock()
        best_melds(hand, rules)
        out.append(clock() - start)
    return out


def retime_slowest(hands: list[list[Card]], rules: HouseRules, times: list[float],
                   slowest: int = RETIME_SLOWEST, tries: int = RETIME_TRIES) -> float:
    """The worst of the slowest hands timed again, each at its best of ``tries``:
    on a shared machine a single timing can include a pause of the process
    (another job, the collector); this is the hand's own cost."""
    clock = time.perf_counter
    order = sorted(range(len(times)), key=times.__getitem__)[-slowest:]
    worst = 0.0
    for i in order:
        best = min(times[i], *(_timed(hands[i], rules, clock) for _ in range(tries)))
        worst = max(worst, best)
    return worst


def _timed(hand: list[Card], rules: HouseRules, clock) -> float:
    start = clock()
    best_melds(hand, rules)
    return clock() - start


def time_rounds(data: list[tuple], rules: HouseRules) -> tuple[list[float], int]:
    clock = time.perf_counter
    out = []
    refused = 0
    for order, entries in data:
        start = clock()
        try:
            score_round(order, entries, rules)
        except ValueError:
            refused += 1
        out.append(clock() - start)
    return out, refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=10_000,
                        help="hands per random set (default 10000); the adversarial "
                             "set is a tenth of it, the 5-player rounds a fifth")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--no-freeze", action="store_true",
                        help="leave the generated hands to the garbage collector "
                             "(by default they are frozen out of it, see README)")
    parser.add_argument("--worst", action="store_true",
                        help="time only the worst-case hands, with the work cap and without")
    parser.add_argument("--against", metavar="DIR",
                        help="time the solver of the rules package in DIR beside this one, "
                             "hand by hand in turn")
    args = parser.parse_args()
    other = load_rules(args.against) if args.against else None
    if args.worst:
        print(f"machine: {machine()}")
        speed_before = hostspeed.reference_ms()
        if other is None:
            worst_cases()
        else:
            worst_against(other)
        print(hostspeed.describe(speed_before, hostspeed.reference_ms()))
        return

    rng = random.Random(args.seed)
    rummi = HouseRules.rummi()   # 2 packs + 8 jokers = 112 cards
    penang = HouseRules.penang()  # 3 packs + 6 jokers with five players
    deck2 = full_deck(2, 8)
    deck3 = full_deck(3, 6)
    sets = [
        ("20 cards, 2 packs + 8 jokers", random_deals(rng, deck2, 20, args.hands), rummi),
        ("25 cards, 2 packs + 8 jokers", random_deals(rng, deck2, 25, args.hands), rummi),
        ("25 cards, 3 packs + 6 jokers", random_deals(rng, deck3, 25, args.hands), penang),
        ("adversarial, 7-8 jokers", adversarial(rng, max(1, args.hands // 10)), rummi),
    ]
    round_data = rounds(rng, max(1, args.hands // 5), penang)
    warm = random.Random(args.seed + 1)
    warm_up = (random_deals(warm, deck2, 20, 300) + random_deals(warm, deck2, 25, 300)
               + random_deals(warm, deck3, 25, 300) + adversarial(warm, 100))
    if not args.no_freeze:
        gc.collect()
        gc.freeze()

    print(f"machine: {machine()}")
    speed_before = hostspeed.reference_ms()
    print(f"seed {args.seed}, {args.hands} hands per random set, "
          f"gc {'left alone' if args.no_freeze else 'frozen after setup'}")
    if other is not None:
        time_against(other, sets, warm_up)
        print(hostspeed.describe(speed_before, hostspeed.reference_ms()))
        return
    time_melds(warm_up, rummi)  # fills the solver's shared move tables
    time_rounds(rounds(warm, 50, penang), penang)
    print()
    print("best_melds, ms per hand (max again: the slowest "
          f"{RETIME_SLOWEST} hands timed again, best of {RETIME_TRIES} each):")
    print("| set | hands | median | p99 | max | max again | mean |")
    print("|---|---|---|---|---|---|---|")
    results = []
    for name, hands, rules in sets:
        times = time_melds(hands, rules)
        again = retime_slowest(hands, rules, times)
        results.append((name, times, again))
        print(summary(name, times, again), flush=True)
    print()
    times, refused = time_rounds(round_data, penang)
    print("score_round, 5 players (Penang: 3 packs + 6 jokers, 20 cards each), ms per round:")
    print("| set | rounds | median | p99 | max | mean |")
    print("|---|---|---|---|---|---|")
    print(summary("5-player rounds", times))
    if refused:
        print(f"({refused} rounds refused by validation)")
    print()
    print(hostspeed.describe(speed_before, hostspeed.reference_ms()))
    print(f"targets: median < {TARGET_MEDIAN_MS} ms, max < {TARGET_MAX_MS} ms per hand")
    for name, times, again in results:
        med = statistics.median(times) * 1e3
        top = max(times) * 1e3
        print(f"{name}: median {med:.3f} ms ({'met' if med < TARGET_MEDIAN_MS else 'MISSED'}), "
              f"max {top:.3f} ms ({'met' if top < TARGET_MAX_MS else 'MISSED'}), "
              f"max again {again * 1e3:.3f} ms "
              f"({'met' if again * 1e3 < TARGET_MAX_MS else 'MISSED'})")


if __name__ == "__main__":
    main()
