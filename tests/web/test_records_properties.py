"""The records' figures over random histories, against sums worked out here
from the same rows: the leaderboard over random dates (on the group's
clock) and two random players head to head."""

import secrets
from collections import defaultdict
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from scorekeeper import queries
from scorekeeper.extensions import db
from scorekeeper.models import GameSession, Group, Payment, Player, Seat, wall_clock
from scorekeeper.rules import HouseRules, settle

NAMES = ["Ann", "Ben", "Cat", "Dan", "Eve", "Fay"]
ZONES = ["Asia/Kuala_Lumpur", "America/New_York", "Pacific/Chatham"]
EPOCH = datetime(2025, 1, 1)
TOTALS = ("rounds_played", "wins", "hu", "tien_hu", "counted_rounds", "counted_points")
ZERO = dict.fromkeys(TOTALS, 0)


@st.composite
def sessions(draw):
    """A session: when it started, its currency and, for two to five
    players, their money (summing to zero) and their counts."""
    names = draw(st.permutations(NAMES))[:draw(st.integers(2, 5))]
    cents = draw(st.lists(st.integers(-3000, 3000), min_size=len(names), max_size=len(names)))
    cents[-1] -= sum(cents)
    seats = {}
    for name, net in zip(names, cents, strict=True):
        rounds = draw(st.integers(0, 30))
        counted = draw(st.integers(0, rounds))
        seats[name] = {"net_cents": net, "rounds_played": rounds,
                       "wins": draw(st.integers(0, rounds)),
                       "hu": draw(st.integers(0, rounds)),
                       "tien_hu": draw(st.integers(0, 2)),
                       "counted_rounds": counted,
                       "counted_points": draw(st.integers(0, 40 * counted))}
    # Within 20 days: many on a day where the board's dates begin or end.
    start = EPOCH + timedelta(minutes=draw(st.integers(0, 20 * 24 * 60)))
    return start, draw(st.sampled_from(["RM", "RM", "SGD"])), seats


payments = st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(NAMES),
                              st.integers(1, 2000), st.sampled_from(["RM", "SGD"]),
                              st.booleans()), max_size=6)


def a_group(history, paid, zone: str) -> tuple[Group, dict[str, int], list[int]]:
    """A group of its own, its seats as the rounds would leave them."""
    group = Group(name=f"G {secrets.token_hex(6)}", name_key=secrets.token_hex(8),
                  passphrase_hash="-", timezone=zone)
    db.session.add(group)
    db.session.flush()
    players = {name: Player(group_id=group.id, name=name) for name in NAMES}
    db.session.add_all(players.values())
    db.session.flush()
    ids = []
    for start, currency, seats in history:
        session = GameSession(group_id=group.id, currency=currency, rules=HouseRules.rummi(),
                              started_at=start, first_dealer_id=players[next(iter(seats))].id)
        session.seats = [Seat(player_id=players[name].id, position=k, **totals)
                         for k, (name, totals) in enumerate(seats.items())]
        db.session.add(session)
        db.session.flush()
        ids.append(session.id)
    for payer, payee, cents, currency, for_session in paid:
        if payer != payee:
            db.session.add(Payment(group_id=group.id, payer_id=players[payer].id,
                                   payee_id=players[payee].id, cents=cents, currency=currency,
                                   session_id=ids[0] if for_session and ids else None))
    db.session.commit()
    return group, {name: p.id for name, p in players.items()}, ids


def local_day(moment: datetime, zone: str) -> date:
    return wall_clock(moment, zone).date()


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(sessions(), max_size=8), payments, st.sampled_from(ZONES),
       st.one_of(st.none(), st.integers(0, 20)), st.integers(0, 10),
       st.one_of(st.none(), st.sampled_from(["RM", "SGD", "EUR"])))
# 04:00 on 2 Jan in Penang is still 1 Jan in UTC: the session is the 2nd's.
@example([(datetime(2025, 1, 1, 20), "RM", {name: {**ZERO, "net_cents": cents} for name, cents
                                             in (("Ann", 150), ("Ben", -150))})],
         [], ZONES[0], 1, 0, None)
