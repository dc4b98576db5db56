"""The application factory, as a checklist."""

import os
import secrets
from pathlib import Path

from flask import (
    Flask,
    abort,
    current_app,
    g,
    make_response,
    render_template,
    request,
    session,
)
from flask_wtf.csrf import CSRFError
from sqlalchemy import event
from sqlalchemy import exc as sa_exc
from werkzeug.exceptions import HTTPException
from werkzeug.middleware.proxy_fix import ProxyFix
from werkzeug.routing import IntegerConverter, MapAdapter

from . import config as defaults
from . import logs
from .extensions import compress, csrf, db, migrate
from .limits import ID_MAX
from .services.throttle import Limit, TooManyGuesses
from .web import locales, modules, script_strings, static_files
from .web.body_deadline import BodyDeadline
from .web.sent_json import JSONRequest, StrictJSONProvider, refuse_json_elsewhere

# templates/, static/, migrations/ and instance/ live at the top of the repository.
ROOT = Path(__file__).resolve().parent.parent


class MissingSecretKey(RuntimeError):
    pass


class NotInCheckout(RuntimeError):
    pass


class WeakSecretKey(MissingSecretKey):
    pass


# Characters a secret key needs at the least (spaces around it not counted):
# `python -m scorekeeper setup` makes 64 hex digits.
SECRET_KEY_MIN_LENGTH = 32


class RefusingAdapter(MapAdapter):
    """A request's URL adapter that builds links but matches no route: the
    request is answered with ``refusal``."""

    def __init__(self, refusal, *args):
        super().__init__(*args)
        self.refusal = refusal

    def match(self, *args, **kwargs):
        raise self.refusal


class Scorekeeper(Flask):
    json_provider_class = StrictJSONProvider  # JSON sent that no database stores: a 400
    request_class = JSONRequest

    def create_url_adapter(self, request):
        """A Host header that is no host name (a label over 63 characters, an
        empty one) is refused by werkzeug with a 400 before routing; Flask then
        has no adapter, and the 400 page, which builds links, became a 500. The
        refusal stands, and the error page gets an adapter to build its
        (relative) links with."""
        try:
            return super().create_url_adapter(request)
        except HTTPException as refusal:
            if request is None:
                raise
            return RefusingAdapter(
                refusal, self.url_map, "invalid", request.root_path or "/",
                self.url_map.default_subdomain or "", request.scheme, request.path,
                request.method)


def create_app(config=None, instance_path=None):
    if not all((ROOT / folder).is_dir() for folder in ("templates", "static", "migrations")):
        raise NotInCheckout(
            f"templates/, static/ and migrations/ are not beside the package in {ROOT}: "
            "install the app from its checkout with `pip install -e .` (README, Production)")
    app = Scorekeeper(
        __name__,
        instance_path=str(instance_path or ROOT / "instance"),
        instance_relative_config=True,
        template_folder=str(ROOT / "templates"),
        static_folder=None,  # served by static_files, under fingerprinted names
    )
    load_config(app, config)
    register_extensions(app)
    register_blueprints(app)
    register_errorhandlers(app)
    register_security_headers(app)
    register_private_caching(app)
    register_input_checks(app)
    register_read_only_requests(app)
    logs.init_app(app)
    register_commands(app)
    register_proxies(app)
    register_body_deadline(app)
    return app


# Settings read by the extensions, which are not in app.config until they start.
EXTENSION_PREFIXES = ("SQLALCHEMY_", "WTF_", "COMPRESS_")


def _warn_of_unknown_settings(app, names) -> None:
    """A misspelt setting in instance/config.py (NEW_GROUP for NEW_GROUPS) would
    otherwise be ignored without a word."""
    for name in sorted(names):
        if name.isupper() and not name.startswith(EXTENSION_PREFIXES):
            app.logger.warning("instance/config.py: %s is no setting of this app or of "
                               "Flask; it is ignored", name)


