"""docs/RULES.md §9 as a table reads it before it plays: what each place of
a round gets or pays, and the Hu and Tien Hu amounts (rules.payouts)."""

import pytest

from scorekeeper.rules import Entry, HouseRules, payouts, score_round
from scorekeeper.rules.house import TABLE_SIZES


def test_penang_at_four_players_first_gets_six_units_and_fourth_pays_three():
    pays = payouts(HouseRules.penang(), 4)
    assert pays.places == (600, -100, -200, -300)
    assert (pays.hu, pays.tien_hu, pays.players) == (300, 600, 4)


def test_places_past_the_tiers_pay_the_last_tier():
    rules = HouseRules(tiers=(0, 1, 2), unit_cents=50)
    assert payouts(rules, 6).places == (450, -50, -100, -100, -100, -100)


@pytest.mark.parametrize("rules", [HouseRules.penang(), HouseRules.rummi(),
                                   HouseRules(tiers=(1, 4, 2), unit_cents=35)],
                         ids=["penang", "rummi", "odd tiers"])
@pytest.mark.parametrize("n", TABLE_SIZES)
def test_the_places_are_what_a_round_of_distinct_points_pays(rules, n):
    """The same money as a round scored: player i is dead holding one card
    worth i + 2 points (no joker, no ace), so places follow the seats."""
    order = [f"P{i}" for i in range(n)]
    entries = {p: Entry("dead", f"{i + 2}S") for i, p in enumerate(order)}
    score = score_round(order, entries, rules)
    assert payouts(rules, n).places == tuple(score.net_cents[p] for p in order)
    assert sum(payouts(rules, n).places) == 0


def test_per_point_and_points_only_have_no_money_by_place():
    per_point = payouts(HouseRules(scheme="per_point"), 3)
    assert (per_point.places, per_point.hu, per_point.tien_hu) == ((), 300, 600)
    nothing = payouts(HouseRules(scheme="none"), 3)
    assert (nothing.places, nothing.hu, nothing.tien_hu) == ((), 0, 0)


@pytest.mark.parametrize("n", [1, 7])
def test_a_table_size_no_table_has_is_refused(n):
    with pytest.raises(ValueError, match="2 to 6 players"):
        payouts(HouseRules.penang(), n)
