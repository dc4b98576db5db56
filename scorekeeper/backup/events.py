"""A backup's history of changes, checked before it is imported: an action
the schema (scorekeeper.audit) knows must have its payload, checked so that
the history pages can show it and a deleted round can be restored; other
actions need only objects or null."""

from __future__ import annotations

import re
from dataclasses import replace

from ..audit import (
    Action,
    Payload,
    PayloadError,
    RoundAdded,
    RoundDeleted,
    RoundEdited,
    RoundRestored,
    RoundSnapshot,
    RulesChanged,
    SessionStarted,
    Stored,
    payload_type,
)
from ..limits import ACTION_MAX, DEVICE_MAX, MAX_PLAYERS, MIN_PLAYERS, SUBJECT_MAX
from ..phrases import N_, Phrase
from ..records import EventData, SessionData
from ..rules.house import shown
from .fields import (
    BackupError,
    an_object,
    int_field,
    items_refused,
    kind_of,
    moment_field,
    name_at,
    on_time,
    text_field,
)
from .game import (
    CENTS_MAX,
    MAX_ROUNDS,
    VERSION_MAX,
    cards_of,
    house_rules,
    once_each,
    played,
)
from .places import event, json_path, owned, quoted, within

ACTION = re.compile(r"[a-z_]+\.[a-z_]+")


def read_event(raw, n: int, sessions: list[SessionData], earlier: list[EventData],
               deadline: float) -> EventData:
    """Audit event ``n`` (counted from 1) of a backup, after ``earlier``."""
    where = event(n)
    on_time(deadline, where)
    row = an_object(raw, where)
    action = text_field(row, "action", where, ACTION_MAX)
    if not ACTION.fullmatch(action):
        raise BackupError(N_("%(where)s: the action %(value)s is not like %(example)s."),
                          where=where, value=shown(action), example=quoted("round.add"))
    session = int_field(row, "session", where, 0, max(len(sessions) - 1, 0), optional=True)
    if session is not None and not sessions:
        raise BackupError(N_("%(where)s: %(key)s names a session, but the backup has none."),
                          where=where, key=quoted("session"))
    before, after = (None if row.get(side) is None else an_object(row[side], owned(where, side))
                     for side in ("before", "after"))
    kind = payload_type(action)
    if kind is not None:
        before, after = _payload(kind, before, after, where, session, earlier)
    return EventData(
        moment_field(row, "at", where), text_field(row, "device", where, DEVICE_MAX, low=0), action,
        text_field(row, "subject", where, SUBJECT_MAX, low=0), session,
        int_field(row, "version", where, 1, VERSION_MAX, optional=True), before, after)


def _payload(kind: type[Payload], before: dict | None, after: dict | None, where: Phrase,
             session: int | None, earlier: list[EventData]) -> Stored:
    """The before and after of an event of ``kind``, as the schema writes them:
    read by it, round snapshots checked by _snapshot, house rules as a
    session's are, and every whole number within CENTS_MAX."""
    try:
        payload = kind.from_json(before, after)
    except PayloadError as error:
        raise _payload_refused(error, where) from None
    if kind.action.is_round and session is None:
        raise BackupError(N_("%(where)s: a round's change needs its %(key)s."),
                          where=where, key=quoted("session"))
    if isinstance(payload, RoundRestored):
        _restore(payload.restores, where, session, earlier)
    stored = _rules_checked(_snapshots_checked(payload, where), where).to_json()
    for side, value in stored._asdict().items():
        for key, item in (value or {}).items():
            if type(item) is int:
                int_field(value, key, owned(where, side), -CENTS_MAX, CENTS_MAX)
    return stored


def _payload_refused(error: PayloadError, where: Phrase) -> BackupError:
    side = owned(where, error.side)
    if not error.path:  # a side that is null or missing, in JSON's words
        return BackupError(N_("%(where)s must be an object {…}, not %(kind)s."),
                           where=side, kind=kind_of(error.value))
    at = json_path(error.path, side)
    if error.missing:
        return BackupError(N_("%(where)s is missing."), where=at)
    return BackupError(N_("%(where)s must be %(expected)s, not %(value)s."),
                       where=at, expected=Phrase(error.expected), value=shown(error.value))


