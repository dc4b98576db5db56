"""The example rounds and evenings shared by the web tests, and sessions made
of them: through the services (make_session), or as the new-session page
posts one (new_form). First the worked examples of docs/RULES.md §12: Rummi
money rules with clockwise play and tiers 0,1,2,3; seats A B C D, dealer D."""

import dataclasses

import sqlalchemy as sa

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.forms.sessions import rule_texts
from scorekeeper.models import AuditEvent, Player
from scorekeeper.rules import Entry, HouseRules
from tests.conftest import the_group
from tests.web.helpers import csrf_token

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
NO_HU, TIE, HU = (dict(zip(TABLE, example.values(), strict=True))
                  for example in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3))

# The worked examples (seats A to D) as typed into the round form:
# {player: (outcome, cards)}.
TYPED_1, TYPED_2, TYPED_3 = (
    {name: (entry.outcome, entry.cards or "") for name, entry in example.items()}
    for example in (EXAMPLE_1, EXAMPLE_2, EXAMPLE_3))

# A Tien Hu hand: twenty cards that meld completely.
TIEN_HU = "AS 2S 3S 4S 5S 6S 7S 8S 9S 10S JS QS KS 7H 7D 7C 9H 10H JH QH"

# Penang with seven cards dealt, tiers 0-2-5, the biggest loser deals, play anticlockwise.
CUSTOM = dataclasses.replace(HouseRules.penang(), hand_size=7, hand_size_three=7,
                             tiers=(0, 2, 5), unit_cents=50, dealer_rule="loser",
                             direction="anticlockwise", joker_ace_cents=20)


def build_evenings(app) -> None:
    """Three sessions of the tests' group.

    one:   Rummi, finished: four rounds, round 2 deleted, one transfer paid.
    two:   custom Penang rules in S$, open: a Hu, a Tien Hu, a round deleted and
           restored, Fay left and Hal joined.
    three: Penang per point, two players, finished, everything paid.
    """
    with app.app_context():
        group = the_group()
        one = services.start_session(services.Change(group, device="Phone A"),
                                     ["Ann", "Bob", "Cat", "Dan"], HouseRules.rummi(),
                                     first_dealer="Dan")
        for entries in (NO_HU, TIE, HU, NO_HU):
            services.record_round(services.Change.to(one, device="Phone A"), entries)
        services.delete_round(services.Change.to(one, device="Phone A"), one.rounds[1])
        first = services.settlement(one)[0].transfer
        set_paid(services.Change.to(one),
                          first.payer.id, first.payee.id, first.cents, True)
        services.end_session(services.Change.to(one))

        two = services.start_session(services.Change(group), ["Ann", "Eve", "Fay", "Gus"], CUSTOM,
                                     first_dealer="Eve", currency="S$")
        services.record_round(services.Change.to(two),
                              {"Ann": Entry("dead", "2S 9H"), "Eve": Entry("dead", "KD"),
                               "Fay": Entry("dead", "5C 5D"), "Gus": Entry("hu")})
        services.record_round(services.Change.to(two),
                              {"Ann": Entry("tien_hu", "AS 2S 3S 4H 4D 4C JK"),
                               "Eve": Entry("dead"), "Fay": Entry("dead"),
                               "Gus": Entry("dead")})
        services.record_round(services.Change.to(two),
                              {"Ann": Entry("dead", "QS"), "Eve": Entry("dead", "3H 8C"),
                               "Fay": Entry("dead", "JK"), "Gus": Entry("dead", "10D")})
        services.delete_round(services.Change.to(two), two.rounds[0])
        deletion = db.session.scalar(sa.select(AuditEvent).where(
            AuditEvent.session_id == two.id, AuditEvent.action == "round.delete"))
        services.restore_round(services.Change.to(two), deletion)
        fay = next(seat.player for seat in two.seats if seat.player.name == "Fay")
        services.leave_session(services.Change.to(two), fay.id)
        services.join_session(services.Change.to(two), "Hal", 1)
        services.record_round(services.Change.to(two),
                              {"Ann": Entry("dead", "2C"), "Eve": Entry("hu"),
                               "Gus": Entry("dead", "7S 9S"), "Hal": Entry("dead", "KC KH")})

        three = services.start_session(
            services.Change(group), ["Ann", "Bob"],
            dataclasses.replace(HouseRules.penang(), scheme="per_point", point_cents=5),
            first_dealer="Bob")
        services.record_round(services.Change.to(three),
                              {"Ann": Entry("dead", "KS"), "Bob": Entry("dead", "2H 3C")})
        services.record_round(services.Change.to(three),
                              {"Ann": Entry("hu"), "Bob": Entry("dead", "9D")})
        for plan in services.settlement(three):
            t = plan.transfer
            set_paid(services.Change.to(three), t.payer.id, t.payee.id, t.cents, True)
        services.end_session(services.Change.to(three))


def set_paid(change, payer_id, payee_id, cents, paid=True) -> None:
    """A session's transfer marked paid in full, or its payments taken back,
    as the settle-up page's buttons do."""
    if paid:
        services.pay(change, payer_id, payee_id, cents)
        return
    for payment in list(change.session.payments):
        if (payment.payer_id, payment.payee_id) == (payer_id, payee_id):
            services.unpay(change, payment.id)


def make_session(app, rounds=(), names=TABLE, rules=None, dealer=None, currency="RM",
                 ended=False) -> int:
    """A session of the tests' group made through the services, Rummi unless
    ``rules`` say, the last of ``names`` dealing first unless ``dealer`` is
    given, with ``rounds`` recorded: its id."""
    with app.app_context():
        session = services.start_session(services.Change(the_group()),
                                         list(names), rules or HouseRules.rummi(),
                                         first_dealer=dealer or names[-1], currency=currency)
        for entries in rounds:
            services.record_round(services.Change.to(session), entries)
        if ended:
            services.end_session(services.Change.to(session))
        return session.id


def player_id(app, name) -> int:
    with app.app_context():
        return db.session.scalar(db.select(Player.id).where(Player.name == name))


def new_form(client, seats=(), preset="penang", **changes):
    """What the new-session page posts: its preset's rules, the seats, any changes."""
    data = {"csrf_token": csrf_token(client, "/sessions/new"), "preset": preset,
            "currency": "RM", "first_dealer": "random"}
    for name, value in rule_texts(getattr(HouseRules, preset)()).items():
        if value is True:
            data[name] = "y"
        elif value is not False:
            data[name] = value
    for i, name in enumerate(seats):
        data[f"seats-{i}"] = name
    data.update(changes)
    return data
