"""Writing many rows at once: a group from a checked backup, and demo play
(flask seed-demo). Core executemany statements, no ORM object per row."""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import datetime
from itertools import islice

import sqlalchemy as sa

from ..audit import Action, GroupImported, PlayerAdded, RoundRestored, SessionStarted
from ..demo import DemoGroup, DemoSession
from ..extensions import db
from ..limits import DEVICE_MAX
from ..models import (
    AuditEvent,
    GameSession,
    Group,
    Payment,
    Player,
    Round,
    RoundEntry,
    Seat,
    table,
    utcnow,
)
from ..records import Backup
from .groups import _check_new_group, _hash, _unless_taken, create_group
from .sessions import _recount_finished
from .totals import _total_seats_in_bulk
from .versioning import event_columns


def import_group(name: str, passphrase: str, backup: Backup, *, device: str = "",
                 address: str | None = None) -> Group:
    """A new group holding everything in ``backup`` (a records.Backup:
    checked, and every round scored again, by backup.read_backup), written in one
    transaction: all of it or, on any error, nothing.

    The slow part, the passphrase's hash, comes before the transaction begins;
    then each table's rows go in a statement or two (Core executemany, as
    seed-demo writes), so that on SQLite the database's write lock is held for
    the INSERTs alone: 0.35 s for the largest real backup allowed, 0.8 s for
    one made to write the most rows (bench/README.md, "Import of the largest
    backup")."""
    name = _check_new_group(name, passphrase, address=address)
    passphrase_hash = _hash(passphrase)
    with _unless_taken(name):
        group = _write_backup(name, passphrase_hash, backup, device)
        db.session.commit()
    return group


def _write_backup(name: str, passphrase_hash: str, backup: Backup, device: str) -> Group:
    group = Group(name=name, passphrase_hash=passphrase_hash,
                  timezone=backup.timezone,
                  finished_sessions=sum(s.ended_at is not None for s in backup.sessions))
    db.session.add(group)
    db.session.flush()
    if backup.players:
        db.session.execute(sa.insert(table(Player)), [
            {"group_id": group.id, "name": p.name, "created_at": p.created_at}
            for p in backup.players])
    players = dict(db.session.execute(
        sa.select(Player.name, Player.id).where(Player.group_id == group.id)).all())
    session_ids = _write_sessions(group.id, players, backup.sessions, [
        {"version": s.version, "started_at": s.started_at, "ended_at": s.ended_at,
         "currency": s.currency, "house_rules": s.house_rules,
         "first_dealer_id": players[s.first_dealer]} for s in backup.sessions])
    events = [{"group_id": group.id,
               "session_id": None if e.session is None else session_ids[e.session],
               "at": e.at, "device": e.device, "action": e.action, "subject": e.subject,
               "before": e.before, "after": e.after, "version": e.version}
              for e in backup.events]
    events.append({"group_id": group.id, "session_id": None, "at": utcnow(),
                   "device": device[:DEVICE_MAX], "version": None, **event_columns(GroupImported(
                       backup.group_name, backup.exported_at.isoformat() + "Z",
                       len(backup.sessions), backup.rounds))})
    db.session.execute(sa.insert(table(AuditEvent)), events)
    restores = {i: RoundRestored.from_json(e.before, e.after)
                for i, e in enumerate(backup.events) if e.action == Action.ROUND_RESTORE}
    if restores:
        # The deletion each undid, from its index to its id. Rows inserted one
        # after another take rising ids, and nobody else writes to this group yet.
        event_ids = db.session.scalars(sa.select(AuditEvent.id).where(
            AuditEvent.group_id == group.id).order_by(AuditEvent.id)).all()
        db.session.execute(
            sa.update(table(AuditEvent))
            .where(table(AuditEvent).c.id == sa.bindparam("event"))
            .values(after=sa.bindparam("new_after")),
            [{"event": event_ids[i], "new_after": RoundRestored(
                restore.round, event_ids[restore.restores]).to_json().after}
             for i, restore in restores.items()])
    return group


DEMO_GROUP = "Demo table"
DEMO_DEVICE = "Demo"
DEMO_CURRENCY = "RM"
DEMO_CHUNK = 500  # sessions per transaction


def next_demo_group_name() -> str:
    """"Demo table N", N one more than any demo table so far."""
    numbers = [0]
    for name in db.session.scalars(sa.select(Group.name).where(
            Group.name_key.like(f"{DEMO_GROUP.casefold()} %"))):
        match = re.fullmatch(rf"{DEMO_GROUP} (\d+)", name)
        if match:
            numbers.append(int(match[1]))
    return f"{DEMO_GROUP} {max(numbers) + 1}"


def seed_demo_group(name: str, passphrase: str, plan: DemoGroup,
                    chunk: int = DEMO_CHUNK) -> tuple[Group, int, int]:
    """A new group holding ``plan``, its sessions ``chunk`` to a transaction
    (bulk INSERTs rather than a use case per round): the group, its number of
    sessions and of rounds."""
    group = create_group(name, passphrase)
    group.created_at = plan.since
    players = _write_demo_players(group, plan.players, plan.since)
    db.session.commit()
    sessions = iter(plan.sessions)
    written = rounds = 0
    while batch := list(islice(sessions, chunk)):
        rounds += _write_demo_batch(group.id, players, batch)
        written += len(batch)
        db.session.commit()
    _recount_finished(group.id)
    db.session.commit()
    return group, written, rounds


