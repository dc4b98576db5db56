"""Writing many rows at once, inside a change (protocol.applying): a group's
data from a checked backup, and demo play (flask seed-demo). Both are made
of the same records (records.SessionData), written with Core executemany
statements, no ORM object per row."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from datetime import datetime

import sqlalchemy as sa

from ..audit import Action, GroupImported, PaytoChanged, PlayerAdded, RoundRestored, SessionStarted
from ..extensions import db
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
)
from ..records import Backup, SessionData
from ..rules.ledger import settled_alone
from ._common import total_seats_in_bulk
from .protocol import Applying, event_columns


def write_backup(done: Applying, group: Group, backup: Backup) -> None:
    """Everything in ``backup`` (a records.Backup: checked, and every round
    scored again, by backup.read_backup), into ``group``, new and empty."""
    if backup.players:
        db.session.execute(sa.insert(table(Player)), [
            {"group_id": group.id, "name": p.name, "created_at": p.created_at,
             "payto_kind": p.payto_kind, "payto_value": p.payto_value}
            for p in backup.players])
    players = dict(db.session.execute(
        sa.select(Player.name, Player.id).where(Player.group_id == group.id)).all())
    session_ids = _write_sessions(group.id, players, backup.sessions)
    if backup.payments:
        db.session.execute(sa.insert(table(Payment)), [
            {"group_id": group.id, "session_id": None, "payer_id": players[p.payer],
             "payee_id": players[p.payee], "cents": p.cents, "currency": p.currency,
             "paid_at": p.paid_at} for p in backup.payments])
    events = [{"session_id": None if e.session is None else session_ids[e.session],
               "at": e.at, "device": e.device, "action": e.action, "subject": e.subject,
               "before": e.before, "after": e.after, "version": e.version}
              for e in backup.events]
    events.append(done.event_row(GroupImported(
        backup.group_name, backup.exported_at.isoformat() + "Z", len(backup.sessions),
        backup.rounds)))
    done.audit_rows(events)
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


DEMO_GROUP = "Demo table"


def next_demo_group_name() -> str:
    """"Demo table N", N one more than any demo table so far."""
    numbers = [0]
    for name in db.session.scalars(sa.select(Group.name).where(
            Group.name_key.like(f"{DEMO_GROUP.casefold()} %"))):
        match = re.fullmatch(rf"{DEMO_GROUP} (\d+)", name)
        if match:
            numbers.append(int(match[1]))
    return f"{DEMO_GROUP} {max(numbers) + 1}"


def write_demo_players(done: Applying, group: Group, names: list[str], at: datetime,
                       payto: dict[str, tuple[str, str]]) -> dict[str, int]:
    """The group's players, added at ``at``, some with payment details
    (``payto``, by name); their ids by name. Added in the order of their
    names, so that ids order them as names do: demo play settles its
    sessions by name, and the pages by id (with equal amounts the fewest
    transfers can pair players otherwise)."""
    names = sorted(names)
    none = ("", "")
    ids = db.session.scalars(
        sa.insert(Player).returning(Player.id, sort_by_parameter_order=True),
        [{"group_id": group.id, "name": name, "created_at": at,
          "payto_kind": payto.get(name, none)[0], "payto_value": payto.get(name, none)[1]}
         for name in names]).all()
    events = [PlayerAdded(name) for name in names] + [
        PaytoChanged(name, "", payto[name][0]) for name in names if name in payto]
    done.audit_rows([{"session_id": None, "at": at, "device": done.change.device,
                      "version": None, **event_columns(event)} for event in events])
    return dict(zip(names, ids, strict=True))


def write_demo_sessions(done: Applying, group_id: int, players: dict[str, int],
                        batch: list[SessionData]) -> int:
    """Sessions of demo play, each with the event of its start; how many
    rounds they hold."""
    session_ids = _write_sessions(group_id, players, batch)
    done.audit_rows([
        {"session_id": sid, "at": s.started_at, "device": done.change.device, "version": 1,
         **event_columns(SessionStarted(tuple(s.first_table), s.first_dealer, s.currency,
                                        s.house_rules.to_json()))}
        for sid, s in zip(session_ids, batch, strict=True)])
    return sum(len(s.rounds) for s in batch)


def _settled(session: SessionData, players: dict[str, int]) -> bool:
    """Whether the session's own payments pay its transfers exactly: by
    player ids, as the pages settle it (with equal amounts the fewest
    transfers can pair players otherwise, and settle() orders them so)."""
    balances: dict[int, int] = defaultdict(int)
    for round_ in session.rounds:
        for entry in round_.entries:
            balances[players[entry.player]] += entry.net_cents
    return settled_alone(balances, [(players[p.payer], players[p.payee], p.cents)
                                    for p in session.payments])


def _write_sessions(group_id: int, players: dict[str, int],
                    sessions: Sequence[SessionData]) -> list[int]:
    """Sessions written in bulk, with their seats, rounds, entries, payments
    and seat totals; their ids, in order. ``players`` are the group's player
    ids by name. A few statements whatever the number of rows."""
    if not sessions:
        return []
    db.session.execute(sa.insert(table(GameSession)), [
        {"group_id": group_id, "version": s.version, "started_at": s.started_at,
         "ended_at": s.ended_at, "currency": s.currency, "house_rules": s.house_rules,
         "first_dealer_id": players[s.first_dealer], "settled": _settled(s, players)}
        for s in sessions])
    # Their ids, in the order written: rows inserted one after another take
    # rising ids (SQLite gives the largest + 1, under its write lock; a
    # PostgreSQL sequence rises within a connection), and they are the group's
    # newest. (RETURNING in order would take, on SQLite, one INSERT per row.)
    session_ids = list(db.session.scalars(
        sa.select(GameSession.id).where(GameSession.group_id == group_id)
        .order_by(GameSession.id.desc()).limit(len(sessions))))[::-1]
    db.session.execute(sa.insert(table(Seat)), [
        {"session_id": sid, "player_id": players[seat.player], "position": seat.position,
         "active": seat.active}
        for sid, s in zip(session_ids, sessions, strict=True) for seat in s.seats])
    payments = [
        {"group_id": group_id, "session_id": sid, "payer_id": players[p.payer],
         "payee_id": players[p.payee], "cents": p.cents, "currency": s.currency,
         "paid_at": p.paid_at}
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
        total_seats_in_bulk(Round.session_id.in_(session_ids))
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