def _rules_checked(payload: Payload, where: Phrase) -> Payload:
    """A payload's house rules checked as a session's are, and written out in full."""
    def rules(value: dict, side: str) -> dict:
        at = within(owned(where, side), N_("%(place)s, %(key)s"), key=quoted("house_rules"))
        return house_rules(value, at).to_json()

    if isinstance(payload, SessionStarted):
        return replace(payload, house_rules=rules(payload.house_rules, "after"))
    if isinstance(payload, RulesChanged):
        return replace(payload, old_rules=rules(payload.old_rules, "before"),
                       new_rules=rules(payload.new_rules, "after"))
    return payload


def _snapshots_checked(payload: Payload, where: Phrase) -> Payload:
    """A round change's snapshots checked by _snapshot, names tidied and cards
    written as the app writes them."""
    def checked(snapshot: RoundSnapshot, side: str) -> RoundSnapshot:
        return _snapshot(snapshot, owned(where, side))

    match payload:
        case RoundEdited(old=old, new=new):
            return replace(payload, old=checked(old, "before"), new=checked(new, "after"))
        case RoundDeleted(round=kept):
            return replace(payload, round=checked(kept, "before"))
        case RoundAdded(round=kept, entered_by=entered_by):
            kept = checked(kept, "after")
            return replace(payload, round=kept, entered_by=_entered_by(entered_by, kept, where))
        case RoundRestored(round=kept):
            return replace(payload, round=checked(kept, "after"))
    return payload


def _entered_by(entered_by: tuple[tuple[str, str], ...], kept: RoundSnapshot,
                where: Phrase) -> tuple[tuple[str, str], ...]:
    """Which phone entered each hand of a round filled in together: players of
    the round, and phone names no longer than a phone's."""
    at = within(owned(where, "after"), N_("%(place)s, %(key)s"), key=quoted("entered_by"))
    names = {entry.player for entry in kept.entries}
    checked = []
    for player, phone in entered_by:
        name = name_at(player, within(at, N_("%(place)s: a player")))
        if name not in names:
            raise BackupError(N_("%(where)s: %(name)s does not play that round."),
                              where=at, name=shown(name))
        if len(phone) > DEVICE_MAX:
            raise BackupError(N_("%(where)s: a phone's name has at most %(most)s characters."),
                              where=at, most=DEVICE_MAX)
        checked.append((name, phone))
    return tuple(checked)


def _snapshot(snapshot: RoundSnapshot, where: Phrase) -> RoundSnapshot:
    """A round as the audit trail keeps it (services.round_snapshot), its
    numbers in range and its cards readable, so it can be shown and restored.
    It is not scored: the session's house rules may have changed since."""
    int_field(vars(snapshot), "number", where, 1, MAX_ROUNDS)
    dealer = name_at(snapshot.dealer, within(where, N_("%(place)s: the dealer")))
    if not MIN_PLAYERS <= len(snapshot.entries) <= MAX_PLAYERS:
        raise items_refused(where, "entries", len(snapshot.entries), MIN_PLAYERS, MAX_PLAYERS)
    entries = []
    for entry in snapshot.entries:
        at, fields = within(where, N_("%(place)s, an entry")), vars(entry)
        player = name_at(entry.player, within(at, N_("%(place)s: the player")))
        _, _, cards = played(fields, at, cards_of(where, player))
        for key, low, high in (("seat", 0, MAX_PLAYERS - 1), ("turn", 0, MAX_PLAYERS - 1),
                               ("points", 0, CENTS_MAX), ("position", 1, MAX_PLAYERS),
                               ("net_cents", -CENTS_MAX, CENTS_MAX)):
            int_field(fields, key, at, low, high)
        entries.append(replace(entry, player=player, cards=cards))
    names = [e.player for e in entries]
    if len(set(names)) != len(names) or dealer not in names:
        raise BackupError(N_("%(where)s: each player must appear once, the dealer among them."),
                          where=where)
    for key in ("seat", "turn"):
        if sorted(getattr(e, key) for e in entries) != list(range(len(entries))):
            raise once_each(where, key)
    return replace(snapshot, dealer=dealer, entries=tuple(entries))


def _restore(index: int, where: Phrase, session: int | None, earlier: list[EventData]) -> None:
    """A restore names the deletion it undid by its index in the audit list."""
    if not 0 <= index < len(earlier):
        raise BackupError(N_("%(where)s: a restored round's %(key)s must be the index of an "
                             "earlier audit event."), where=where, key=quoted("restores"))
    deletion = earlier[index]
    if deletion.action != Action.ROUND_DELETE or deletion.session != session:
        raise BackupError(N_("%(where)s: it restores audit event %(number)s, which is not a "
                             "round deleted from the same session."),
                          where=where, number=index + 1)

