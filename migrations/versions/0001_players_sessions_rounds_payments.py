"""Players, sessions with their seats, rounds with each player's entry, and payments

Revision ID: 0001
Revises: 
Create Date: 2026-11-22 13:01:32.856339

"""
import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table('player',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('name', sa.String(length=30), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_player')),
    sa.UniqueConstraint('name', name=op.f('uq_player_name'))
    )
    op.create_table('game_session',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('started_at', sa.DateTime(), nullable=False),
    sa.Column('ended_at', sa.DateTime(), nullable=True),
    sa.Column('currency', sa.String(length=8), nullable=False),
    sa.Column('house_rules', sa.JSON(), nullable=False),
    sa.Column('first_dealer_id', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['first_dealer_id'], ['player.id'], name=op.f('fk_game_session_first_dealer_id_player')),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_game_session'))
    )
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_game_session_ended_at'), ['ended_at'], unique=False)
        batch_op.create_index(batch_op.f('ix_game_session_started_at'), ['started_at'], unique=False)

    op.create_table('payment',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('payer_id', sa.Integer(), nullable=False),
    sa.Column('payee_id', sa.Integer(), nullable=False),
    sa.Column('cents', sa.Integer(), nullable=False),
    sa.Column('paid_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['payee_id'], ['player.id'], name=op.f('fk_payment_payee_id_player')),
    sa.ForeignKeyConstraint(['payer_id'], ['player.id'], name=op.f('fk_payment_payer_id_player')),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], name=op.f('fk_payment_session_id_game_session'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_payment'))
    )
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_payment_session_id'), ['session_id'], unique=False)

    op.create_table('round',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('number', sa.Integer(), nullable=False),
    sa.Column('dealer_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=False),
    sa.ForeignKeyConstraint(['dealer_id'], ['player.id'], name=op.f('fk_round_dealer_id_player')),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], name=op.f('fk_round_session_id_game_session'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round')),
    sa.UniqueConstraint('session_id', 'number', name=op.f('uq_round_session_id_number'))
    )
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_session_id'), ['session_id'], unique=False)

    op.create_table('seat',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('session_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('active', sa.Boolean(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_seat_player_id_player')),
    sa.ForeignKeyConstraint(['session_id'], ['game_session.id'], name=op.f('fk_seat_session_id_game_session'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_seat')),
    sa.UniqueConstraint('session_id', 'player_id', name=op.f('uq_seat_session_id_player_id'))
    )
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_seat_session_id'), ['session_id'], unique=False)

    op.create_table('round_entry',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('round_id', sa.Integer(), nullable=False),
    sa.Column('player_id', sa.Integer(), nullable=False),
    sa.Column('seat', sa.Integer(), nullable=False),
    sa.Column('turn', sa.Integer(), nullable=False),
    sa.Column('outcome', sa.String(length=12), nullable=False),
    sa.Column('cards', sa.Text(), nullable=False),
    sa.Column('points', sa.Integer(), nullable=False),
    sa.Column('position', sa.Integer(), nullable=False),
    sa.Column('tier_cents', sa.Integer(), nullable=False),
    sa.Column('hu_cents', sa.Integer(), nullable=False),
    sa.Column('joker_ace_cents', sa.Integer(), nullable=False),
    sa.Column('net_cents', sa.Integer(), nullable=False),
    sa.ForeignKeyConstraint(['player_id'], ['player.id'], name=op.f('fk_round_entry_player_id_player')),
    sa.ForeignKeyConstraint(['round_id'], ['round.id'], name=op.f('fk_round_entry_round_id_round'), ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id', name=op.f('pk_round_entry')),
    sa.UniqueConstraint('round_id', 'player_id', name=op.f('uq_round_entry_round_id_player_id'))
    )
    with op.batch_alter_table('round_entry', schema=None) as batch_op:
        batch_op.create_index(batch_op.f('ix_round_entry_player_id'), ['player_id'], unique=False)
        batch_op.create_index(batch_op.f('ix_round_entry_round_id'), ['round_id'], unique=False)



def downgrade():
    with op.batch_alter_table('round_entry', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_entry_round_id'))
        batch_op.drop_index(batch_op.f('ix_round_entry_player_id'))

    op.drop_table('round_entry')
    with op.batch_alter_table('seat', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_seat_session_id'))

    op.drop_table('seat')
    with op.batch_alter_table('round', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_round_session_id'))

    op.drop_table('round')
    with op.batch_alter_table('payment', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_payment_session_id'))

    op.drop_table('payment')
    with op.batch_alter_table('game_session', schema=None) as batch_op:
        batch_op.drop_index(batch_op.f('ix_game_session_started_at'))
        batch_op.drop_index(batch_op.f('ix_game_session_ended_at'))

    op.drop_table('game_session')
    op.drop_table('player')
