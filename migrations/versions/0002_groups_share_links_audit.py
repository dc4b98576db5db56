"""Groups own players and sessions; share links; the audit trail; session versions

Rows from before groups move into one group, "Our table", whose passphrase
nobody knows until an operator sets it with `flask group set-passphrase`.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22 15:30:00

"""
from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# Frozen snapshots of the tables as this revision leaves them, not the live models.
player_group = sa.table(
    "player_group",
    sa.column("id", sa.Integer), sa.column("name", sa.String), sa.column("name_key", sa.String),
    sa.column("passphrase_hash", sa.String), sa.column("created_at", sa.DateTime))
player = sa.table("player", sa.column("group_id", sa.Integer))
game_session = sa.table("game_session", sa.column("group_id", sa.Integer))

EXISTING_GROUP = "Our table"


def upgrade():
    op.create_table('player_group',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=40), nullable=False),
    sa.Column('name_key', sa.String(length=40), nullable=False),
    sa.Column('passphrase_hash', sa.String(length=255), nullable=False),
    sa.Column('timezone', sa.String(length=64), server_default='Asia/Kuala_Lumpur', nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player_group'))
    )
    with op.batch_alter_table('player_group') as batch_op:
        batch_op.create_index(batch_op.f('ix_player_group_name_key'), ['name_key'], unique=False)
    with op.batch_alter_table('player') as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.Integer(), nullable=True))
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.add_column(sa.Column('group_id', sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column('version', sa.Integer(), server_default='1', nullable=False))

    connection = op.get_bind()
    if connection.scalar(sa.select(sa.func.count()).select_from(sa.table("player"))):
        # "!" is no werkzeug hash, so no passphrase matches it until one is set.
        group_id = connection.execute(player_group.insert().values(
            name=EXISTING_GROUP, name_key=EXISTING_GROUP.casefold(), passphrase_hash="!",
            created_at=datetime.now(UTC).replace(tzinfo=None),
        ).returning(player_group.c.id)).scalar_one()
        connection.execute(player.update().values(group_id=group_id))
        connection.execute(game_session.update().values(group_id=group_id))

    with op.batch_alter_table('player') as batch_op:
        batch_op.alter_column('group_id', existing_type=sa.Integer(), nullable=False)
        batch_op.drop_constraint('uq_player_name', type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_player_group_id_name'), ['group_id', 'name'])
        batch_op.create_index(batch_op.f('ix_player_group_id'), ['group_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_player_group_id_player_group'), 'player_group', ['group_id'], ['id'], ondelete='CASCADE')
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.alter_column('group_id', existing_type=sa.Integer(), nullable=False)
        batch_op.create_index(batch_op.f('ix_game_session_group_id'), ['group_id'], unique=False)
        batch_op.create_foreign_key(batch_op.f('fk_game_session_group_id_player_group'), 'player_group', ['group_id'], ['id'], ondelete='CASCADE')

    op.create_table('share_link',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.Column('revoked_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], name=op.f('fk_share_link_session_id_game_session'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_share_link'))
    )
    with op.batch_alter_table('share_link') as batch_op:
        batch_op.create_index(batch_op.f('ix_share_link_session_id'), ['session_id'], unique=False)

    op.create_table('audit_event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('group_id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=True),
    sa.Column('at', sa.DateTime(), nullable=False),
    sa.Column('device', sa.String(length=30), nullable=False),
    sa.Column('action', sa.String(length=24), nullable=False),
    sa.Column('subject', sa.String(length=80), nullable=False),
    sa.Column('before', sa.JSON(), nullable=True),
    sa.Column('after', sa.JSON(), nullable=True),
    sa.Column('version', sa.Integer(), nullable=True),
    sa.ForeignKeyConstraint(['group_id'], ['player_group.id'], name=op.f('fk_audit_event_group_id_player_group'), ondelete='CASCADE'),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], name=op.f('fk_audit_event_session_id_game_session'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_audit_event'))
    )
    with op.batch_alter_table('audit_event') as batch_op:
        batch_op.create_index(batch_op.f('ix_audit_event_group_id'), ['group_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_audit_event_session_id'), ['session_id'], unique=False)


def downgrade():
    op.drop_table('audit_event')
    op.drop_table('share_link')
    with op.batch_alter_table('game_session') as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_game_session_group_id_player_group'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_game_session_group_id'))
        batch_op.drop_column('version')
        batch_op.drop_column('group_id')
    # Player names were unique across the whole instance before groups.
    with op.batch_alter_table('player') as batch_op:
        batch_op.drop_constraint(batch_op.f('fk_player_group_id_player_group'), type_='foreignkey')
        batch_op.drop_index(batch_op.f('ix_player_group_id'))
        batch_op.drop_constraint(batch_op.f('uq_player_group_id_name'), type_='unique')
        batch_op.create_unique_constraint(batch_op.f('uq_player_name'), ['name'])
        batch_op.drop_column('group_id')
    op.drop_table('player_group')
