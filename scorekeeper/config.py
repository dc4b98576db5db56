"""Default settings, and the helpers that fill in what the defaults cannot know.

The factory applies, each overriding the one before: these defaults,
instance/config.py, the environment (SECRET_KEY, DATABASE_URL, HTTPS, PROXY_FIX),
create_app(config). The secret key may also sit in instance/secret_key, which
`python -m scorekeeper setup` creates.
"""

import os
import secrets
from datetime import timedelta
from pathlib import Path

# hide_parameters: a failed statement's error names its SQL but not its values
# (a passphrase hash, a player's name), so they never reach the logs.
SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True, "hide_parameters": True}

# A phone stays signed in to its group: the session cookie is signed, HttpOnly,
# SameSite=Lax, and Secure when HTTPS is on.
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_HTTPONLY = True
PERMANENT_SESSION_LIFETIME = timedelta(days=400)  # the longest browsers keep a cookie
# The 400 days slide forward once a day (access.keep_signed_in), not with a
# newly signed cookie on every response.
SESSION_REFRESH_EACH_REQUEST = False
HTTPS = False

# Groups: anyone may create one unless NEW_GROUPS is False; SINGLE_GROUP names
# the one group this instance serves (created from the home page if missing).
NEW_GROUPS = True
SINGLE_GROUP = None

# Slow on purpose (about 27 ms), against guessing from a stolen database; see
# passphrases.py. Or one of werkzeug's methods, such as "scrypt".
PASSPHRASE_HASH_METHOD = "argon2id"

# Passphrases checked, counted in the database (throttle.py): per group name and
# per client address, or, for a phone with a device cookie for the group, per
# cookie (web/devices.py). The right ones are taken back.
SIGN_IN_LIMIT = "10 per 15 minutes"
# Groups created, and backups read for import (good or not), per client
# address and on the whole site, counted in the database likewise.
NEW_GROUP_LIMIT = "5 per hour"
NEW_GROUP_SITE_LIMIT = "100 per hour"
IMPORT_LIMIT = "5 per hour"
IMPORT_SITE_LIMIT = "20 per hour"

MAX_CONTENT_LENGTH = (8 * 1024 + 64) * 1024  # the largest upload: backup.MAX_BYTES and a form

# Live pages (web/live.py): how often each process reads the state of the
# sessions its open streams watch, and how long a stream stays open before the
# browser opens another.
LIVE_POLL_SECONDS = 0.5
LIVE_STREAM_SECONDS = 300
# How often a held stream looks whether its client closed it (a page left, a
# tab closed): until then it counts against the caps, and a graceful restart
# waits for it.
LIVE_LOOK_SECONDS = 5

# How many live streams may be open at once (web/stream_caps.py); a stream
# past a cap is answered once and the browser asks again (polling). Per
# sign-in (a phone's tabs, and the pages it left in the last 5 s, whose
# closed streams the server has yet to notice), per share link (the friends following it) and per
# client address (a whole table behind one home router, or a mobile
# carrier's shared address) they are counted in the database, across workers
# and app servers; each row lapses LIVE_STREAM_LEASE_SECONDS after its worker
# last renewed it, so a killed worker's streams stop counting by themselves.
# Per process, the ceiling keeps room for pages among the connections a
# worker takes (worker_connections in gunicorn.conf.py).
LIVE_STREAMS_PER_SIGN_IN = 20
LIVE_STREAMS_PER_LINK = 50
LIVE_STREAMS_PER_ADDRESS = 200
LIVE_STREAMS_PER_PROCESS = 1000
LIVE_STREAM_LEASE_SECONDS = 60

# A request's body must come at least this fast (bytes a second) after a grace
# of BODY_GRACE_SECONDS, or it is answered 408 and its connection closed
# (web/body_deadline.py): a sign-in form has 10 s, a backup of 1 MB 3½ minutes.
BODY_GRACE_SECONDS = 10
BODY_MIN_RATE = 5_000

# How many reverse proxies (nginx, caddy …) stand in front of the app: their
# X-Forwarded-For and X-Forwarded-Proto headers are then trusted. 0: none.
PROXY_FIX = 0


def from_env(environ):
    """The settings that the environment gives."""
    settings = {}
    if environ.get("SECRET_KEY"):
        settings["SECRET_KEY"] = environ["SECRET_KEY"]
    if environ.get("DATABASE_URL"):
        settings["SQLALCHEMY_DATABASE_URI"] = environ["DATABASE_URL"]
    if environ.get("HTTPS"):
        settings["HTTPS"] = environ["HTTPS"].lower() in ("1", "true", "yes", "on")
    if environ.get("PROXY_FIX"):
        settings["PROXY_FIX"] = int(environ["PROXY_FIX"])
    return settings


def normalise_database_url(url):
    """Point PostgreSQL URLs at psycopg 3, whichever scheme they were written with."""
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    return url


def read_secret_key(instance_path):
    """The key in instance/secret_key, or None if there is no such file."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        return None
    key = path.read_text().strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it and run `python -m scorekeeper setup`")
    return key


def create_secret_key(instance_path):
    """instance/secret_key, made with a random key unless it exists; the key."""
    path = Path(instance_path) / "secret_key"
    if not path.exists():
        tmp = path.with_name(f".secret_key.{os.getpid()}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
        try:
            os.link(tmp, path)  # atomic: when workers race, the first key wins
        except FileExistsError:
            pass
        finally:
            tmp.unlink()
    return read_secret_key(instance_path)
