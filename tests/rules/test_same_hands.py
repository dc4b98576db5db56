"""docs/RULES.md §7, as the app adds it: a round whose every hand is the last
round's, card for card, is the same game entered again, and is warned."""

from scorekeeper.rules import Entry, parse_cards, repeated_round, same_hands

LAST = {"Ann": Entry("dead", "JK 7H"), "Bob": Entry("dead", "AC AC 2S"), "Cyd": Entry("hu")}


def test_the_same_hands_in_any_order_and_notation_are_the_same():
    again = {"Cyd": Entry("hu", ""), "Ann": Entry("dead", "7h, jk"),
             "Bob": Entry("dead", parse_cards("2S AC AC"))}
    assert same_hands(again, LAST)
    (warning,) = repeated_round(4, again, LAST)
    assert warning.code == "same_as_last_round" and warning.players == ()
    assert warning.message == ("Every hand is the same as in round 4, card for card: if this "
                               "is round 4 entered again, don't save it, or it counts twice")


def test_one_card_one_outcome_or_one_player_apart_is_another_game():
    for other in ({**LAST, "Ann": Entry("dead", "JK 8H")},
                  {**LAST, "Bob": Entry("dead", "AC 2S")},  # a copy fewer
                  {**LAST, "Ann": Entry("no_passport", "JK 7H")},
                  {name: entry for name, entry in LAST.items() if name != "Cyd"},
                  {**LAST, "Dot": Entry("dead", "5S")}):
        assert not same_hands(other, LAST) and repeated_round(4, other, LAST) == []


def test_unreadable_hands_are_like_no_other():
    garbled = {**LAST, "Ann": Entry("dead", "JK 7X")}
    assert not same_hands(garbled, garbled)
    assert not same_hands({}, {})