def load_config(app, config):
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_object(defaults)
    app.config["SQLALCHEMY_DATABASE_URI"] = (
        f"sqlite:///{Path(app.instance_path) / 'scorekeeper.sqlite3'}"
    )
    known = set(app.config)
    app.config.from_pyfile("config.py", silent=True)
    _warn_of_unknown_settings(app, set(app.config) - known)
    app.config.update(defaults.from_env(os.environ))
    if config is not None:
        app.config.update(config)
    app.config["SQLALCHEMY_DATABASE_URI"] = defaults.normalise_database_url(
        app.config["SQLALCHEMY_DATABASE_URI"]
    )
    # Engine options given elsewhere add to ours (hide_parameters stays on
    # unless turned off by name).
    app.config["SQLALCHEMY_ENGINE_OPTIONS"] = {
        **defaults.SQLALCHEMY_ENGINE_OPTIONS, **app.config["SQLALCHEMY_ENGINE_OPTIONS"]}
    if not app.config.get("SECRET_KEY"):
        app.config["SECRET_KEY"] = defaults.read_secret_key(app.instance_path)
    if not app.config["SECRET_KEY"]:
        if not app.testing:
            raise MissingSecretKey(
                "No secret key: set SECRET_KEY in the environment or instance/config.py, "
                "or run `python -m scorekeeper setup` to create instance/secret_key")
        app.config["SECRET_KEY"] = secrets.token_hex(32)
    _check_secret_key(app.config["SECRET_KEY"])
    for setting in LIMIT_SETTINGS:  # a limit written wrong stops the start, not a sign-in
        Limit.parse(app.config[setting], setting)
    if app.config["HTTPS"]:
        app.config["SESSION_COOKIE_SECURE"] = True
        app.config["PREFERRED_URL_SCHEME"] = "https"


LIMIT_SETTINGS = ("SIGN_IN_LIMIT", "NEW_GROUP_LIMIT", "NEW_GROUP_SITE_LIMIT", "IMPORT_LIMIT",
                  "IMPORT_SITE_LIMIT")


def _check_secret_key(key) -> None:
    """A key anyone could guess ("k", "secret", spaces) would let them sign
    a cookie for any group: refused at start, wherever it came from."""
    length = len(key.strip()) if isinstance(key, str | bytes) else 0
    if length < SECRET_KEY_MIN_LENGTH:
        raise WeakSecretKey(
            f"The secret key (SECRET_KEY in the environment or instance/config.py, or "
            f"instance/secret_key) is too short: {length} characters, where it needs at "
            f"least {SECRET_KEY_MIN_LENGTH}, random. Make one with `python3 -c 'import "
            f"secrets; print(secrets.token_hex(32))'`, or remove it and run `python -m "
            f"scorekeeper setup` to create instance/secret_key")


def register_extensions(app):
    from . import models  # noqa: F401  (puts the tables on db.metadata)

    db.init_app(app)
    migrate.init_app(app, db, directory=str(ROOT / "migrations"))
    csrf.init_app(app)
    compress.init_app(app)
    locales.init_app(app)  # Flask-Babel, the catalogs, the phone's language
    with app.app_context():
        for engine in db.engines.values():
            if engine.dialect.name == "sqlite":
                event.listen(engine, "do_connect", _private_sqlite_file(engine.url.database))
                event.listen(engine, "connect", _sqlite_pragmas)


def _private_sqlite_file(path):
    """Before SQLite connects, make its file if there is none, readable by this
    user only (0600, like instance/secret_key); SQLite gives the -wal and -shm
    files the mode of the database file. Made by SQLite itself, it would be
    world-readable (0644 under the usual umask)."""
    def create(dialect, connection_record, cargs, cparams):
        if not path or path == ":memory:" or path.startswith("file:"):
            return
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600))
        except OSError:
            pass  # there already; or no folder for it, which SQLite then reports
    return create


# How long a write waits for another's lock before "database is locked": the
# longest write, a backup's import, holds it under a second (bench/README.md).
SQLITE_BUSY_TIMEOUT_MS = 10_000


def _sqlite_pragmas(dbapi_connection, connection_record):
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.close()


