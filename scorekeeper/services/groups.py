"""Groups: creating one (empty, from a backup, or holding demo play), the
passphrase that opens it, and its time zone.

Passphrase checks count against the sign-in limit (throttle): a phone
holding a device cookie for the group (OWASP's "slow brute-force protection
using device cookies") against that cookie alone, any other phone for the
group's name and its address. Groups created and backups imported count
against their own hourly limits, per address and for the whole site.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from itertools import islice

import sqlalchemy as sa
from flask import current_app

from ..audit import PassphraseChanged, TimezoneChanged
from ..extensions import db
from ..limits import GROUP_NAME_MAX, PASSPHRASE_MIN, clean_name, time_zones
from ..models import Group, SignIn
from ..passphrases import hash_passphrase, passphrase_matches
from ..records import Backup, DemoGroup
from . import bulk, throttle
from ._common import recount_finished
from .invites import revoke_every_invite
from .protocol import N_, Change, ServiceError, applying

# The phone the demo's changes are "from": a label no person gives a phone,
# worded in the reader's language where it is shown (presenters.changes).
DEMO_DEVICE = "seed-demo"
DEMO_CHUNK = 500  # sessions per transaction


class TooManyNewGroups(throttle.LimitReached):
    """Past the hourly limit on groups created (or backups imported), from
    this address or on the whole site."""


@dataclass(frozen=True)
class KnownDevice:
    """What a device cookie says: this phone signed in to the group
    ``group_id`` while its passphrase was the one ``mark`` names (see
    passphrase_mark); ``nonce`` names the cookie's own count of guesses."""

    group_id: int
    nonce: str
    mark: str


def passphrase_mark(group: Group) -> str:
    """Names the group's passphrase of the moment, and tells nothing of it: a
    new passphrase voids the device cookies earned under the one before."""
    return hashlib.sha256(group.passphrase_hash.encode()).hexdigest()[:16]


def create_group(name: str, passphrase: str, *, address: str | None = None) -> Group:
    """A new group. A name already taken (whatever the letter case) is refused
    and nothing is written; such refusals from ``address`` count against the
    sign-in limit, as they tell a stranger which names exist. A group made
    counts against the hourly limits on new groups (TooManyNewGroups)."""
    name = _check_new_group(name, passphrase, address=address)
    _count_new("NEW_GROUP", address)
    group = Group(name=name, passphrase_hash=_hash(passphrase))
    with _unless_taken(name):
        db.session.add(group)
        db.session.commit()
    return group


def import_group(name: str, passphrase: str, backup: Backup, device: str, *,
                 address: str | None = None) -> Group:
    """A new group holding everything in ``backup`` (a records.Backup:
    checked, and every round scored again, by backup.read_backup), made from
    the phone named ``device``, written in one transaction: all of it or, on
    any error, nothing.

    The slow part, the passphrase's hash, comes before the transaction begins;
    then each table's rows go in a statement or two (Core executemany, as
    seed-demo writes), so that on SQLite the database's write lock is held for
    the INSERTs alone: 0.35 s for the largest real backup allowed, 0.8 s for
    one made to write the most rows (bench/README.md, "Import of the largest
    backup")."""
    name = _check_new_group(name, passphrase, address=address)
    passphrase_hash = _hash(passphrase)
    with _unless_taken(name):
        group = Group(name=name, passphrase_hash=passphrase_hash, timezone=backup.timezone,
                      finished_sessions=sum(s.ended_at is not None for s in backup.sessions))
        db.session.add(group)
        db.session.flush()
        with applying(Change(group, device=device), moves_money=True) as done:
            bulk.write_backup(done, group, backup)
    return group


def seed_demo_group(name: str, passphrase: str, plan: DemoGroup,
                    chunk: int = DEMO_CHUNK) -> tuple[Group, int, int]:
    """A new group holding ``plan``, its sessions ``chunk`` to a transaction
    (bulk INSERTs rather than a use case per round): the group, its number of
    sessions and of rounds."""
    group = create_group(name, passphrase)
    group.created_at = plan.since
    demo = Change(group, device=DEMO_DEVICE)
    with applying(demo) as done:
        players = bulk.write_demo_players(done, group, plan.players, plan.since, plan.payto)
    sessions = iter(plan.sessions)
    written = rounds = 0
    while batch := list(islice(sessions, chunk)):
        with applying(demo, moves_money=True) as done:
            rounds += bulk.write_demo_sessions(done, group.id, players, batch)
        written += len(batch)
    recount_finished(group.id)
    db.session.commit()
    return group, written, rounds


NAME_TAKEN = N_("There is a group called %(name)s already: sign in to it, or choose another "
                "name")


def _check_new_group(name: str, passphrase: str, *, address: str | None = None) -> str:
    """The cleaned name for a new group, if no group has it yet."""
    name = clean_name(name)
    if not 1 <= len(name) <= GROUP_NAME_MAX:
        raise ServiceError(N_("A group name needs 1 to %(most)s characters"),
                           most=GROUP_NAME_MAX)
    _check_passphrase_strength(passphrase)
    with throttle.guessing(_sign_in_limit(), *_guess_keys(address=address)) as guess:
        if find_group(name) is not None:
            raise ServiceError(NAME_TAKEN, name=name)
        guess.take_back()
    return name


