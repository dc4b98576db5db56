"""An index of the sessions still being played, by group, newest first

The home page lists a group's open sessions, the latest started first. On
PostgreSQL the planner, thinking a few of the newest sessions would be open,
read the group's sessions newest first and passed over every ended one: all
10,000 of a group of ten years, 2 ms, when one session was open. This partial
index holds the open sessions only. (SQLite already found them through
ix_game_session_group_id_ended_at, taking IS NULL as an equality.)

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-23 04:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.create_index('ix_game_session_open', ['group_id', 'started_at'],
                              sqlite_where=sa.text("ended_at IS NULL"),
                              postgresql_where=sa.text("ended_at IS NULL"))


def downgrade():
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.drop_index('ix_game_session_open')
