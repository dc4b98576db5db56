"""Flask commands of our own (`flask db` comes with Flask-Migrate)."""

import click
from flask.cli import AppGroup

from . import services

group_commands = AppGroup("group", help="Manage groups from the server.")


@group_commands.command("set-passphrase")
@click.argument("name")
@click.password_option("--passphrase", prompt="New passphrase")
def set_passphrase(name, passphrase):
    """Give group NAME a new passphrase (when the group forgot it): every phone
    is signed out and every share link revoked."""
    group = services.find_group(name)
    if group is None:
        raise click.ClickException(f"No group is named {name!r}")
    try:
        services.set_passphrase(group, passphrase)
    except services.ServiceError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{group.name} has a new passphrase.")
