"""Use cases against a real database: sessions, rounds, recomputation, money."""

import pytest
import sqlalchemy as sa
from sqlalchemy import event

from scorekeeper import limits, queries, services
from scorekeeper.extensions import db
from scorekeeper.models import (
    AuditEvent,
    GameSession,
    Payment,
    Player,
    Round,
    RoundEntry,
    Seat,
)
from scorekeeper.rules import Entry, HouseRules, RoundError
from tests.conftest import the_group
from tests.web.examples import EXAMPLE_1, EXAMPLE_2, EXAMPLE_3, EXAMPLE_RULES, set_paid
from tests.web.probing import finished_count_problems, seat_total_problems


def names(players):
    return [p.name for p in players]


def recorded(table, entries, **options) -> Round:
    """record_round, and the round it saved."""
    number = services.record_round(services.Change.to(table), entries, **options)
    return queries.load_round(table, number)


def net_by_name(round_):
    return {e.player.name: e.net_cents for e in round_.entries}


def test_start_session_seats_players_clockwise(table):
    assert names(services.active_players(table)) == list("ABCD")
    assert table.rules == EXAMPLE_RULES
    assert table.currency == "RM"
    coming = queries.upcoming(table)
    assert (coming.number, coming.dealer.name, names(coming.order)) == (1, "D", list("ABCD"))


def test_known_players_are_reused_whatever_the_case(table):
    again = services.start_session(services.Change(the_group()),
                                   ["a", " b ", "Eve"], HouseRules.penang(),
                                   first_dealer="eve")
    assert names(services.active_players(again)) == ["A", "B", "Eve"]
    assert db.session.query(Player).count() == 5


def test_known_players_are_reused_whatever_the_case_beyond_ascii(table):
    """SQLite's lower() folds only A to Z: the names are matched in Python."""
    services.start_session(services.Change(the_group()), ["Élise", "Ömer"], HouseRules.penang(),
                           first_dealer="Élise")
    again = services.start_session(services.Change(the_group()),
                                   ["élise", "ÖMER", "Zoë"], HouseRules.penang(),
                                   first_dealer="zoë")
    assert names(services.active_players(again)) == ["Élise", "Ömer", "Zoë"]
    assert db.session.query(Player).count() == 7


def test_random_first_dealer_is_one_of_the_players(ctx):
    session = services.start_session(services.Change(the_group()),
                                     ["X", "Y", "Z"], HouseRules.penang())
    assert session.first_dealer.name in {"X", "Y", "Z"}


@pytest.mark.parametrize("players, message", [
    (["A"], "2 to 6 players"),
    (list("ABCDEFG"), "2 to 6 players"),
    (["Ann", "ann"], "different name"),
    (["Ann", "x" * 31], "1 to 30 characters"),
])
def test_start_session_refuses_bad_tables(ctx, players, message):
    with pytest.raises(services.ServiceError, match=message):
        services.start_session(services.Change(the_group()), players, HouseRules.penang())
    db.session.rollback()
    assert db.session.query(GameSession).count() == 0


def test_start_session_refuses_a_deck_too_small(ctx):
    with pytest.raises(services.ServiceError, match="need 120 cards"):
        services.start_session(services.Change(the_group()), list("ABCDEF"), HouseRules.rummi())


def test_worked_examples_recorded_in_a_row(table):
    first = recorded(table, EXAMPLE_1)
    assert net_by_name(first) == {"A": -100, "B": -800, "C": 900, "D": 0}
    assert first.dealer.name == "D"
    assert queries.upcoming(table).dealer.name == "C"
    services.record_round(services.Change.to(table), EXAMPLE_2)
    third = recorded(table, EXAMPLE_3)
    assert net_by_name(third) == {"A": -400, "B": 1000, "C": -400, "D": -200}
    balances = {db.session.get(Player, pid).name: cents
                for pid, cents in services.balances(table).items()}
    assert balances == {"A": -650, "B": 50, "C": 1100, "D": -500}
    assert sum(balances.values()) == 0


