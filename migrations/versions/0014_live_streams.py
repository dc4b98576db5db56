"""Live streams: the open streams of the live pages, counted against their caps

- ``live_stream``: one row per open stream, with what holds it (a sign-in or a
  share link), the client's address and when it lapses unless renewed. Every
  worker of every app server counts the same rows.

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-01 10:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "live_stream",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("holder", sa.String(100), nullable=False),
        sa.Column("address", sa.String(64), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_live_stream"),
    )
    op.create_index("ix_live_stream_holder_expires_at", "live_stream", ["holder", "expires_at"])
    op.create_index("ix_live_stream_address_expires_at", "live_stream",
                    ["address", "expires_at"])
    op.create_index("ix_live_stream_expires_at", "live_stream", ["expires_at"])


def downgrade():
    op.drop_table("live_stream")
