"""What a session's audit trail tells of its rounds since a change: where a
round is after later deletions and restores, which rounds were added
meanwhile (to tell a phone that sent the same round again, or another
game), which deletions were restored, and the players' renames. Read only;
a damaged record is passed over."""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import sqlalchemy as sa

from ..audit import (
    Action,
    PayloadError,
    PlayerRenamed,
    RoundAdded,
    RoundDeleted,
    RoundRestored,
    read_payload,
)
from ..extensions import db
from ..models import AuditEvent, GameSession
from ..queries.turns import round_hands
from ..rules import Entry, same_hands, shares_a_hand


def renames(group_id: int) -> list[tuple[str, str]]:
    """The group's players' renames, oldest first, as (old name, new name); a
    damaged record of one is left out."""
    renames = []
    for before, after in db.session.execute(
            sa.select(AuditEvent.before, AuditEvent.after)
            .where(AuditEvent.group_id == group_id, AuditEvent.action == Action.PLAYER_RENAME)
            .order_by(AuditEvent.id)):
        try:
            renamed = PlayerRenamed.from_json(before, after)
        except PayloadError:
            continue
        renames.append((renamed.old, renamed.new))
    return renames


def where_round_is(number: int, since: list[AuditEvent]) -> int | None:
    """Where round ``number`` is after the changes ``since`` (oldest first):
    deleting an earlier round moves it up, restoring one moves it down; None
    if it was deleted (and not restored)."""
    deleted_by = None
    for event in since:
        if event.action not in (Action.ROUND_DELETE, Action.ROUND_RESTORE):
            continue
        try:
            payload = read_payload(event.action, event.before, event.after)
        except PayloadError:  # a damaged record moves nothing
            continue
        if isinstance(payload, RoundDeleted) and deleted_by is None:
            if payload.round.number == number:
                deleted_by = event.id
            elif payload.round.number < number:
                number -= 1
        elif isinstance(payload, RoundRestored):
            if deleted_by is not None:
                if payload.restores == deleted_by:
                    number, deleted_by = payload.round.number, None
            elif payload.round.number <= number:
                number += 1
    return None if deleted_by is not None else number


def _added_meanwhile(session: GameSession,
                     since: list[AuditEvent]) -> Iterator[tuple[int, int, dict[int, Entry]]]:
    """The rounds the changes ``since`` (oldest first) added and that are still
    there, the last first: their number now, the change's id, their hands."""
    for i in reversed(range(len(since))):
        if since[i].action != Action.ROUND_ADD:
            continue
        try:
            added = read_payload(since[i].action, since[i].before, since[i].after)
        except PayloadError:  # a damaged record names no round
            continue
        if not isinstance(added, RoundAdded):
            continue
        now = where_round_is(added.round.number, since[i + 1:])
        if now is not None:
            yield now, since[i].id, round_hands(session, now)


def saved_meanwhile(session: GameSession, since: list[AuditEvent],
                    entries: Mapping[int, Entry]) -> tuple[int, int] | None:
    """The round added by one of the changes ``since`` (oldest first) whose
    hands are ``entries`` (by player id), the last such: (its number now, the
    id of the change that added it); None if the phones sent another game."""
    return next(((now, event_id) for now, event_id, hands in _added_meanwhile(session, since)
                 if same_hands(entries, hands)), None)


def alike_meanwhile(session: GameSession, since: list[AuditEvent],
                    entries: Mapping[int, Entry]) -> bool:
    """Whether a round added by the changes ``since`` holds one of ``entries``'
    hands (rules.shares_a_hand): then "Same game: drop mine" is the likelier
    choice, else "Save as round N"."""
    return any(shares_a_hand(entries, hands) for _, _, hands in _added_meanwhile(session, since))


def restored_deletions(session: GameSession) -> set[int]:
    """Ids of the session's round deletions that have been restored."""
    afters = db.session.scalars(sa.select(AuditEvent.after).where(
        AuditEvent.session_id == session.id, AuditEvent.action == Action.ROUND_RESTORE))
    restored = set()
    for after in afters:
        try:
            restored.add(RoundRestored.deletion_of(after))
        except PayloadError:  # a damaged record names no deletion
            continue
    return restored