def test_stored_entries_keep_canonical_cards_and_parts(table):
    round_ = recorded(table, {**EXAMPLE_1, "A": Entry("dead", "jk, 7♥")})
    a = next(e for e in round_.entries if e.player.name == "A")
    assert (a.cards, a.points, a.position) == ("JK 7H", 27, 3)
    assert (a.tier_cents, a.hu_cents, a.joker_ace_cents, a.net_cents) == (-200, 0, 100, -100)
    assert [e.player.name for e in round_.entries] == list("ABCD")  # by turn


def test_a_bad_round_writes_nothing(table):
    with pytest.raises(RoundError) as caught:
        services.record_round(services.Change.to(table),
                              {**EXAMPLE_1, "B": Entry("dead", "AC AC AC 2S")})
    assert caught.value.problems[0].code == "too_many_copies"
    db.session.rollback()
    assert db.session.query(Round).count() == 0
    assert db.session.query(RoundEntry).count() == 0


def test_warnings_need_the_matching_confirmation(table):
    entries = {**EXAMPLE_1, "C": Entry("dead", "")}
    with pytest.raises(services.NeedsConfirmation) as caught:
        services.record_round(services.Change.to(table), entries)
    assert [w.code for w in caught.value.warnings] == ["dead_without_cards"]
    with pytest.raises(services.NeedsConfirmation):
        services.record_round(services.Change.to(table), entries, confirmed="something else")
    assert services.record_round(services.Change.to(table),
                                 entries, confirmed=caught.value.digest) == 1


def test_editing_a_round_recomputes_later_dealers_and_money(table):
    services.record_round(services.Change.to(table),
                          EXAMPLE_1)          # C wins, so C deals round 2
    second = recorded(table, EXAMPLE_2)
    assert second.dealer.name == "C"
    assert names(e.player for e in second.entries) == list("DABC")
    first = table.rounds[0]
    # Now D wins round 1 instead, so D deals round 2 and play starts with A.
    services.edit_round(services.Change.to(first.session),
                        first, {**EXAMPLE_1, "D": Entry("dead", "2H")})
    db.session.expire_all()
    first, second = table.rounds
    assert first.entries[3].player.name == "D" and first.entries[3].position == 1
    assert second.dealer.name == "D"
    assert names(e.player for e in second.entries) == list("ABCD")
    assert sum(e.net_cents for e in first.entries) == 0
    assert queries.upcoming(table).dealer.name == "C"


def test_deleting_a_round_renumbers_and_rescores(table):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    services.record_round(services.Change.to(table), EXAMPLE_3)
    services.record_round(services.Change.to(table), EXAMPLE_2)
    services.delete_round(services.Change.to(table), table.rounds[0])
    db.session.expire_all()
    assert [r.number for r in table.rounds] == [1, 2]
    assert table.rounds[0].dealer.name == "C"  # kept: nothing before it changed
    assert table.rounds[1].dealer.name == "B"  # B won the Hu round
    assert db.session.query(RoundEntry).count() == 8


def test_players_join_and_leave_between_rounds(table):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    services.join_session(services.Change.to(table), "Eve", 2)  # between B and C
    assert names(services.active_players(table)) == ["A", "B", "Eve", "C", "D"]
    services.leave_session(services.Change.to(table), db.session.scalar(
        db.select(Player.id).where(Player.name == "C")))
    # C would deal (C won), but has left: the deal passes on in the direction.
    coming = queries.upcoming(table)
    assert coming.dealer.name == "D"
    assert names(coming.order) == ["A", "B", "Eve", "D"]
    with pytest.raises(services.ServiceError, match="already at the table"):
        services.join_session(services.Change.to(table), "eve", 0)


def test_the_last_two_players_cannot_leave(ctx):
    session = services.start_session(services.Change(the_group()),
                                     ["X", "Y"], HouseRules.penang(), first_dealer="X")
    with pytest.raises(services.ServiceError, match="at least 2"):
        services.leave_session(services.Change.to(session), session.seats[0].player_id)


