"""Use cases: each loads rows, calls the rules engine, writes rows and commits.

This is the only module that commits. A round and everything it changes (the
money, dealers and playing orders of the rounds after it) are written in one
transaction or not at all.
"""

from __future__ import annotations

import dataclasses
import hashlib
import random
from dataclasses import dataclass

import sqlalchemy as sa
from werkzeug.security import check_password_hash, generate_password_hash

from .extensions import db
from .models import (
    GROUP_NAME_MAX,
    NAME_MAX,
    GameSession,
    Group,
    Payment,
    Player,
    Round,
    RoundEntry,
    Seat,
    utcnow,
)
from .rules import (
    Entry,
    HouseRules,
    Problem,
    RoundScore,
    Transfer,
    format_cards,
    next_dealer,
    parse_cards,
    playing_order,
    score_round,
    settle,
)

MIN_PLAYERS = 2
MAX_PLAYERS = 6
PASSPHRASE_MIN = 8
# Checked when a group name is unknown, so a wrong name takes as long as a wrong passphrase.
_NO_GROUP_HASH = generate_password_hash("no group has this passphrase")


class ServiceError(ValueError):
    """A request that the current state does not allow; the message says why."""


class NeedsConfirmation(Exception):
    """The round has warnings the table has not yet confirmed."""

    def __init__(self, warnings: list[Problem]) -> None:
        super().__init__("; ".join(w.message for w in warnings))
        self.warnings = warnings
        self.digest = warnings_digest(warnings)


def warnings_digest(warnings: list[Problem]) -> str:
    """A short fingerprint of warnings, so a confirmation covers exactly those."""
    text = "\n".join(sorted(f"{w.code}:{w.message}" for w in warnings))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def clean_name(name: str) -> str:
    return " ".join(name.split())


# Groups


def create_group(name: str, passphrase: str) -> Group:
    name = clean_name(name)
    if not 1 <= len(name) <= GROUP_NAME_MAX:
        raise ServiceError(f"A group name needs 1 to {GROUP_NAME_MAX} characters")
    _check_passphrase_strength(passphrase)
    if db.session.scalar(sa.select(Group.id).where(Group.name_key == name.casefold())):
        raise ServiceError("That name is taken: choose another")
    group = Group(name=name, name_key=name.casefold(),
                  passphrase_hash=generate_password_hash(passphrase))
    db.session.add(group)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise ServiceError("That name is taken: choose another") from None
    return group


def _check_passphrase_strength(passphrase: str) -> None:
    if len(passphrase) < PASSPHRASE_MIN:
        raise ServiceError(f"A passphrase needs at least {PASSPHRASE_MIN} characters")


def find_group(name: str) -> Group | None:
    return db.session.scalar(sa.select(Group).where(Group.name_key == clean_name(name).casefold()))


def group_for_sign_in(name: str, passphrase: str) -> Group | None:
    """The group if the passphrase is its own; None whether the name or the
    passphrase is wrong, so nobody learns which names exist."""
    group = find_group(name)
    if group is None:
        check_password_hash(_NO_GROUP_HASH, passphrase)
        return None
    return group if check_password_hash(group.passphrase_hash, passphrase) else None


def change_passphrase(group: Group, current: str, new: str) -> None:
    """A new passphrase signs out every other phone and revokes every share link."""
    if not check_password_hash(group.passphrase_hash, current):
        raise ServiceError("The current passphrase is not right")
    _check_passphrase_strength(new)
    set_passphrase(group, new)


def set_passphrase(group: Group, passphrase: str) -> None:
    _check_passphrase_strength(passphrase)
    group.passphrase_hash = generate_password_hash(passphrase)
    db.session.commit()


# Players and sessions