def test_the_leaderboard_is_each_players_sum_over_the_dates(
        ctx, history, paid, zone, first, length, currency):
    group, ids, _ = a_group(history, paid, zone)
    since = EPOCH.date() + timedelta(days=first) if first is not None else None
    until = since + timedelta(days=length) if since else None
    board = queries.leaderboard(
        group.id, queries.day_start(since, zone) if since else None,
        queries.day_start(until + timedelta(days=1), zone) if until else None, currency)

    # The sessions in the dates, by the day each started on the group's clock.
    shown = [(c, seats) for start, c, seats in history
             if since is None or since <= local_day(start, zone) <= until]  # type: ignore[operator]
    played: dict[str, int] = defaultdict(int)
    for c, seats in shown:
        played[c] += len(seats)
    expected_currency = currency if currency in played else (
        min(played, key=lambda c: (-played[c], c)) if played else None)
    assert board.currency == expected_currency
    assert set(board.currencies) == set(played)
    sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for c, seats in shown:
        if c == expected_currency:
            for name, totals in seats.items():
                sums[name]["sessions"] += 1
                for column, value in totals.items():
                    sums[name][column] += value
    names = {pid: name for name, pid in ids.items()}
    assert {names[line.player_id]: {"sessions": line.sessions, "net_cents": line.net_cents,
                                    **{column: getattr(line, column if column != "rounds_played"
                                                       else "rounds") for column in TOTALS}}
            for line in board.lines} == {name: dict(s) for name, s in sums.items()}
    for line in board.lines:
        per = Decimal(line.net_cents) / line.sessions
        assert line.per_session_cents == int(per.quantize(Decimal(1), ROUND_HALF_UP))
        assert abs(line.per_session_cents * line.sessions - line.net_cents) <= line.sessions
    # Each column sorts both ways, blanks last, ties by name.
    for column in queries.SORTS:
        for descending in (True, False):
            lines = queries.sorted_lines(board.lines, column, descending)
            assert sorted(lines, key=lambda x: x.player_id) == \
                sorted(board.lines, key=lambda x: x.player_id)
            key = queries.SORTS[column][0]
            values = [key(x) for x in lines if key(x) is not None]
            assert values == sorted(values, reverse=descending)
            assert all(key(x) is None for x in lines[len(values):])


@settings(max_examples=15, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(sessions(), max_size=8), payments, st.permutations(NAMES))
def test_head_to_head_is_the_sum_over_the_sessions_both_sat_at(ctx, history, paid, order):
    group, ids, session_ids = a_group(history, paid, ZONES[0])
    a, b = order[:2]
    record = queries.head_to_head(group.id, ids[a], ids[b])

    shared = [(sid, start, c, seats) for sid, (start, c, seats) in zip(session_ids, history,
                                                                       strict=True)
              if a in seats and b in seats]
    assert record.sessions == len(shared)
    a_net = [seats[a]["net_cents"] for *_, seats in shared]
    b_net = [seats[b]["net_cents"] for *_, seats in shared]
    assert record.a_ahead == sum(x > y for x, y in zip(a_net, b_net, strict=True))
    assert record.b_ahead == sum(x < y for x, y in zip(a_net, b_net, strict=True))
    assert record.level == sum(x == y for x, y in zip(a_net, b_net, strict=True))

    money: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    between = {}
    for sid, _, c, seats in shared:
        money[c]["sessions"] += 1
        money[c]["a_net"] += seats[a]["net_cents"]
        money[c]["b_net"] += seats[b]["net_cents"]
        for t in settle({name: s["net_cents"] for name, s in seats.items()}):
            if {t.payer, t.payee} == {a, b}:
                money[c]["a_to_b" if t.payer == a else "b_to_a"] += t.cents
                between[sid] = (ids[t.payer], t.cents)
    for payer, payee, cents, c, _ in paid:
        if {payer, payee} == {a, b} and c in money:
            money[c]["paid_a_to_b" if payer == a else "paid_b_to_a"] += cents
    assert {m.currency: {k: v for k, v in vars(m).items() if k != "currency" and v}
            for m in record.money} == \
        {c: {k: v for k, v in m.items() if v} for c, m in money.items()}
    assert record.transfers == between

    page = queries.shared_sessions(group.id, ids[a], ids[b], 1, record.sessions)
    newest = sorted(shared, key=lambda s: (s[1], s[0]), reverse=True)[:page.per_page]
    assert [(s.id, s.a_cents, s.b_cents) for s in page.items] == \
        [(sid, seats[a]["net_cents"], seats[b]["net_cents"]) for sid, _, _, seats in newest]
