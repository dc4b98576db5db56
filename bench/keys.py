"""The bytes a change's once-only key takes in the database: its change_key
row and its entries in the table's indexes, on SQLite or PostgreSQL.

Saves changes through the services with keys and answers as the web layer
makes them, into a fresh database: rounds as the round form saves them
(answered by a redirect), and hands of rounds filled in together (answered
by the hand, web/drafts.py), in sessions of four players. Prints, for each
kind, the bytes a key adds to the table and to each index: on SQLite the
pages the dbstat table counts; on PostgreSQL, after VACUUM, pg_table_size
(the table, its TOAST table and maps) and each index's pg_relation_size.

    .venv/bin/python bench/keys.py                  # SQLite file in instance/
    .venv/bin/python bench/keys.py --database-url postgresql://...
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import sqlalchemy as sa

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import create_app, services
from scorekeeper.extensions import db
from scorekeeper.models import ChangeKey, GameSession, Player, utcnow
from scorekeeper.rules import Entry, HouseRules
from scorekeeper.web.drafts import _kept
from scorekeeper.web.once import new_key

# A round of four, as typed: the outcome and cards of each player.
HANDS = {"Ann": ("dead", "2C 5D 9H"), "Ben": ("dead", "KS 3D JK"), "Cat": ("hu", ""),
         "Dan": ("dead", "7H 8H")}
ROUND = {name: Entry(*hand) for name, hand in HANDS.items()}
INDEXES = ("pk_change_key", "uq_change_key_group_id_key", "ix_change_key_made_at")


def sizes() -> dict[str, int]:
    """Bytes of the table and of each of its indexes."""
    names = ("change_key", *INDEXES)
    if db.engine.dialect.name == "postgresql":
        with db.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            connection.execute(sa.text("VACUUM change_key"))
            # The table with its TOAST table and maps; each index alone.
            return {name: connection.scalar(sa.text(
                f"SELECT {'pg_table_size' if name == 'change_key' else 'pg_relation_size'}"
                "(:name)"), {"name": name}) for name in names}
    rows = db.session.execute(sa.text(
        "SELECT name, SUM(pgsize) FROM dbstat WHERE name IN (:a, :b, :c, :d) GROUP BY name"),
        dict(zip("abcd", names, strict=True))).all()
    found = dict(rows)
    # SQLite names a table's own unique index sqlite_autoindex_…; the primary key
    # is the table itself.
    if "uq_change_key_group_id_key" not in found:
        found["uq_change_key_group_id_key"] = db.session.scalar(sa.text(
            "SELECT SUM(pgsize) FROM dbstat WHERE name LIKE 'sqlite_autoindex_change_key%'"))
    return {name: found.get(name) or 0 for name in names}


def new_session(group) -> GameSession:
    return services.start_session(services.Change(group), list(ROUND), HouseRules.rummi(),
                                  first_dealer="Ann")


def save_rounds(group, count: int) -> None:
    session = new_session(group)
    for _ in range(count):
        if len(session.rounds) >= 400:
            session = new_session(group)
        # Rounds alike but one card, so that none repeats the one before.
        played = {**ROUND, "Ann": Entry("dead", "2C 5D 9H" if len(session.rounds) % 2 else "4C")}
        services.record_round(services.Change.to(session, once=services.Once(
            new_key(), utcnow(), lambda n, s=session.id: {
                "redirect": f"/sessions/{s}/rounds/{n}"})), played)


def save_hands(app, group, count: int) -> None:
    session = new_session(group)
    players = {p.name: p.id for p in db.session.scalars(sa.select(Player))}
    with app.test_request_context():
        for n in range(count):
            name = list(HANDS)[n % 4]
            (outcome, cards), number = HANDS[name], len(session.rounds) + 1
            if n % 8 >= 4:  # every other time round the table: a hand changed, saved anew
                cards += " 3S"
            once = services.Once(new_key(), utcnow(),
                                 lambda saved: {"status": 200, "json": _kept(saved)})
            services.save_hand(services.Change.to(session, device=f"{name}'s phone",
                                                  player_id=players[name], once=once),
                               players[name], outcome, cards,
                               base=_version(session, players[name]), number=number)


def _version(session: GameSession, player_id: int) -> int:
    draft = services.read_draft(session)
    hand = draft.place_of(player_id).hand
    return hand.version if hand else 0


def measure(app, kind: str, count: int) -> None:
    with app.app_context():
        group = services.create_group(f"Bench {kind}", "a bench passphrase")
        before, rows_before = sizes(), db.session.scalar(sa.select(sa.func.count(ChangeKey.id)))
        (save_rounds(group, count) if kind == "rounds" else save_hands(app, group, count))
        after, rows = sizes(), db.session.scalar(sa.select(sa.func.count(ChangeKey.id)))
        added = rows - rows_before
        each = {name: (after[name] - before[name]) / added for name in after}
        print(f"| {kind} ({added} keys) | {each['change_key']:.0f} | "
              + " | ".join(f"{each[name]:.0f}" for name in INDEXES)
              + f" | {sum(each.values()):.0f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--database-url",
                        default=f"sqlite:///{ROOT / 'instance' / 'bench-keys.sqlite3'}")
    parser.add_argument("--count", type=int, default=4000, help="keys of each kind")
    args = parser.parse_args()
    app = create_app({"SQLALCHEMY_DATABASE_URI": args.database_url,
                      "SECRET_KEY": "bench keys, a key long enough to sign",
                      "PASSPHRASE_HASH_METHOD": "pbkdf2:sha256:1000"})
    with app.app_context():  # a database of its own, emptied
        from flask_migrate import upgrade
        old = sa.MetaData()
        old.reflect(db.engine)
        old.drop_all(db.engine)
        upgrade(directory=str(ROOT / "migrations"))
    print(f"database: {sa.make_url(args.database_url).get_backend_name()}, bytes per key")
    print("| changes | table | primary key | (group, key) | made_at | in all |")
    print("|---|---|---|---|---|---|")
    for kind in ("rounds", "hands"):
        measure(app, kind, args.count)


if __name__ == "__main__":
    main()
