"""The migrations build exactly the schema the models describe, on either database."""

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scorekeeper import services
from scorekeeper.extensions import db
from scorekeeper.models import Attempt, GameSession, Group, Player, Seat, SignIn
from scorekeeper.rules import Entry
from tests.conftest import drop_everything
from tests.web.examples import EXAMPLE_RULES, TIEN_HU
from tests.web.probing import finished_count_problems, seat_total_problems


def test_models_and_migrations_agree(app, runner):
    with app.app_context():
        drop_everything()
    result = runner.invoke(args=["db", "upgrade"])
    assert result.exit_code == 0, result.output
    with app.app_context(), db.engine.connect() as connection:
        differences = compare_metadata(MigrationContext.configure(connection), db.metadata)
    assert differences == []


def test_downgrade_removes_every_table(app, runner):
    with app.app_context():
        drop_everything()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    result = runner.invoke(args=["db", "downgrade", "base"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        remaining = set(db.inspect(db.engine).get_table_names()) - {"alembic_version"}
    assert remaining == set()


def test_rows_from_before_groups_move_into_one_group(app, runner):
    """0002 puts existing players and sessions into "Our table", whose passphrase
    nobody knows until the operator sets one."""
    with app.app_context():
        drop_everything()
    assert runner.invoke(args=["db", "upgrade", "0001"]).exit_code == 0
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO player (id, name, created_at) VALUES (1, 'Ann', '2026-01-01'), "
            "(2, 'Ben', '2026-01-01')"))
        connection.execute(sa.text(
            "INSERT INTO game_session (id, started_at, currency, house_rules, first_dealer_id) "
            "VALUES (1, '2026-01-01', 'RM', '{}', 1)"))
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        group = db.session.scalar(sa.select(Group))
        assert group.name == "Our table"
        assert services.group_for_sign_in("Our table", "!") is None
        assert {p.group_id for p in db.session.scalars(sa.select(Player))} == {group.id}
        assert db.session.get(GameSession, 1).group_id == group.id
        assert db.session.get(GameSession, 1).version == 1
    result = runner.invoke(args=["group", "set-passphrase", "our table",
                                 "--passphrase", "a new one at last"])
    assert result.exit_code == 0, result.output
    with app.app_context():
        assert services.group_for_sign_in("Our table", "a new one at last").id == group.id


def test_seat_totals_are_computed_for_rounds_played_before_0004(app, runner):
    """0004 adds the seats' totals and fills them in from the rounds: the same
    totals the services keep, Hu, Tien Hu and players who left included."""
    with app.app_context():
        drop_everything()
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        group = services.create_group("Old table", "an old passphrase")
        game = services.start_session(services.Change(group),
                                      ["A", "B", "Eve"], EXAMPLE_RULES, first_dealer="A")
        services.record_round(services.Change.to(game), {"A": Entry("tien_hu", TIEN_HU),
                                                         "B": Entry("dead"), "Eve": Entry("dead")})
        services.record_round(services.Change.to(game),
                              {"A": Entry("dead", "KS QS"), "B": Entry("hu"),
                               "Eve": Entry("dead", "2H")})
        services.leave_session(services.Change.to(game), game.seats[2].player_id)
        services.record_round(services.Change.to(game),
                              {"A": Entry("dead", "5S"), "B": Entry("dead", "2D")})
        services.start_session(services.Change(group),
                               ["A", "Zed"], EXAMPLE_RULES, first_dealer="A")
        kept = totals()
    assert runner.invoke(args=["db", "downgrade", "0003"]).exit_code == 0
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        assert totals() == kept
        assert seat_total_problems() == []
        assert {name for (_, name), (rounds, *_) in kept.items() if rounds == 0} == {"Zed", "A"}


def totals() -> dict[tuple[int, str], tuple[int, ...]]:
    return {(seat.session_id, seat.player.name): tuple(
        getattr(seat, name) for name in services.SEAT_TOTALS)
        for seat in db.session.scalars(sa.select(Seat))}


