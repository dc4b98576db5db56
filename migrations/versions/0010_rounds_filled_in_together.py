"""Rounds filled in together

- ``draft_entry``: each player's hand in a session's coming round, as typed
  on the phones that fill it in together, with its own version and the phone
  that last saved it; removed when the round is saved.
- ``player_group.autosave_rounds``: a house setting, the last hand entered
  saves the round at once (off).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-25 18:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

OUTCOME_MAX = 12
DEVICE_MAX = 30


def upgrade():
    op.create_table(
        "draft_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("session_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("outcome", sa.String(OUTCOME_MAX), nullable=False),
        sa.Column("cards", sa.Text(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("draft_version", sa.Integer(), nullable=False),
        sa.Column("device", sa.String(DEVICE_MAX), nullable=False),
        sa.Column("phone_player_id", sa.Integer(), nullable=True),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["session_id"], ["game_session.id"],
                                name="fk_draft_entry_session_id_game_session",
                                ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["player_id"], ["player.id"],
                                name="fk_draft_entry_player_id_player"),
        sa.ForeignKeyConstraint(["phone_player_id"], ["player.id"],
                                name="fk_draft_entry_phone_player_id_player"),
        sa.PrimaryKeyConstraint("id", name="pk_draft_entry"),
        sa.UniqueConstraint("session_id", "player_id", name="uq_draft_entry_session_id_player_id"),
    )
    op.create_index("ix_draft_entry_player_id", "draft_entry", ["player_id"])
    with op.batch_alter_table("player_group") as batch_op:
        batch_op.add_column(sa.Column("autosave_rounds", sa.Boolean(), nullable=False,
                                      server_default=sa.false()))


def downgrade():
    with op.batch_alter_table("player_group") as batch_op:
        batch_op.drop_column("autosave_rounds")
    op.drop_table("draft_entry")