def test_settlement_marks_transfers_paid_and_ends(table):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    plan = services.settlement(table)
    assert [(s.transfer.payer.name, s.transfer.payee.name, s.transfer.cents, s.paid)
            for s in plan] == [("A", "C", 100, False), ("B", "C", 800, False)]
    a_to_c = plan[0].transfer
    set_paid(services.Change.to(table), a_to_c.payer.id, a_to_c.payee.id, 100, True)
    assert [s.paid for s in services.settlement(table)] == [True, False]
    set_paid(services.Change.to(table), a_to_c.payer.id, a_to_c.payee.id, 100, False)
    assert [s.paid for s in services.settlement(table)] == [False, False]
    with pytest.raises(services.ServiceError, match=r"Only RM 1\.00 is still owed"):
        set_paid(services.Change.to(table), a_to_c.payer.id, a_to_c.payee.id, 101, True)
    with pytest.raises(services.ServiceError, match="not part of the settlement"):
        set_paid(services.Change.to(table), a_to_c.payee.id, a_to_c.payer.id, 100, True)
    services.end_session(services.Change.to(table))
    assert table.is_finished
    with pytest.raises(services.ServiceError, match="has ended"):
        services.record_round(services.Change.to(table), EXAMPLE_2)


def test_an_ended_session_refuses_edits_and_deletes(table):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    services.end_session(services.Change.to(table))
    with pytest.raises(services.ServiceError, match="has ended"):
        services.edit_round(services.Change.to(table), table.rounds[0], EXAMPLE_2)
    with pytest.raises(services.ServiceError, match="has ended"):
        services.delete_round(services.Change.to(table), table.rounds[0])


def test_a_round_number_taken_meanwhile_is_refused_cleanly(table, app):
    """A round that another writer adds after this phone has read the session,
    just before its first write, breaks the unique round number: a clean refusal."""
    dealer_id = queries.upcoming(table).dealer.id
    taken = []

    def another_writer(connection, cursor, statement, *args):
        if taken or not statement.startswith("UPDATE game_session"):
            return
        taken.append(True)
        with app.app_context():  # a database session of its own
            db.session.add(Round(session_id=table.id, number=1, dealer_id=dealer_id))
            db.session.commit()

    event.listen(db.engine, "before_cursor_execute", another_writer)
    try:
        with pytest.raises(services.ServiceError, match="another phone"):
            services.record_round(services.Change.to(table), EXAMPLE_1)
    finally:
        event.remove(db.engine, "before_cursor_execute", another_writer)
    assert taken and db.session.query(RoundEntry).count() == 0


def seat_totals(session) -> dict[str, tuple[int, int, int]]:
    return {seat.player.name: (seat.rounds_played, seat.points, seat.net_cents)
            for seat in session.seats}


def test_seat_totals_follow_every_change_to_the_rounds(table):
    """The totals that history and player pages read are kept by each service
    that changes a round (checked against the entries by seat_total_problems)."""
    services.record_round(services.Change.to(table), EXAMPLE_1)
    assert seat_totals(table) == {"A": (1, 27, -100), "B": (1, 32, -800),
                                  "C": (1, 7, 900), "D": (1, 24, 0)}  # docs/RULES.md §12
    services.leave_session(services.Change.to(table), table.seats[3].player_id)
    services.record_round(services.Change.to(table), {"A": Entry("dead", "5S"), "B": Entry("hu"),
                                                      "C": Entry("dead", "2D")})
    services.join_session(services.Change.to(table), "D", 3)
    services.join_session(services.Change.to(table), "Eve", 4)
    services.record_round(services.Change.to(table), {**EXAMPLE_3, "Eve": Entry("dead", "9C")})
    assert seat_totals(table)["D"][0] == 2 and seat_totals(table)["Eve"][0] == 1
    assert seat_total_problems() == []
    services.edit_round(services.Change.to(table), table.rounds[0], EXAMPLE_2)
    assert seat_total_problems() == []
    services.delete_round(services.Change.to(table), table.rounds[1])
    assert seat_total_problems() == []
    deletion = db.session.scalars(sa.select(AuditEvent).where(
        AuditEvent.action == "round.delete")).one()
    services.restore_round(services.Change.to(table), deletion)
    assert seat_total_problems() == []
    services.change_house_rules(services.Change.to(table), HouseRules.rummi(), "SGD")
    assert seat_total_problems() == []
    assert sum(net for _, _, net in seat_totals(table).values()) == 0


