"""What if (rules/replay.py): a session's rounds scored again under other
house rules, beside the money as played."""

import dataclasses

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import Code, Entry, HouseRules, Played, score_round, what_if

from .helpers import full_deck, worked_rules

FAST = settings(deadline=None, max_examples=80, database=None)

# docs/RULES.md §12: the three worked rounds, seats A B C D, play A B C D.
ORDER = ("A", "B", "C", "D")
EXAMPLES = [
    {"A": Entry("dead", "JK 7H"), "B": Entry("dead", "AC AC 2S"),
     "C": Entry("dead", "3D 4D"), "D": Entry("dead", "AS 9H")},
    {"A": Entry("dead", "5S 5H"), "B": Entry("dead", "10C"),
     "C": Entry("dead", "2D"), "D": Entry("dead", "KS QS")},
    {"A": Entry("dead", "JK 3C"), "B": Entry("hu"),
     "C": Entry("dead", "AH"), "D": Entry("dead", "4S 4D")},
]


def played_under(rules, rounds=EXAMPLES):
    """The rounds as a table playing ``rules`` stored them."""
    return [Played(n, ORDER, entries, score_round(ORDER, entries, rules).net_cents)
            for n, entries in enumerate(rounds, start=1)]


def test_the_worked_examples_under_penang_are_scored_fresh_beside_what_was_played():
    rounds = played_under(worked_rules())
    penang = HouseRules.penang()
    result = what_if(rounds, penang)
    for replayed, entries in zip(result.rounds, EXAMPLES, strict=True):
        assert replayed.money == score_round(ORDER, entries, penang).net_cents
    # As played: §12's nets, A −1.00 −1.50 −4.00, and so on.
    assert result.played == {"A": -650, "B": -150 - 800 + 1000, "C": 900 + 600 - 400,
                             "D": 0 - 300 - 200}
    # Penang: tiers 0 1 2 3 4 5 (the ties of round 2 pay as before), Hu 3.00,
    # no joker/ace money.
    assert result.would_be == {"A": -200 - 150 - 300, "B": -300 - 150 + 900,
                               "C": 600 + 600 - 300, "D": -100 - 300 - 300}
    assert result.difference == {p: result.would_be[p] - result.played[p] for p in ORDER}
    assert not result.refused


def test_under_its_own_rules_a_session_replays_to_the_money_it_stored():
    rules = worked_rules()
    result = what_if(played_under(rules), rules)
    assert result.would_be == result.played
    assert set(result.difference.values()) == {0}
    assert [r.money for r in result.rounds] == [r.played for r in result.rounds]


def test_a_round_the_other_rules_refuse_says_why_and_counts_on_neither_side():
    rules = worked_rules()
    one_joker = dataclasses.replace(rules, jokers=1)
    rounds = played_under(rules, [EXAMPLES[1], {**EXAMPLES[0], "C": Entry("dead", "JK 4D")}])
    result = what_if(rounds, one_joker, players=[*ORDER, "E"])
    (refused,) = result.refused
    assert refused.number == 2 and refused.score is None and refused.money is None
    assert [p.code for p in refused.problems] == [Code.TOO_MANY_COPIES]
    assert refused.played == rounds[1].money  # what was played is still told
    assert result.played == dict(rounds[0].money, E=0)
    assert result.would_be == dict(score_round(ORDER, EXAMPLES[1], one_joker).net_cents, E=0)


def test_a_player_of_the_session_who_played_no_round_is_in_the_totals_at_zero():
    result = what_if([], HouseRules.penang(), players=["Ann", "Ben"])
    assert result.played == result.would_be == {"Ann": 0, "Ben": 0}
    assert result.rounds == []


DECK = full_deck(2, 8)
NAMES = ("Ann", "Ben", "Cat", "Dan", "Eve", "Fay")


@st.composite
def sessions(draw):
    """A few rounds at a table of 2 to 6: each player left 0 to 6 cards of
    one shuffled two-pack deck, now and then one Hu."""
    players = NAMES[:draw(st.integers(2, 6))]
    rounds = []
    for _ in range(draw(st.integers(1, 5))):
        picks = iter(draw(st.permutations(range(len(DECK)))))
        hu = draw(st.sampled_from([None, *players]))
        entries = {}
        for p in players:
            cards = [DECK[next(picks)] for _ in range(draw(st.integers(0, 6)))]
            entries[p] = Entry("hu") if p == hu else Entry("dead", cards)
        rounds.append((draw(st.permutations(players)), entries))
    return players, rounds


@st.composite
def house_rules(draw):
    """Rummi's deck, with money rules of any kind, and now and then fewer
    jokers than a round may hold."""
    return dataclasses.replace(
        HouseRules.rummi(),
        jokers=draw(st.sampled_from([8, 8, 8, 2])),
        joker_points=draw(st.integers(0, 50)),
        scheme=draw(st.sampled_from(["tiered", "per_point", "none"])),
        tiers=tuple(draw(st.lists(st.integers(0, 9), min_size=1, max_size=6))),
        unit_cents=draw(st.integers(0, 1000)), hu_cents=draw(st.integers(0, 1000)),
        joker_ace_cents=draw(st.integers(0, 300)), point_cents=draw(st.integers(0, 50)),
        no_passport_last=draw(st.booleans()))


@FAST
@given(sessions(), house_rules(), house_rules())
def test_any_session_replays_as_its_hands_scored_fresh_and_every_round_sums_to_zero(
        session, played_rules, other):
    players, rounds = session
    played = [Played(n, tuple(order), entries,
                     score_round(order, entries, played_rules).net_cents)
              for n, (order, entries) in enumerate(rounds, start=1)
              if played_rules.jokers == 8]  # the table played them under rules that take them
    result = what_if(played, other, players)
    assert [r.number for r in result.rounds] == [r.number for r in played]
    scored = []
    for round_, replayed in zip(played, result.rounds, strict=True):
        try:
            fresh = score_round(round_.order, round_.entries, other).net_cents
        except ValueError:
            assert replayed.score is None and replayed.problems
            continue
        assert replayed.money == fresh
        assert sum(fresh.values()) == 0
        scored.append(round_)
    assert result.would_be == {p: sum(r.score.net_cents.get(p, 0) for r in result.rounds
                                      if r.score) for p in players}
    assert result.played == {p: sum(r.money[p] for r in scored) for p in players}
    assert sum(result.would_be.values()) == sum(result.played.values()) == 0
    if other == played_rules:
        assert result.would_be == result.played
