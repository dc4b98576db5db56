"""What is still owed across sessions: debts against payments (rules/ledger.py)."""

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import settle
from scorekeeper.rules.ledger import Debt, Paid, ledger


def raw_nets(debts, payments):
    """Each player's net the plain way: what they are owed, less what they
    owe, plus what they paid, less what they were paid."""
    nets = defaultdict(int)
    for d in debts:
        nets[d.payer] -= d.cents
        nets[d.payee] += d.cents
    for p in payments:
        nets[p.payer] += p.cents
        nets[p.payee] -= p.cents
    return {who: cents for who, cents in nets.items() if cents}


def test_a_payment_for_a_session_pays_its_transfer_in_part():
    debts = [Debt(1, "Ann", "Ben", 550), Debt(2, "Ann", "Ben", 200)]
    book = ledger(debts, [Paid("Ann", "Ben", 300, session=1)])
    assert book.paid == [300, 0]
    assert [book.left(i) for i in range(2)] == [250, 200]
    assert book.nets == {"Ann": -450, "Ben": 450}


def test_a_payment_for_a_session_pays_that_session_only():
    debts = [Debt(1, "Ann", "Ben", 550), Debt(2, "Ann", "Ben", 200)]
    book = ledger(debts, [Paid("Ann", "Ben", 200, session=2)])
    assert book.paid == [0, 200]
    assert book.open() == [0]


def test_debts_in_a_circle_clear_each_other():
    debts = [Debt(1, "Ann", "Ben", 500), Debt(2, "Ben", "Carl", 300), Debt(3, "Carl", "Ann", 300)]
    book = ledger(debts, [])
    assert book.cleared == [300, 300, 300]
    assert [book.left(i) for i in range(3)] == [200, 0, 0]
    assert book.nets == {"Ann": -200, "Ben": 200}


def test_a_payment_across_sessions_pays_the_oldest_debts_between_the_two_first():
    debts = [Debt(1, "Ann", "Ben", 500), Debt(2, "Ann", "Ben", 300)]
    book = ledger(debts, [Paid("Ann", "Ben", 600)])
    assert book.cleared == [500, 100]
    assert book.unused == [0]


def test_paying_for_someone_else_clears_both_debts():
    # Ann owes Carl, Carl owes Ben: Ann paying Ben settles both.
    debts = [Debt(1, "Ann", "Carl", 400), Debt(2, "Carl", "Ben", 400)]
    book = ledger(debts, [Paid("Ann", "Ben", 400)])
    assert book.open() == []
    assert book.unused == [0]
    assert book.nets == {}


def test_settle_everything_paid_clears_every_debt_even_across_tables():
    # {Ann, Ben, Cat} and {Dan, Eve, Fay} never played together, yet the
    # fewest transfers pair them across: 3 transfers, not 4.
    debts = [Debt(1, "Ann", "Ben", 100), Debt(1, "Ann", "Cat", 200),
             Debt(2, "Eve", "Dan", 100), Debt(2, "Fay", "Dan", 200)]
    plan = settle(ledger(debts, []).nets)
    assert len(plan) == 3
    book = ledger(debts, [Paid(t.payer, t.payee, t.cents) for t in plan])
    assert book.open() == [] and book.unused == [0, 0, 0] and book.nets == {}


def test_a_payment_that_clears_nothing_yet_is_kept():
    debts = [Debt(1, "Ann", "Ben", 100), Debt(1, "Ann", "Cat", 200),
             Debt(2, "Eve", "Dan", 100), Debt(2, "Fay", "Dan", 200)]
    book = ledger(debts, [Paid("Ann", "Dan", 300)])
    assert book.unused == [300]
    assert book.nets == {"Ben": 100, "Cat": 200, "Eve": -100, "Fay": -200}


def test_a_sessions_payment_its_transfer_no_longer_needs_counts_across_sessions():
    # The session's result changed after Ann paid Ben for it.
    debts = [Debt(1, "Ann", "Ben", 300), Debt(2, "Ann", "Ben", 100)]
    book = ledger(debts, [Paid("Ann", "Ben", 500, session=1)])
    assert book.paid == [300, 0]
    assert book.cleared == [0, 100]
    assert book.unused == [100]
    assert book.nets == {"Ann": 100, "Ben": -100}


NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay", "Gus"]


@st.composite
def session_balances(draw):
    """A session's balances: two to six of the group's players, summing to zero."""
    names = draw(st.permutations(NAMES))[:draw(st.integers(2, 6))]
    values = draw(st.lists(st.integers(-900, 900), min_size=len(names), max_size=len(names)))
    values[-1] -= sum(values)
    return dict(zip(names, values, strict=True))


@st.composite
def histories(draw):
    """Sessions' transfers and payments made since, some in part, some
    across sessions."""
    debts = []
    for session in range(draw(st.integers(0, 6))):
        balances = draw(session_balances())
        debts += [Debt(session, t.payer, t.payee, t.cents) for t in settle(balances)]
    payments = []
    for _ in range(draw(st.integers(0, 8))):
        if debts and draw(st.booleans()):
            d = draw(st.sampled_from(debts))
            payments.append(Paid(d.payer, d.payee, draw(st.integers(1, d.cents)), d.session))
        else:
            payer, payee = draw(st.lists(st.sampled_from(NAMES), min_size=2, max_size=2,
                                         unique=True))
            payments.append(Paid(payer, payee, draw(st.integers(1, 2000))))
    return debts, payments


@settings(max_examples=300, deadline=None)
@given(histories())
def test_what_is_owed_is_every_sessions_balance_less_what_was_paid(history):
    debts, payments = history
    book = ledger(debts, payments)
    assert book.nets == raw_nets(debts, payments)
    for i, d in enumerate(debts):
        assert 0 <= book.paid[i] + book.cleared[i] <= d.cents
    assert all(0 <= left <= p.cents for left, p in zip(book.unused, payments, strict=True))


@settings(max_examples=300, deadline=None)
@given(histories())
def test_what_is_left_owed_goes_round_in_no_circle(history):
    debts, payments = history
    book = ledger(debts, payments)
    after = defaultdict(set)
    for i in book.open():
        after[debts[i].payer].add(debts[i].payee)
    for k, p in enumerate(payments):
        if book.unused[k]:
            after[p.payee].add(p.payer)

    def reaches(start, goal, seen=()):
        return any(step == goal or (step not in seen and reaches(step, goal, (*seen, step)))
                   for step in after[start])

    assert not any(reaches(who, who) for who in list(after))


@settings(max_examples=300, deadline=None)
@given(histories())
def test_paying_the_plan_leaves_nothing_owed_and_no_payment_counted_twice(history):
    debts, payments = history
    plan = settle(ledger(debts, payments).nets)
    book = ledger(debts, payments + [Paid(t.payer, t.payee, t.cents) for t in plan])
    assert book.open() == [] and book.nets == {}
    assert not any(book.unused)
