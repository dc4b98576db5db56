"""docs/RULES.md §3 (the deck), §4 (card points) and the two house-rule presets."""

import dataclasses

import pytest

from scorekeeper import limits
from scorekeeper.rules import JOKER, PRESETS, Card, HouseRules, RulesError, preset_of
from scorekeeper.rules.house import MAX_TIERS, RULE_MONEY_MAX, RULE_RANGES, TIER_MAX

from .helpers import penang, rummi

PENANG = {
    "packs": 2, "extra_pack_players": 5, "jokers": 6, "joker_points": 20, "passport": "any",
    "direction": "clockwise", "dealer_rule": "winner", "scheme": "tiered",
    "tiers": (0, 1, 2, 3, 4, 5), "unit_cents": 100, "hu_cents": 300, "tien_hu_cents": 600,
    "joker_ace_cents": 0, "point_cents": 10, "no_passport_last": False, "hand_size": 20,
    "hand_size_three": 25,
}
RUMMI = {
    "packs": 2, "extra_pack_players": None, "jokers": 8, "joker_points": 20, "passport": "run",
    "direction": "anticlockwise", "dealer_rule": "winner", "scheme": "tiered",
    "tiers": (0, 1, 2, 3, 4, 5), "unit_cents": 100, "hu_cents": 300, "tien_hu_cents": 600,
    "joker_ace_cents": 50, "point_cents": 10, "no_passport_last": True, "hand_size": 20,
    "hand_size_three": 20,
}


@pytest.mark.parametrize(
    "preset, expected", [(HouseRules.penang, PENANG), (HouseRules.rummi, RUMMI)]
)
def test_presets(preset, expected):
    rules = preset()
    for field, value in expected.items():
        assert getattr(rules, field) == value, field
    assert tuple(rules.tiers) == expected["tiers"]


def test_house_rules_are_frozen_and_replaceable():
    rules = HouseRules.penang()
    with pytest.raises(dataclasses.FrozenInstanceError):
        rules.jokers = 8
    changed = dataclasses.replace(rules, jokers=8)
    assert changed.jokers == 8 and rules.jokers == 6
    assert HouseRules.penang() == HouseRules.penang()


@pytest.mark.parametrize("players, packs", [(2, 2), (3, 2), (4, 2), (5, 3), (6, 3), (8, 3)])
def test_penang_packs_from_five_players(players, packs):
    assert HouseRules.penang().packs_for(players) == packs


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_rummi_always_two_packs(players):
    assert HouseRules.rummi().packs_for(players) == 2


def test_extra_pack_threshold_is_a_house_rule():
    rules = penang(extra_pack_players=4)
    assert rules.packs_for(3) == 2
    assert rules.packs_for(4) == 3
    assert penang(extra_pack_players=None).packs_for(6) == 2


@pytest.mark.parametrize("players, dealt", [(2, 20), (3, 25), (4, 20), (5, 20), (6, 20)])
def test_penang_cards_dealt(players, dealt):
    assert HouseRules.penang().cards_dealt(players) == dealt


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_rummi_cards_dealt(players):
    assert HouseRules.rummi().cards_dealt(players) == 20


def test_cards_dealt_follow_hand_size_settings():
    rules = penang(hand_size=13, hand_size_three=17)
    assert rules.cards_dealt(4) == 13
    assert rules.cards_dealt(3) == 17


@pytest.mark.parametrize(
    "card, points",
    [(Card(r, s), r) for r in range(2, 11) for s in "SH"]
    + [(Card(r, "D"), 10) for r in (11, 12, 13)]
    + [(Card(1, s), 15) for s in "SHDC"]
    + [(JOKER, 20)],
    ids=str,
)
@pytest.mark.parametrize("preset", [HouseRules.penang, HouseRules.rummi])
def test_card_points(preset, card, points):
    assert preset().points(card) == points


def test_joker_points_are_a_house_rule():
    assert penang(joker_points=50).points(JOKER) == 50
    assert rummi(joker_points=0).points(JOKER) == 0
    assert penang(joker_points=50).points(Card(1, "S")) == 15


# -- the JSON form: a session's row, a backup, the audit trail ---------------------------


@pytest.mark.parametrize("preset, expected", [(HouseRules.penang, PENANG),
                                              (HouseRules.rummi, RUMMI)])
def test_to_json_is_every_field_by_name_in_order_tiers_a_list(preset, expected):
    written = preset().to_json()
    assert written == {**expected, "tiers": list(expected["tiers"])}
    assert list(written) == list(expected)  # the order the rows and backups have
    assert dataclasses.asdict(preset()) == {**written, "tiers": tuple(written["tiers"])}
    assert HouseRules.from_json(written) == preset()


def test_from_json_gives_missing_rules_their_defaults():
    """Rows from before a rule existed lack its key."""
    assert HouseRules.from_json({}) == HouseRules()
    old = {key: value for key, value in RUMMI.items() if not key.startswith("hand_size")}
    rules = HouseRules.from_json(old)
    assert rules.jokers == 8 and (rules.hand_size, rules.hand_size_three) == (20, 25)


def reports(error: RulesError) -> list[tuple[str, dict]]:
    """What a RulesError names: each problem's code and values."""
    return [(problem.code, dict(problem.values)) for problem in error.problems]