def test_the_group_counts_its_finished_sessions_as_they_end_and_reopen(table):
    group = the_group()
    other = services.start_session(services.Change(group),
                                   list("ABC"), EXAMPLE_RULES, first_dealer="A")
    assert group.finished_sessions == 0
    services.end_session(services.Change.to(table))
    services.end_session(services.Change.to(other))
    assert group.finished_sessions == 2
    services.reopen_session(services.Change.to(table))
    assert group.finished_sessions == 1
    assert finished_count_problems() == []


def test_a_reopened_session_takes_corrections(table):
    services.record_round(services.Change.to(table), EXAMPLE_1)
    services.end_session(services.Change.to(table))
    services.reopen_session(services.Change.to(table))
    services.edit_round(services.Change.to(table), table.rounds[0], EXAMPLE_2)
    assert net_by_name(table.rounds[0]) == {"A": -150, "B": -150, "C": 600, "D": -300}
    with pytest.raises(services.ServiceError, match="still open"):
        services.reopen_session(services.Change.to(table))


# Versions and the audit trail


def events(session=None):
    query = sa.select(AuditEvent).order_by(AuditEvent.id)
    if session is not None:
        query = query.where(AuditEvent.session_id == session.id)
    return list(db.session.scalars(query))


def player_named(name):
    return db.session.scalar(sa.select(Player).where(Player.name == name))


def deletion_of(session):
    return next(e for e in reversed(events(session)) if e.action == "round.delete")


def a_to_c(session):
    return next(s.transfer for s in services.settlement(session) if s.transfer.payer.name == "A")


# Each write: (what it needs done first, the call, its action, whether it keeps a before, an after)
WRITES = {
    "record": (lambda s: None,
               lambda s, change: services.record_round(change, EXAMPLE_2),
               "round.add", False, True),
    "edit": (lambda s: None,
             lambda s, change: services.edit_round(change, s.rounds[0], EXAMPLE_2),
             "round.edit", True, True),
    "delete": (lambda s: None,
               lambda s, change: services.delete_round(change, s.rounds[0]),
               "round.delete", True, False),
    "restore": (lambda s: services.delete_round(services.Change.to(s), s.rounds[0]),
                lambda s, change: services.restore_round(change, deletion_of(s)),
                "round.restore", False, True),
    "join": (lambda s: None,
             lambda s, change: services.join_session(change, "Eve", 1),
             "seat.join", False, True),
    "leave": (lambda s: None,
              lambda s, change: services.leave_session(change, player_named("B").id),
              "seat.leave", True, False),
    "paid": (lambda s: None,
             lambda s, change: set_paid(change, a_to_c(s).payer.id,
                                                 a_to_c(s).payee.id, a_to_c(s).cents, True),
             "payment.paid", False, True),
    "unpaid": (lambda s: set_paid(services.Change.to(s),
                                           a_to_c(s).payer.id, a_to_c(s).payee.id,
                                           a_to_c(s).cents, True),
               lambda s, change: set_paid(change, a_to_c(s).payer.id,
                                                   a_to_c(s).payee.id, a_to_c(s).cents, False),
               "payment.unpaid", True, False),
    "end": (lambda s: None,
            lambda s, change: services.end_session(change),
            "session.end", False, False),
    "reopen": (lambda s: services.end_session(services.Change.to(s)),
               lambda s, change: services.reopen_session(change),
               "session.reopen", False, False),
}


def row_counts():
    return {model.__name__: db.session.scalar(sa.select(sa.func.count()).select_from(model))
            for model in (Round, RoundEntry, Player, Seat, Payment, AuditEvent)}


@pytest.mark.parametrize("write", WRITES)
def test_every_write_is_audited_once_with_the_phone_and_the_new_version(table, write):
    prepare, call, action, has_before, has_after = WRITES[write]
    services.record_round(services.Change.to(table), EXAMPLE_1)
    prepare(table)
    version, seen = table.version, len(events(table))
    call(table, services.Change.to(table, device="Mei's phone", seen=version))
    db.session.expire_all()
    assert table.version == version + 1
    new = events(table)[seen:]
    assert [(e.action, e.device, e.version) for e in new] == [(action, "Mei's phone", version + 1)]
    assert (new[0].before is not None, new[0].after is not None) == (has_before, has_after)


