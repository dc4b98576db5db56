"""Invite links: a group's links that sign phones in without the passphrase

- ``invite``: one row per link, naming it by the SHA-256 of its random token
  (``token_hash``, unique; the token itself is shown once and never stored),
  with when it stops working (``expires_at``), how many phones it may sign in
  (``phones``) and has signed in (``used``), and when it was revoked.

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-03 10:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None

TOKEN_HASH_LENGTH = 64
DEVICE_MAX = 30


def upgrade():
    op.create_table(
        "invite",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(TOKEN_HASH_LENGTH), nullable=False),
        sa.Column("device", sa.String(DEVICE_MAX), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.Column("phones", sa.Integer(), nullable=False),
        sa.Column("used", sa.Integer(), server_default="0", nullable=False),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["group_id"], ["player_group.id"],
                                name="fk_invite_group_id_player_group", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_invite"),
        sa.UniqueConstraint("token_hash", name="uq_invite_token_hash"),
    )
    op.create_index("ix_invite_group_id", "invite", ["group_id"])
    op.create_index("ix_invite_expires_at", "invite", ["expires_at"])


def downgrade():
    op.drop_table("invite")
