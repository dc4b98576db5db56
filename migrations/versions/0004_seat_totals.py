"""Seat totals: each player's rounds, points, money and counts per session, stored

A player's page and the history list read one seat row per session instead of
summing every round entry (120,000 of them for a regular of ten years). The
services keep the totals whenever a round changes; here they are computed once
for the rounds already played. The index of a player's seats takes the totals
in, so that a player's record is summed from the index alone.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22 18:40:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TOTALS = ("rounds_played", "points", "net_cents", "wins", "hu", "tien_hu",
          "counted_rounds", "counted_points")
# The totals a player's record sums, in the index of their seats.
INDEXED = ("net_cents", "rounds_played", "wins", "hu", "tien_hu", "counted_rounds",
           "counted_points")

# Each total as a sum over the seat's round entries (alias e, in the seat's session).
NOT_BY_OTHERS_TIEN_HU = (
    "NOT EXISTS (SELECT 1 FROM round_entry t WHERE t.round_id = e.round_id"
    " AND t.outcome = 'tien_hu' AND t.player_id <> e.player_id)")
SUMS = {
    "rounds_played": "COUNT(e.id)",
    "points": "SUM(e.points)",
    "net_cents": "SUM(e.net_cents)",
    "wins": "SUM(CASE WHEN e.position = 1 THEN 1 ELSE 0 END)",
    "hu": "SUM(CASE WHEN e.outcome = 'hu' THEN 1 ELSE 0 END)",
    "tien_hu": "SUM(CASE WHEN e.outcome = 'tien_hu' THEN 1 ELSE 0 END)",
    "counted_rounds": f"SUM(CASE WHEN {NOT_BY_OTHERS_TIEN_HU} THEN 1 ELSE 0 END)",
    "counted_points": f"SUM(CASE WHEN {NOT_BY_OTHERS_TIEN_HU} THEN e.points ELSE 0 END)",
}


def upgrade():
    with op.batch_alter_table('seat') as batch_op:
        for name in TOTALS:
            batch_op.add_column(sa.Column(name, sa.Integer(), server_default="0",
                                          nullable=False))
        batch_op.drop_index('ix_seat_player_id_session_id')
        batch_op.create_index('ix_seat_player_id_totals', ['player_id', 'session_id', *INDEXED])
    of_the_seat = ("FROM round_entry e JOIN round r ON r.id = e.round_id"
                   " WHERE r.session_id = seat.session_id AND e.player_id = seat.player_id")
    op.execute(
        "UPDATE seat SET " + ", ".join(
            f"{name} = COALESCE((SELECT {SUMS[name]} {of_the_seat}), 0)" for name in TOTALS)
        + f" WHERE EXISTS (SELECT 1 {of_the_seat})")


def downgrade():
    with op.batch_alter_table('seat') as batch_op:
        batch_op.drop_index('ix_seat_player_id_totals')
        batch_op.create_index('ix_seat_player_id_session_id', ['player_id', 'session_id'])
        for name in reversed(TOTALS):
            batch_op.drop_column(name)
