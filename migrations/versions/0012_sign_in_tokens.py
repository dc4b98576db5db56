"""Sign-in tokens, and one table for every limit's counts

- ``sign_in`` is made anew: a row is named by the SHA-256 of a random token
  that the phone's cookie holds (``token_hash``, unique), no longer by its id,
  which SQLite hands out again once the row is deleted; ``used_at`` says when
  the phone last renewed its cookie, so that rows unused for longer than a
  cookie lives can go. The sign-ins made before are deleted: a cookie that
  names one by its id opens nothing, and the phone signs in again.
- ``attempt`` replaces ``passphrase_guess``: the sign-in limit's counts and
  those of the hourly limits on new groups and imports, each row kept
  ``until`` its own window ends. The guesses counted before start again
  from nothing (they counted for 15 minutes at the most).

Revision ID: 0012
Revises: 0011
Create Date: 2026-12-02 10:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

TOKEN_HASH_LENGTH = 64
KEY_MAX = 200


def upgrade():
    op.drop_table("sign_in")
    op.create_table(
        "sign_in",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(TOKEN_HASH_LENGTH), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["player_group.id"],
                                name="fk_sign_in_group_id_player_group", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_sign_in"),
        sa.UniqueConstraint("token_hash", name="uq_sign_in_token_hash"),
    )
    op.create_index("ix_sign_in_group_id", "sign_in", ["group_id"])
    op.create_index("ix_sign_in_used_at", "sign_in", ["used_at"])
    op.drop_table("passphrase_guess")
    op.create_table(
        "attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(KEY_MAX), nullable=False),
        sa.Column("until", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_attempt"),
    )
    op.create_index("ix_attempt_key_until", "attempt", ["key", "until"])
    op.create_index("ix_attempt_until", "attempt", ["until"])


def downgrade():
    """The tables of 0008, empty: every phone signs in again."""
    op.drop_table("attempt")
    op.create_table(
        "passphrase_guess",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(KEY_MAX), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_passphrase_guess"),
    )
    op.create_index("ix_passphrase_guess_key_at", "passphrase_guess", ["key", "at"])
    op.create_index("ix_passphrase_guess_at", "passphrase_guess", ["at"])
    op.drop_table("sign_in")
    op.create_table(
        "sign_in",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["group_id"], ["player_group.id"],
                                name="fk_sign_in_group_id_player_group", ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id", name="pk_sign_in"),
    )
    op.create_index("ix_sign_in_group_id", "sign_in", ["group_id"])
