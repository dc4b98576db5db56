"""Change keys expire: a key tells when its form was made

- ``change_key.made_at`` (indexed) replaces ``created_at``: the time the key's
  form was made, which the key now carries. A key is refused 30 days after it,
  and its row deleted soon after, a few at each key written. Keys written
  before this told no time: their rows keep their own time of writing.

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-02 10:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("change_key") as batch_op:
        batch_op.add_column(sa.Column("made_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE change_key SET made_at = created_at")
    with op.batch_alter_table("change_key") as batch_op:
        batch_op.alter_column("made_at", existing_type=sa.DateTime(), nullable=False)
        batch_op.drop_column("created_at")
        batch_op.create_index("ix_change_key_made_at", ["made_at"])


def downgrade():
    with op.batch_alter_table("change_key") as batch_op:
        batch_op.add_column(sa.Column("created_at", sa.DateTime(), nullable=True))
    op.execute("UPDATE change_key SET created_at = made_at")
    with op.batch_alter_table("change_key") as batch_op:
        batch_op.alter_column("created_at", existing_type=sa.DateTime(), nullable=False)
        batch_op.drop_index("ix_change_key_made_at")
        batch_op.drop_column("made_at")
