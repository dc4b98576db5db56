"""The figures behind the charts (queries/charts.py) against the same sums
made another way, over random histories: the seats' totals, each session's
date and balance read one by one."""

import random
from collections import Counter, defaultdict
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa

from scorekeeper import demo, queries, services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Player, RoundEntry, Seat

NOW = datetime(2026, 11, 20, 12)


@pytest.fixture(params=[3, 17, 29])
def history(request, app):
    """A random group's history: about 30 sessions over months, a few players
    sitting out some of them, the last still in play."""
    with app.app_context():
        plan = demo.play_group(random.Random(request.param), 30, 8, NOW)
        group, _, _ = services.seed_demo_group("History", demo.DEMO_PASSPHRASE, plan)
        yield group


def seats_of(group) -> list[tuple[Seat, GameSession]]:
    return list(db.session.execute(
        sa.select(Seat, GameSession).join(GameSession, GameSession.id == Seat.session_id)
        .where(GameSession.group_id == group.id)))


def test_the_running_totals_end_on_the_seats_totals(history):
    sessions = db.session.scalars(sa.select(GameSession).where(
        GameSession.group_id == history.id)).all()
    for session in sessions:
        seats = sorted(session.seats, key=lambda seat: seat.position)
        ids = [seat.player_id for seat in seats]
        money = queries.running_totals(session.id, ids)
        points = queries.running_totals(session.id, ids, points=True)
        rounds = len(session.rounds)
        assert [len(values) for values in money + points] == [rounds] * (2 * len(ids))
        if rounds:
            assert [values[-1] for values in money] == [seat.net_cents for seat in seats]
            assert [values[-1] for values in points] == [seat.points for seat in seats]
            # After each round, the table's money sums to nothing.
            assert all(sum(at) == 0 for at in zip(*money, strict=True))


def test_months_best_and_worst_evening_from_each_session(history):
    by_player = defaultdict(list)
    for seat, session in seats_of(history):
        by_player[seat.player_id].append((session, seat.net_cents))
    assert len(by_player) >= 3
    zone = ZoneInfo(history.timezone)
    for player_id, played in by_player.items():
        player = db.session.get(Player, player_id)
        for currency in {session.currency for session, _ in played}:
            mine = [(s, cents) for s, cents in played if s.currency == currency]
            months = defaultdict(lambda: [0, 0])
            for session, cents in mine:
                local = session.started_at.replace(tzinfo=UTC).astimezone(zone)
                month = months[local.year, local.month]
                month[0] += cents
                month[1] += 1
            assert [(m.year, m.month, m.cents, m.sessions)
                    for m in queries.money_by_month(player, currency, history.timezone)] == [
                (*key, cents, count) for key, (cents, count) in sorted(months.items())]
            best, worst = queries.best_and_worst(player, currency)
            assert best.cents == max(cents for _, cents in mine)
            assert worst.cents == min(cents for _, cents in mine)
            assert {best.session_id, worst.session_id} <= {s.id for s, _ in mine}


def test_points_left_per_round_count_as_the_record_does(history):
    counted = defaultdict(lambda: [0, 0])
    for seat, _ in seats_of(history):
        counted[seat.player_id][0] += seat.counted_rounds
        counted[seat.player_id][1] += seat.counted_points
    for player_id, (rounds, points) in counted.items():
        spread = queries.points_spread(db.session.get(Player, player_id))
        assert sum(spread.values()) == rounds
        assert sum(p * n for p, n in spread.items()) == points


def test_the_spread_counts_a_players_latest_rounds_only(history):
    """Each of the player's last 25 entries, one by one: left out if another
    at its round went out with a Tien Hu."""
    player_id = seats_of(history)[0][0].player_id
    entries = db.session.scalars(sa.select(RoundEntry).where(RoundEntry.player_id == player_id)
                                 .order_by(RoundEntry.id.desc()).limit(25)).all()
    expected = Counter(e.points for e in entries if not any(
        other.outcome == "tien_hu" and other.player_id != player_id
        for other in e.round.entries))
    assert queries.points_spread(db.session.get(Player, player_id), last=25) == expected


def test_a_session_counts_in_the_month_it_started_on_the_groups_clock(history):
    """22:30 in Kuala Lumpur on 31 January is 14:30 UTC; 02:00 on 1 March is
    still 28 February in UTC."""
    history.timezone = "Asia/Kuala_Lumpur"
    seat, session = seats_of(history)[0]
    others = db.session.scalars(sa.select(GameSession).where(
        GameSession.group_id == history.id, GameSession.id != session.id)).all()
    for other in others:
        other.currency = "XXX"
    session.started_at = datetime(2026, 2, 28, 18)
    db.session.commit()
    player = db.session.get(Player, seat.player_id)
    [month] = queries.money_by_month(player, session.currency, history.timezone)
    assert (month.year, month.month, month.cents) == (2026, 3, seat.net_cents)
