"""The migrations build exactly the schema the models describe, on either database."""

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext

from scorekeeper.extensions import db
from tests.conftest import drop_everything


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