def test_round_events_keep_the_round_by_player_name(table):
    services.record_round(services.Change.to(table, device="Mei"), EXAMPLE_1)
    services.edit_round(services.Change.to(table, device="Raj"),
                        table.rounds[0], {**EXAMPLE_1, "D": Entry("dead", "2H")})
    services.delete_round(services.Change.to(table, device=""), table.rounds[0])
    added, edited, deleted = [e for e in events(table) if e.action.startswith("round.")]
    assert added.after["number"] == 1 and added.after["dealer"] == "D"
    assert {e["player"]: e["net_cents"] for e in added.after["entries"]} == \
        {"A": -100, "B": -800, "C": 900, "D": 0}
    assert {e["player"]: e["cards"] for e in edited.before["entries"]}["D"] == "AS 9H"
    assert {e["player"]: e["cards"] for e in edited.after["entries"]}["D"] == "2H"
    assert deleted.before == edited.after
    assert [e.device for e in (added, edited, deleted)] == ["Mei", "Raj", ""]


def test_starting_a_session_is_audited_with_its_players_and_rules(our_group):
    session = services.start_session(services.Change(our_group, device="Mei"),
                                     ["Ann", "Bob"], EXAMPLE_RULES,
                                     first_dealer="Bob")
    (start,) = events(session)
    assert (start.action, start.device, start.version, session.version) == \
        ("session.start", "Mei", 1, 1)
    assert start.after["players"] == ["Ann", "Bob"] and start.after["first_dealer"] == "Bob"
    assert start.after["house_rules"]["jokers"] == EXAMPLE_RULES.jokers
    added = [e for e in events() if e.action == "player.add"]
    assert [(e.subject, e.device, e.session_id) for e in added] == \
        [("Ann", "Mei", None), ("Bob", "Mei", None)]


def test_the_version_rises_by_one_per_change(table):
    versions = [table.version]
    services.record_round(services.Change.to(table), EXAMPLE_1)
    versions.append(table.version)
    services.record_round(services.Change.to(table, seen=table.version), EXAMPLE_2)
    versions.append(table.version)
    services.join_session(services.Change.to(table), "Eve", 0)
    versions.append(table.version)
    services.delete_round(services.Change.to(table, seen=table.version), table.rounds[1])
    versions.append(table.version)
    assert versions == [1, 2, 3, 4, 5]
    assert [e.version for e in events(table)] == [1, 2, 3, 4, 5]


@pytest.mark.parametrize("write", WRITES)
def test_a_stale_version_raises_conflict_and_writes_nothing(table, write):
    prepare, call, *_ = WRITES[write]
    services.record_round(services.Change.to(table), EXAMPLE_1)
    prepare(table)
    stale = table.version - 1
    before = row_counts(), table.version, table.ended_at
    with pytest.raises(services.Conflict) as caught:
        call(table, services.Change.to(table, device="Mei", seen=stale))
    assert caught.value.since == stale
    db.session.rollback()
    db.session.expire_all()
    assert (row_counts(), table.version, table.ended_at) == before


def test_restoring_puts_the_round_back_and_scores_the_rest_again(table):
    for example in (EXAMPLE_1, EXAMPLE_3, EXAMPLE_2):
        services.record_round(services.Change.to(table), example)

    def state():
        db.session.expire_all()
        return [(r.number, r.dealer.name, net_by_name(r)) for r in table.rounds]

    before = state()
    services.delete_round(services.Change.to(table), table.rounds[0])
    assert state() != before
    deletion = deletion_of(table)
    restored = services.restore_round(services.Change.to(table, device="Mei"), deletion)
    assert restored.number == 1
    assert state() == before
    assert services.restored_deletions(table) == {deletion.id}
    with pytest.raises(services.ServiceError, match="restored already"):
        services.restore_round(services.Change.to(table), deletion)


