"""Best arrangement of a hand: python -m scorekeeper.rules "AS 2S 3S JK 7H 7D 7C QH".

A command for people, so not the engine: what the engine refuses, it says in
the web layer's words (English outside a request), the pages' sentences."""

from __future__ import annotations

import argparse
import dataclasses
import sys

from ..web.presenters.problems import all_words, words
from . import CardError, HouseRules, RulesError, best_melds, format_cards, parse_cards


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m scorekeeper.rules",
        description="Arrange a hand into melds that leave the fewest points.")
    parser.add_argument("cards", nargs="+", help='cards such as "AS 10H JK" (docs/RULES.md §2)')
    parser.add_argument("--rules", choices=("penang", "rummi"), default="penang",
                        help="house-rule preset (default: penang)")
    parser.add_argument("--joker-points", type=int, metavar="N",
                        help="points for a joker left in hand (default: the preset's)")
    args = parser.parse_args(argv)

    rules = HouseRules.rummi() if args.rules == "rummi" else HouseRules.penang()
    if args.joker_points is not None:
        try:
            rules = dataclasses.replace(rules, joker_points=args.joker_points)
        except RulesError as error:
            parser.error("; ".join(all_words(error.problems)))
    try:
        cards = parse_cards(" ".join(args.cards))
    except CardError as error:
        print(f"error: {words(error)}", file=sys.stderr)
        return 2
    best = best_melds(cards, rules)
    for meld in best.melds:
        print(f"meld      {format_cards(meld)}")
    print(f"deadwood  {format_cards(best.deadwood) or '-'}")
    print(f"points    {best.points}")
    if not best.exact:
        print("(the search stopped at its work cap: fewer points may be possible)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