def find_or_create_players(group: Group, names: list[str]) -> list[Player]:
    """The group's players by name, reusing anyone seen before whatever the letter case."""
    names = [clean_name(n) for n in names]
    for name in names:
        if not 1 <= len(name) <= NAME_MAX:
            raise ServiceError(f"A name needs 1 to {NAME_MAX} characters: {name!r}")
    lowered = [n.casefold() for n in names]
    if len(set(lowered)) != len(lowered):
        raise ServiceError("Each player needs a different name")
    known = db.session.scalars(
        sa.select(Player).where(Player.group_id == group.id,
                                sa.func.lower(Player.name).in_([n.lower() for n in names]))
    ).all()
    by_name = {p.name.casefold(): p for p in known}
    players = []
    for name in names:
        player = by_name.get(name.casefold())
        if player is None:
            player = Player(group_id=group.id, name=name)
            db.session.add(player)
        players.append(player)
    return players


def _check_table(rules: HouseRules, n_players: int) -> None:
    if not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ServiceError(f"A table has {MIN_PLAYERS} to {MAX_PLAYERS} players")
    deck = rules.packs_for(n_players) * 52 + rules.jokers
    needed = rules.cards_dealt(n_players) * n_players
    if needed > deck:
        raise ServiceError(
            f"{n_players} players need {needed} cards, but the deck has only {deck}: "
            "add a pack or deal fewer cards")


def start_session(group: Group, names: list[str], rules: HouseRules,
                  first_dealer: str | None = None, currency: str = "RM",
                  rng: random.Random | None = None) -> GameSession:
    """A new session with players seated clockwise in the order given.

    ``first_dealer`` is one of the names, or None to draw one at random.
    """
    _check_table(rules, len(names))
    players = find_or_create_players(group, names)
    if first_dealer is None:
        dealer = (rng or random).choice(players)
    else:
        wanted = clean_name(first_dealer).casefold()
        dealer = next((p for p in players if p.name.casefold() == wanted), None)
        if dealer is None:
            raise ServiceError(f"The first dealer {first_dealer!r} is not at the table")
    session = GameSession(
        group=group,
        currency=currency.strip() or "RM",
        house_rules=_rules_to_json(rules),
        first_dealer=dealer,
        seats=[Seat(player=p, position=i) for i, p in enumerate(players)],
    )
    db.session.add(session)
    db.session.commit()
    return session


def _rules_to_json(rules: HouseRules) -> dict:
    return dataclasses.asdict(rules)


def active_players(session: GameSession) -> list[Player]:
    """Who sits at the table now, clockwise."""
    return [seat.player for seat in session.seats if seat.active]


def _renumber_seats(seats: list[Seat]) -> None:
    for position, seat in enumerate(seats):
        seat.position = position


def join_session(session: GameSession, name: str, position: int) -> Player:
    """Seat a player (new, known, or back after leaving) before the ``position``-th
    player clockwise; ``position`` equal to the number seated puts them last."""
    _check_open(session)
    everyone = list(session.seats)  # clockwise; those who left keep their place
    seated = [seat for seat in everyone if seat.active]
    wanted = clean_name(name).casefold()
    here = next((seat.player for seat in seated if seat.player.name.casefold() == wanted), None)
    if here is not None:
        raise ServiceError(f"{here.name} is already at the table")
    _check_table(session.rules, len(seated) + 1)
    (player,) = find_or_create_players(session.group, [name])  # nothing is added before the checks pass
    seat = next((s for s in everyone if s.player is player), None)
    if seat is None:
        seat = Seat(player=player, position=len(everyone))
        session.seats.append(seat)
    else:
        everyone.remove(seat)
    seat.active = True
    position = max(0, min(position, len(seated)))
    if position < len(seated):
        everyone.insert(everyone.index(seated[position]), seat)
    else:
        everyone.insert(everyone.index(seated[-1]) + 1, seat)
    _renumber_seats(everyone)
    db.session.commit()
    return player


def leave_session(session: GameSession, player_id: int) -> None:
    """The player's seat stays in its place, inactive, so that a deal they would
    have had passes on from where they sat."""
    _check_open(session)
    seats = [seat for seat in session.seats if seat.active]
    seat = next((s for s in seats if s.player_id == player_id), None)
    if seat is None:
        raise ServiceError("That player is not at the table")
    if len(seats) <= MIN_PLAYERS:
        raise ServiceError(f"A table needs at least {MIN_PLAYERS} players")
    seat.active = False
    db.session.commit()


