"""Extension objects: created here, bound to the app in create_app."""

from flask_compress import Compress
from flask_migrate import Migrate
from flask_sqlalchemy import SQLAlchemy
from flask_wtf import CSRFProtect
from sqlalchemy import MetaData
from sqlalchemy.orm import DeclarativeBase

from .catalogs import CatalogBabel


class Base(DeclarativeBase):
    # Named constraints, so migrations can alter them on SQLite and PostgreSQL alike.
    metadata = MetaData(naming_convention={
        "ix": "ix_%(column_0_label)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    })


db = SQLAlchemy(model_class=Base)
migrate = Migrate()
csrf = CSRFProtect()
# gzip, br or zstd, as the client accepts; adds Vary: Accept-Encoding.
compress = Compress()
# Flask-Babel, its translations read from the .po files (catalogs.py).
babel = CatalogBabel()