def test_finished_sessions_are_counted_for_groups_from_before_0005(app, runner):
    """0005 stores each group's count of finished sessions, counted from the
    sessions already played; the services keep it after that."""
    with app.app_context():
        drop_everything()
    assert runner.invoke(args=["db", "upgrade", "0004"]).exit_code == 0
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO player_group (id, name, name_key, passphrase_hash, timezone, created_at)"
            " VALUES (1, 'One', 'one', 'x', 'UTC', '2026-01-01'),"
            " (2, 'Two', 'two', 'x', 'UTC', '2026-01-01'),"
            " (3, 'Three', 'three', 'x', 'UTC', '2026-01-01')"))
        connection.execute(sa.text(
            "INSERT INTO player (id, group_id, name, created_at) VALUES"
            " (1, 1, 'Ann', '2026-01-01'), (2, 2, 'Ben', '2026-01-01')"))
        connection.execute(sa.text(
            "INSERT INTO game_session (id, group_id, version, started_at, ended_at, currency,"
            " house_rules, first_dealer_id) VALUES"
            " (1, 1, 1, '2026-01-01', '2026-01-02', 'RM', '{}', 1),"
            " (2, 1, 1, '2026-01-03', '2026-01-04', 'RM', '{}', 1),"
            " (3, 1, 1, '2026-01-05', NULL, 'RM', '{}', 1),"
            " (4, 2, 1, '2026-01-05', NULL, 'RM', '{}', 2)"))
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        counts = dict(db.session.execute(sa.select(Group.name, Group.finished_sessions)).all())
        assert counts == {"One": 2, "Two": 0, "Three": 0}
        assert finished_count_problems() == []
    assert runner.invoke(args=["db", "downgrade", "0004"]).exit_code == 0
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0


def test_0008_renames_groups_and_players_that_share_a_folded_name(app, runner):
    """Before 0008 a name could repeat in any letter case: the later group (or
    player of a group) gets " (2)", and then the folded names are unique."""
    with app.app_context():
        drop_everything()
    assert runner.invoke(args=["db", "upgrade", "0007"]).exit_code == 0
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO player_group (id, name, name_key, passphrase_hash, timezone, created_at)"
            " VALUES (1, 'Friday', 'friday', 'x', 'UTC', '2026-01-01'),"
            " (2, 'FRIDAY', 'friday', 'y', 'UTC', '2026-01-01'),"
            " (3, 'Saturday', 'saturday', 'z', 'UTC', '2026-01-01')"))
        connection.execute(sa.text(
            "INSERT INTO player (id, group_id, name, created_at) VALUES"
            " (1, 1, 'Casey', '2026-01-01'), (2, 1, 'casey', '2026-01-01'),"
            " (3, 2, 'Casey', '2026-01-01'), (4, 1, 'Élise', '2026-01-01')"))
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        groups = db.session.execute(sa.select(Group.id, Group.name, Group.name_key)
                                    .order_by(Group.id)).all()
        assert groups == [(1, "Friday", "friday"), (2, "FRIDAY (2)", "friday (2)"),
                          (3, "Saturday", "saturday")]
        players = db.session.execute(sa.select(Player.id, Player.name, Player.name_key)
                                     .order_by(Player.id)).all()
        assert players == [(1, "Casey", "casey"), (2, "casey (2)", "casey (2)"),
                           (3, "Casey", "casey"), (4, "Élise", "élise")]
        with pytest.raises(sa.exc.IntegrityError):
            db.session.add(Player(group_id=1, name="CASEY"))
            db.session.commit()
        db.session.rollback()
    assert runner.invoke(args=["db", "downgrade", "0007"]).exit_code == 0


