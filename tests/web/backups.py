"""Backups through the pages: a backup imported as a new group through the
import page's form, and what a table sees of a group's sessions, to compare
a group with its backup imported (test_backup.py, test_backup_import.py)."""

import io

import sqlalchemy as sa

from scorekeeper import queries, services
from scorekeeper.extensions import db
from scorekeeper.models import GameSession
from tests.web.helpers import csrf_token

NEW_PASSPHRASE = "a brand new passphrase"  # of a group made from a backup


def post_import(client, body: bytes, name="Back again", **changes):
    """Import ``body`` as a new group through the import page's form."""
    form = {"csrf_token": csrf_token(client, "/groups/import"), "name": name,
            "passphrase": NEW_PASSPHRASE, "confirm": NEW_PASSPHRASE, "device": "Phone B",
            "backup": (io.BytesIO(body), "backup.json")}
    form.update(changes)
    return client.post("/groups/import", data=form, content_type="multipart/form-data")


def picture(app, group_name: str) -> list[dict]:
    """Everything a table sees of each session, players by name."""
    with app.app_context():
        group = services.find_group(group_name)
        sessions = db.session.scalars(sa.select(GameSession).where(
            GameSession.group_id == group.id).order_by(GameSession.started_at, GameSession.id))
        result = []
        for s in sessions:
            names = {seat.player_id: seat.player.name for seat in s.seats}
            coming = None if s.is_finished else queries.upcoming(s)
            result.append({
                "ended": s.is_finished, "currency": s.currency, "rules": s.rules,
                "seats": [(seat.player.name, seat.position, seat.active) for seat in s.seats],
                "balances": {names[pid]: cents for pid, cents in services.balances(s).items()},
                "rounds": [(r.number, r.dealer.name, [
                    (e.player.name, e.seat, e.turn, e.outcome, e.cards, e.points, e.position,
                     e.tier_cents, e.hu_cents, e.joker_ace_cents, e.net_cents)
                    for e in r.entries]) for r in s.rounds],
                "settlement": [(x.transfer.payer.name, x.transfer.payee.name, x.transfer.cents,
                                x.paid) for x in services.settlement(s)],
                "next": coming and (coming.number, coming.dealer.name,
                                    [p.name for p in coming.order]),
                "restored": len(services.restored_deletions(s)),
            })
        return result
