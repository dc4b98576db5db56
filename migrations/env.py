"""Alembic environment for Flask-Migrate: the app's engine and metadata."""

import logging
from logging.config import fileConfig

from alembic import context
from flask import current_app

config = context.config
fileConfig(config.config_file_name, disable_existing_loggers=False)
logger = logging.getLogger("alembic.env")

target_db = current_app.extensions["migrate"].db
config.set_main_option(
    "sqlalchemy.url",
    target_db.engine.url.render_as_string(hide_password=False).replace("%", "%%"),
)


def run_migrations_offline():
    """Print the SQL instead of running it (`flask db upgrade --sql`)."""
    context.configure(
        url=config.get_main_option("sqlalchemy.url"),
        target_metadata=target_db.metadata,
        literal_binds=True,
        render_as_batch=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online():
    def process_revision_directives(context, revision, directives):
        # No empty revision when autogenerate finds nothing to change.
        if (getattr(config.cmd_opts, "autogenerate", False)
                and directives[0].upgrade_ops.is_empty()):
            directives[:] = []
            logger.info("No changes in schema detected.")

    conf_args = dict(current_app.extensions["migrate"].configure_args)
    conf_args.setdefault("process_revision_directives", process_revision_directives)
    # SQLite cannot ALTER most things, so revisions use batch operations; on
    # PostgreSQL those run as plain ALTERs, so one revision serves both.
    conf_args["render_as_batch"] = True

    with target_db.engine.connect() as connection:
        sqlite = connection.dialect.name == "sqlite"
        if sqlite:
            # A batch operation copies a table and drops the old one, which the
            # foreign keys of other tables would refuse. The pragma only takes
            # effect outside a transaction, so it is set before one begins.
            connection.exec_driver_sql("PRAGMA foreign_keys=OFF")
            connection.commit()
        context.configure(
            connection=connection, target_metadata=target_db.metadata, **conf_args
        )
        with context.begin_transaction():
            context.run_migrations()
        if sqlite:
            connection.exec_driver_sql("PRAGMA foreign_keys=ON")
            connection.commit()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
