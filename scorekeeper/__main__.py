"""`python -m scorekeeper setup`: make instance/secret_key unless the
environment has SECRET_KEY (a key in instance/config.py outranks the file),
then bring the database schema up to date."""

import argparse
import os

from flask_migrate import upgrade

from .app import ROOT, create_app
from .config import create_secret_key


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m scorekeeper")
    parser.add_argument("command", choices=["setup"])
    parser.parse_args(argv)
    instance = ROOT / "instance"
    instance.mkdir(exist_ok=True)
    if not os.environ.get("SECRET_KEY"):
        create_secret_key(instance)
    app = create_app()
    with app.app_context():
        upgrade()
    print("The secret key is in place and the database schema is up to date.")


if __name__ == "__main__":
    main()