def _write_demo_players(group: Group, names: list[str], at: datetime) -> dict[str, int]:
    """The group's players, added; their ids by name."""
    ids = db.session.scalars(
        sa.insert(Player).returning(Player.id, sort_by_parameter_order=True),
        [{"group_id": group.id, "name": name, "created_at": at} for name in names]).all()
    db.session.execute(sa.insert(table(AuditEvent)), [
        {"group_id": group.id, "at": at, "device": DEMO_DEVICE,
         **event_columns(PlayerAdded(name))} for name in names])
    return dict(zip(names, ids, strict=True))


def _write_demo_batch(group_id: int, players: dict[str, int],
                      batch: list[DemoSession]) -> int:
    session_ids = _write_sessions(group_id, players, batch, [
        {"version": s.version, "started_at": s.started_at, "ended_at": s.ended_at,
         "currency": DEMO_CURRENCY, "house_rules": s.rules,
         "first_dealer_id": players[s.first_dealer]} for s in batch])
    db.session.execute(sa.insert(table(AuditEvent)), [
        {"group_id": group_id, "session_id": sid, "at": s.started_at, "device": DEMO_DEVICE,
         "version": 1, **event_columns(SessionStarted(
             tuple(s.table), s.first_dealer, DEMO_CURRENCY, s.rules.to_json()))}
        for sid, s in zip(session_ids, batch, strict=True)])
    return sum(len(s.rounds) for s in batch)


def _write_sessions(group_id: int, players: dict[str, int], sessions: Sequence,
                    columns: list[dict]) -> list[int]:
    """Sessions written in bulk, with their seats, rounds, entries, payments
    and seat totals; their ids, in order. ``sessions`` are DemoSession or
    records.SessionData (their seats, rounds and payments), ``columns`` each
    one's other values (version, times, currency, house_rules: a HouseRules,
    first_dealer_id);
    ``players`` the group's player ids by name. A few statements whatever the
    number of rows."""
    if not sessions:
        return []
    db.session.execute(sa.insert(table(GameSession)),
                       [{"group_id": group_id, **values} for values in columns])
    # Their ids, in the order written: rows inserted one after another take
    # rising ids (SQLite gives the largest + 1, under its write lock; a
    # PostgreSQL sequence rises within a connection), and they are the group's
    # newest. (RETURNING in order would take, on SQLite, one INSERT per row.)
    session_ids = list(db.session.scalars(
        sa.select(GameSession.id).where(GameSession.group_id == group_id)
        .order_by(GameSession.id.desc()).limit(len(columns))))[::-1]
    db.session.execute(sa.insert(table(Seat)), [
        {"session_id": sid, "player_id": players[seat.player], "position": seat.position,
         "active": seat.active}
        for sid, s in zip(session_ids, sessions, strict=True) for seat in s.seats])
    payments = [
        {"session_id": sid, "payer_id": players[p.payer], "payee_id": players[p.payee],
         "cents": p.cents, "paid_at": p.paid_at}
        for sid, s in zip(session_ids, sessions, strict=True) for p in s.payments]
    if payments:
        db.session.execute(sa.insert(table(Payment)), payments)
    rounds = [(sid, r) for sid, s in zip(session_ids, sessions, strict=True)
              for r in s.rounds]
    if rounds:
        db.session.execute(sa.insert(table(Round)), [
            {"session_id": sid, "number": r.number, "dealer_id": players[r.dealer],
             "created_at": r.created_at}
            for sid, r in rounds])
        # Found by (session, number) in one query: RETURNING in order would take,
        # on SQLite, one INSERT per round.
        round_ids = {(sid, number): rid for sid, number, rid in db.session.execute(
            sa.select(Round.session_id, Round.number, Round.id)
            .where(Round.session_id.in_(session_ids)))}
        db.session.execute(sa.insert(table(RoundEntry)), [
            {"round_id": round_ids[sid, r.number], "player_id": players[e.player],
             "seat": e.seat, "turn": e.turn, "outcome": e.outcome, "cards": e.cards,
             "points": e.points, "position": e.position, "tier_cents": e.tier_cents,
             "hu_cents": e.hu_cents, "joker_ace_cents": e.joker_ace_cents,
             "net_cents": e.net_cents}
            for sid, r in rounds for e in r.entries])
        _total_seats_in_bulk(Round.session_id.in_(session_ids))
    return session_ids


def analyze_tables() -> None:
    """Fresh statistics for the query planner, which would otherwise plan for
    the tables as they were before the bulk load; on PostgreSQL a VACUUM too,
    whose visibility map lets counts be read from an index alone."""
    db.session.commit()
    quote = db.engine.dialect.identifier_preparer.quote
    command = "VACUUM ANALYZE" if db.engine.dialect.name == "postgresql" else "ANALYZE"
    with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
        for table in db.metadata.sorted_tables:
            connection.execute(sa.text(f"{command} {quote(table.name)}"))
