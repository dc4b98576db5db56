"""A session names the phone whose change it was last: ``changed_by``

- ``game_session.changed_by``: the public id of the sign-in (the start of its
  token's hash) whose change took the session's current version; empty for a
  change from no phone. A live page says "changed on another phone" only when
  it was another phone's.

Revision ID: 0016
Revises: 0015
Create Date: 2026-11-29 10:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_session") as batch_op:
        batch_op.add_column(sa.Column("changed_by", sa.String(32), server_default="",
                                      nullable=False))


def downgrade():
    with op.batch_alter_table("game_session") as batch_op:
        batch_op.drop_column("changed_by")
