"""Payments follow the group: in part, or across sessions

- ``payment.group_id``: the group whose players paid (from the session, for
  the payments there are).
- ``payment.session_id`` may be empty: a payment across sessions, as
  "Settle everything" pays.
- ``payment.currency``: the money it was paid in (the session's, for the
  payments there are).
- ``payment.cents`` is positive, checked by the database.

Revision ID: 0019
Revises: 0018
Create Date: 2026-11-29 19:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0019"
down_revision = "0018"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("payment") as batch_op:
        batch_op.add_column(sa.Column("group_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("currency", sa.String(8), nullable=True))
    op.execute("UPDATE payment SET group_id = (SELECT game_session.group_id FROM game_session "
               "WHERE game_session.id = payment.session_id), currency = (SELECT "
               "game_session.currency FROM game_session WHERE game_session.id = "
               "payment.session_id)")
    with op.batch_alter_table("payment") as batch_op:
        batch_op.alter_column("group_id", existing_type=sa.Integer(), nullable=False)
        batch_op.alter_column("currency", existing_type=sa.String(8), nullable=False)
        batch_op.alter_column("session_id", existing_type=sa.Integer(), nullable=True)
        batch_op.create_foreign_key(batch_op.f("fk_payment_group_id_player_group"), "player_group",
                                    ["group_id"], ["id"], ondelete="CASCADE")
        batch_op.create_index(batch_op.f("ix_payment_group_id"), ["group_id"], unique=False)
        batch_op.create_check_constraint(op.f("ck_payment_payment_cents_positive"), "cents > 0")


def downgrade():
    op.execute("DELETE FROM payment WHERE session_id IS NULL")
    with op.batch_alter_table("payment") as batch_op:
        batch_op.drop_constraint(op.f("ck_payment_payment_cents_positive"), type_="check")
        batch_op.drop_index(batch_op.f("ix_payment_group_id"))
        batch_op.drop_constraint(batch_op.f("fk_payment_group_id_player_group"), type_="foreignkey")
        batch_op.alter_column("session_id", existing_type=sa.Integer(), nullable=False)
        batch_op.drop_column("currency")
        batch_op.drop_column("group_id")
