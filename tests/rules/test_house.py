"""RULES.md §3 (the deck), §4 (card points) and the two house-rule presets."""

import dataclasses

import pytest

from scorekeeper.rules import JOKER, Card, HouseRules

from .helpers import penang, rummi

PENANG = dict(
    packs=2, extra_pack_players=5, jokers=6, joker_points=20, passport="any",
    direction="clockwise", dealer_rule="winner", scheme="tiered", tiers=(0, 1, 2, 3, 4, 5),
    unit_cents=100, hu_cents=300, tien_hu_cents=600, joker_ace_cents=0, point_cents=10,
    no_passport_last=False, hand_size=20, hand_size_three=25,
)
RUMMI = dict(
    packs=2, extra_pack_players=None, jokers=8, joker_points=20, passport="run",
    direction="anticlockwise", dealer_rule="winner", scheme="tiered", tiers=(0, 1, 2, 3, 4, 5),
    unit_cents=100, hu_cents=300, tien_hu_cents=600, joker_ace_cents=50, point_cents=10,
    no_passport_last=True, hand_size=20, hand_size_three=20,
)


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
