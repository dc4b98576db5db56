"""Each group's count of finished sessions, stored

The history's first page shows how many sessions a group has finished; with
10,000 of them, counting took longer than the rest of the page. The services
keep the count as sessions end and reopen; here it is counted once for the
sessions already played.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-22 21:30:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('player_group') as batch_op:
        batch_op.add_column(sa.Column('finished_sessions', sa.Integer(), server_default="0",
                                      nullable=False))
    op.execute(
        "UPDATE player_group SET finished_sessions = (SELECT COUNT(*) FROM game_session"
        " WHERE game_session.group_id = player_group.id AND game_session.ended_at IS NOT NULL)")


def downgrade():
    with op.batch_alter_table('player_group') as batch_op:
        batch_op.drop_column('finished_sessions')