@contextmanager
def _unless_taken(name: str) -> Iterator[None]:
    """Writing a new group: all or nothing. Another phone creating the same
    name at the same moment gets the same refusal as if it had asked first."""
    try:
        yield
    except sa.exc.IntegrityError:
        db.session.rollback()
        if find_group(name) is None:
            raise
        raise ServiceError(NAME_TAKEN, name=name) from None
    except BaseException:
        db.session.rollback()
        raise


def count_import(address: str | None) -> None:
    """A backup about to be read and checked from ``address``, counted against
    the hourly limits on imports whatever comes of it: reading one costs the
    server as much as importing it (TooManyNewGroups)."""
    _count_new("IMPORT", address)


def _count_new(kind: str, address: str | None) -> None:
    """Count a group made (``kind`` "NEW_GROUP") or a backup read ("IMPORT")
    from ``address`` (None: from the server itself, not counted)."""
    if address is None:
        return
    try:
        throttle.count((f"{kind.lower()}:address:{address}", _limit(f"{kind}_LIMIT")),
                       (f"{kind.lower()}:site", _limit(f"{kind}_SITE_LIMIT")))
    except throttle.LimitReached as full:
        raise TooManyNewGroups(full.retry_after) from None


def _guess_keys(name_key: str | None = None, address: str | None = None, *,
                group: Group | None = None, known: Iterable[KnownDevice] = ()) -> list[str]:
    """What a passphrase check counts against: the device cookie's own count
    if the phone has one for ``group`` under its passphrase of the moment;
    else the group's name and the address it comes from (None: from the
    server itself, not counted)."""
    if group is not None:
        mark = passphrase_mark(group)
        for device in known:
            if device.group_id == group.id and device.mark == mark:
                return [f"device:{device.nonce}"]
    return ([f"group:{name_key}"] if name_key is not None else []) + (
        [f"address:{address}"] if address is not None else [])


def _sign_in_limit() -> throttle.Limit:
    return _limit("SIGN_IN_LIMIT")


def _limit(setting: str) -> throttle.Limit:
    return throttle.Limit.parse(current_app.config[setting], setting)


def _hash(passphrase: str) -> str:
    return hash_passphrase(passphrase, current_app.config["PASSPHRASE_HASH_METHOD"])


@functools.cache
def _unused_hash(method: str) -> str:
    return hash_passphrase("no group has this passphrase", method)


def _check_passphrase_strength(passphrase: str) -> None:
    if len(passphrase) < PASSPHRASE_MIN:
        raise ServiceError(N_("A passphrase needs at least %(least)s characters"),
                           least=PASSPHRASE_MIN)


def find_group(name: str) -> Group | None:
    """The group of that name, whatever its letter case."""
    return db.session.scalar(sa.select(Group).where(Group.name_key == clean_name(name).casefold()))


def group_for_sign_in(name: str, passphrase: str, *, address: str | None = None,
                      known: Iterable[KnownDevice] = ()) -> Group | None:
    """The group with this name and passphrase; None whether the name or the
    passphrase is wrong, so nobody learns which names exist. Each try counts
    against the limit for the phone's device cookie for the group, if
    ``known`` holds one, else for the name and for ``address``; past it,
    throttle.TooManyGuesses, before any passphrase is checked."""
    key = clean_name(name).casefold()
    group = find_group(key)
    keys = _guess_keys(key, address, group=group, known=known)
    with throttle.guessing(_sign_in_limit(), *keys) as guess:
        # As slow without the group as with it, so the name's absence doesn't show.
        stored = group.passphrase_hash if group else _unused_hash(
            current_app.config["PASSPHRASE_HASH_METHOD"])
        if passphrase_matches(stored, passphrase) and group is not None:
            guess.take_back()
            return group
    return None


def change_passphrase(change: Change, current: str, new: str, *, address: str | None = None,
                      known: Iterable[KnownDevice] = ()) -> None:
    """A new passphrase signs out every other phone and revokes every share
    link and invite link. Checking ``current`` counts against the sign-in limit, as a sign-in
    from this phone would."""
    group = change.group
    keys = _guess_keys(group.name_key, address, group=group, known=known)
    with throttle.guessing(_sign_in_limit(), *keys) as guess:
        if not passphrase_matches(group.passphrase_hash, current):
            raise ServiceError(N_("The current passphrase is not right"))
        guess.take_back()
    set_passphrase(change, new)


def set_passphrase(change: Change, passphrase: str) -> None:
    """A new passphrase for the change's group: every phone is signed out and
    every invite link revoked; the web layer signs in again the one that asked."""
    _check_passphrase_strength(passphrase)
    passphrase_hash = _hash(passphrase)
    group = change.group
    with applying(change) as done:
        group.passphrase_hash = passphrase_hash
        db.session.execute(sa.delete(SignIn).where(SignIn.group_id == group.id))
        revoke_every_invite(group)
        done.audit(PassphraseChanged())


def set_timezone(change: Change, timezone: str) -> None:
    """Show the group's times in ``timezone`` from now on; stored times stay UTC."""
    if timezone not in time_zones():
        raise ServiceError(N_("Choose a time zone from the list"))
    group = change.group
    if timezone == group.timezone:
        return
    with applying(change) as done:
        done.audit(TimezoneChanged(group.timezone, timezone))
        group.timezone = timezone
