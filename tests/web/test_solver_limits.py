"""Hands the attack run sent to the meld solver, through the web: the hand check
on the home page (no sign-in) and a round's save (docs/RULES.md §3, §6, §7)."""

import re

import pytest

from scorekeeper import services
from scorekeeper.rules import HouseRules
from tests.web.helpers import enter, filled, hand_check, round_count, section, text

pytestmark = pytest.mark.any_database

# 16 jokers and 16 cards dealt are house rules the app takes (RULE_RANGES).
MANY_JOKERS = "JK JK JK JK JK JK JK JK JK JK JK JK JK JK QC KC"
ATTACK_200 = ("3C 5C 4D 7D 7C 6D 4H 3H 7C AD 6D 6H 6D 4C 6H 5H 7D 5D 4H 3C 4H 4C 3H 2D AD "
              "3D 5C 5D 5H 4D 6H 3H 5H 7H 6C 6C 6H 3D 7H 5C 5D 4H 3C 2D 5D 4D 4S 6D 5C 3H "
              "5C AS 2D 2H 5D 5H JK 4D 3H 5D 3D 2D 6D 7C 2H 3H 4C")
# A Penang hand that some deal gives, built to cost the solver the most work.
HARD_PENANG = "JK JK JK JK JK AC AD 2D 2S 3C 3D 3H 4D 4H 4S 5C 5D 5H 5S 6D 6S 6S 7D 9H JC"
# 40 cards (the most the app deals), 0.3 to 0.8 s of the solver before its cap.
HARD_40 = ("JK JK AH AS AS 2C 2H 2H 2S 2S 2S 3D 3H 3H 3S 3S 3S 4D 4D 4D 4D 4H 4H 4H "
           "4H 4S 4S 4S 5D 5H 5H 5H 5S 5S 5S 6D 6H 6S 7C 8H")


@pytest.mark.parametrize("preset, deck", [("penang", 6), ("rummi", 8)])
def test_the_attack_runs_hand_is_answered_not_a_500(anonymous, preset, deck):
    part = hand_check(anonymous, MANY_JOKERS, preset)
    assert f"14 jokers entered, but the deck has only {deck}." in part
    assert f'value="{MANY_JOKERS}"' in part


def test_a_200_character_hand_is_refused_at_once(anonymous):
    part = hand_check(anonymous, ATTACK_200, "penang")
    assert "67 cards entered, but a hand holds at most 25 (the most these rules deal)." in part
    assert "6 copies of 3H entered, but the deck has only 3." in part
    assert 'class="result"' not in part


def test_a_hard_hand_that_a_deal_gives_is_answered_within_the_cap(anonymous):
    part = hand_check(anonymous, HARD_PENANG, "penang")
    assert 'class="result"' in part and "points left" in part
    assert "The check stopped at its time limit on this hand" in part


@pytest.fixture
def rounds_of(our_group):
    """The rounds URL of a new session of Ann, Bob and Cat under ``rules``."""
    def start(rules):
        table = services.start_session(services.Change(our_group), ["Ann", "Bob", "Cat"], rules,
                                       first_dealer="Cat")
        return f"/sessions/{table.id}/rounds"
    return start


def test_the_attack_runs_tien_hu_is_saved(client, rounds_of):
    """The round's save answered 500 (StopIteration) on this hand."""
    base = rounds_of(HouseRules(packs=4, jokers=16, hand_size=16, hand_size_three=16))
    # The form says the others' cards may be left empty (docs/RULES.md §7).
    form = text(client.get(f"{base}/new"))
    assert "Tien Hu: the whole dealt hand; the others’ cards may then be left empty." in form
    response = enter(client, base, {"Ann": ("tien_hu", MANY_JOKERS), "Bob": ("dead", ""),
                                    "Cat": ("dead", "")})
    assert response.status_code == 302
    assert response.headers["Location"] == f"{base}/1"
    assert round_count() == 1
    page = text(client.get(f"{base}/1"))
    assert "Tien Hu" in page


def test_a_tien_hu_too_large_to_check_in_full_asks_for_a_confirmation(client, rounds_of):
    base = rounds_of(HouseRules(packs=4, extra_pack_players=2, jokers=16, hand_size=40,
                                hand_size_three=40))
    entries = {"Ann": ("tien_hu", HARD_40), "Bob": ("dead", ""), "Cat": ("dead", "")}
    response = enter(client, base, entries)
    html = text(response)
    assert response.status_code == 200
    assert round_count() == 0
    assert "Please check before saving" in html
    assert "Ann's hand is too large to check in full" in section(html, "Ann")
    confirm = re.search(r'name="confirmed" value="([^"]+)"', html)[1]
    page = client.get(f"{base}/new").get_data(as_text=True)
    response = client.post(f"{base}/new", data={**filled(page, entries), "confirmed": confirm})
    assert response.status_code == 302
    assert round_count() == 1
