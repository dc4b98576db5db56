"""The application factory, as a checklist."""

import os
from pathlib import Path

from flask import Flask, render_template
from flask_wtf.csrf import CSRFError
from sqlalchemy import event

from . import config as defaults
from .extensions import csrf, db, migrate

# templates/, static/, migrations/ and instance/ live at the top of the repository.
ROOT = Path(__file__).resolve().parent.parent


def create_app(config=None):
    app = Flask(
        __name__,
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
    )
    load_config(app, config)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_commands(app)
    return app


def load_config(app, config):
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_object(defaults)
    app.config["SQLALCHEMY_DATABASE_URI"] = (
        f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite3'}"
    )
    app.config.from_pyfile("config.py", silent=True)
    app.config.update(defaults.from_env(os.environ))
    if config is not None:
        app.config.update(config)
    app.config["SQLALCHEMY_DATABASE_URI"] = defaults.normalise_database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = defaults.load_or_create_secret_key(app.instance_path)


def register_extensions(app):
    from . import models  # noqa: F401  (puts the tables on db.metadata)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "connect", _sqlite_pragmas)


def _sqlite_pragmas(dbapi_connection, connection_record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def register_blueprints(app):
    from .web import filters, history, home, rounds, sessions

    app.register_blueprint(home.bp)
    app.register_blueprint(sessions.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(history.bp)
    filters.register(app)


def register_errorhandlers(app):
    def render_error(error):
        return render_template(f"errors/{error.code}.html"), error.code

    def render_csrf_error(error):
        return render_template("errors/400.html", csrf_failed=True), 400

    for code in (400, 404, 500):
        app.register_error_handler(code, render_error)
    app.register_error_handler(CSRFError, render_csrf_error)


def register_commands(app):
    """No commands of our own yet; `flask db` comes with Flask-Migrate."""
