"""Indexes for years of history: the pages' queries stay quick at 10,000 sessions a group

game_session (group_id, ended_at, started_at): the home page's sessions in
    play (ended_at IS NULL, newest first) and last ended, and the history
    page's count of ended sessions (read from the index alone).
game_session (group_id, started_at): the history page, newest first, one page
    at a time, and the export's order, without sorting the group's sessions.
    These two replace the indexes on group_id, started_at and ended_at alone:
    every query of sessions names the group.
seat (player_id, session_id): a player's page (their sessions and money), the
    players of the history filter and of the new-session form, without reading
    every seat of the instance.
round_entry (round_id, outcome): a player's record looks up whether each of
    their rounds was won with a Tien Hu. It replaces the index on round_id
    alone, whose lookups the unique (round_id, player_id) serves as well.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22 17:00:00

"""
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_session_group_id'))
        batch_op.drop_index(batch_op.f('ix_game_session_started_at'))
        batch_op.drop_index(batch_op.f('ix_game_session_ended_at'))
        batch_op.create_index(batch_op.f('ix_game_session_group_id_ended_at'),
                              ['group_id', 'ended_at', 'started_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_session_group_id_started_at'),
                              ['group_id', 'started_at'], unique=False)
    with op.batch_alter_table('seat') as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_player_id_session_id'),
                              ['player_id', 'session_id'], unique=False)
    with op.batch_alter_table('round_entry') as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_entry_round_id'))
        batch_op.create_index(batch_op.f('ix_round_entry_round_id_outcome'),
                              ['round_id', 'outcome'], unique=False)


def downgrade():
    with op.batch_alter_table('round_entry') as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_entry_round_id_outcome'))
        batch_op.create_index(batch_op.f('ix_round_entry_round_id'), ['round_id'], unique=False)
    with op.batch_alter_table('seat') as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_player_id_session_id'))
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_session_group_id_started_at'))
        batch_op.drop_index(batch_op.f('ix_game_session_group_id_ended_at'))
        batch_op.create_index(batch_op.f('ix_game_session_ended_at'), ['ended_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_session_started_at'), ['started_at'],
                              unique=False)
        batch_op.create_index(batch_op.f('ix_game_session_group_id'), ['group_id'], unique=False)
