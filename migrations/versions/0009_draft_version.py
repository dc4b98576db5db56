"""The version of the round being filled in together

Phones watch a session for changes to show them live. Entries of the round
filled in together change often and must not make open forms stale, so they
raise a version of their own, next to the session's.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-25 16:10:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.add_column(sa.Column('draft_version', sa.Integer(), nullable=False,
                                      server_default='0'))


def downgrade():
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.drop_column('draft_version')