class DatabaseId(IntegerConverter):
    """``<int:…>`` in our URLs: a number too large for a database integer
    column matches no page (a 404) instead of reaching the database."""

    def __init__(self, url_map, *args, **kwargs):
        kwargs.setdefault("max", ID_MAX)
        super().__init__(url_map, *args, **kwargs)


def register_blueprints(app):
    app.url_map.converters["int"] = DatabaseId
    from .web import (
        access,
        backup,
        changes,
        drafts,
        filters,
        groups,
        health,
        history,
        home,
        how_we_play,
        invites,
        language,
        live,
        money,
        offline,
        payto,
        records,
        rounds,
        sessions,
        share,
        theme,
        what_if,
    )

    static_files.init_app(app, ROOT / "static")
    modules.init_app(app)
    script_strings.init_app(app)
    app.register_blueprint(health.bp)
    app.register_blueprint(language.bp)
    app.register_blueprint(theme.bp)
    app.register_blueprint(home.bp)
    app.register_blueprint(groups.bp)
    app.register_blueprint(invites.bp)
    app.register_blueprint(changes.bp)
    app.register_blueprint(share.bp)
    app.register_blueprint(backup.bp)
    app.register_blueprint(sessions.bp)
    app.register_blueprint(rounds.bp)
    app.register_blueprint(drafts.bp)
    app.register_blueprint(history.bp)
    app.register_blueprint(what_if.bp)
    app.register_blueprint(how_we_play.bp)
    app.register_blueprint(records.bp)
    app.register_blueprint(money.bp)
    app.register_blueprint(payto.bp)
    app.register_blueprint(offline.bp)
    live.init_app(app)
    filters.register(app)

    @app.context_processor
    def group_shown():
        """What base.html shows of the signed-in group; on a page about a
        failed database, nothing, and the database is not asked again. An
        error page (a 404, a 400) that finds the database unreachable here
        keeps its own status."""
        if not g.get("database_failed"):
            try:
                return {"database_failed": False, **access.template_context()}
            except DATABASE_UNAVAILABLE as error:
                database_unavailable(error)
        return {"database_failed": True, "signed_in_group": None}


# The database is down, restarting, locked or out of connections: worth trying
# again shortly. (psycopg's failures to connect are OperationalErrors.)
DATABASE_UNAVAILABLE = (sa_exc.OperationalError, sa_exc.InterfaceError, sa_exc.TimeoutError)
RETRY_AFTER_SECONDS = 30


def database_unavailable(error) -> None:
    """Log why, in one line (the driver's first line: no SQL, no values, no
    traceback), and ask the database nothing more in this request."""
    g.database_failed = True
    cause = getattr(error, "orig", None) or error
    reason = (str(cause).strip().splitlines() or [""])[0]
    current_app.logger.error("The database is unavailable: %s: %s", type(cause).__name__,
                             reason, extra={"fields": {"error": type(error).__name__}})


def register_errorhandlers(app):
    def render_error(error):
        return render_template(f"errors/{error.code}.html"), error.code

    def render_csrf_error(error):
        return render_template("errors/400.html", csrf_failed=True), 400

    def render_unavailable(error):
        database_unavailable(error)
        response = make_response(render_template("errors/503.html"), 503)
        response.headers["Retry-After"] = str(RETRY_AFTER_SECONDS)
        response.cache_control.no_store = True
        return response

    def render_server_error(error):
        original = getattr(error, "original_exception", None)
        if isinstance(original, DATABASE_UNAVAILABLE):
            return render_unavailable(original)
        if isinstance(original, sa_exc.SQLAlchemyError):
            g.database_failed = True  # its session may be unusable: the page asks nothing
        return render_template("errors/500.html"), 500

    def render_too_many_guesses(error: TooManyGuesses):
        """Past the sign-in limit, whichever page checked the passphrase."""
        minutes = -(-error.retry_after // 60)
        response = make_response(render_template("errors/429.html", minutes=minutes), 429)
        response.headers["Retry-After"] = str(error.retry_after)
        return response

    for code in (400, 404, 413, 429):
        app.register_error_handler(code, render_error)
    app.register_error_handler(TooManyGuesses, render_too_many_guesses)
    app.register_error_handler(500, render_server_error)
    app.register_error_handler(CSRFError, render_csrf_error)
    for error in DATABASE_UNAVAILABLE:
        app.register_error_handler(error, render_unavailable)


# Our own files only: no inline script or style, no other host, no framing.
# A page's import map, the one inline script, is allowed by its hash (web/modules.py).
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
])


