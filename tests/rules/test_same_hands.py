"""docs/RULES.md §7, as the app adds it: a round whose every hand is the last
round's, card for card, is the same game entered again, and is warned."""

from scorekeeper.rules import Entry, parse_cards, repeated_round, same_hands, shares_a_hand

LAST = {"Ann": Entry("dead", "JK 7H"), "Bob": Entry("dead", "AC AC 2S"), "Cyd": Entry("hu")}


def test_the_same_hands_in_any_order_and_notation_are_the_same():
    again = {"Cyd": Entry("hu", ""), "Ann": Entry("dead", "7h, jk"),
             "Bob": Entry("dead", parse_cards("2S AC AC"))}
    assert same_hands(again, LAST)
    (warning,) = repeated_round(4, again, LAST)
    assert warning.code == "same_as_last_round" and warning.players == ()
    assert warning.values == {"number": 4}


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


def test_a_round_sharing_one_hand_of_cards_is_likely_the_same_game():
    """Issue 25, 6: which choice a round refused for another's comes with first."""
    put_right = {**LAST, "Ann": Entry("dead", "JK 8H")}  # Bob's cards, card for card
    assert shares_a_hand(put_right, LAST)
    assert shares_a_hand({"Bob": Entry("dead", "2s ac ac")}, LAST)
    # The same winner, a hand with no cards, or a card unread is no sign of it.
    other = {"Ann": Entry("dead", "5S"), "Bob": Entry("dead", ""), "Cyd": Entry("hu")}
    assert not shares_a_hand(other, {**LAST, "Bob": Entry("dead", "")})
    assert not shares_a_hand({"Ann": Entry("dead", "JK 7X")}, {"Ann": Entry("dead", "JK 7X")})
    assert not shares_a_hand({"Dot": Entry("dead", "JK 7H")}, LAST)
