"""`flask seed-demo`: random play that the app would have saved itself."""

import random
import re
from collections import Counter
from datetime import datetime

import pytest
import sqlalchemy as sa

from scorekeeper import demo, services
from scorekeeper.extensions import db
from scorekeeper.models import AuditEvent, GameSession, Group, Player, Round
from scorekeeper.rules import (
    Entry,
    HouseRules,
    best_melds,
    next_dealer,
    parse_cards,
    playing_order,
    score_round,
    settle,
)
from tests.web.helpers import csrf_token, visible_text
from tests.web.probing import finished_count_problems, seat_total_problems

ARGS = ["seed-demo", "--groups", "2", "--sessions", "3", "--rounds", "5", "--seed", "7"]


def seed(runner, args=ARGS) -> str:
    result = runner.invoke(args=args)
    assert result.exit_code == 0, result.output
    return result.output


def demo_groups() -> list[Group]:
    return list(db.session.scalars(sa.select(Group).order_by(Group.id)))


def sessions_of(group: Group) -> list[GameSession]:
    return list(db.session.scalars(sa.select(GameSession).where(GameSession.group_id == group.id)
                                   .order_by(GameSession.started_at)))


def start_event(session: GameSession) -> AuditEvent:
    return db.session.scalar(sa.select(AuditEvent).where(
        AuditEvent.session_id == session.id, AuditEvent.action == "session.start"))


def rescore(round_: Round, rules: HouseRules):
    """The round scored again from what is stored: its playing order and hands."""
    entries = sorted(round_.entries, key=lambda e: e.turn)
    return score_round([e.player.name for e in entries],
                       {e.player.name: Entry(e.outcome, e.cards) for e in entries}, rules)


def round_seats(round_: Round) -> list[str]:
    return [e.player.name for e in sorted(round_.entries, key=lambda e: e.seat)]


def test_counts_and_output(app, runner):
    output = seed(runner)
    with app.app_context():
        groups = demo_groups()
        assert [g.name for g in groups] == ["Demo table 1", "Demo table 2"]
        for group in groups:
            sessions = sessions_of(group)
            assert len(sessions) == 3
            assert [s.is_finished for s in sessions] == [True, True, False]
            rounds = [len(s.rounds) for s in sessions]
            assert all(4 <= n <= 6 for n in rounds[:-1]) and 1 <= rounds[-1] <= 5
            players = db.session.scalar(
                sa.select(sa.func.count(Player.id)).where(Player.group_id == group.id))
            assert f"{group.name} (id {group.id}): {players} players, 3 sessions, " \
                   f"{sum(rounds)} rounds" in output
            assert not sessions[-1].payments
    assert "with --seed 7." in output
    assert output.endswith("Passphrase of every demo table: demo passphrase\n")


def test_every_round_is_valid_and_scored_by_the_engine(app, runner):
    seed(runner)
    with app.app_context():
        for group in demo_groups():
            for session in sessions_of(group):
                rules = session.rules
                start = start_event(session).after
                seated = [seat.player.name for seat in session.seats]
                assert round_seats(session.rounds[0]) == start["players"]
                assert session.first_dealer.name == start["first_dealer"]
                previous = None
                for round_ in session.rounds:
                    seats = round_seats(round_)
                    assert 3 <= len(seats) <= 6 and set(seats) <= set(seated)
                    assert [e.seat for e in sorted(round_.entries, key=lambda e: e.seat)] == \
                        list(range(len(seats)))
                    score = rescore(round_, rules)
                    assert not score.warnings
                    if previous is None:
                        assert round_.dealer == session.first_dealer
                    else:
                        assert round_.dealer.name == next_dealer(
                            seats, previous.dealer.name, rescore(previous, rules), rules)
                    assert list(score.order) == playing_order(seats, round_.dealer.name, rules)
                    for entry in round_.entries:
                        name = entry.player.name
                        parts = score.breakdown[name]
                        assert (entry.points, entry.position, entry.tier_cents, entry.hu_cents,
                                entry.joker_ace_cents, entry.net_cents) == \
                            (score.points[name], score.position[name], parts.tier, parts.hu,
                             parts.joker_ace, parts.total)
                        dealt = rules.cards_dealt(len(seats))
                        held = len(parse_cards(entry.cards))
                        assert {"dead": held < dealt, "hu": held == 0,
                                "tien_hu": held == dealt}[entry.outcome]
                    assert sum(e.net_cents for e in round_.entries) == 0
                    previous = round_
                # Whoever sits now played the last round.
                assert round_seats(session.rounds[-1]) == \
                    [seat.player.name for seat in session.seats if seat.active]
        assert seat_total_problems() == []
        assert finished_count_problems() == []


def test_versions_and_payments_are_as_services_leave_them(app, runner):
    seed(runner)
    with app.app_context():
        for group in demo_groups():
            for session in sessions_of(group):
                started_with = start_event(session).after["players"]
                seat_changes = len(session.seats) - len(started_with) + sum(
                    not seat.active for seat in session.seats)
                assert session.version == 1 + seat_changes + len(session.rounds) + \
                    len(session.payments) + session.is_finished
                plan = services.settlement(session)
                # Each payment marked for one of its transfers, at most all of it.
                assert sum(len(s.owed.payments) for s in plan) == len(session.payments)
                assert all(sum(p.cents for p in s.owed.payments) <= s.owed.cents for s in plan)


