"""A group's ledger stamp

- ``player_group.ledger_stamp``: a random value made anew by every change to
  one of the group's sessions or payments. Each app server keeps the
  group's money (queries/debts.py) under it, and works it out again only
  when the stamp it reads has changed.

Groups there are get a stamp of their own.

Revision ID: 0021
Revises: 0020
Create Date: 2026-11-29 21:00:00

"""
import secrets

import sqlalchemy as sa
from alembic import op

revision = "0021"
down_revision = "0020"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("player_group") as batch_op:
        batch_op.add_column(sa.Column("ledger_stamp", sa.String(32), nullable=True))
    connection = op.get_bind()
    groups = [{"id": group_id, "stamp": secrets.token_hex(16)}
              for (group_id,) in connection.execute(sa.text("SELECT id FROM player_group"))]
    if groups:
        connection.execute(sa.text("UPDATE player_group SET ledger_stamp = :stamp "
                                   "WHERE id = :id"), groups)
    with op.batch_alter_table("player_group") as batch_op:
        batch_op.alter_column("ledger_stamp", existing_type=sa.String(32), nullable=False)


def downgrade():
    with op.batch_alter_table("player_group") as batch_op:
        batch_op.drop_column("ledger_stamp")