def _check_open(session: GameSession) -> None:
    if session.is_finished:
        raise ServiceError("This session has ended")


# Rounds


@dataclass(frozen=True)
class Upcoming:
    """Who deals the next round and the order of play."""

    number: int
    dealer: Player
    order: list[Player]


def _round_score(round_: Round, rules: HouseRules) -> RoundScore:
    entries = sorted(round_.entries, key=lambda e: e.turn)
    return score_round(
        [e.player.name for e in entries],
        {e.player.name: Entry(e.outcome, e.cards) for e in entries},
        rules)


def _pass_deal(session: GameSession, player: Player) -> Player:
    """``player`` if seated, else the next seated player in the dealing direction."""
    seats = session.seats  # all rows, clockwise; a player who left keeps a position
    start = next(i for i, seat in enumerate(seats) if seat.player is player)
    step = 1 if session.rules.direction == "clockwise" else -1
    for k in range(len(seats)):
        seat = seats[(start + step * k) % len(seats)]
        if seat.active:
            return seat.player
    raise ServiceError("Nobody is seated")


def upcoming(session: GameSession) -> Upcoming:
    rules = session.rules
    seated = active_players(session)
    if not session.rounds:
        dealer = _pass_deal(session, session.first_dealer)
    else:
        last = session.rounds[-1]
        by_name = {p.name: p for p in seated}
        name = next_dealer([p.name for p in seated], last.dealer.name,
                           _round_score(last, rules), rules)
        dealer = by_name[name]
    order = playing_order(seated, dealer, rules)
    return Upcoming(len(session.rounds) + 1, dealer, order)


def _write_score(round_: Round, seats: list[Player], order: list[Player],
                 entries: dict[str, Entry], score: RoundScore) -> None:
    existing = {e.player_id: e for e in round_.entries}
    for turn, player in enumerate(order):
        entry = existing.get(player.id)
        if entry is None:
            entry = RoundEntry(player=player)
            round_.entries.append(entry)
        name = player.name
        given = entries.get(name)
        if given is not None:
            entry.outcome = given.outcome
            entry.cards = format_cards(_cards_of(given))
        parts = score.breakdown[name]
        entry.seat = seats.index(player)
        entry.turn = turn
        entry.points = score.points[name]
        entry.position = score.position[name]
        entry.tier_cents = parts.tier
        entry.hu_cents = parts.hu
        entry.joker_ace_cents = parts.joker_ace
        entry.net_cents = parts.total


def _cards_of(entry: Entry):
    if isinstance(entry.cards, str):
        return parse_cards(entry.cards)
    return [c if not isinstance(c, str) else parse_cards(c)[0] for c in entry.cards]


def _score(order: list[Player], entries: dict[str, Entry], rules: HouseRules,
           confirmed: str | None) -> RoundScore:
    """Score a round, raising RoundError, or NeedsConfirmation for unconfirmed warnings."""
    score = score_round([p.name for p in order], entries, rules)
    if score.warnings and confirmed != warnings_digest(score.warnings):
        raise NeedsConfirmation(score.warnings)
    return score


def record_round(session: GameSession, entries: dict[str, Entry],
                 confirmed: str | None = None) -> Round:
    """Save the next round. ``entries`` are by player name; ``confirmed`` is the
    digest of the warnings the table has accepted."""
    _check_open(session)
    coming = upcoming(session)
    score = _score(coming.order, entries, session.rules, confirmed)
    round_ = Round(number=coming.number, dealer=coming.dealer)
    session.rounds.append(round_)
    _write_score(round_, active_players(session), coming.order, entries, score)
    try:
        db.session.commit()
    except sa.exc.IntegrityError:
        db.session.rollback()
        raise ServiceError(
            f"Round {coming.number} was saved from another phone just now: "
            "check the scoreboard before saving again") from None
    return round_


def _round_seats(round_: Round) -> list[Player]:
    return [e.player for e in sorted(round_.entries, key=lambda e: e.seat)]


