"""Default settings, and the helpers that fill in what the defaults cannot know.

The factory applies, each overriding the one before: these defaults,
instance/config.py, the environment (SECRET_KEY, DATABASE_URL), create_app(config).
"""

import os
import secrets
from pathlib import Path

SQLALCHEMY_ENGINE_OPTIONS = {"pool_pre_ping": True}
SESSION_COOKIE_SAMESITE = "Lax"


def from_env(environ):
    """The settings that the environment gives."""
    settings = {}
    if environ.get("SECRET_KEY"):
        settings["SECRET_KEY"] = environ["SECRET_KEY"]
    if environ.get("DATABASE_URL"):
        settings["SQLALCHEMY_DATABASE_URI"] = environ["DATABASE_URL"]
    return settings


def normalise_database_url(url):
    """Point PostgreSQL URLs at psycopg 3, whichever scheme they were written with."""
    for scheme in ("postgres://", "postgresql://"):
        if url.startswith(scheme):
            return "postgresql+psycopg://" + url.removeprefix(scheme)
    return url


def load_or_create_secret_key(instance_path):
    """Read instance/secret_key, creating it with a random key on first run."""
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
    key = path.read_text().strip()
    if not key:
        raise RuntimeError(f"{path} is empty: delete it to have a new key made")
    return key
