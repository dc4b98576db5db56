"""Flask commands of our own (`flask db` comes with Flask-Migrate)."""

import random
import time

import click
from flask.cli import AppGroup, with_appcontext

from . import demo, services
from .models import utcnow

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
        services.set_passphrase(services.Change(group), passphrase)  # from the server
    except services.ServiceError as error:
        raise click.ClickException(str(error)) from None
    click.echo(f"{group.name} (id {group.id}) has a new passphrase.")


@click.command("seed-demo")
@click.option("--groups", default=1, show_default=True, type=click.IntRange(1),
              help="How many groups to add.")
@click.option("--sessions", default=20, show_default=True, type=click.IntRange(1),
              help="Sessions per group; the last one stays open.")
@click.option("--rounds", default=20, show_default=True, type=click.IntRange(1),
              help="About how many rounds a session has.")
@click.option("--seed", type=int, help="Makes the same data again; random if not given.")
@click.option("--passphrase", default=demo.DEMO_PASSPHRASE, show_default=True,
              help="The passphrase of every group added.")
@with_appcontext
def seed_demo(groups, sessions, rounds, seed, passphrase):
    """Add groups named "Demo table N" with random play: valid deals scored by
    the rules engine, players leaving and joining, Hu and Tien Hu, transfers
    paid, both presets."""
    if seed is None:
        seed = random.randrange(10 ** 6)
    rng = random.Random(seed)
    now = utcnow()
    started = time.perf_counter()
    for _ in range(groups):
        plan = demo.play_group(rng, sessions, rounds, now)
        try:
            group, written, played = services.seed_demo_group(
                services.next_demo_group_name(), passphrase, plan)
        except services.ServiceError as error:
            raise click.ClickException(str(error)) from None
        click.echo(f"{group.name} (id {group.id}): {len(plan.players)} players, "
                   f"{written} sessions, {played} rounds")
    services.analyze_tables()
    click.echo(f"Done in {time.perf_counter() - started:.1f} s with --seed {seed}.")
    click.echo(f"Passphrase of every demo table: {passphrase}")
