"""A player's payment details, for paying by QR

- ``player.payto_kind``: how the player is paid (a DuitNow ID, a PayNow
  proxy, their bank's own QR; "" for none), payto.Kind's value.
- ``player.payto_value``: the ID, proxy or QR text.

Revision ID: 0018
Revises: 0017
Create Date: 2026-11-29 19:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("player") as batch_op:
        batch_op.add_column(sa.Column("payto_kind", sa.String(20), server_default="",
                                      nullable=False))
        batch_op.add_column(sa.Column("payto_value", sa.String(512), server_default="",
                                      nullable=False))


def downgrade():
    with op.batch_alter_table("player") as batch_op:
        batch_op.drop_column("payto_value")
        batch_op.drop_column("payto_kind")
