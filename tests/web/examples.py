"""The worked examples of RULES.md §12, shared by the web tests: Rummi money
rules with clockwise play and tiers 0,1,2,3; seats A B C D, dealer D."""

import dataclasses

from scorekeeper.rules import Entry, HouseRules

EXAMPLE_RULES = dataclasses.replace(HouseRules.rummi(), direction="clockwise",
                                    tiers=(0, 1, 2, 3))
EXAMPLE_1 = {"A": Entry("dead", "JK 7H"), "B": Entry("dead", "AC AC 2S"),
             "C": Entry("dead", "3D 4D"), "D": Entry("dead", "AS 9H")}
EXAMPLE_2 = {"A": Entry("dead", "5S 5H"), "B": Entry("dead", "10C"),
             "C": Entry("dead", "2D"), "D": Entry("dead", "KS QS")}
EXAMPLE_3 = {"A": Entry("dead", "JK 3C"), "B": Entry("hu"),
             "C": Entry("dead", "AH"), "D": Entry("dead", "4S 4D")}

# The same rounds, for the players Ann, Bob, Cat and Dan.
TABLE = ["Ann", "Bob", "Cat", "Dan"]
NO_HU, TIE, HU = ({name: entry for name, entry in zip(TABLE, example.values())}
                  for example in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3))