@pytest.mark.parametrize("money", [
    {"scheme": "per_point", "point_cents": limits.RULE_MONEY_MAX},
    {"scheme": "tiered", "tiers": (0, 100), "unit_cents": limits.RULE_MONEY_MAX},
])
def test_money_past_32_bits_is_kept_to_the_cent(our_group, money):
    """100,000.00 a point, or 100 units of 100,000.00 a place: a round's and a
    seat's money pass 2**31 cents, on PostgreSQL as on SQLite."""
    import dataclasses

    rules = dataclasses.replace(EXAMPLE_RULES, **money)
    game = services.start_session(services.Change(our_group),
                                  ["Ann", "Bob"], rules, first_dealer="Bob")
    for low in ("2C", "3C", "4C"):  # three games: the same twice would ask first
        services.record_round(services.Change.to(game),
                              {"Ann": Entry("dead", low),
                               "Bob": Entry("dead", "KS QH JD 10C 9S 8H 7D 6C 5S 4H")})
    db.session.expire_all()
    nets = db.session.execute(sa.select(RoundEntry.net_cents)).scalars().all()
    assert max(abs(n) for n in nets) * 3 > 2**31
    assert sum(nets) == 0
    seats = {s.player.name: s.net_cents for s in db.session.get(GameSession, game.id).seats}
    assert seats["Ann"] == -seats["Bob"] == sum(n for n in nets if n > 0)
    assert seats["Ann"] > 2**31
    assert sum(t.transfer.cents for t in services.settlement(game)) == seats["Ann"]


def stored_rules(session_id: int) -> dict:
    """A session's house_rules column as the database holds it: plain JSON."""
    column = sa.type_coerce(GameSession.__table__.c.house_rules, sa.JSON)
    return db.session.scalar(sa.select(column).where(GameSession.id == session_id))


def test_house_rules_are_stored_as_ever_and_built_once_per_row(table):
    """The column holds HouseRules.to_json (the JSON rows and backups have
    always had); a loaded session's rules are built as the row loads."""
    assert stored_rules(table.id) == EXAMPLE_RULES.to_json()
    db.session.expire_all()
    loaded = db.session.get(GameSession, table.id)
    assert isinstance(loaded.rules, HouseRules) and loaded.rules is loaded.rules
    assert loaded.rules == EXAMPLE_RULES

    services.change_house_rules(services.Change.to(loaded), HouseRules.rummi(), "SGD")
    assert stored_rules(table.id) == HouseRules.rummi().to_json()
    db.session.expire_all()
    assert db.session.get(GameSession, table.id).rules == HouseRules.rummi()


def test_rows_from_before_a_rule_read_with_its_default(table):
    old = {k: v for k, v in EXAMPLE_RULES.to_json().items() if not k.startswith("hand_size")}
    db.session.execute(sa.update(GameSession.__table__).where(GameSession.id == table.id)
                       .values(house_rules=sa.type_coerce(old, sa.JSON)))
    db.session.commit()
    db.session.expire_all()
    rules = db.session.get(GameSession, table.id).rules
    assert (rules.hand_size, rules.hand_size_three) == (20, 25)
    assert rules.jokers == EXAMPLE_RULES.jokers


@pytest.mark.parametrize("changes", [
    {"packs": 5}, {"tiers": (0,) * (limits.MAX_TIERS + 1)},
    {"unit_cents": limits.RULE_MONEY_MAX + 1}, {"extra_pack_players": 7},
])
def test_rules_past_the_limits_are_refused_and_nothing_written(table, changes):
    import dataclasses

    rules = dataclasses.replace(EXAMPLE_RULES, **changes)
    sessions = db.session.query(GameSession).count()
    with pytest.raises(services.RulesRefused) as refused:
        services.start_session(services.Change(the_group()),
                               ["Ann", "Bob"], rules, first_dealer="Ann")
    assert [p.code for p in refused.value.problems] in (
        ["rule_out_of_range"], ["tier_count_out_of_range"])
    assert db.session.query(GameSession).count() == sessions
    version = table.version
    with pytest.raises(services.RulesRefused):
        services.change_house_rules(services.Change.to(table, seen=version), rules, "RM")
    db.session.expire_all()
    assert table.rules == EXAMPLE_RULES and table.version == version