def register_security_headers(app):
    @app.after_request
    def add_security_headers(response):
        policy = CONTENT_SECURITY_POLICY
        if hashes := g.get("script_hashes"):
            policy += "; script-src 'self' " + " ".join(f"'{each}'" for each in sorted(hashes))
        response.headers["Content-Security-Policy"] = policy
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "same-origin"
        response.headers["X-Frame-Options"] = "DENY"
        return response


def register_private_caching(app):
    from .web.share_links import PUBLIC as SHARED_PAGES

    @app.after_request
    def keep_private_pages_private(response):
        """A response for a signed-in phone, for a share link, or holding a
        CSRF token (sign-in and every form) is for whoever holds that phone:
        no shared cache keeps it, nor the browser (whose back button would
        show a group's pages again after sign-out). Static files keep their
        own caching."""
        if request.endpoint == "static":
            return response
        if (session.get("group_id") is not None or request.endpoint in SHARED_PAGES
                or app.config["WTF_CSRF_FIELD_NAME"] in g):
            response.cache_control.no_store = True
            response.cache_control.private = True
        return response


def register_input_checks(app):
    @app.before_request
    def refuse_nul_characters():
        """No keyboard types a NUL, and PostgreSQL can't store one: a request
        carrying one in a field or the query string is refused as a whole."""
        for values in (request.args, request.form):
            if any("\x00" in value for _, value in values.items(multi=True)):
                abort(400)

    app.before_request(refuse_json_elsewhere)


# Endpoints that need no connection, or (healthz) answer for an unreachable
# database. A URL that matches no endpoint (a 404) needs none either.
WITHOUT_DATABASE = frozenset({"static", "health.healthz", None,
                              "offline.manifest", "offline.worker", "offline.page"})


def register_read_only_requests(app):
    """On PostgreSQL, a GET or HEAD reads in autocommit: no BEGIN before its
    statements and no ROLLBACK after, two round trips fewer a page. Reads lose
    nothing: at READ COMMITTED each statement sees its own snapshot either way,
    and only POSTs write. (SQLite's driver begins transactions only to write.)"""
    with app.app_context():
        if db.engine.dialect.name != "postgresql":
            return

    # The app's URL processors run first of all, before the blueprints' load anything.
    @app.url_value_preprocessor
    def read_in_autocommit(endpoint, values):
        if (request.method in ("GET", "HEAD") and endpoint not in WITHOUT_DATABASE
                and not db.session().in_transaction()):
            db.session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
            g.read_in_autocommit = True

    @app.teardown_request
    def end_autocommit(error):
        # The connection goes back to the pool, reset; an app context that
        # outlives the request (as in tests) gets its next one afresh.
        if g.pop("read_in_autocommit", False):
            db.session.rollback()


def register_commands(app):
    from . import cli

    app.cli.add_command(cli.group_commands)
    app.cli.add_command(cli.seed_demo)


def register_proxies(app):
    """Behind PROXY_FIX reverse proxies, take the client's address and scheme
    (http or https) from their X-Forwarded-For and X-Forwarded-Proto headers."""
    if app.config["PROXY_FIX"]:
        hops = app.config["PROXY_FIX"]
        app.wsgi_app = ProxyFix(app.wsgi_app, x_for=hops, x_proto=hops)


def register_body_deadline(app):
    """Outermost: a request's body is read, at a pace, before anything else
    runs (web/body_deadline.py)."""
    app.wsgi_app = BodyDeadline(
        app.wsgi_app, grace=app.config["BODY_GRACE_SECONDS"], rate=app.config["BODY_MIN_RATE"],
        max_bytes=app.config["MAX_CONTENT_LENGTH"])
