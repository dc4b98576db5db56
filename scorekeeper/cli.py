"""Flask commands of our own (`flask db` comes with Flask-Migrate)."""

import click
from flask.cli import AppGroup

from . import services

group_commands = AppGroup("group", help="Manage groups from the server.")


@group_commands.command("set-passphrase")
@click.argument("name")
@click.option("--id", "group_id", type=int, help="Which group, when several share the name.")
@click.password_option("--passphrase", prompt="New passphrase")
def set_passphrase(name, group_id, passphrase):
    """Give group NAME a new passphrase (when the group forgot it): every phone
    is signed out and every share link revoked."""
    groups = services.groups_named(name)
    if group_id is not None:
        groups = [g for g in groups if g.id == group_id]
    if not groups:
        raise click.ClickException(f"No group is named {name!r}")
    if len(groups) > 1:
        ids = ", ".join(str(g.id) for g in groups)
        raise click.ClickException(f"{len(groups)} groups are named {name!r} (ids {ids}): "
                                   "say which with --id")
    try:
        services.set_passphrase(groups[0], passphrase)
    except services.ServiceError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{groups[0].name} (id {groups[0].id}) has a new passphrase.")
