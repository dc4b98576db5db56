"""A session settled by its own payments is marked so

- ``game_session.settled``: its own payments pay its transfers exactly, so
  what the group owes leaves it out (queries/debts.py): the group's pages
  read the sessions still open, not every session of the years.
- ``ix_game_session_unsettled``: those sessions, by group and currency.

Sessions there are get it as their payments stand now.

Revision ID: 0020
Revises: 0019
Create Date: 2026-11-29 19:30:00

"""
from collections import defaultdict

import sqlalchemy as sa
from alembic import op

from scorekeeper.rules.ledger import settled_alone

revision = "0020"
down_revision = "0019"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_session") as batch_op:
        batch_op.add_column(sa.Column("settled", sa.Boolean(), server_default=sa.false(),
                                      nullable=False))
    op.create_index("ix_game_session_unsettled", "game_session", ["group_id", "currency"],
                    sqlite_where=sa.text("NOT settled"), postgresql_where=sa.text("NOT settled"))
    connection = op.get_bind()
    balances: dict[int, dict[int, int]] = defaultdict(dict)
    for session_id, player_id, cents in connection.execute(
            sa.text("SELECT session_id, player_id, net_cents FROM seat")):
        balances[session_id][player_id] = cents
    paid: dict[int, list[tuple[int, int, int]]] = defaultdict(list)
    for session_id, payer_id, payee_id, cents in connection.execute(sa.text(
            "SELECT session_id, payer_id, payee_id, cents FROM payment "
            "WHERE session_id IS NOT NULL")):
        paid[session_id].append((payer_id, payee_id, cents))
    settled = [{"id": session_id} for session_id in balances
               if settled_alone(balances[session_id], paid[session_id])]
    if settled:
        connection.execute(sa.text("UPDATE game_session SET settled = TRUE WHERE id = :id"),
                           settled)


def downgrade():
    op.drop_index("ix_game_session_unsettled", table_name="game_session")
    with op.batch_alter_table("game_session") as batch_op:
        batch_op.drop_column("settled")