def edit_round(round_: Round, entries: dict[str, Entry], confirmed: str | None = None) -> Round:
    """Change what was entered for a round; later rounds are scored again."""
    session = round_.session
    _check_open(session)
    order = [e.player for e in sorted(round_.entries, key=lambda e: e.turn)]
    score = _score(order, entries, session.rules, confirmed)
    _write_score(round_, _round_seats(round_), order, entries, score)
    _rescore_after(session, round_.number)
    db.session.commit()
    return round_


def delete_round(round_: Round) -> None:
    session = round_.session
    _check_open(session)
    number = round_.number
    session.rounds.remove(round_)
    db.session.flush()
    for later in session.rounds:
        if later.number > number:
            later.number -= 1
            db.session.flush()  # one at a time keeps (session, number) unique
    _rescore_after(session, number - 1)
    db.session.commit()


def _rescore_after(session: GameSession, number: int) -> None:
    """Dealers, playing orders and money of the rounds after round ``number``."""
    rules = session.rules
    rounds = session.rounds
    if number >= len(rounds):
        return
    previous = rounds[number - 1] if number >= 1 else None
    score = _round_score(previous, rules) if previous else None
    for round_ in rounds[number:]:
        seats = _round_seats(round_)
        if previous is not None:
            by_name = {p.name: p for p in seats}
            round_.dealer = by_name[next_dealer(
                [p.name for p in seats], previous.dealer.name, score, rules)]
        order = playing_order(seats, round_.dealer, rules)
        for entry in round_.entries:
            entry.turn = order.index(entry.player)
        score = _round_score(round_, rules)
        _write_score(round_, seats, order, {}, score)
        previous = round_


# Money


def balances(session: GameSession) -> dict[int, int]:
    """Each player's money over the session, in cents, by player id."""
    rows = db.session.execute(
        sa.select(RoundEntry.player_id, sa.func.sum(RoundEntry.net_cents))
        .join(Round)
        .where(Round.session_id == session.id)
        .group_by(RoundEntry.player_id)
    ).all()
    totals = {seat.player_id: 0 for seat in session.seats}
    totals.update({player_id: int(total) for player_id, total in rows})
    return totals


@dataclass(frozen=True)
class Settlement:
    transfer: Transfer  # payer and payee are Players
    paid: bool


def settlement(session: GameSession) -> list[Settlement]:
    """The fewest transfers that settle the session, each marked if paid."""
    players = {seat.player_id: seat.player for seat in session.seats}
    by_name = {p.name: p for p in players.values()}
    transfers = settle({players[pid].name: cents for pid, cents in balances(session).items()})
    paid = {(p.payer_id, p.payee_id, p.cents) for p in session.payments}
    result = []
    for t in transfers:
        payer, payee = by_name[t.payer], by_name[t.payee]
        result.append(Settlement(Transfer(payer, payee, t.cents),
                                 (payer.id, payee.id, t.cents) in paid))
    return result


def set_paid(session: GameSession, payer_id: int, payee_id: int, cents: int,
             paid: bool) -> None:
    """Mark one of the session's transfers as paid, or not paid."""
    due = {(s.transfer.payer.id, s.transfer.payee.id, s.transfer.cents)
           for s in settlement(session)}
    key = (payer_id, payee_id, cents)
    if key not in due:
        raise ServiceError("That transfer is not part of the settlement any more")
    for payment in list(session.payments):
        if (payment.payer_id, payment.payee_id, payment.cents) == key:
            session.payments.remove(payment)
    if paid:
        session.payments.append(Payment(payer_id=payer_id, payee_id=payee_id, cents=cents))
    db.session.commit()


def end_session(session: GameSession) -> None:
    _check_open(session)
    session.ended_at = utcnow()
    db.session.commit()


def reopen_session(session: GameSession) -> None:
    """Open an ended session again, so a round can be corrected."""
    if not session.is_finished:
        raise ServiceError("This session is still open")
    session.ended_at = None
    db.session.commit()
