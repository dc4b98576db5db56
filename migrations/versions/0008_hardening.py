"""Unique folded names, 64-bit money, sign-ins and passphrase guesses in the database

- A group's name is unique whatever its letter case: each group of a shared
  name made every sign-in to that name check one more passphrase hash, and
  creating one was a way to guess. Later groups that share a name with an
  earlier one are renamed "Name (2)", "Name (3)" …
- A player's name is unique in the group whatever its letter case
  (``player.name_key``), so two phones adding "Casey" and "casey" at once
  make one player. Later case twins are renamed the same way.
- Money columns become 64-bit: a round at 100,000.00 a point passes 32 bits.
- ``sign_in``: one row per signed-in phone, deleted at sign-out, so that a
  copied cookie dies with it.
- ``passphrase_guess``: the sign-in limit's counts, shared by every worker.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25 14:00:00

"""
import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

NAME_MAX = 30
GROUP_NAME_MAX = 40
FOLDED = 3  # casefold() makes a name at most three times as long

MONEY = {"round_entry": ("tier_cents", "hu_cents", "joker_ace_cents", "net_cents"),
         "seat": ("net_cents",), "payment": ("cents",)}

# The tables as this revision knows them.
player_group = sa.table("player_group", sa.column("id", sa.Integer),
                        sa.column("name", sa.String), sa.column("name_key", sa.String))
player = sa.table("player", sa.column("id", sa.Integer), sa.column("group_id", sa.Integer),
                  sa.column("name", sa.String), sa.column("name_key", sa.String))


def _distinct_names(rows, longest):
    """{id: (name, key)} with every key distinct among ``rows`` (id, name),
    taken oldest first: a later twin becomes "Name (2)"."""
    taken, named = set(), {}
    for row_id, name in sorted(rows):
        candidate, n = name, 1
        while candidate.casefold() in taken:
            n += 1
            suffix = f" ({n})"
            candidate = name[:longest - len(suffix)] + suffix
        taken.add(candidate.casefold())
        named[row_id] = (candidate, candidate.casefold())
    return named


def upgrade():
    connection = op.get_bind()

    with op.batch_alter_table("player_group") as batch_op:
        batch_op.alter_column("name_key", type_=sa.String(FOLDED * GROUP_NAME_MAX),
                              existing_type=sa.String(GROUP_NAME_MAX))
    groups = connection.execute(sa.select(player_group.c.id, player_group.c.name)).all()
    for group_id, (name, key) in _distinct_names(groups, GROUP_NAME_MAX).items():
        connection.execute(player_group.update().where(player_group.c.id == group_id)
                           .values(name=name, name_key=key))
    with op.batch_alter_table("player_group") as batch_op:
        batch_op.drop_index("ix_player_group_name_key")
        batch_op.create_unique_constraint("uq_player_group_name_key", ["name_key"])

    with op.batch_alter_table("player") as batch_op:
        batch_op.add_column(sa.Column("name_key", sa.String(FOLDED * NAME_MAX), nullable=True))
    by_group: dict[int, list] = {}
    for player_id, group_id, name in connection.execute(
            sa.select(player.c.id, player.c.group_id, player.c.name)):
        by_group.setdefault(group_id, []).append((player_id, name))
    for rows in by_group.values():
        for player_id, (name, key) in _distinct_names(rows, NAME_MAX).items():
            connection.execute(player.update().where(player.c.id == player_id)
                               .values(name=name, name_key=key))
    with op.batch_alter_table("player") as batch_op:
        batch_op.alter_column("name_key", existing_type=sa.String(FOLDED * NAME_MAX),
                              nullable=False)
        batch_op.drop_constraint("uq_player_group_id_name", type_="unique")
        batch_op.create_unique_constraint("uq_player_group_id_name_key", ["group_id", "name_key"])

    for table, columns in MONEY.items():
        with op.batch_alter_table(table) as batch_op:
            for column in columns:
                batch_op.alter_column(column, type_=sa.BigInteger(),
                                      existing_type=sa.Integer(), existing_nullable=False)

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
    op.create_table(
        "passphrase_guess",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(200), nullable=False),
        sa.Column("at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_passphrase_guess"),
    )
    op.create_index("ix_passphrase_guess_key_at", "passphrase_guess", ["key", "at"])
    op.create_index("ix_passphrase_guess_at", "passphrase_guess", ["at"])


def downgrade():
    op.drop_table("passphrase_guess")
    op.drop_table("sign_in")
    for table, columns in MONEY.items():
        with op.batch_alter_table(table) as batch_op:
            for column in columns:
                batch_op.alter_column(column, type_=sa.Integer(),
                                      existing_type=sa.BigInteger(), existing_nullable=False)
    with op.batch_alter_table("player") as batch_op:
        batch_op.drop_constraint("uq_player_group_id_name_key", type_="unique")
        batch_op.create_unique_constraint("uq_player_group_id_name", ["group_id", "name"])
        batch_op.drop_column("name_key")
    with op.batch_alter_table("player_group") as batch_op:
        batch_op.drop_constraint("uq_player_group_name_key", type_="unique")
        batch_op.create_index("ix_player_group_name_key", ["name_key"])
        batch_op.alter_column("name_key", type_=sa.String(GROUP_NAME_MAX),
                              existing_type=sa.String(FOLDED * GROUP_NAME_MAX))