def test_0012_ends_the_sign_ins_named_by_id(app, runner):
    """Sign-ins made before 0012 are named by their id, which SQLite hands out
    again: they are deleted, and their phones sign in again."""
    with app.app_context():
        drop_everything()
    assert runner.invoke(args=["db", "upgrade", "0011"]).exit_code == 0
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO player_group (id, name, name_key, passphrase_hash, timezone, created_at,"
            " finished_sessions, autosave_rounds)"
            " VALUES (1, 'Friday', 'friday', 'x', 'UTC', '2026-01-01', 0, false)"))
        connection.execute(sa.text(
            "INSERT INTO sign_in (id, group_id, created_at) VALUES (1, 1, '2026-01-01')"))
        connection.execute(sa.text(
            "INSERT INTO passphrase_guess (key, at) VALUES ('group:friday', '2026-01-01')"))
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        assert db.session.scalar(sa.select(sa.func.count()).select_from(SignIn)) == 0
        assert db.session.scalar(sa.select(sa.func.count()).select_from(Attempt)) == 0
        assert db.session.get(Group, 1).name == "Friday"
    assert runner.invoke(args=["db", "downgrade", "0011"]).exit_code == 0
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0


def test_0019_to_0021_carry_payments_into_their_group_mark_sessions_settled_and_stamp(
        app, runner):
    """0019 gives the payments there are their group and currency (their
    session's); 0020 marks settled the sessions their own payments pay exactly."""
    with app.app_context():
        drop_everything()
    assert runner.invoke(args=["db", "upgrade", "0018"]).exit_code == 0
    with app.app_context(), db.engine.begin() as connection:
        connection.execute(sa.text(
            "INSERT INTO player_group (id, name, name_key, passphrase_hash, timezone, created_at)"
            " VALUES (1, 'One', 'one', 'x', 'UTC', '2026-01-01'),"
            " (2, 'Two', 'two', 'x', 'UTC', '2026-01-01')"))
        connection.execute(sa.text(
            "INSERT INTO player (id, group_id, name, name_key, created_at) VALUES"
            " (1, 1, 'Ann', 'ann', '2026-01-01'), (2, 1, 'Ben', 'ben', '2026-01-01')"))
        connection.execute(sa.text(
            "INSERT INTO game_session (id, group_id, version, started_at, ended_at, currency,"
            " house_rules, first_dealer_id) VALUES"
            " (1, 1, 1, '2026-01-01', '2026-01-02', 'RM', '{}', 1),"
            " (2, 1, 1, '2026-01-03', NULL, 'SGD', '{}', 1)"))
        connection.execute(sa.text(
            "INSERT INTO seat (session_id, player_id, position, active, net_cents) VALUES"
            " (1, 1, 0, TRUE, -500), (1, 2, 1, TRUE, 500), (2, 1, 0, TRUE, 300),"
            " (2, 2, 1, TRUE, -300)"))
        connection.execute(sa.text(
            "INSERT INTO payment (session_id, payer_id, payee_id, cents, paid_at) VALUES"
            " (1, 1, 2, 200, '2026-01-02'), (1, 1, 2, 300, '2026-01-02'),"
            " (2, 2, 1, 100, '2026-01-04')"))
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
    with app.app_context():
        rows = db.session.execute(sa.text(
            "SELECT session_id, group_id, currency FROM payment ORDER BY id")).all()
        assert [tuple(row) for row in rows] == [(1, 1, "RM"), (1, 1, "RM"), (2, 1, "SGD")]
        assert dict(db.session.execute(sa.select(GameSession.id, GameSession.settled)).all()) \
            == {1: True, 2: False}
        # 0021: each group a ledger stamp of its own.
        stamps = db.session.scalars(sa.select(Group.ledger_stamp)).all()
        assert len(set(stamps)) == 2 and all(len(stamp) == 32 for stamp in stamps)
    assert runner.invoke(args=["db", "downgrade", "0018"]).exit_code == 0
    assert runner.invoke(args=["db", "upgrade"]).exit_code == 0