@pytest.mark.parametrize("data, code, values", [
    ({"bonus": 5, "extra": 1}, "not_a_rule", {"keys": ("bonus", "extra")}),
    ({"packs": "2"}, "rule_not_whole", {"rule": "packs", "value": "2"}),
    ({"packs": True}, "rule_not_whole", {"rule": "packs", "value": True}),
    ({"unit_cents": 1.5}, "rule_not_whole", {"rule": "unit_cents", "value": 1.5}),
    ({"extra_pack_players": "5"}, "rule_not_whole_or_null",
     {"rule": "extra_pack_players", "value": "5"}),
    ({"tiers": "0 1 2"}, "tiers_not_whole", {"value": "0 1 2"}),
    ({"tiers": [0, None]}, "tiers_not_whole", {"value": [0, None]}),
    ({"no_passport_last": 1}, "rule_not_true_or_false",
     {"rule": "no_passport_last", "value": 1}),
    ({"passport": 1}, "rule_not_text", {"rule": "passport", "value": 1}),
    ({"passport": "both"}, "rule_not_a_choice",
     {"rule": "passport", "value": "both", "choices": ("any", "run")}),
    ({"jokers": -1}, "rule_negative", {"rule": "jokers", "value": -1}),
    ({"hu_cents": -1}, "rule_negative", {"rule": "hu_cents", "value": -1}),
    ({"hand_size": 0}, "rule_below_one", {"rule": "hand_size", "value": 0}),
    ({"tiers": []}, "tiers_refused", {"value": ()}),
    (["packs"], "rules_not_an_object", {"value": ["packs"]}),
    (None, "rules_not_an_object", {"value": None}),
])
def test_from_json_refuses_what_to_json_never_writes(data, code, values):
    with pytest.raises(RulesError) as caught:
        HouseRules.from_json(data)
    assert reports(caught.value) == [(code, values)]
    assert isinstance(caught.value, ValueError)


def test_a_rules_error_says_its_codes_for_the_logs():
    with pytest.raises(RulesError) as caught:
        penang(packs=0, joker_points=-2)
    assert str(caught.value) == ("rule_below_one(rule='packs', value=0); "
                                 "rule_negative(rule='joker_points', value=-2)")


def test_from_json_applies_no_limits():
    """A stored session keeps rules from before a limit: only coming in are they held to it."""
    rules = HouseRules.from_json({"packs": 9, "tiers": [0] * 9})
    assert rules.packs == 9 and len(rules.tiers) == 9


# -- the limits the app takes ------------------------------------------------------------


@pytest.mark.parametrize("preset", [HouseRules.penang, HouseRules.rummi])
def test_the_presets_are_within_the_limits(preset):
    preset().check_limits()


def test_the_largest_rules_the_app_takes_are_within_them():
    rules = penang(packs=4, extra_pack_players=2, jokers=16, joker_points=100, hand_size=40,
                   hand_size_three=40, tiers=(TIER_MAX,) * MAX_TIERS, unit_cents=RULE_MONEY_MAX,
                   hu_cents=RULE_MONEY_MAX, tien_hu_cents=RULE_MONEY_MAX,
                   joker_ace_cents=RULE_MONEY_MAX, point_cents=RULE_MONEY_MAX)
    rules.check_limits()
    penang(extra_pack_players=None).check_limits()


@pytest.mark.parametrize("changes, code, values", [
    ({"packs": 5}, "rule_out_of_range", {"rule": "packs", "low": 1, "high": 4, "value": 5}),
    ({"jokers": 17}, "rule_out_of_range", {"rule": "jokers", "low": 0, "high": 16, "value": 17}),
    ({"hand_size_three": 41}, "rule_out_of_range",
     {"rule": "hand_size_three", "low": 1, "high": 40, "value": 41}),
    ({"extra_pack_players": 7}, "rule_out_of_range",
     {"rule": "extra_pack_players", "low": 2, "high": 6, "value": 7}),
    ({"extra_pack_players": 1}, "rule_out_of_range",
     {"rule": "extra_pack_players", "low": 2, "high": 6, "value": 1}),
    ({"point_cents": RULE_MONEY_MAX + 1}, "rule_out_of_range",
     {"rule": "point_cents", "low": 0, "high": RULE_MONEY_MAX, "value": RULE_MONEY_MAX + 1}),
    ({"tiers": (0,) * (MAX_TIERS + 1)}, "tier_count_out_of_range",
     {"most": MAX_TIERS, "count": MAX_TIERS + 1}),
    ({"tiers": (0, TIER_MAX + 1)}, "tier_out_of_range", {"most": TIER_MAX}),
])
def test_rules_past_the_limits_are_named(changes, code, values):
    with pytest.raises(RulesError) as caught:
        penang(**changes).check_limits()
    assert reports(caught.value) == [(code, values)]


def test_every_problem_is_named_at_once():
    with pytest.raises(RulesError) as caught:
        penang(packs=9, jokers=99).check_limits()
    assert [values["rule"] for _, values in reports(caught.value)] == ["packs", "jokers"]


def test_the_presets_by_key():
    assert {key: make() for key, make in PRESETS.items()} == {
        "penang": HouseRules.penang(), "rummi": HouseRules.rummi()}
    assert preset_of(HouseRules.penang()) == "penang"
    assert preset_of(HouseRules.rummi()) == "rummi"
    assert preset_of(penang(jokers=4)) is None


def test_one_table_of_limits():
    """scorekeeper.limits names the rules engine's table, not a copy; the
    extra pack comes in at a table's size."""
    assert limits.RULE_RANGES is RULE_RANGES
    assert (limits.RULE_MONEY_MAX, limits.MAX_TIERS, limits.TIER_MAX) == (
        RULE_MONEY_MAX, MAX_TIERS, TIER_MAX)
    assert RULE_RANGES["extra_pack_players"] == (limits.MIN_PLAYERS, limits.MAX_PLAYERS)
