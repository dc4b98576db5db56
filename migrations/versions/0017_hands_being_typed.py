"""A hand of a round filled in together knows whether it is still being typed

- ``draft_entry.typing``: the hand was sent as it is typed, its field not yet
  left; it is not in while it is typed (services.drafts), so that no Save
  from another phone takes it half typed without a warning.
- ``draft_entry.phone``: the public id of the sign-in that saved it (as
  ``game_session.changed_by``): the phone typing it saves without that warning.

Revision ID: 0017
Revises: 0016
Create Date: 2026-11-30 10:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("draft_entry") as batch_op:
        batch_op.add_column(sa.Column("phone", sa.String(32), server_default="",
                                      nullable=False))
        batch_op.add_column(sa.Column("typing", sa.Boolean(), server_default=sa.false(),
                                      nullable=False))


def downgrade():
    with op.batch_alter_table("draft_entry") as batch_op:
        batch_op.drop_column("typing")
        batch_op.drop_column("phone")