def snapshot(group: Group) -> list:
    """The group's play with ids left out and times counted from the group's creation."""
    def since(moment):
        return moment and moment - group.created_at

    names = dict(db.session.execute(sa.select(Player.id, Player.name)).all())
    return [(since(s.started_at), since(s.ended_at), s.version, s.rules, s.currency,
             s.first_dealer.name,
             [(seat.player.name, seat.position, seat.active) for seat in s.seats],
             [(r.number, r.dealer.name, since(r.created_at),
               [(e.player.name, e.seat, e.turn, e.outcome, e.cards, e.net_cents)
                for e in r.entries]) for r in s.rounds],
             sorted((names[p.payer_id], names[p.payee_id], p.cents, since(p.paid_at))
                    for p in s.payments))
            for s in sessions_of(group)]


def test_the_same_seed_gives_the_same_play(app, runner):
    seed(runner)
    seed(runner)
    with app.app_context():
        one, two, three, four = demo_groups()
        assert [g.name for g in (three, four)] == ["Demo table 3", "Demo table 4"]
        assert snapshot(one) == snapshot(three)
        assert snapshot(two) == snapshot(four)
        assert snapshot(one) != snapshot(two)


def test_the_printed_passphrase_signs_in(app, runner, anonymous):
    output = seed(runner, [*ARGS, "--passphrase", "lucky seven jokers"])
    passphrase = re.search(r"Passphrase of every demo table: (.+)", output)[1]
    token = csrf_token(anonymous)
    response = anonymous.post("/sign-in", data={
        "csrf_token": token, "name": "Demo table 2", "passphrase": passphrase,
        "device": "Phone"})
    assert response.status_code == 302
    assert "Demo table 2" in anonymous.get("/").text


def test_the_demos_changes_say_where_they_came_from_in_the_readers_language(app, runner,
                                                                             anonymous):
    """The demo's changes keep a label of no language; each phone reads it in its own."""
    seed(runner)
    with app.app_context():
        session = sessions_of(demo_groups()[0])[0]
        assert start_event(session).device == services.DEMO_DEVICE
        sid = session.id
    anonymous.post("/sign-in", data={"csrf_token": csrf_token(anonymous), "name": "Demo table 1",
                                     "passphrase": demo.DEMO_PASSPHRASE, "device": "Phone"})
    seen = {}
    for tag in ("en", "ms", "zh-Hans"):
        anonymous.set_cookie("language", tag)
        seen[tag] = visible_text(anonymous.get(f"/sessions/{sid}/changes"))
    assert "from the demo" in seen["en"]
    assert "dari demo" in seen["ms"] and "来自 演示数据" in seen["zh-Hans"]
    assert not any(services.DEMO_DEVICE in page for page in seen.values())


def test_some_demo_players_have_payment_details_and_settle_up_shows_codes(app, runner,
                                                                          anonymous):
    seed(runner)
    with app.app_context():
        group = demo_groups()[0]
        players = list(db.session.scalars(sa.select(Player).where(Player.group_id == group.id)))
        with_details = [p for p in players if p.payto_kind]
        assert len(with_details) == (len(players) + 1) // 2
        assert {p.payto_kind for p in with_details} == {"duitnow_mobile", "bank_qr"}
        for p in with_details:  # each as the form would take it
            assert services.clean_payto(p.payto_kind, p.payto_value) == (p.payto_kind,
                                                                         p.payto_value)
        assert db.session.query(AuditEvent).filter_by(
            group_id=group.id, action="player.payto").count() == len(with_details)
        session = sessions_of(group)[-1]
        plan = services.settlement(session)
        to_them = [s for s in plan if s.transfer.payee.payto_kind and not s.paid]
        sid = session.id
    anonymous.post("/sign-in", data={"csrf_token": csrf_token(anonymous), "name": "Demo table 1",
                                     "passphrase": demo.DEMO_PASSPHRASE, "device": "Phone"})
    html = anonymous.get(f"/sessions/{sid}/settle").text
    assert to_them and html.count('class="payto-full"') == len(to_them)


def test_a_short_passphrase_is_refused(app, runner):
    result = runner.invoke(args=[*ARGS, "--passphrase", "short"])
    assert result.exit_code != 0
    assert "at least 8 characters" in result.output
    with app.app_context():
        assert demo_groups() == []


# The generator without a database


@pytest.fixture(scope="module")
def plenty():
    """Sessions enough to see everything the demo plays now and then."""
    plan = demo.play_group(random.Random(3), 150, 12, datetime(2026, 11, 1))
    return list(plan.sessions)


def test_play_has_variety(plenty):
    outcomes = Counter(e.outcome for s in plenty for r in s.rounds for e in r.entries)
    assert outcomes["tien_hu"] >= 1 and outcomes["hu"] > len(plenty)
    assert {s.house_rules for s in plenty} == {HouseRules.penang(), HouseRules.rummi()}
    assert any(not seat.active for s in plenty for seat in s.seats)
    assert any(len(s.seats) > len(s.first_table) for s in plenty)
    assert any(s.payments for s in plenty)
    # Some transfers are paid in part (what the settle-up page then shows).
    def transfers(session):
        balances: Counter[str] = Counter()
        for round_ in session.rounds:
            for e in round_.entries:
                balances[e.player] += e.net_cents
        return {(t.payer, t.payee): t.cents for t in settle(dict(balances))}

    assert any(0 < p.cents < transfers(s)[p.payer, p.payee] for s in plenty for p in s.payments)
    assert {len(s.first_table) for s in plenty} == {3, 4, 5, 6}


def test_a_tien_hu_hand_melds_completely():
    rng = random.Random(5)
    for rules, players in [(HouseRules.penang(), 3), (HouseRules.penang(), 6),
                           (HouseRules.rummi(), 4)]:
        deck = Counter(demo.full_deck(rules.packs_for(players), rules.jokers))
        for _ in range(3):
            hand = demo.melded_hand(rng, deck, rules.cards_dealt(players))
            assert len(hand) == rules.cards_dealt(players)
            assert not Counter(hand) - deck
            assert best_melds(hand, rules).points == 0
