"""A group's data out: the JSON backup (everything, in backup.format) and
the CSV of rounds for spreadsheets."""

from __future__ import annotations

import csv
import io
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.orm import selectinload

from ..audit import Action
from ..extensions import db
from ..models import AuditEvent, GameSession, Group, Payment, Player, Round, wall_clock
from ..services import group_players
from .format import FORMAT, VERSION


def file_time(moment: datetime | None) -> str | None:
    """A time as the file writes it: stored times are UTC without a zone; the
    file says so with a Z."""
    return None if moment is None else moment.isoformat() + "Z"


def load_sessions(group: Group, session_id: int | None = None) -> list[GameSession]:
    """The group's sessions oldest first (only ``session_id``, if given, and only
    if it is the group's), with seats, rounds, entries and payments: four statements."""
    query = (sa.select(GameSession).where(GameSession.group_id == group.id)
             .order_by(GameSession.started_at, GameSession.id)
             .options(selectinload(GameSession.seats),
                      selectinload(GameSession.rounds).selectinload(Round.entries),
                      selectinload(GameSession.payments)))
    if session_id is not None:
        query = query.where(GameSession.id == session_id)
    return list(db.session.scalars(query))


def player_names(group: Group) -> dict[int, str]:
    return {p.id: p.name for p in group_players(group.id)}


def export_group(group: Group, now: datetime) -> dict:
    """Everything the group has, as the JSON document above (eight statements)."""
    players = group_players(group.id)
    names = {p.id: p.name for p in players}
    sessions = load_sessions(group)
    events = list(db.session.scalars(
        sa.select(AuditEvent).where(AuditEvent.group_id == group.id).order_by(AuditEvent.id)))
    session_index = {s.id: i for i, s in enumerate(sessions)}
    event_index = {e.id: i for i, e in enumerate(events)}
    return {
        "format": FORMAT,
        "version": VERSION,
        "exported_at": file_time(now),
        "group": {"name": group.name, "timezone": group.timezone},
        "players": [_player_document(p) for p in players],
        "sessions": [_session_document(s, names) for s in sessions],
        "payments": [{"payer": names[p.payer_id], "payee": names[p.payee_id], "cents": p.cents,
                      "currency": p.currency, "paid_at": file_time(p.paid_at)}
                     for p in db.session.scalars(
                         sa.select(Payment).where(Payment.group_id == group.id,
                                                  Payment.session_id.is_(None))
                         .order_by(Payment.id))],
        "audit": [_event_document(e, session_index, event_index) for e in events],
    }


def _player_document(player: Player) -> dict:
    """A player, with their payment details if they have any."""
    document: dict = {"name": player.name, "created_at": file_time(player.created_at)}
    if player.payto_kind:
        document["payto"] = {"kind": player.payto_kind, "value": player.payto_value}
    return document


def _session_document(session: GameSession, names: dict[int, str]) -> dict:
    return {
        "started_at": file_time(session.started_at),
        "ended_at": file_time(session.ended_at),
        "version": session.version,
        "currency": session.currency,
        "house_rules": session.rules.to_json(),
        "first_dealer": names[session.first_dealer_id],
        "seats": [{"player": names[s.player_id], "position": s.position, "active": s.active}
                  for s in session.seats],
        "rounds": [{
            "number": r.number,
            "dealer": names[r.dealer_id],
            "created_at": file_time(r.created_at),
            "entries": [{
                "player": names[e.player_id], "seat": e.seat, "turn": e.turn,
                "outcome": e.outcome, "cards": e.cards, "points": e.points,
                "position": e.position, "tier_cents": e.tier_cents, "hu_cents": e.hu_cents,
                "joker_ace_cents": e.joker_ace_cents, "net_cents": e.net_cents,
            } for e in r.entries],
        } for r in session.rounds],
        "payments": [{"payer": names[p.payer_id], "payee": names[p.payee_id],
                      "cents": p.cents, "paid_at": file_time(p.paid_at)}
                     for p in sorted(session.payments, key=lambda p: p.id)],
    }


def _event_document(event: AuditEvent, session_index: dict[int, int],
                    event_index: dict[int, int]) -> dict:
    after = event.after
    if event.action == Action.ROUND_RESTORE and isinstance(after, dict):
        # the deletion it undid, by its place in the document rather than its id
        restores = after.get("restores")
        after = {**after, "restores": event_index.get(restores) if isinstance(restores, int)
                 else None}
    return {
        "at": file_time(event.at),
        "device": event.device,
        "action": event.action,
        "subject": event.subject,
        "session": (session_index.get(event.session_id) if event.session_id is not None
                    else None),
        "version": event.version,
        "before": event.before,
        "after": after,
    }


# CSV: one row per round and player

CSV_HEADER = ("session_id", "session_date", "currency", "round", "dealer", "player", "seat",
              "turn", "outcome", "cards", "points", "position", "tier", "hu", "joker_ace", "net")
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(text: str) -> str:
    """Text that a spreadsheet would run as a formula gets a leading apostrophe."""
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def decimal_text(cents: int) -> str:
    """-150 -> "-1.50": exact, from integer cents."""
    sign = "-" if cents < 0 else ""
    whole, part = divmod(abs(cents), 100)
    return f"{sign}{whole}.{part:02d}"


def csv_text(sessions: list[GameSession], names: dict[int, str], zone: str) -> str:
    """The rounds of ``sessions`` (loaded by load_sessions), dated in ``zone``;
    seat and turn count from 1. Starts with a byte order mark, so spreadsheets
    read the names as UTF-8."""
    out = io.StringIO()
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    for session in sessions:
        date = wall_clock(session.started_at, zone).date().isoformat()
        for round_ in session.rounds:
            for e in round_.entries:
                writer.writerow([
                    session.id, date, csv_cell(session.currency), round_.number,
                    csv_cell(names[round_.dealer_id]), csv_cell(names[e.player_id]),
                    e.seat + 1, e.turn + 1, csv_cell(e.outcome), csv_cell(e.cards),
                    e.points, e.position, decimal_text(e.tier_cents), decimal_text(e.hu_cents),
                    decimal_text(e.joker_ace_cents), decimal_text(e.net_cents)])
    return out.getvalue()


