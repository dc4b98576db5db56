"""Change keys: every change a phone makes is applied at most once

- ``change_key``: the key a change's form carried, unique in its group, and
  what the change answered, for its repeats (a double tap, a retry after a
  timeout). Written in the change's own transaction.

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-28 18:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

KEY_MAX = 64


def upgrade():
    op.create_table(
        "change_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=True),
        sa.Column("key", sa.String(KEY_MAX), nullable=False),
        sa.Column("answer", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["player_group.id"],
                                name="fk_change_key_group_id_player_group", ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["session_id"], ["game_session.id"],
                                name="fk_change_key_session_id_game_session",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_change_key"),
        sa.UniqueConstraint("group_id", "key", name="uq_change_key_group_id_key"),
    )


def downgrade():
    op.drop_table("change_key")
